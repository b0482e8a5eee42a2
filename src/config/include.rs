//! `$include` resolution (spec §4), ported from both releases' `src/config/includes.ts`.
//!
//! Every release: confinement to the config directory (lexical + symlink), depth 10, cycle
//! detection. Where releases differ ([`IncludeRules`]): further include roots from the
//! environment (2026.9 `OPENCLAW_INCLUDE_ROOTS`), null-byte and path-length limits, and the
//! guarded read (regular file, at most 2 MiB, no hardlinks).

use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use super::document::{Documents, ParseFailure};
use super::error::{ConfigError, IncludeErrorKind, Snippet};
use super::fspath;
use super::json5::MAX_FILE_BYTES;
use super::merge::deep_merge;
use super::path::PathSeg;
use super::source::Origin;
use super::tree::{Node, NodeKind};
use crate::release::loader::{IncludeReadGuard, IncludeRules, LoaderRules};

/// The directive key.
pub(crate) const INCLUDE_KEY: &str = "$include";
const MAX_INCLUDE_DEPTH: usize = 10;
/// Nesting limit of the resolved tree. Each file is already limited by the parser; this bounds
/// includes nested inside includes, so later recursive passes cannot exhaust the stack.
pub(crate) const MAX_NESTING: usize = 512;

/// A directory includes may read from, as written and with symlinks resolved.
struct IncludeRoot {
    lexical: PathBuf,
    real: PathBuf,
}

impl IncludeRoot {
    fn new(dir: PathBuf) -> Self {
        let lexical = fspath::normalize(&dir);
        let real = std::fs::canonicalize(&lexical).unwrap_or_else(|_| lexical.clone());
        IncludeRoot { lexical, real }
    }
}

/// The file whose `$include`s are being resolved, and its ancestors.
struct Frame {
    base: PathBuf,
    /// Top-level config first, `base` last: a file found here again is a cycle.
    chain: Vec<PathBuf>,
    depth: usize,
}

pub(crate) struct IncludeResolver<'d> {
    loader: &'static LoaderRules,
    /// The top-level config's directory first (its name is the one error texts print).
    roots: Vec<IncludeRoot>,
    documents: &'d mut Documents,
}

impl<'d> IncludeResolver<'d> {
    /// `extra_roots`: the further roots the release reads from the environment
    /// ([`IncludeRules::extra_roots_env`]), absolute.
    pub fn new(
        config_path: &Path,
        extra_roots: Vec<PathBuf>,
        loader: &'static LoaderRules,
        documents: &'d mut Documents,
    ) -> Self {
        let config_dir = config_path.parent().map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
        let roots = std::iter::once(config_dir).chain(extra_roots).map(IncludeRoot::new).collect();
        IncludeResolver { loader, roots, documents }
    }

