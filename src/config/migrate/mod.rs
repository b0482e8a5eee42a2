//! What the release does to the config while loading, before it validates: openclaw@2026.9.6
//! rewrites retired forms in memory (`readConfigSnapshotWithPreparation` →
//! `migrateLegacyContextBudgetConfig`, `migratePersistedImplicitMainRoster`, and inside validation
//! `removeLegacyCopilotDiscovery`); openclaw@2026.2.25 rewrites nothing. Which steps a release
//! runs is data (`loadMigrations` in `data/<release>/migrations.json`, with the texts and tables);
//! each step follows the release's JavaScript step by step (hand-written for exactness: key
//! order, which inputs abandon a step, what is left as written).
//!
//! Every moved node keeps its origin, so a value from a legacy `agents.list` entry still points at
//! that entry in its file. Values the release materializes point at what caused them (the
//! `default: true` marker, the provider's context budget) or have no origin.
//!
//! [`legacy`] holds the other half: the doctor-fixable legacy keys the release reports (but does
//! not migrate) when it refuses a config.

mod context_budget;
pub mod legacy;
mod roster;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::edit::{Autofix, Change, ConfigEdit, Place, Safety};
use super::error::{ConfigWarning, WarningKind};
use super::path::PathSeg;
use super::source::Origin;
use super::tree::Node;
use crate::OpenClawVersion;
use crate::config::view::keys;
use crate::release::loader::ReferencePath;
use crate::release::migrations::LoadMigrationStep;
pub use crate::release::migrations::ReleaseMigrations;

/// A retired form the release rewrote while loading, where it was written, and how to make the
/// rewrite permanent.
#[derive(Debug, Clone)]
pub struct MigratedForm {
    /// The form's id in `migratedForms` of the release data.
    pub form: &'static str,
    /// The key path as written (before the migration moved or removed it).
    pub path: Vec<PathSeg>,
    pub origin: Option<Arc<Origin>>,
    /// What the release does with it here.
    pub message: String,
    /// The edit that makes it permanent.
    pub fix: String,
    /// The same edit, machine-applicable (`None` when the form is not written in a file).
    pub autofix: Option<Autofix>,
}

/// The result of the load-time migrations.
#[derive(Debug, Default)]
pub struct LoadMigration {
    /// The release's warnings, in its order.
    pub warnings: Vec<ConfigWarning>,
    pub forms: Vec<MigratedForm>,
    /// The agent a single legacy `default: true` marker named in a multi-agent roster: the release
    /// keeps it beside the config (its validation then treats the roster as explicitly owned).
    pub legacy_owner: Option<String>,
    /// The config had no roster and the release inserted its implicit `agents.entries.main`.
    pub implicit_roster: bool,
}

/// Environment the migrations read (the default workspace of a preserved first agent).
pub struct MigrationEnv<'a> {
    pub env: &'a HashMap<String, String>,
    pub cwd: &'a Path,
}

/// Runs the release's load-time migrations ([`ReleaseMigrations::load_migrations`]) on the
/// resolved tree (after `${VAR}` substitution), in the release's order.
pub fn run(root: &mut Node, version: OpenClawVersion, env: &MigrationEnv<'_>) -> LoadMigration {
    let mut out = LoadMigration::default();
    if !root.is_object() {
        return out;
    }
    let data = version.migrations();
    for step in &data.load_migrations {
        match step {
            LoadMigrationStep::ContextBudget => context_budget::migrate(root, data, &mut out),
            LoadMigrationStep::Roster => roster::migrate(root, data, env, &mut out),
            LoadMigrationStep::CopilotDiscovery => remove_copilot_discovery(root, data, &mut out),
        }
    }
    out
}

impl LoadMigration {
    fn warn(&mut self, path: Vec<PathSeg>, message: String, origin: Option<Arc<Origin>>) {
        self.warnings.push(ConfigWarning {
            kind: WarningKind::Migrated,
            message,
            path,
            origin,
            related: None,
            excerpt: Default::default(),
        });
    }
}

/// `removeLegacyCopilotDiscovery` (run by 2026.9's validation): drops
/// `plugins.entries.github-copilot.config.discovery.enabled`, and `discovery` when that leaves
/// it empty (an empty `discovery` goes too). No warning.
fn remove_copilot_discovery(root: &mut Node, data: &'static ReleaseMigrations, out: &mut LoadMigration) {
    let config_path = [keys::PLUGINS, keys::ENTRIES, "github-copilot", keys::CONFIG].map(PathSeg::key);
    let Some(config) = root.get_mut(&config_path).and_then(Node::as_object_mut) else {
        return;
    };
    let Some(discovery) = config.get_mut(keys::DISCOVERY).and_then(Node::as_object_mut) else {
        return;
    };
    if !discovery.contains_key(keys::ENABLED) && !discovery.is_empty() {
        return;
    }
    if let Some(enabled) = discovery.shift_remove(keys::ENABLED) {
        let form = data.form("copilot-discovery");
        let mut path = config_path.to_vec();
        path.extend([PathSeg::key(keys::DISCOVERY), PathSeg::key(keys::ENABLED)]);
        out.forms.push(MigratedForm {
            form: "copilot-discovery",
            path,
            autofix: removal(&form.fix, enabled.origin.as_deref()),
            origin: enabled.origin,
            message: form.action.clone(),
            fix: form.fix.clone(),
        });
    }
    if discovery.is_empty() {
        config.shift_remove(keys::DISCOVERY);
    }
}

/// The safe fix that removes a retired member written at `origin`.
fn removal(title: &str, origin: Option<&Origin>) -> Option<Autofix> {
    let edit = ConfigEdit::new(Place::written(origin?), Change::Remove);
    Some(Autofix::new(title, Safety::Safe, vec![edit]))
}

/// `Object.hasOwn(node, key)` for an object node.
fn has_key(node: &Node, key: &str) -> bool {
    node.as_object().is_some_and(|map| map.contains_key(key))
}

/// Dotted path as the release's template strings print it (`agents.list[0].contextTokens`).
pub fn release_path(path: &[PathSeg]) -> String {
    super::path::substitution_path(path, ReferencePath::Dotted)
}

#[cfg(test)]
mod tests;
