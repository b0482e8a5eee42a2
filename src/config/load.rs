//! The load pipeline (spec §2): read → parse → `$include` → overlays → `env` block → `${VAR}` →
//! the release's load-time migrations ([`super::migrate`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::discovery::{self, DiscoveryEnv};
use super::document::{Buffers, Document, Documents, ParseFailure};
use super::env::{self, MissingEnvVar};
use super::error::{ConfigError, ConfigWarning, Snippet, WarningKind};
use super::include::{IncludeResolver, MAX_NESTING};
use super::json5::MAX_VALUES;
use super::json5::ParseNote;
use super::merge::deep_merge;
use super::migrate::{self, MigratedForm, MigrationEnv};
use super::path::{PathSeg, substitution_path};
use super::secrets;
use super::source::{Origin, SourceFile};
use super::tree::Node;
use crate::OpenClawVersion;
use crate::release::loader::MissingVariable;

/// Everything loading depends on, passed in so that loading is reproducible and testable.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    pub version: OpenClawVersion,
    /// Snapshot of the process environment (for discovery, `OPENCLAW_INCLUDE_ROOTS`, `${VAR}`),
    /// shared: a batch loads thousands of configs with one environment.
    pub env: Arc<HashMap<String, String>>,
    /// Directory relative paths are resolved against.
    pub cwd: PathBuf,
}

impl LoadOptions {
    /// Options from the real process environment and working directory.
    pub fn from_process(version: OpenClawVersion) -> Self {
        LoadOptions {
            version,
            env: Arc::new(std::env::vars().collect()),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
        }
    }
}

/// A loaded config: the value in force, where each part of it came from, and the files as written.
#[derive(Debug)]
pub struct LoadedConfig {
    version: OpenClawVersion,
    tree: Node,
    value: Value,
    /// Top-level files in overlay order (empty when no file exists).
    config_paths: Vec<PathBuf>,
    documents: Vec<Document>,
    sources: Vec<Arc<SourceFile>>,
    warnings: Vec<ConfigWarning>,
    missing_env_vars: Vec<MissingEnvVar>,
    unset_env_vars: Vec<MissingEnvVar>,
    env: Arc<HashMap<String, String>>,
    /// The working directory relative paths in the config resolve against.
    cwd: PathBuf,
    /// The strings in force under secret paths, to mask wherever a message repeats one.
    secret_values: Vec<String>,
    migrated_forms: Vec<MigratedForm>,
    legacy_owner: Option<String>,
    implicit_roster: bool,
    /// The top-level file as parsed (before `$include`, overlays and `${VAR}`), or the inline
    /// value: parsed again from the file's text when first asked for (a few legacy rules need it),
    /// so a large config's values are not held twice.
    authored: OnceLock<Value>,
}

impl LoadedConfig {
    pub fn version(&self) -> OpenClawVersion {
        self.version
    }

    /// The config in force (after includes, overlays and substitution), key order preserved.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The value in force with its origins.
    pub fn tree(&self) -> &Node {
        &self.tree
    }

    /// Where the value at `path` was written; `None` if absent or inline.
    pub fn origin(&self, path: &[PathSeg]) -> Option<Origin> {
        self.tree.get(path)?.origin.as_deref().cloned()
    }

    /// The origin of `path`, or of its nearest existing ancestor (where a missing key would go).
    pub fn nearest_origin(&self, path: &[PathSeg]) -> Option<Origin> {
        self.tree.nearest(path).origin.as_deref().cloned()
    }

    /// The top-level config files, in overlay order.
    pub fn config_paths(&self) -> &[PathBuf] {
        &self.config_paths
    }

    /// What each file said, in the order the files were read (includes after their includer).
    pub fn documents(&self) -> &[Document] {
        &self.documents
    }

    /// Every file read, for rendering snippets.
    pub fn sources(&self) -> &[Arc<SourceFile>] {
        &self.sources
    }

    pub fn warnings(&self) -> &[ConfigWarning] {
        &self.warnings
    }

    /// `${VAR}` references without a value that make the release refuse the config (see
    /// validation): empty where the release keeps the literal and warns instead
    /// ([`MissingVariable`]).
    pub fn missing_env_vars(&self) -> &[MissingEnvVar] {
        &self.missing_env_vars
    }

    /// The retired forms the release rewrote while loading (2026.9), where they were written.
    pub fn migrated_forms(&self) -> &[MigratedForm] {
        &self.migrated_forms
    }

    /// The agent a single legacy `default: true` marker made the owner of a multi-agent roster
    /// (2026.9 keeps it beside the config; validation then treats the roster as explicitly owned).
    pub fn legacy_owner(&self) -> Option<&str> {
        self.legacy_owner.as_deref()
    }