    fn rules(&self) -> &'static IncludeRules {
        &self.loader.include
    }

    /// Resolves every `$include` in `root`, the parsed content of `config_path`.
    pub fn resolve(&mut self, config_path: &Path, root: Node) -> Result<Node, ConfigError> {
        let base = fspath::normalize(config_path);
        let frame = Frame { chain: vec![base.clone()], base, depth: 0 };
        self.process(root, &frame, &mut Vec::new())
    }

    /// `at`: where `node` lands in the resolved tree (its length is the nesting depth).
    fn process(&mut self, node: Node, frame: &Frame, at: &mut Vec<PathSeg>) -> Result<Node, ConfigError> {
        if at.len() > MAX_NESTING {
            return Err(ConfigError::TooDeep {
                limit: MAX_NESTING,
                at: node.origin.as_deref().map(|o| Snippet::at(o, "nested too deeply")),
            });
        }
        match node.kind {
            NodeKind::Array(items) => {
                let items = items
                    .into_iter()
                    .enumerate()
                    .map(|(index, item)| self.process_at(item, frame, at, PathSeg::Index(index)))
                    .collect::<Result<_, _>>()?;
                Ok(Node::new(NodeKind::Array(items), node.origin))
            }
            NodeKind::Object(mut map) => match map.shift_remove(INCLUDE_KEY) {
                None => Ok(Node::new(NodeKind::Object(self.process_members(map, frame, at)?), node.origin)),
                Some(directive) => self.process_include(&directive, map, node.origin, frame, at),
            },
            kind => Ok(Node::new(kind, node.origin)),
        }
    }

    fn process_at(
        &mut self,
        node: Node,
        frame: &Frame,
        at: &mut Vec<PathSeg>,
        seg: PathSeg,
    ) -> Result<Node, ConfigError> {
        at.push(seg);
        let processed = self.process(node, frame, at);
        at.pop();
        processed
    }

    fn process_members(
        &mut self,
        map: IndexMap<String, Node>,
        frame: &Frame,
        at: &mut Vec<PathSeg>,
    ) -> Result<IndexMap<String, Node>, ConfigError> {
        map.into_iter()
            .map(|(key, value)| {
                let value = self.process_at(value, frame, at, PathSeg::Key(key.clone()))?;
                Ok((key, value))
            })
            .collect()
    }

    /// An object holding `$include`: alone it is replaced by the included value; with siblings the
    /// included value must be an object and the siblings are merged over it.
    fn process_include(
        &mut self,
        directive: &Node,
        siblings: IndexMap<String, Node>,
        origin: Option<std::sync::Arc<Origin>>,
        frame: &Frame,
        at: &mut Vec<PathSeg>,
    ) -> Result<Node, ConfigError> {
        let included = self.resolve_directive(directive, frame, at)?;
        if siblings.is_empty() {
            return Ok(included);
        }
        if !included.is_object() {
            return Err(include_error(
                IncludeErrorKind::Invalid,
                "Sibling keys require included content to be an object".to_string(),
                directive,
                None,
            ));
        }
        let siblings = Node::new(NodeKind::Object(self.process_members(siblings, frame, at)?), origin);
        Ok(deep_merge(included, siblings, self.loader.merge.blocked_keys))
    }

    fn resolve_directive(
        &mut self,
        directive: &Node,
        frame: &Frame,
        at: &mut Vec<PathSeg>,
    ) -> Result<Node, ConfigError> {
        match &directive.kind {
            NodeKind::String(path) => self.load_file(path, directive, frame, at),
            NodeKind::Array(items) => items.iter().try_fold(Node::empty_object(), |merged, item| {
                let Some(path) = item.as_str() else {
                    let message = format!("Invalid $include array item: expected string, got {}", item.js_type());
                    return Err(include_error(IncludeErrorKind::Invalid, message, item, None));
                };
                let loaded = self.load_file(path, item, frame, at)?;
                Ok(deep_merge(merged, loaded, self.loader.merge.blocked_keys))
            }),
            _ => {
                let message =
                    format!("Invalid $include value: expected string or array of strings, got {}", directive.js_type());
                Err(include_error(IncludeErrorKind::Invalid, message, directive, None))
            }
        }
    }

    /// Order of checks as in OpenClaw: path → cycle → depth → read → parse → recurse.
    /// The included file's root lands at `at`.
    fn load_file(
        &mut self,
        include_path: &str,
        directive: &Node,
        frame: &Frame,
        at: &mut Vec<PathSeg>,
    ) -> Result<Node, ConfigError> {
        let fail = |kind, message: String| include_error(kind, message, directive, None);
        let resolved = self.resolve_path(include_path, frame).map_err(|(kind, message)| fail(kind, message))?;
        if frame.chain.contains(&resolved) {
            let chain: Vec<String> = frame.chain.iter().chain([&resolved]).map(|p| p.display().to_string()).collect();
            return Err(fail(IncludeErrorKind::Cycle, format!("Circular include detected: {}", chain.join(" -> "))));
        }
        if frame.depth >= MAX_INCLUDE_DEPTH {
            return Err(fail(
                IncludeErrorKind::Depth,
                format!("Maximum include depth ({MAX_INCLUDE_DEPTH}) exceeded at: {include_path}"),
            ));
        }
        let text = self
            .read(include_path, &resolved)
            .map_err(|(kind, message, detail)| include_error(kind, message, directive, detail))?;
        let root = self.documents.parse(resolved.clone(), text, at).map_err(|failure| match failure {
            ParseFailure::Syntax { message, at } => ConfigError::Include {
                kind: IncludeErrorKind::Parse,
                message: format!("Failed to parse include file: {include_path} (resolved: {})", resolved.display()),
                detail: Some(message),
                at: Some(at),
            },
            ParseFailure::OverBudget(error) => *error,
        })?;
        let nested = Frame {
            base: resolved.clone(),
            chain: frame.chain.iter().cloned().chain([resolved]).collect(),
            depth: frame.depth + 1,
        };
        self.process(root, &nested, at)
    }

    fn resolve_path(&self, include_path: &str, frame: &Frame) -> Result<PathBuf, (IncludeErrorKind, String)> {
        let max_length = self.rules().max_path_length;
        if max_length.is_some() && include_path.contains('\0') {
            return Err((IncludeErrorKind::Guard, "Include path must not contain null bytes".to_string()));
        }
        if let Some(max) = max_length
            && js_length(include_path) >= max
        {
            return Err((IncludeErrorKind::Guard, format!("Include path exceeds maximum length ({max} characters)")));
        }
        let base_dir = frame.base.parent().unwrap_or(Path::new("/"));
        let resolved = fspath::resolve(base_dir, Path::new(include_path));
        if let Some(max) = max_length
            && js_length(&resolved.to_string_lossy()) >= max
        {
            return Err((
                IncludeErrorKind::Guard,
                format!("Resolved include path exceeds maximum length ({max} characters)"),
            ));
        }
        let root_dir = self.roots[0].lexical.display();
        if !self.roots.iter().any(|root| fspath::is_inside(&root.lexical, &resolved)) {
            return Err((
                IncludeErrorKind::Escape,
                format!("Include path escapes config directory: {include_path} (root: {root_dir})"),
            ));
        }
        match std::fs::canonicalize(&resolved) {
            Ok(real) if !self.roots.iter().any(|root| fspath::is_inside(&root.real, &real)) => Err((
                IncludeErrorKind::Escape,
                format!("Include path resolves outside config directory (symlink): {include_path} (root: {root_dir})"),
            )),
            // A missing file skips the symlink check; the read reports it.
            Ok(_) | Err(_) => Ok(resolved),
        }
    }

    /// Reads through the release's guard ([`IncludeReadGuard`]). Where the release reads plainly
    /// we still read only regular files (a FIFO would hang it, a device never ends) and cap the
    /// size while reading, so hostile input cannot exhaust memory.
    fn read(&self, include_path: &str, resolved: &Path) -> Result<String, (IncludeErrorKind, String, Option<String>)> {
        let read_failed = |detail: String| {
            (
                IncludeErrorKind::Missing,
                format!("Failed to read include file: {include_path} (resolved: {})", resolved.display()),
                Some(detail),
            )
        };
        let guard_failed = || {
            let message = format!(
                "Include file failed security checks (regular file, max {MAX_FILE_BYTES} bytes, no hardlinks): {include_path}"
            );
            (IncludeErrorKind::Guard, message, None)
        };
        if let Some(buffer) = self.documents.buffer(resolved) {
            return buffer.map_err(|_| guard_failed());
        }
        let meta = std::fs::metadata(resolved).map_err(|e| read_failed(e.to_string()))?;
        let guard_refuses = meta.len() > MAX_FILE_BYTES
            || (self.rules().read_guard == IncludeReadGuard::RegularFileSingleLink
                && (!meta.is_file() || hard_link_count(&meta) > 1));
        if guard_refuses {
            return Err(guard_failed());
        }
        match Documents::read(resolved) {
            Ok(text) => Ok(text),
            Err(ConfigError::TooLarge { .. }) => Err(guard_failed()),
            Err(ConfigError::NotRegular { kind, .. }) => Err(read_failed(format!("not a regular file (it is {kind})"))),
            Err(other) => Err(read_failed(match other {
                ConfigError::Read { source, .. } => source.to_string(),
                other => other.to_string(),
            })),
        }
    }
}

