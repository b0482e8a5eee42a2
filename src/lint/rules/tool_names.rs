//! Names in allow / alsoAllow / deny lists: typos, renamed tools, globs that match nothing.
//! OpenClaw matches names silently: an entry that names nothing grants or denies nothing.

use crate::lint::registry::Applies;
use std::collections::BTreeSet;

use serde_json::Value;

use super::walk::{ListKind, policy_lists};
use crate::base::glob::glob_matches;
use crate::config::edit::{Autofix, Change, ConfigEdit, Safety};
use crate::config::path::KeyPath;
use crate::config::validate::did_you_mean;
use crate::config::view::keys;
use crate::lint::{Category, Emitter, LintContext, Rule, Severity};

pub const RULES: &[Rule] = &[
    Rule {
        code: "CP201",
        name: "unknown-tool",
        severity: Severity::Warning,
        category: Category::ToolNames,
        summary: "A tool-policy entry that names no tool, group or plugin the release knows.",
        why: "An unknown name in `deny` denies nothing, and in `allow` grants nothing; with 2026.9 an allowlist \
              whose entries all miss leaves the agent without tools. Typos (`exce`) are the usual cause.",
        example: "tools: { deny: [\"exce\"] }",
        fix: "Use the suggested name; `clawpolicy catalog` lists the tools and groups of the release. A plugin \
              tool is known once its plugin is named in `plugins.entries` or `plugins.allow`.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: false,
        check: unknown_tools,
    },
    Rule {
        code: "CP202",
        name: "legacy-tool-name",
        severity: Severity::Warning,
        category: Category::ToolNames,
        summary: "A tool name the release has renamed (`image` → `view_image`).",
        why: "The old name no longer matches the tool: `deny: [\"image\"]` leaves `view_image` available outside \
              the sandbox layer. `openclaw doctor --fix` rewrites it; until then the entry is dead.",
        example: "tools: { deny: [\"image\"] }",
        fix: "Write the new name.",
        openclaw_check: None,
        applies: Applies::When(|release| !release.policy().doctor_renames.is_empty()),
        needs_valid_config: false,
        check: legacy_tool_names,
    },
    Rule {
        code: "CP203",
        name: "glob-matches-nothing",
        severity: Severity::Warning,
        category: Category::ToolNames,
        summary: "A glob entry (`web_*`) that matches no tool of the release.",
        why: "The entry takes no effect; it usually means a typo or a tool family that was renamed.",
        example: "tools: { deny: [\"shell_*\"] }",
        fix: "Fix the pattern or remove it.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: false,
        check: dead_globs,
    },
    Rule {
        code: "CP204",
        name: "plugin-only-allowlist",
        severity: Severity::Warning,
        category: Category::ToolNames,
        summary: "An `allow` list that names only plugin tools.",
        why: "The two releases read it in opposite ways. 2026.2 ignores such an allowlist (with a warning) so \
              core tools stay available; 2026.9 applies it, which removes every core tool at that step. Either \
              way the list does not do what it seems to.",
        example: "tools: { profile: \"coding\", allow: [\"memory-core\"] }",
        fix: "Use `alsoAllow` to add plugin tools on top of a profile, or list the core tools the agent needs too.",
        openclaw_check: None,
        applies: Applies::Always,
        needs_valid_config: false,
        check: plugin_only_allowlists,
    },
];

/// Every name a policy entry can mean in this config: catalog tools, groups, aliases, bundled
/// plugins and their tools, and plugins or MCP servers the config declares.
struct Vocabulary {
    names: BTreeSet<String>,
    /// Plugin ids and plugin-only tool names (bundled or declared in the config).
    plugin_names: BTreeSet<String>,
    /// `<server>__` prefixes of configured MCP servers.
    mcp_prefixes: Vec<String>,
}

