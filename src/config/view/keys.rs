//! Config key names, for the code that walks the raw config on purpose: validation refinements
//! and the release's load-time migrations and legacy detectors read any shape (a list where an
//! object belongs, a number where a string does) exactly as the release's JavaScript does, so
//! they walk `serde_json::Value` / the loader's tree rather than a typed view. They name keys from
//! here, so every key is spelled once; typed reads go through the other views.

// Agents and their roster.
pub const AGENTS: &str = "agents";
pub const ENTRIES: &str = "entries";
pub const LIST: &str = "list";
pub const ID: &str = "id";
pub const DEFAULT: &str = "default";
pub const DEFAULTS: &str = "defaults";
pub const OWNERSHIP: &str = "ownership";
pub const WORKSPACE: &str = "workspace";
pub const HEARTBEAT: &str = "heartbeat";
pub const SYSTEM_AGENT: &str = "systemAgent";
pub const AUTH_INHERITANCE: &str = "authInheritance";
pub const SESSION_STORE: &str = "sessionStore";
pub const AGENT_ID: &str = "agentId";
pub const SUBAGENTS: &str = "subagents";
pub const ALLOW_AGENTS: &str = "allowAgents";
pub const AGENT_DIR: &str = "agentDir";
pub const AVATAR: &str = "avatar";
pub const MODEL_POLICY: &str = "modelPolicy";
pub const ALIAS: &str = "alias";
pub const SKILLS: &str = "skills";

// Tool policy.
pub const TOOLS: &str = "tools";
pub const ALLOW: &str = "allow";
pub const ALSO_ALLOW: &str = "alsoAllow";
pub const DENY: &str = "deny";
pub const TOOLS_ALLOW: &str = "toolsAllow";
pub const BY_PROVIDER: &str = "byProvider";
pub const TOOLS_BY_SENDER: &str = "toolsBySender";
pub const LOOP_DETECTION: &str = "loopDetection";
pub const WARNING_THRESHOLD: &str = "warningThreshold";
pub const CRITICAL_THRESHOLD: &str = "criticalThreshold";
pub const GLOBAL_CIRCUIT_BREAKER_THRESHOLD: &str = "globalCircuitBreakerThreshold";
pub const FS: &str = "fs";
pub const WORKSPACE_ONLY: &str = "workspaceOnly";
pub const PROFILE: &str = "profile";
pub const WEB: &str = "web";
pub const SEARCH: &str = "search";
pub const FETCH: &str = "fetch";
pub const MAX_REDIRECTS: &str = "maxRedirects";
pub const SESSIONS: &str = "sessions";
pub const VISIBILITY: &str = "visibility";
pub const AGENT_TO_AGENT: &str = "agentToAgent";

// Exec.
pub const EXEC: &str = "exec";
pub const MODE: &str = "mode";
pub const SECURITY: &str = "security";
pub const ASK: &str = "ask";
pub const HOST: &str = "host";
pub const APPLY_PATCH: &str = "applyPatch";
pub const SAFE_BINS: &str = "safeBins";
pub const SAFE_BIN_PROFILES: &str = "safeBinProfiles";
pub const SAFE_BIN_TRUSTED_DIRS: &str = "safeBinTrustedDirs";
pub const STRICT_INLINE_EVAL: &str = "strictInlineEval";
pub const ELEVATED: &str = "elevated";

// Sandbox.
pub const SANDBOX: &str = "sandbox";
pub const DOCKER: &str = "docker";
pub const BINDS: &str = "binds";
pub const NETWORK: &str = "network";
pub const DANGEROUSLY_ALLOW_CONTAINER_NAMESPACE_JOIN: &str = "dangerouslyAllowContainerNamespaceJoin";
pub const SECCOMP_PROFILE: &str = "seccompProfile";
pub const APPARMOR_PROFILE: &str = "apparmorProfile";
pub const BROWSER: &str = "browser";
pub const BACKEND: &str = "backend";
pub const SCOPE: &str = "scope";
pub const ENV: &str = "env";
pub const WORKSPACE_ROOT: &str = "workspaceRoot";
pub const SESSION_TOOLS_VISIBILITY: &str = "sessionToolsVisibility";

// Browser profiles.
pub const CDP_URL: &str = "cdpUrl";
pub const CDP_PORT: &str = "cdpPort";
pub const PROFILES: &str = "profiles";
pub const CDP_SOURCE_RANGE: &str = "cdpSourceRange";

