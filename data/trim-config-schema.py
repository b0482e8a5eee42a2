#!/usr/bin/env python3
"""Trims a release's config JSON Schema to the structure validation needs.

Regenerate (oracles installed as in shared/oracle*/README.md; one oracle process at a time):

    sh /tmp/oracle-2026.9/config-schema.sh      | python3 data/trim-config-schema.py > data/2026.9/config-schema.json
    node /tmp/oracle-2026.2/config-schema.mjs   | python3 data/trim-config-schema.py > data/2026.2/config-schema.json

(data/make-pack.mjs runs the first form for a new release.)

What it changes, and why:
* drops annotations (title, description, examples, ...): they do not affect validation;
* drops a property from `required` when the property has a `default`: the release fills defaults
  before validating (zod input semantics), so e.g. a channel without `dmPolicy` is valid;
* `#/$defs/...` references inside embedded plugin schemas are made absolute;
* regex patterns are rewritten where JS and Rust regex syntax differ (`\\0` → `\\x00`);
* where `agents.entries` keys have the lower-case agent-id pattern (2026.9), it becomes
  case-insensitive, because the release normalizes ids (lower-cases them) before checking them
  (`Support` is a valid key);
* where the schema embeds plugin schemas under `plugins.entries.<id>` (2026.9), they are dropped: the release
  checks a plugin's config with its manifest schema only when the plugin is enabled or has
  config, after the core schema passes, with its own messages (src/config/validate/plugins.rs,
  `data/<release>/plugins.json`); the core schema accepts any `config` object.
"""
import json, re, sys

ANNOTATIONS = {"title", "description", "examples", "deprecated", "readOnly", "writeOnly", "$comment",
               "markdownDescription", "default"}
# Keywords whose value is a schema, a list of schemas, or a map of schemas.
SCHEMA = {"additionalProperties", "items", "not", "propertyNames", "contains", "if", "then", "else",
          "additionalItems", "unevaluatedProperties", "unevaluatedItems"}
SCHEMA_LIST = {"anyOf", "oneOf", "allOf", "prefixItems"}
SCHEMA_MAP = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}


def rust_regex(pattern):
    """JS regex syntax the Rust engines spell differently: `\\0` (NUL) is `\\x00`."""
    return re.sub(r"\\0(?![0-9])", r"\\x00", pattern)


def trim(node):
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ANNOTATIONS:
            continue
        if key == "pattern" and isinstance(value, str):
            value = rust_regex(value)
        if key in SCHEMA:
            value = trim(value) if isinstance(value, dict) else ([trim(v) for v in value] if isinstance(value, list) else value)
        elif key in SCHEMA_LIST:
            value = [trim(v) for v in value]
        elif key in SCHEMA_MAP:
            value = {k: trim(v) for k, v in value.items()}
        out[key] = value
    props = node.get("properties")
    if isinstance(out.get("required"), list) and isinstance(props, dict):
        out["required"] = [r for r in out["required"] if not (isinstance(props.get(r), dict) and "default" in props[r])]
        if not out["required"]:
            del out["required"]
    return out


def anchor_local_refs(node, pointer=""):
    """Embedded plugin schemas keep `$defs` at their own root and refer to them as `#/$defs/x`;
    make those references absolute so they resolve from the document root."""
    if isinstance(node, list):
        for i, v in enumerate(node):
            anchor_local_refs(v, f"{pointer}/{i}")
        return
    if not isinstance(node, dict):
        return
    if "$defs" in node and pointer:
        rewrite_refs(node, pointer)
    for k, v in node.items():
        anchor_local_refs(v, f"{pointer}/{k.replace('~', '~0').replace('/', '~1')}")


def rewrite_refs(node, base):
    if isinstance(node, list):
        for v in node:
            rewrite_refs(v, base)
    elif isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            node["$ref"] = "#" + base + ref[1:]
        for v in node.values():
            rewrite_refs(v, base)


def main():
    raw = json.load(sys.stdin)
    anchor_local_refs(raw)
    schema = trim(raw)
    # What the schema itself says, not which release it is, decides the two rewrites below.
    entries = schema["properties"]["agents"].get("properties", {}).get("entries")
    names = (entries or {}).get("propertyNames", {})
    if names.get("pattern") == "^[a-z0-9_][a-z0-9_-]{0,63}$":
        names["pattern"] = "^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$"
    plugin_entries = schema["properties"]["plugins"]["properties"]["entries"]
    if "properties" in plugin_entries:
        assert "additionalProperties" in plugin_entries, plugin_entries.keys()
        del plugin_entries["properties"]
    json.dump(schema, sys.stdout, separators=(",", ":"), sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