impl Vocabulary {
    fn of(ctx: &LintContext<'_>) -> Self {
        let pack = ctx.pack;
        let mut plugin_names: BTreeSet<String> = BTreeSet::from(["group:plugins".to_string()]);
        for plugin in &pack.plugins {
            plugin_names.insert(plugin.id.clone());
            plugin_names.extend(plugin.plugin_tools().iter().cloned());
        }
        let configured_plugins =
            ctx.get(&[keys::PLUGINS, keys::ENTRIES]).and_then(Value::as_object).into_iter().flat_map(|m| m.keys());
        plugin_names.extend(configured_plugins.map(|id| id.to_lowercase()));
        let allowed_plugins = ctx.get(&[keys::PLUGINS, keys::ALLOW]).and_then(Value::as_array).into_iter().flatten();
        plugin_names.extend(allowed_plugins.filter_map(Value::as_str).map(str::to_lowercase));
        // A bundled plugin tool that is also a catalog tool (`browser`) counts as a core name.
        plugin_names.retain(|name| name == "group:plugins" || !pack.is_catalog_tool(name));
        let mut names: BTreeSet<String> = pack.tools.iter().map(|t| t.id.clone()).collect();
        names.extend(pack.groups().iter().map(|(group, _)| group.clone()));
        names.extend(pack.aliases.keys().cloned());
        names.extend(pack.expansions.keys().cloned());
        names.extend(pack.sandbox.default_deny.iter().cloned());
        names.extend(pack.plugins.iter().flat_map(|p| p.tools.iter().chain(std::iter::once(&p.id))).cloned());
        names.extend(plugin_names.iter().cloned());
        names.extend(["*", "bundle-mcp"].map(String::from));
        let mcp_prefixes = ctx
            .get(&[keys::MCP, keys::SERVERS])
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|servers| servers.keys())
            .map(|server| format!("{}__", crate::policy::safe_mcp_name(server)).to_lowercase())
            .collect();
        Vocabulary { names, plugin_names, mcp_prefixes }
    }

    fn knows(&self, normalized: &str) -> bool {
        self.names.contains(normalized) || self.mcp_prefixes.iter().any(|p| normalized.starts_with(p.as_str()))
    }

    fn any_matches(&self, glob: &str) -> bool {
        self.names.iter().any(|name| glob_matches(glob, name))
            || self
                .mcp_prefixes
                .iter()
                .any(|prefix| glob_matches(glob, &format!("{prefix}x")) || glob.starts_with(prefix.as_str()))
    }

    /// The closest known name, if one is close enough to be a typo.
    fn suggest<'v>(&self, name: &str, candidates: &'v [Candidate<'v>]) -> Option<&'v str> {
        let key = Letters::of(name);
        // Only names that share enough letters with `name` can reach the typo threshold: a deny
        // list of half a million made-up names is not compared in full with every known name.
        let close: Vec<&str> = candidates.iter().filter(|c| c.may_be_typo_of(&key)).map(|c| c.name).collect();
        did_you_mean(name, &close)
    }

    fn candidates(&self) -> Vec<Candidate<'_>> {
        self.names.iter().filter(|known| *known != "*").map(|known| Candidate::new(known)).collect()
    }
}

/// A name's lowercase ASCII character counts (`None` when it has other characters), for pruning
/// typo suggestions.
struct Letters {
    counts: Option<[u16; 128]>,
    chars: usize,
}

impl Letters {
    fn of(name: &str) -> Self {
        let lowered = name.to_lowercase();
        let counts = lowered.is_ascii().then(|| {
            let mut counts = [0u16; 128];
            for byte in lowered.bytes() {
                counts[usize::from(byte)] = counts[usize::from(byte)].saturating_add(1);
            }
            counts
        });
        Letters { counts, chars: lowered.chars().count() }
    }
}

/// A known name with the letters it has (sparse, since names are short).
struct Candidate<'v> {
    name: &'v str,
    letters: Option<Vec<(usize, u16)>>,
    chars: usize,
}

impl<'v> Candidate<'v> {
    fn new(name: &'v str) -> Self {
        let Letters { counts, chars } = Letters::of(name);
        let letters = counts.map(|counts| (0..128).filter(|&b| counts[b] > 0).map(|b| (b, counts[b])).collect());
        Candidate { name, letters, chars }
    }

    /// False only when Jaro-Winkler cannot reach `did_you_mean`'s 0.85: that needs a Jaro
    /// similarity of at least 0.75, so `m/|a| + m/|b| >= 1.25` for the `m` matching characters,
    /// which are at most the characters the two names share.
    fn may_be_typo_of(&self, key: &Letters) -> bool {
        let (Some(mine), Some(theirs)) = (&self.letters, &key.counts) else { return true };
        if self.chars == 0 || key.chars == 0 {
            return true;
        }
        let shared = mine.iter().map(|(byte, count)| usize::from(*count.min(&theirs[*byte]))).sum::<usize>() as f64;
        shared / self.chars as f64 + shared / key.chars as f64 >= 1.25
    }
}

fn is_glob(entry: &str) -> bool {
    entry.contains('*')
}

/// Every non-empty, non-glob entry with its normalized name (trimmed, lowercased, aliased).
fn named_entries<'c>(ctx: &LintContext<'c>) -> Vec<(crate::config::path::KeyPath, &'c str, String, ListKind)> {
    let mut out = Vec::new();
    for list in policy_lists(ctx.config()) {
        for (path, raw) in list.entries {
            let normalized = ctx.pack.normalize(raw);
            if !normalized.is_empty() {
                out.push((path, raw, normalized, list.kind));
            }
        }
    }
    out
}

