// Prints a release's core legacy config rules (what `findLegacyConfigIssues` reports as
// doctor-fixable) with each rule's matcher source, and 2026.9's retired-path tables, to check or
// update the `legacyRules` of data/<release>/migrations.json by hand:
//
//   node data/extract-legacy-rules.mjs 2026.9 > /tmp/legacy-rules-2026.9.json
//   node data/extract-legacy-rules.mjs 2026.2 > /tmp/legacy-rules-2026.2.json
//
// Needs Node >= 22.15 (module.registerHooks). The rule lists are not exported by the bundles, so a
// load hook appends an export to the chunk that defines them (the file on disk is untouched).
// Chunk file names are content hashes of the release; update them when re-targeting. The rules'
// `path` and `message` are copied into migrations.json verbatim; each `match` function is
// translated by hand into path patterns (or a detector in src/config/migrate/legacy.rs, or
// `notSimulated` with the reason).
import { registerHooks } from "node:module";

const release = process.argv[2];
const dist = `${process.env.ORACLE_ROOT ?? "/tmp"}/oracle-${release}/node_modules/openclaw/dist`;
const chunk = { "2026.9": "legacy-Dc3ci2cN.mjs", "2026.2": "config-BEQvFIpK.js" }[release];
const exported = {
  "2026.9": "LEGACY_CONFIG_MIGRATION_RULES as __rules, TIER_EVAL_RETIRED_ROOT_PATHS as __tierRoot, " +
    "TIER_EVAL_RETIRED_AGENT_PATHS as __tierAgent, RETIRED_TUNING_PATHS as __tuningRoot, " +
    "RETIRED_AGENT_TUNING_PATHS as __tuningAgent",
  "2026.2": "LEGACY_CONFIG_RULES as __rules",
}[release];
if (!chunk) throw new Error("usage: node data/extract-legacy-rules.mjs 2026.9|2026.2");

registerHooks({
  load(url, context, nextLoad) {
    const result = nextLoad(url, context);
    if (!url.endsWith(`/${chunk}`)) return result;
    return { ...result, source: `${result.source}\nexport { ${exported} };\n` };
  },
});
const mod = await import(`${dist}/${chunk}`);
const join = (paths) => paths?.map((p) => p.join("."));
console.log(JSON.stringify({
  release,
  rules: mod.__rules.map((r) => ({
    path: r.path.join("."),
    message: r.message,
    ...(r.requireSourceLiteral ? { sourceLiteral: true } : {}),
    ...(r.match ? { match: r.match.toString() } : {}),
  })),
  retiredPaths: release === "2026.9"
    ? { tierEvalRoot: join(mod.__tierRoot), tierEvalAgent: join(mod.__tierAgent), tuningRoot: join(mod.__tuningRoot), tuningAgent: join(mod.__tuningAgent) }
    : undefined,
}, null, 1));