    /// Whether the config had no roster and the release added its implicit `agents.entries.main`
    /// (the default agent, configured nowhere).
    pub fn implicit_roster(&self) -> bool {
        self.implicit_roster
    }

    /// The first config file as parsed, before `$include`, overlays, `${VAR}` and migrations (the
    /// release checks a few legacy keys there); for an inline config, the value given.
    pub fn authored(&self) -> &Value {
        self.authored.get_or_init(|| {
            let root = self.documents.first().and_then(Document::parse_as_written);
            root.map_or_else(|| Value::Object(Default::default()), |root| root.to_value())
        })
    }

    /// Every `${VAR}` reference without a value, in config order, whatever the release does.
    pub fn unset_env_vars(&self) -> &[MissingEnvVar] {
        &self.unset_env_vars
    }

    /// The environment after the config's `env` block was applied.
    pub fn effective_env(&self) -> &HashMap<String, String> {
        &self.env
    }

    /// The working directory relative paths in the config resolve against.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// `text` (a message about this config) with every secret value of the config and every
    /// credential-looking part masked.
    pub fn mask_secrets(&self, text: &str) -> String {
        secrets::mask_text_and_values(text, &self.secret_values)
    }
}

/// Loads `paths` (later files overlay earlier ones), or the discovered default when `paths` is
/// empty. A missing default file is an empty config; a missing explicit file is an error.
pub fn load(paths: &[PathBuf], opts: &LoadOptions) -> Result<LoadedConfig, ConfigError> {
    load_reading(paths, opts, None)
}

/// [`load`], reading the texts of `buffers` in place of those files.
pub fn load_with_buffers(
    paths: &[PathBuf],
    opts: &LoadOptions,
    buffers: Arc<Buffers>,
) -> Result<LoadedConfig, ConfigError> {
    load_reading(paths, opts, Some(buffers))
}

fn load_reading(
    paths: &[PathBuf],
    opts: &LoadOptions,
    buffers: Option<Arc<Buffers>>,
) -> Result<LoadedConfig, ConfigError> {
    let explicit = !paths.is_empty();
    let files: Vec<PathBuf> = if explicit {
        paths.iter().map(|p| super::fspath::resolve(&opts.cwd, p)).collect()
    } else {
        vec![discover(opts)]
    };
    let include_roots = include_roots(opts);
    let mut documents = Documents { buffers, ..Documents::default() };
    let mut merged: Option<Node> = None;
    let mut config_paths = Vec::new();
    for path in files {
        let exists = path.exists() || documents.buffer(&path).is_some();
        if !explicit && !exists {
            continue;
        }
        if !exists {
            return Err(ConfigError::NotFound { path });
        }
        let text = documents.read_text(&path)?;
        let root = documents.parse(path.clone(), text, &[]).map_err(|failure| match failure {
            ParseFailure::Syntax { message, at } => ConfigError::Parse { path: path.clone(), message, at },
            ParseFailure::OverBudget(error) => *error,
        })?;
        ensure_object(&root, &path)?;
        let resolved = IncludeResolver::new(&path, include_roots.clone(), opts.version.loader(), &mut documents)
            .resolve(&path, root)?;
        ensure_object(&resolved, &path)?;
        merged = Some(match merged {
            Some(earlier) => deep_merge(earlier, resolved, opts.version.loader().merge.blocked_keys),
            None => resolved,
        });
        config_paths.push(path);
    }
    Ok(finish(merged.unwrap_or_else(Node::empty_object), config_paths, documents, None, opts))
}

/// Loads a config given as a JSON value (batch cases): same pipeline, no files, no `$include`.
pub fn load_inline(value: Value, opts: &LoadOptions) -> Result<LoadedConfig, ConfigError> {
    if let Some(error) = past_limits(&value) {
        return Err(error);
    }
    let root = Node::from_value(&value);
    ensure_object(&root, Path::new("<inline>"))?;
    Ok(finish(root, Vec::new(), Documents::default(), Some(value), opts))
}

fn discover(opts: &LoadOptions) -> PathBuf {
    let exists = |p: &Path| p.exists();
    discovery::discover_config_path_in(&DiscoveryEnv { env: &opts.env, cwd: &opts.cwd, exists: &exists }, opts.version)
}

