//! 2026.9 `migrateLegacyContextBudgetConfig` (src/config/legacy.context-budget.ts): provider-wide
//! `contextTokens`/`contextWindow` move into the provider's model entries (or are dropped), and
//! agent-wide `contextTokens` is dropped. Changes are reported before warnings, providers before
//! agents, as the release does.

use indexmap::IndexMap;

use super::{LoadMigration, MigratedForm, has_key, release_path, removal};
use crate::config::edit::{Autofix, Change, ConfigEdit, Place, Safety};
use crate::config::path::PathSeg;
use crate::config::tree::{Node, NodeKind};
use crate::config::view::keys;
use crate::release::migrations::ReleaseMigrations;

const PROVIDER_KEYS: [&str; 2] = [keys::CONTEXT_TOKENS, keys::CONTEXT_WINDOW];

type OriginRef = Option<std::sync::Arc<crate::config::source::Origin>>;

struct Note {
    path: Vec<PathSeg>,
    message: String,
    origin: OriginRef,
}

/// The release's `changes` and `warnings` lists, printed changes first.
struct Notes {
    data: &'static ReleaseMigrations,
    changes: Vec<Note>,
    warnings: Vec<Note>,
}

impl Notes {
    fn change(&mut self, path: &[PathSeg], message: String, origin: &OriginRef) {
        self.changes.push(Note { path: path.to_vec(), message, origin: origin.clone() });
    }

    /// `Removed <path>.`, and the warning `warning` about the same key.
    fn removed(&mut self, path: &[PathSeg], warning: &str, origin: &OriginRef) {
        let source = release_path(path);
        self.change(path, self.data.load_warning("contextRemoved", &[("path", &source)]), origin);
        let message = self.data.load_warning(warning, &[("path", &source)]);
        self.warnings.push(Note { path: path.to_vec(), message, origin: origin.clone() });
    }
}

pub(super) fn migrate(root: &mut Node, data: &'static ReleaseMigrations, out: &mut LoadMigration) {
    if !has_legacy_context_budget(root) {
        return;
    }
    let mut notes = Notes { data, changes: Vec::new(), warnings: Vec::new() };
    providers(root, &mut notes, out);
    agents(root, &mut notes, out);
    for note in notes.changes.into_iter().chain(notes.warnings) {
        out.warn(note.path, note.message, note.origin);
    }
}

fn path_of(keys: &[&str]) -> Vec<PathSeg> {
    keys.iter().map(|k| PathSeg::key(*k)).collect()
}

fn has_legacy_context_budget(root: &Node) -> bool {
    let providers = root.get(&path_of(&[keys::MODELS, keys::PROVIDERS])).and_then(Node::as_object);
    if providers.into_iter().flatten().any(|(_, p)| PROVIDER_KEYS.iter().any(|k| has_key(p, k))) {
        return true;
    }
    let Some(agents) = root.member(keys::AGENTS).filter(|a| a.is_object()) else {
        return false;
    };
    agents.member(keys::DEFAULTS).is_some_and(|d| has_key(d, keys::CONTEXT_TOKENS))
        || agents
            .member(keys::ENTRIES)
            .and_then(Node::as_object)
            .into_iter()
            .flatten()
            .any(|(_, e)| has_key(e, keys::CONTEXT_TOKENS))
        || agents
            .member(keys::LIST)
            .and_then(Node::as_array)
            .into_iter()
            .flatten()
            .any(|e| has_key(e, keys::CONTEXT_TOKENS))
}

