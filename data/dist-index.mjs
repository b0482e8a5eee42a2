// Finds values in an installed `openclaw` npm package by the name its source gives them, whatever
// chunk the bundler put them in and whatever letter it exports them as: the extractors in this
// folder ask for `CORE_TOOL_DEFINITIONS` or `LEGACY_CONFIG_MIGRATION_RULES`, not for
// `tool-catalog-CLTpLFor.mjs`'s export `t`, so they work on any release that kept the names.
//
//   import { openPackage } from "./dist-index.mjs";
//   const pkg = openPackage("/path/with/node_modules");          // the folder holding node_modules/openclaw
//   const { CORE_TOOL_DEFINITIONS } = await pkg.values(["CORE_TOOL_DEFINITIONS"]);
//
// A value the bundle does not export is exported by a load hook that appends an `export` to the
// chunk that defines it (the file on disk is untouched). Needs Node >= 22.15 (module.registerHooks);
// the Node binary the oracle folders install qualifies. Every name must be asked for before the
// first import of its chunk, so `values` is called once per run with every name the script needs.
import { registerHooks } from "node:module";
import fs from "node:fs";
import path from "node:path";

/** The installed package under `root` (the folder that holds `node_modules/openclaw`). */
export function openPackage(root) {
  const dir = path.join(root, "node_modules", "openclaw");
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const dist = path.join(dir, "dist");
  const version = manifest.version;
  const line = version.split(".").slice(0, 2).join(".");
  return { root, dir, dist, version, line, values: (names, options) => values(dist, names, options) };
}

let hooked = false;
const appended = new Map(); // chunk path -> export clauses to append

/** `name`'s chunk among the top-level chunks of `dist`: the one that defines it at top level. */
function definers(dist, names) {
  const found = new Map(names.map((n) => [n, []]));
  const files = fs.readdirSync(dist).filter((f) => /\.(m?js)$/.test(f)).sort();
  for (const file of files) {
    const text = fs.readFileSync(path.join(dist, file), "utf8");
    for (const name of names) {
      if (!text.includes(name)) continue;
      const definition = new RegExp(`^(?:async\\s+)?(?:function\\*?\\s+${name}\\s*\\(|(?:const|let|var|class)\\s+${name}\\b)`, "m");
      if (definition.test(text)) found.get(name).push({ file, text });
    }
  }
  return found;
}

/** The local names a chunk exports, and as what: `export { a as t, b }`. */
function exportsOf(text) {
  const out = new Map();
  for (const clause of text.matchAll(/^export\s*\{([^}]*)\}/gm)) {
    for (const part of clause[1].split(",")) {
      const [local, alias] = part.trim().split(/\s+as\s+/);
      if (local) out.set(local, alias ?? local);
    }
  }
  return out;
}

/**
 * Imports every name of `names` (an array, or an object mapping a name to the chunk-name prefix to
 * prefer when several chunks define it). A name no chunk defines fails, unless it is optional
 * (`optional: true` for every name, or a list of names): it is then `undefined`.
 */
async function values(dist, names, { optional = false } = {}) {
  const wanted = Array.isArray(names) ? Object.fromEntries(names.map((n) => [n, null])) : names;
  const found = definers(dist, Object.keys(wanted));
  const plan = {};
  for (const [name, prefer] of Object.entries(wanted)) {
    let candidates = found.get(name);
    if (prefer) candidates = candidates.filter((c) => c.file.startsWith(prefer));
    if (candidates.length === 0) {
      if (optional === true || (Array.isArray(optional) && optional.includes(name))) continue;
      throw new Error(`no chunk of ${dist} defines ${name}`);
    }
    // Bundles may carry the same module twice; the copies are identical for the constants and
    // pure functions the extractors read, and the first in name order is taken.
    const { file, text } = candidates[0];
    const chunk = path.join(dist, file);
    const exported = exportsOf(text).get(name);
    if (exported) {
      plan[name] = { chunk, key: exported };
    } else {
      const key = `__extract_${name}`;
      appended.set(chunk, [...(appended.get(chunk) ?? []), `${name} as ${key}`]);
      plan[name] = { chunk, key };
    }
  }
  if (!hooked) {
    hooked = true;
    registerHooks({
      load(url, context, nextLoad) {
        const result = nextLoad(url, context);
        const file = url.startsWith("file://") ? decodeURIComponent(new URL(url).pathname) : url;
        const extra = appended.get(file);
        return extra ? { ...result, source: `${result.source}\nexport { ${extra.join(", ")} };\n` } : result;
      },
    });
  }
  const out = {};
  for (const [name, { chunk, key }] of Object.entries(plan)) {
    const module = await import(chunk);
    out[name] = module[key];
  }
  return out;
}