/// JavaScript string length (UTF-16 code units), which OpenClaw's limits count.
fn js_length(s: &str) -> usize {
    s.encode_utf16().count()
}

#[cfg(unix)]
fn hard_link_count(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn hard_link_count(_: &std::fs::Metadata) -> u64 {
    1
}

fn include_error(kind: IncludeErrorKind, message: String, at: &Node, detail: Option<String>) -> ConfigError {
    ConfigError::Include {
        kind,
        at: at.origin.as_deref().map(|origin| Snippet::at(origin, "in this $include")),
        message,
        detail,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::OpenClawVersion;
    use crate::config::error::{ConfigError, IncludeErrorKind};
    use crate::config::test_support::{as_merged, fixture, options};
    use crate::config::{PathSeg, load};

    fn load_fixture(path: &str, version: OpenClawVersion) -> Result<crate::config::LoadedConfig, ConfigError> {
        load(&[fixture(path)], &options(version, &[]))
    }

    fn include_error(path: &str, version: OpenClawVersion) -> (IncludeErrorKind, String) {
        match load_fixture(path, version) {
            Err(ConfigError::Include { kind, message, .. }) => (kind, message),
            other => panic!("expected an include error, got {other:?}"),
        }
    }

    #[test]
    fn spec_vectors_resolve() {
        // 2026.2 has no load-time migrations, so its value in force is the merged files.
        let cfg = load_fixture("includes/openclaw.json5", OpenClawVersion::V2026_2).unwrap();
        assert_eq!(
            cfg.value(),
            &json!({
                "gateway": {"port": 1, "bind": "lan"},
                "agents": {"defaults": {"sandbox": {"mode": "off"}}, "list": [{"id": "main"}]},
                "tools": {"deny": ["exec", "browser"], "profile": "minimal"},
            })
        );
        let cfg = load_fixture("includes/openclaw.json5", OpenClawVersion::V2026_9).unwrap();
        assert_eq!(cfg.value()["tools"], json!({"deny": ["exec", "browser"], "profile": "minimal"}));
        assert_eq!(cfg.value()["gateway"], json!({"port": 1, "bind": "lan"}));
    }

    #[test]
    fn provenance_survives_includes_and_concatenation() {
        let cfg = load_fixture("includes/openclaw.json5", OpenClawVersion::V2026_9).unwrap();
        let deny1 = cfg.origin(&[PathSeg::key("tools"), PathSeg::key("deny"), PathSeg::Index(1)]).unwrap();
        assert!(deny1.file().ends_with("includes/b.json5"));
        assert_eq!(deny1.key_path(), vec![PathSeg::key("deny"), PathSeg::Index(0)]);
        assert_eq!((deny1.line, deny1.column), (1, 10));
        let profile = cfg.origin(&[PathSeg::key("tools"), PathSeg::key("profile")]).unwrap();
        assert!(profile.file().ends_with("includes/openclaw.json5"));
        assert_eq!(profile.line, 6);
        let bind = cfg.origin(&[PathSeg::key("gateway"), PathSeg::key("bind")]).unwrap();
        assert!(bind.file().ends_with("includes/base.json5"));
        let missing = [PathSeg::key("agents"), PathSeg::key("entries"), PathSeg::key("x")];
        assert!(cfg.origin(&missing).is_none());
        assert!(cfg.nearest_origin(&missing).unwrap().file().ends_with("includes/agents.json5"));
        // The top-level file and all five includes were kept as written.
        assert_eq!(cfg.documents().len(), 5);
        assert_eq!(
            cfg.documents()[0]
                .parse_as_written()
                .unwrap()
                .get(&[PathSeg::key("tools"), PathSeg::key("profile")])
                .and_then(|n| n.as_str().map(str::to_string)),
            Some("minimal".to_string())
        );
    }

    #[test]
    fn error_texts_match_openclaw() {
        for version in OpenClawVersion::ALL {
            assert_eq!(
                include_error("includes/sibling-array.json5", version),
                (IncludeErrorKind::Invalid, "Sibling keys require included content to be an object".to_string())
            );
            assert_eq!(
                include_error("includes/bad-value.json5", version),
                (
                    IncludeErrorKind::Invalid,
                    "Invalid $include value: expected string or array of strings, got number".to_string()
                )
            );
            assert_eq!(
                include_error("includes/bad-item.json5", version),
                (IncludeErrorKind::Invalid, "Invalid $include array item: expected string, got boolean".to_string())
            );
            let dir = fixture("includes");
            assert_eq!(
                include_error("includes/missing.json5", version),
                (
                    IncludeErrorKind::Missing,
                    format!("Failed to read include file: ./nope.json5 (resolved: {}/nope.json5)", dir.display())
                )
            );
            assert_eq!(
                include_error("includes/includes-broken.json5", version),
                (
                    IncludeErrorKind::Parse,
                    format!("Failed to parse include file: ./broken.json5 (resolved: {}/broken.json5)", dir.display())
                )
            );
            let cycle = fixture("cycle");
            let chain =
                ["openclaw.json5", "a.json5", "b.json5", "a.json5"].map(|f| cycle.join(f).display().to_string());
            assert_eq!(
                include_error("cycle/openclaw.json5", version),
                (IncludeErrorKind::Cycle, format!("Circular include detected: {}", chain.join(" -> ")))
            );
            assert_eq!(
                include_error("escape/cfg/openclaw.json5", version),
                (
                    IncludeErrorKind::Escape,
                    format!(
                        "Include path escapes config directory: ../outside.json5 (root: {})",
                        fixture("escape/cfg").display()
                    )
                )
            );
        }
    }

    #[test]
    fn include_roots_widen_confinement_in_2026_9_only() {
        let roots = fixture("escape").display().to_string();
        let with_roots = |version| {
            load(&[fixture("escape/cfg/openclaw.json5")], &options(version, &[("OPENCLAW_INCLUDE_ROOTS", &roots)]))
        };
        assert_eq!(as_merged(&with_roots(OpenClawVersion::V2026_9).unwrap()), json!({"tools": {"profile": "full"}}));
        assert!(matches!(
            with_roots(OpenClawVersion::V2026_2),
            Err(ConfigError::Include { kind: IncludeErrorKind::Escape, .. })
        ));
    }

    /// Writes `files` into a fresh directory and loads `openclaw.json5` from it.
    fn load_in_tempdir(
        files: &[(String, String)],
        version: OpenClawVersion,
    ) -> (tempfile::TempDir, Result<crate::config::LoadedConfig, ConfigError>) {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let result = load(&[dir.path().join("openclaw.json5")], &options(version, &[]));
        (dir, result)
    }

    #[test]
    fn depth_limit_is_ten_nested_files() {
        let chain = |levels: usize| -> Vec<(String, String)> {
            let name = |i: usize| format!("f{i}.json5");
            let mut files = vec![("openclaw.json5".to_string(), format!("{{ $include: './{}' }}", name(0)))];
            files.extend((0..levels).map(|i| (name(i), format!("{{ $include: './{}' }}", name(i + 1)))));
            files.push((name(levels), "{ ok: true }".to_string()));
            files
        };
        // openclaw.json5 -> f0 -> ... -> f9 is ten levels of include files: fine.
        let (_dir, ten) = load_in_tempdir(&chain(9), OpenClawVersion::V2026_9);
        assert_eq!(as_merged(&ten.unwrap()), json!({"ok": true}));
        let (_dir, eleven) = load_in_tempdir(&chain(10), OpenClawVersion::V2026_9);
        assert!(matches!(eleven, Err(ConfigError::Include { kind: IncludeErrorKind::Depth, message, .. })
            if message == "Maximum include depth (10) exceeded at: ./f10.json5"));
    }

    #[test]
    fn guards_in_2026_9() {
        let big = format!("{{ a: \"{}\" }}", "x".repeat(2 * 1024 * 1024));
        let (_dir, result) = load_in_tempdir(
            &[("openclaw.json5".into(), "{ $include: './big.json5' }".into()), ("big.json5".into(), big)],
            OpenClawVersion::V2026_9,
        );
        assert!(matches!(result, Err(ConfigError::Include { kind: IncludeErrorKind::Guard, message, .. })
            if message == "Include file failed security checks (regular file, max 2097152 bytes, no hardlinks): ./big.json5"));
        let long = format!("{{ $include: './{}' }}", "a".repeat(4096));
        let (_dir, result) = load_in_tempdir(&[("openclaw.json5".into(), long.clone())], OpenClawVersion::V2026_9);
        assert!(matches!(result, Err(ConfigError::Include { kind: IncludeErrorKind::Guard, message, .. })
            if message == "Include path exceeds maximum length (4096 characters)"));
        let (_dir, result) = load_in_tempdir(
            &[("openclaw.json5".into(), "{ $include: './a\\u0000' }".into())],
            OpenClawVersion::V2026_9,
        );
        assert!(matches!(result, Err(ConfigError::Include { kind: IncludeErrorKind::Guard, message, .. })
            if message == "Include path must not contain null bytes"));
        // 2026.2 has no path guards: the long path is simply unreadable.
        let (_dir, result) = load_in_tempdir(&[("openclaw.json5".into(), long)], OpenClawVersion::V2026_2);
        assert!(matches!(result, Err(ConfigError::Include { kind: IncludeErrorKind::Missing, .. })));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_config_dir_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.json5"), "{ a: 1 }").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.json5"), dir.path().join("link.json5")).unwrap();
        std::fs::write(dir.path().join("openclaw.json5"), "{ $include: './link.json5' }").unwrap();
        for version in OpenClawVersion::ALL {
            let result = load(&[dir.path().join("openclaw.json5")], &options(version, &[]));
            let expected = format!(
                "Include path resolves outside config directory (symlink): ./link.json5 (root: {})",
                dir.path().display()
            );
            assert!(
                matches!(&result, Err(ConfigError::Include { kind: IncludeErrorKind::Escape, message, .. }) if *message == expected),
                "{result:?}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_include_is_refused_not_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        assert!(std::process::Command::new("mkfifo").arg(dir.path().join("f.json5")).status().unwrap().success());
        std::fs::write(dir.path().join("openclaw.json5"), "{ $include: './f.json5' }").unwrap();
        let load_version = |version| load(&[dir.path().join("openclaw.json5")], &options(version, &[]));
        assert!(matches!(
            load_version(OpenClawVersion::V2026_9),
            Err(ConfigError::Include { kind: IncludeErrorKind::Guard, .. })
        ));
        match load_version(OpenClawVersion::V2026_2) {
            Err(ConfigError::Include { kind: IncludeErrorKind::Missing, detail: Some(detail), .. }) => {
                assert_eq!(detail, "not a regular file (it is a FIFO)");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn included_secrets_are_masked_where_they_land() {
        let (_dir, result) = load_in_tempdir(
            &[
                ("openclaw.json5".into(), "{ env: { $include: './env.json5' } }".into()),
                ("env.json5".into(), "{ GH_PAT: 'pat-in-include' }".into()),
            ],
            OpenClawVersion::V2026_9,
        );
        let cfg = result.unwrap();
        assert!(cfg.sources().iter().all(|s| !s.display_text().contains("pat-in-include")));
        // A broken included file is scanned with its position too.
        let (_dir, result) = load_in_tempdir(
            &[
                ("openclaw.json5".into(), "{ env: { $include: './env.json5' } }".into()),
                ("env.json5".into(), "{ GH_PAT: 'pat-in-broken-include', oops".into()),
            ],
            OpenClawVersion::V2026_9,
        );
        let err = result.unwrap_err();
        let rendered = format!("{:?}", miette::Report::new(err));
        assert!(!rendered.contains("pat-in-broken-include") && rendered.contains("GH_PAT"), "{rendered}");
    }

    #[test]
    fn include_paths_are_not_substituted() {
        let (_dir, result) = load_in_tempdir(
            &[("openclaw.json5".into(), "{ $include: './${DIR}/a.json5' }".into())],
            OpenClawVersion::V2026_9,
        );
        assert!(
            matches!(result, Err(ConfigError::Include { kind: IncludeErrorKind::Missing, message, .. }) if message.contains("${DIR}"))
        );
    }
}