fn unknown_tools(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let vocabulary = Vocabulary::of(ctx);
    let candidates = vocabulary.candidates();
    for (path, raw, normalized, kind) in named_entries(ctx) {
        if is_glob(&normalized) || vocabulary.knows(&normalized) || ctx.pack.doctor_renames.contains_key(&normalized) {
            continue;
        }
        let effect = match kind {
            ListKind::Deny => "denies nothing",
            ListKind::Allow | ListKind::AlsoAllow => "grants nothing",
        };
        let finding = out
            .report(&path, format!("`{raw}` is not a tool, group or plugin of OpenClaw {}: it {effect}", ctx.version));
        match vocabulary.suggest(&normalized, &candidates) {
            Some(known) => finding.help(format!("did you mean `{known}`?")).autofix(rename_entry(&path, raw, known)),
            None => finding.help("if this is a plugin tool, name its plugin in `plugins.entries` or `plugins.allow`"),
        };
    }
}

fn legacy_tool_names(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    for (path, raw, normalized, _) in named_entries(ctx) {
        if let Some(new_name) = ctx.pack.doctor_renames.get(&normalized) {
            out.report(&path, format!("`{raw}` was renamed to `{new_name}`: this entry no longer matches it"))
                .help(format!("write `{new_name}` (`openclaw doctor --fix` rewrites it)"))
                .autofix(rename_entry(&path, raw, new_name));
        }
    }
}

fn dead_globs(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let vocabulary = Vocabulary::of(ctx);
    for (path, raw, normalized, _) in named_entries(ctx) {
        if is_glob(&normalized) && !vocabulary.any_matches(&normalized) {
            out.report(&path, format!("`{raw}` matches no tool of OpenClaw {}", ctx.version))
                .help("fix the pattern (`clawpolicy catalog` lists the tool names) or remove it");
        }
    }
}

fn plugin_only_allowlists(ctx: &LintContext<'_>, out: &mut Emitter<'_, '_>) {
    let vocabulary = Vocabulary::of(ctx);
    for list in policy_lists(ctx.config()).into_iter().filter(|l| l.kind == ListKind::Allow) {
        let names: Vec<String> =
            list.entries.iter().map(|(_, raw)| ctx.pack.normalize(raw)).filter(|n| !n.is_empty()).collect();
        if names.is_empty() || !names.iter().all(|n| vocabulary.plugin_names.contains(n)) {
            continue;
        }
        let effect = if ctx.pack.unknown_allowlist_entries.strips_plugin_only() {
            format!(
                "OpenClaw {} ignores it (\"Ignoring allowlist so core tools remain available\"), so it restricts nothing",
                ctx.version.line()
            )
        } else {
            format!("OpenClaw {} applies it, so every core tool is removed at this step", ctx.version.line())
        };
        let finding = out
            .report(&list.path(), format!("this allowlist names only plugin tools: {effect}"))
            .help("to add plugin tools on top of a profile, use `alsoAllow` instead of `allow`");
        let scope = KeyPath(list.scope.segments().to_vec()).lookup(ctx.config());
        if scope.is_some_and(|s| s.get(keys::ALSO_ALLOW).is_none()) {
            let edit = ConfigEdit::in_force(list.path().segments(), Change::RenameKey(keys::ALSO_ALLOW.to_string()));
            finding.autofix(Autofix::new("rename `allow` to `alsoAllow`", Safety::Unsafe, vec![edit]));
        }
    }
}

/// The fix that writes `name` for the entry `raw`: it changes what the list grants or denies.
fn rename_entry(path: &KeyPath, raw: &str, name: &str) -> Autofix {
    let edit = ConfigEdit::in_force(path.segments(), Change::Set(name.into()));
    Autofix::new(format!("replace `{raw}` with `{name}`"), Safety::Unsafe, vec![edit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruned_typo_suggestions_equal_a_full_comparison() {
        let known =
            ["exec", "read", "write", "web_fetch", "sessions_list", "group:fs", "apply_patch", "browser", "ÿes"];
        let candidates: Vec<Candidate<'_>> = known.iter().map(|k| Candidate::new(k)).collect();
        let names =
            ["exce", "raed", "wirte", "web_fetc", "session_list", "group:f", "t012345", "", "x", "ÿe", "APPLY_PATCH"];
        for name in names {
            let key = Letters::of(name);
            let close: Vec<&str> = candidates.iter().filter(|c| c.may_be_typo_of(&key)).map(|c| c.name).collect();
            assert_eq!(did_you_mean(name, &close), did_you_mean(name, &known), "{name}");
        }
        let key = Letters::of("t012345");
        let mut ascii = candidates.iter().filter(|c| c.letters.is_some());
        assert!(ascii.all(|c| !c.may_be_typo_of(&key)), "a made-up name is compared with no ASCII name");
    }
}