/// The further include roots the release reads from its environment variable (2026.9
/// `OPENCLAW_INCLUDE_ROOTS`): `:`-separated, trimmed, `~`-expanded, absolute, de-duplicated.
fn include_roots(opts: &LoadOptions) -> Vec<PathBuf> {
    let variable = opts.version.loader().include.extra_roots_env.as_deref();
    let Some(raw) = variable.and_then(|name| opts.env.get(name)).map(|s| s.trim()).filter(|s| !s.is_empty()) else {
        return Vec::new();
    };
    let home = discovery::home_dir(&opts.env, &opts.cwd);
    let mut roots: Vec<PathBuf> = Vec::new();
    for entry in raw.split(':').map(str::trim).filter(|e| !e.is_empty()) {
        let root = discovery::resolve_user_path(entry, &home, &opts.cwd);
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    roots
}

fn ensure_object(root: &Node, path: &Path) -> Result<(), ConfigError> {
    if root.is_object() {
        return Ok(());
    }
    Err(ConfigError::NotObject {
        path: path.to_path_buf(),
        found: json_type(root),
        at: root.origin.as_deref().map(|o| Snippet::at(o, "expected `{ ... }`")),
    })
}

fn json_type(node: &Node) -> &'static str {
    use super::tree::NodeKind;
    match node.kind {
        NodeKind::Null => "null",
        NodeKind::Bool(_) => "a boolean",
        NodeKind::Number(_) => "a number",
        NodeKind::String(_) => "a string",
        NodeKind::Array(_) => "an array",
        NodeKind::Object(_) => "an object",
    }
}