fn providers(root: &mut Node, notes: &mut Notes, out: &mut LoadMigration) {
    let data = notes.data;
    let Some(providers) = root.get_mut(&path_of(&[keys::MODELS, keys::PROVIDERS])).and_then(Node::as_object_mut) else {
        return;
    };
    for (provider_id, provider) in providers.iter_mut() {
        let Some(fields) = provider.as_object_mut() else { continue };
        for key in PROVIDER_KEYS {
            let Some(value) = fields.get(key).cloned() else { continue };
            let path = path_of(&[keys::MODELS, keys::PROVIDERS, provider_id, key]);
            let source = release_path(&path);
            let mut baked = Vec::new();
            // Where each model entry the value is copied into is written.
            let mut baked_into = Vec::new();
            let has_models = fields.get(keys::MODELS).and_then(Node::as_array).is_some_and(|m| !m.is_empty());
            if has_models && let Some(NodeKind::Array(models)) = fields.get_mut(keys::MODELS).map(|m| &mut m.kind) {
                for (index, model) in models.iter_mut().enumerate() {
                    let Some(model_fields) = model.as_object_mut() else { continue };
                    if model_fields.contains_key(key) {
                        continue;
                    }
                    model_fields.insert(key.to_string(), value.clone());
                    baked.push(index);
                    baked_into.push(model.origin.clone());
                    let message = data.load_warning(
                        "contextBaked",
                        &[("path", &source), ("provider", provider_id), ("index", &index.to_string()), ("key", key)],
                    );
                    notes.change(&path, message, &value.origin);
                }
            }
            fields.shift_remove(key);
            let form = data.form("provider-context");
            let literal = value.to_value().to_string();
            let (id, message, fix) = if has_models {
                notes.change(
                    &path,
                    data.load_warning("contextRemovedAfterBaking", &[("path", &source)]),
                    &value.origin,
                );
                let targets: Vec<String> = baked.iter().map(|i| format!("models[{i}]")).collect();
                let moved = if targets.is_empty() {
                    "every model entry already sets it, so it is dropped".to_string()
                } else {
                    format!("it is copied into {}", targets.join(", "))
                };
                (
                    "provider-context",
                    format!("`{source}` is retired: OpenClaw {}; here {moved}", form.action),
                    format!(
                        "remove `{key}: {literal}` from the provider and set `{key}` on each of its `models[]` entries"
                    ),
                )
            } else {
                notes.removed(&path, "contextNoModels", &value.origin);
                (
                    "provider-context",
                    format!(
                        "`{source}` is retired: OpenClaw {}; here there are no model entries, so it is dropped",
                        form.action
                    ),
                    format!(
                        "remove `{key}: {literal}`; to keep the budget, set `models.providers.{provider_id}.models[].contextTokens`"
                    ),
                )
            };
            let autofix = value.origin.as_deref().and_then(|origin| {
                let mut edits = vec![ConfigEdit::new(Place::written(origin), Change::Remove)];
                for model in &baked_into {
                    edits
                        .push(ConfigEdit::new(Place::member_of(model.as_deref()?, key), Change::Set(value.to_value())));
                }
                let title = match baked.as_slice() {
                    [] => format!("remove `{source}`"),
                    _ => format!("move `{source}` into the provider's model entries"),
                };
                Some(Autofix::new(title, Safety::Safe, edits))
            });
            out.forms.push(MigratedForm { form: id, path, origin: value.origin.clone(), message, fix, autofix });
        }
    }
}

fn agents(root: &mut Node, notes: &mut Notes, out: &mut LoadMigration) {
    let data = notes.data;
    let Some(agents) = root.as_object_mut().and_then(|r| r.get_mut(keys::AGENTS)).and_then(Node::as_object_mut) else {
        return;
    };
    let mut remove = |fields: Option<&mut IndexMap<String, Node>>, path: Vec<PathSeg>| {
        let Some(value) = fields.and_then(|f| f.shift_remove(keys::CONTEXT_TOKENS)) else { return };
        let source = release_path(&path);
        notes.removed(&path, "contextNotPerModel", &value.origin);
        let form = data.form("agent-context-tokens");
        let fix = format!(
            "remove `contextTokens: {}` here; to keep the budget, set `models.providers.<provider>.models[].contextTokens`",
            value.to_value()
        );
        out.forms.push(MigratedForm {
            form: "agent-context-tokens",
            message: format!("`{source}` is retired: OpenClaw {}", form.action),
            autofix: removal(&format!("remove `{source}`"), value.origin.as_deref()),
            fix,
            path,
            origin: value.origin,
        });
    };
    remove(
        agents.get_mut(keys::DEFAULTS).and_then(Node::as_object_mut),
        path_of(&[keys::AGENTS, keys::DEFAULTS, keys::CONTEXT_TOKENS]),
    );
    if let Some(entries) = agents.get_mut(keys::ENTRIES).and_then(Node::as_object_mut) {
        for (id, entry) in entries.iter_mut() {
            remove(entry.as_object_mut(), path_of(&[keys::AGENTS, keys::ENTRIES, id, keys::CONTEXT_TOKENS]));
        }
    }
    if let Some(NodeKind::Array(list)) = agents.get_mut(keys::LIST).map(|l| &mut l.kind) {
        for (index, entry) in list.iter_mut().enumerate() {
            let path = vec![
                PathSeg::key(keys::AGENTS),
                PathSeg::key(keys::LIST),
                PathSeg::Index(index),
                PathSeg::key(keys::CONTEXT_TOKENS),
            ];
            remove(entry.as_object_mut(), path);
        }
    }
}