// Gateway.
pub const GATEWAY: &str = "gateway";
pub const BIND: &str = "bind";
pub const CUSTOM_BIND_HOST: &str = "customBindHost";
pub const TAILSCALE: &str = "tailscale";
pub const SCOPES: &str = "scopes";
pub const PORT: &str = "port";
pub const REMOTE: &str = "remote";
pub const TOKEN: &str = "token";
pub const PASSWORD: &str = "password";
pub const RATE_LIMIT: &str = "rateLimit";
pub const ALLOW_TAILSCALE: &str = "allowTailscale";
pub const TRUSTED_PROXY: &str = "trustedProxy";
pub const TRUSTED_PROXIES: &str = "trustedProxies";
pub const USER_HEADER: &str = "userHeader";
pub const ALLOW_LOOPBACK: &str = "allowLoopback";
pub const ALLOW_USERS: &str = "allowUsers";
pub const DEVICE_AUTO_APPROVE: &str = "deviceAutoApprove";
pub const CONTROL_UI: &str = "controlUi";
pub const ALLOWED_ORIGINS: &str = "allowedOrigins";
pub const DANGEROUSLY_ALLOW_HOST_HEADER_ORIGIN_FALLBACK: &str = "dangerouslyAllowHostHeaderOriginFallback";

// Secret references (`{ source, id }`) and install records.
pub const SOURCE: &str = "source";

// Channels and routing.
pub const CHANNELS: &str = "channels";
pub const ACCOUNTS: &str = "accounts";
pub const GROUPS: &str = "groups";
pub const DM: &str = "dm";
pub const DM_POLICY: &str = "dmPolicy";
pub const GROUP_POLICY: &str = "groupPolicy";
pub const POLICY: &str = "policy";
pub const ALLOW_FROM: &str = "allowFrom";
pub const EXEC_APPROVALS: &str = "execApprovals";
pub const ENABLED: &str = "enabled";
pub const MODEL_BY_CHANNEL: &str = "modelByChannel";
pub const BINDINGS: &str = "bindings";
pub const MATCH: &str = "match";
pub const CHANNEL: &str = "channel";
pub const ACCOUNT_ID: &str = "accountId";
pub const PEER: &str = "peer";
pub const KIND: &str = "kind";
pub const GUILD_ID: &str = "guildId";
pub const TEAM_ID: &str = "teamId";
pub const ROLES: &str = "roles";
pub const TYPE: &str = "type";
pub const TALK: &str = "talk";
pub const QQBOT: &str = "qqbot";

// MCP servers.
pub const MCP: &str = "mcp";
pub const NODE_HOST: &str = "nodeHost";
pub const SERVERS: &str = "servers";
pub const COMMAND: &str = "command";
pub const URL: &str = "url";
pub const TRANSPORT: &str = "transport";
pub const TOOL_FILTER: &str = "toolFilter";
pub const INCLUDE: &str = "include";
pub const EXCLUDE: &str = "exclude";
pub const AUTH: &str = "auth";
pub const OAUTH: &str = "oauth";
pub const IDENTITY: &str = "identity";
pub const AUTH_PROFILE_ID: &str = "authProfileId";
pub const DISABLED: &str = "disabled";
pub const CODEX: &str = "codex";

// Models, plugins, session.
pub const MODEL: &str = "model";
pub const MODELS: &str = "models";
pub const PROVIDERS: &str = "providers";
pub const CONTEXT_TOKENS: &str = "contextTokens";
pub const CONTEXT_WINDOW: &str = "contextWindow";
pub const PRIMARY: &str = "primary";
pub const FALLBACKS: &str = "fallbacks";
pub const API_KEY: &str = "apiKey";
pub const WEB_SEARCH: &str = "webSearch";
pub const PERPLEXITY: &str = "perplexity";
pub const PLUGINS: &str = "plugins";
pub const CONFIG: &str = "config";
pub const SLOTS: &str = "slots";
pub const SESSION_CATALOG: &str = "sessionCatalog";
pub const INSTALLS: &str = "installs";
pub const HOOKS: &str = "hooks";
pub const PATH: &str = "path";
pub const ALLOWED_AGENT_IDS: &str = "allowedAgentIds";
pub const ALLOW_REQUEST_SESSION_KEY: &str = "allowRequestSessionKey";
pub const ALLOWED_SESSION_KEY_PREFIXES: &str = "allowedSessionKeyPrefixes";
pub const DEFAULT_SESSION_KEY: &str = "defaultSessionKey";
pub const INTERNAL: &str = "internal";
pub const SPEC: &str = "spec";
pub const INTEGRITY: &str = "integrity";
pub const MEMORY: &str = "memory";
pub const CONTEXT_ENGINE: &str = "contextEngine";
pub const DISCOVERY: &str = "discovery";
pub const SESSION: &str = "session";
pub const STORE: &str = "store";
pub const GROUP_SCOPE: &str = "groupScope";

// Logging.
pub const LOGGING: &str = "logging";
pub const REDACT_SENSITIVE: &str = "redactSensitive";
pub const FILE: &str = "file";