/// Iterative, so a hostile value cannot overflow the stack while being measured.
/// The limit an inline config breaks, if any: nesting deeper than [`MAX_NESTING`] or more than
/// [`MAX_VALUES`] values (what a file is held to while it is parsed).
fn past_limits(value: &Value) -> Option<ConfigError> {
    let mut stack = vec![(value, 0usize)];
    let mut values = 0;
    while let Some((value, depth)) = stack.pop() {
        values += 1;
        if depth > MAX_NESTING {
            return Some(ConfigError::TooDeep { limit: MAX_NESTING, at: None });
        }
        if values > MAX_VALUES {
            return Some(ConfigError::TooManyValues { path: PathBuf::from("<inline>"), limit: MAX_VALUES, at: None });
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    None
}

/// Steps shared by files and inline values: `env` block, substitution, the release's load-time
/// migrations, warnings.
fn finish(
    mut tree: Node,
    config_paths: Vec<PathBuf>,
    documents: Documents,
    inline: Option<Value>,
    opts: &LoadOptions,
) -> LoadedConfig {
    let authored = OnceLock::new();
    if let Some(inline) = inline {
        let _ = authored.set(inline);
    }
    let rules = &opts.version.loader().env;
    let mut env = opts.env.clone();
    let block = env_block(&tree);
    // The environment is copied only when the config's `env` block has something to export.
    if block.get("env").is_some() {
        env::export_env_block(&block, Arc::make_mut(&mut env), opts.version);
    }
    let missing = env::substitute(&mut tree, &env);
    let migration = migrate::run(&mut tree, opts.version, &MigrationEnv { env: &env, cwd: &opts.cwd });
    let mut warnings: Vec<ConfigWarning> = documents.notes.into_iter().map(note_warning).collect();
    if rules.missing_variable == MissingVariable::KeepLiteralAndWarn {
        warnings.extend(missing.iter().map(|m| ConfigWarning {
            kind: WarningKind::MissingEnvVar,
            message: format!(
                "{}: Missing env var \"{}\" - feature using this value will be unavailable",
                substitution_path(&m.path, rules.reference_path),
                m.name
            ),
            path: m.path.clone(),
            origin: m.origin.clone(),
            related: None,
            excerpt: Default::default(),
        }));
    }
    warnings.extend(migration.warnings);
    let sources = documents.documents.iter().map(|d| d.source.clone()).collect();
    let secret_values = super::tree::secret_values(&tree);
    LoadedConfig {
        version: opts.version,
        value: tree.to_value(),
        tree,
        config_paths,
        documents: documents.documents,
        sources,
        warnings,
        missing_env_vars: match rules.missing_variable {
            MissingVariable::Refuse => missing.clone(),
            MissingVariable::KeepLiteralAndWarn => Vec::new(),
        },
        unset_env_vars: missing,
        env,
        cwd: opts.cwd.clone(),
        secret_values,
        migrated_forms: migration.forms,
        legacy_owner: migration.legacy_owner,
        implicit_roster: migration.implicit_roster,
        authored,
    }
}

/// The config's `env` block alone, as a config: all that exporting it reads.
fn env_block(tree: &Node) -> Value {
    let mut config = serde_json::Map::new();
    if let Some(block) = tree.member("env") {
        config.insert("env".into(), block.to_value());
    }
    Value::Object(config)
}

fn note_warning(note: ParseNote) -> ConfigWarning {
    match note {
        ParseNote::DuplicateKey { key, first, last } => ConfigWarning {
            kind: WarningKind::DuplicateKey,
            message: format!("duplicate key \"{key}\": the earlier value is ignored, the key keeps its first position"),
            path: last.key_path(),
            origin: Some(last),
            related: Some(first),
            excerpt: Default::default(),
        },
        ParseNote::NonFiniteNumber { literal, origin } => ConfigWarning {
            kind: WarningKind::NonFiniteNumber,
            message: format!("{literal} is not a finite number; it is read as null"),
            path: origin.key_path(),
            origin: Some(origin),
            related: None,
            excerpt: Default::default(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{as_merged, fixture, options};
    use serde_json::json;

    const V9: OpenClawVersion = OpenClawVersion::V2026_9;
    const V2: OpenClawVersion = OpenClawVersion::V2026_2;

    fn key_path(dotted: &str) -> Vec<PathSeg> {
        crate::config::path::parse_dotted(dotted)
    }

    #[test]
    fn overlays_deep_merge_in_order_with_provenance() {
        let cfg = load(&[fixture("overlays/base.json5"), fixture("overlays/prod.json5")], &options(V9, &[])).unwrap();
        assert_eq!(
            as_merged(&cfg),
            json!({"tools": {"profile": "coding", "deny": ["browser", "exec"]}, "gateway": {"bind": "lan"}})
        );
        assert!(cfg.origin(&key_path("tools.deny.0")).unwrap().file().ends_with("base.json5"));
        assert!(cfg.origin(&key_path("tools.deny.1")).unwrap().file().ends_with("prod.json5"));
        assert!(cfg.origin(&key_path("gateway.bind")).unwrap().file().ends_with("prod.json5"));
        assert_eq!(cfg.config_paths().len(), 2);
        assert_eq!(cfg.sources().len(), 2);
    }

    #[test]
    fn a_config_past_the_value_budget_is_refused_before_its_tree_is_built() {
        let dir = tempfile::tempdir().unwrap();
        // A list of `n` names is `n` values, its list, `tools` and the root three more.
        let deny = |n: usize| (0..n).map(|i| format!("\"t{i}\"")).collect::<Vec<_>>().join(",");
        let write = |name: &str, text: String| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let at_budget = write("at.json5", format!("{{tools: {{deny: [{}]}}}}", deny(MAX_VALUES - 3)));
        assert!(load(&[at_budget], &options(V9, &[])).is_ok());
        let past = write("past.json5", format!("{{tools: {{deny: [{}]}}}}", deny(MAX_VALUES - 2)));
        let Err(error) = load(std::slice::from_ref(&past), &options(V9, &[])) else {
            panic!("a file one value past the budget loads")
        };
        assert!(matches!(&error, ConfigError::TooManyValues { path, at: Some(_), .. } if *path == past));
        let shown = format!("{:?}", miette::Report::new(error));
        let first_past = format!("\"t{}\"", MAX_VALUES - 3);
        // The label's marker stands under the first value past the budget.
        let column = |line: &str, at: usize| line[..at].chars().count();
        let value = shown.lines().find_map(|l| l.find(&first_past).map(|at| column(l, at))).unwrap();
        let marker = shown.lines().find_map(|l| l.find('┬').map(|at| column(l, at))).unwrap();
        assert!((value..value + first_past.len()).contains(&marker), "{shown}");
        // Includes count together: two halves each under the budget are refused as a whole.
        write("a.json5", format!("[{}]", deny(MAX_VALUES / 2)));
        write("b.json5", format!("[{}]", deny(MAX_VALUES / 2)));
        let main =
            write("main.json5", "{tools: {deny: {$include: './a.json5'}, allow: {$include: './b.json5'}}}".into());
        let refused = load(&[main], &options(V9, &[]));
        assert!(matches!(refused, Err(ConfigError::TooManyValues { path, .. }) if path.ends_with("b.json5")));
        let inline = json!({"tools": {"deny": vec!["t"; MAX_VALUES]}});
        assert!(matches!(load_inline(inline, &options(V9, &[])), Err(ConfigError::TooManyValues { at: None, .. })));
    }

    #[test]
    fn env_block_then_substitution() {
        let env = [("GATEWAY_TOKEN", "tok")];
        let cfg = load(&[fixture("env/openclaw.json5")], &options(V9, &env)).unwrap();
        assert_eq!(cfg.value()["gateway"]["auth"]["token"], "tok");
        assert_eq!(cfg.value()["models"]["providers"]["x"]["baseUrl"], "cfg-value/v1");
        assert_eq!(cfg.value()["models"]["providers"]["x"]["apiKey"], "${LITERAL}");
        // The release's order: missing variables, then what its load-time migrations did.
        let [warning, moved] = cfg.warnings() else { panic!("{:?}", cfg.warnings()) };
        assert_eq!(warning.kind, WarningKind::MissingEnvVar);
        assert_eq!(
            warning.message,
            "agents.list[0].workspace: Missing env var \"MISSING_DIR\" - feature using this value will be unavailable"
        );
        assert_eq!(
            (moved.kind, moved.message.as_str()),
            (WarningKind::Migrated, "Moved agents.list to keyed agents.entries.")
        );
        assert_eq!(cfg.value()["agents"]["entries"]["main"]["workspace"], "${MISSING_DIR}");
        assert!(cfg.missing_env_vars().is_empty());
        assert_eq!(cfg.unset_env_vars()[0].name, "MISSING_DIR");
        assert_eq!(cfg.effective_env().get("FROM_CONFIG").map(String::as_str), Some("cfg-value"));

        // 2026.2 records the missing variable for validation instead of warning.
        let cfg = load(&[fixture("env/openclaw.json5")], &options(V2, &env)).unwrap();
        assert!(cfg.warnings().is_empty());
        assert_eq!(cfg.missing_env_vars()[0].name, "MISSING_DIR");
        assert_eq!(cfg.missing_env_vars()[0].path, key_path("agents.list.0.workspace"));
    }

    #[test]
    fn missing_files() {
        let opts = options(V9, &[("HOME", "/nonexistent-home-for-test")]);
        let cfg = load(&[], &opts).unwrap();
        assert_eq!(as_merged(&cfg), json!({}));
        // Without a file, 2026.9 still gets its implicit one-agent roster.
        assert_eq!(cfg.value(), &json!({"agents": {"entries": {"main": {}}}}));
        assert!(cfg.config_paths().is_empty());
        assert!(matches!(load(&[PathBuf::from("nope.json5")], &opts), Err(ConfigError::NotFound { .. })));
    }

    #[test]
    fn discovered_default_file_is_loaded() {
        let opts = options(V9, &[("OPENCLAW_CONFIG_PATH", "overlays/base.json5")]);
        let cfg = load(&[], &opts).unwrap();
        assert_eq!(cfg.value()["gateway"]["bind"], "loopback");
    }

    #[test]
    fn parse_and_shape_errors() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let broken = write("broken.json5", "{\n  tools: { deny: [\"exec\" }\n}");
        match load(&[broken], &options(V9, &[])) {
            Err(err @ ConfigError::Parse { .. }) => {
                use miette::Diagnostic;
                assert_eq!(err.code().unwrap().to_string(), "config::parse");
                assert!(err.to_string().starts_with("JSON5 parse failed: "));
                assert_eq!(err.labels().unwrap().count(), 1);
            }
            other => panic!("{other:?}"),
        }
        let array = write("array.json5", "[1]");
        assert!(matches!(load(&[array], &options(V9, &[])), Err(ConfigError::NotObject { found: "an array", .. })));
        let big = write("big.json5", &format!("{{a: '{}'}}", "x".repeat(3 * 1024 * 1024)));
        assert!(matches!(load(&[big], &options(V9, &[])), Err(ConfigError::TooLarge { .. })));
    }

    #[test]
    fn duplicate_keys_warn_with_both_places() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dup.json5");
        std::fs::write(&path, "{a:1, tools:{x:1}, b:2, tools:{y:2}}").unwrap();
        let cfg = load(&[path], &options(V9, &[])).unwrap();
        let [warning] = cfg.warnings() else { panic!() };
        assert_eq!(warning.kind, WarningKind::DuplicateKey);
        assert_eq!(warning.related.as_ref().unwrap().column, 7);
        assert_eq!(warning.origin.as_ref().unwrap().column, 25);
    }

    #[test]
    fn inline_configs_share_the_pipeline() {
        let cfg = load_inline(json!({"env": {"vars": {"T": "v"}}, "a": "${T}"}), &options(V9, &[])).unwrap();
        assert_eq!(cfg.value()["a"], "v");
        assert!(cfg.origin(&key_path("a")).is_none());
        assert!(matches!(load_inline(json!([]), &options(V9, &[])), Err(ConfigError::NotObject { .. })));
        let mut deep = json!(1);
        for _ in 0..600 {
            deep = json!({ "a": deep });
        }
        assert!(matches!(load_inline(deep, &options(V9, &[])), Err(ConfigError::TooDeep { .. })));
    }
}
