//! 2026.9 `migratePersistedImplicitMainRoster` and `materializeLegacyDefaultAgentRoles`
//! (src/config/legacy.roster.ts, legacy.default-agent-roles.ts), as the loader calls them: a valid
//! legacy `agents.list` becomes keyed `agents.entries`, a missing roster becomes
//! `entries: { main: {} }`, and a single `default: true` marker is removed (in a multi-agent roster
//! after materializing the per-surface ownership it implied). Whatever the release would not
//! convert is left exactly as written, so validation then refuses it as the release does.

use std::collections::BTreeMap;
use std::sync::Arc;

use indexmap::IndexMap;

use super::{LoadMigration, MigratedForm, MigrationEnv, has_key};
use crate::base::js::js_trim;
use crate::config::discovery;
use crate::config::edit::{Autofix, Change, ConfigEdit, Place, Safety};
use crate::config::path::PathSeg;
use crate::config::source::Origin;
use crate::config::tree::{Node, NodeKind};
use crate::config::view::ids::normalize_agent_id;
use crate::config::view::keys;
use crate::release::loader::WorkspaceLayout;
use crate::release::migrations::ReleaseMigrations;

type Members = IndexMap<String, Node>;

fn key(k: &str) -> PathSeg {
    PathSeg::key(k)
}

fn object(members: Members, origin: Option<Arc<Origin>>) -> Node {
    Node::new(NodeKind::Object(members), origin)
}

fn string(value: &str, origin: Option<Arc<Origin>>) -> Node {
    Node::new(NodeKind::String(value.to_string()), origin)
}

/// `parseLegacyAgentRoster`: every entry an object whose `id` is a trimmed, non-empty, already
/// normalized and unique string; anything else and the list is not converted at all.
fn parse_legacy_list(list: &Node) -> Option<Vec<(String, Node)>> {
    let items = list.as_array()?;
    let mut entries: Vec<(String, Node)> = Vec::with_capacity(items.len());
    for item in items {
        let fields = item.as_object()?;
        let id = fields.get(keys::ID)?.as_str()?;
        if id.is_empty() || js_trim(id) != id || normalize_agent_id(id) != id || entries.iter().any(|(e, _)| e == id) {
            return None;
        }
        let mut config = fields.clone();
        config.shift_remove(keys::ID);
        entries.push((id.to_string(), object(config, item.origin.clone())));
    }
    Some(entries)
}

/// `readAgentRosterProperty`: the legacy `list`, when there is no `entries` (which wins).
fn legacy_list(agents: &Members) -> Option<&Node> {
    if agents.contains_key(keys::ENTRIES) { None } else { agents.get(keys::LIST) }
}

pub(super) fn migrate(
    root: &mut Node,
    data: &'static ReleaseMigrations,
    env: &MigrationEnv<'_>,
    out: &mut LoadMigration,
) {
    let root_fields = root.as_object().expect("root is an object");
    let (agents, agents_origin) = match root_fields.get(keys::AGENTS) {
        Some(agents) => match agents.as_object() {
            Some(fields) => (fields.clone(), agents.origin.clone()),
            None => return,
        },
        None => (Members::new(), None),
    };
    let explicit = agents.get(keys::OWNERSHIP).and_then(Node::as_str) == Some("explicit");
    let mut next_agents = agents.clone();
    let mut diagnostics: Vec<(String, Option<Arc<Origin>>)> = Vec::new();
    let mut forms: Vec<MigratedForm> = Vec::new();
    let mut legacy_order: Option<Vec<String>> = None;
    // The workspace a converted list pins on its first agent (never with a marker, so never with an owner).
    let mut pinned_workspace = None;

    if let Some(list) = legacy_list(&agents) {
        let Some(entries) = parse_legacy_list(list) else { return };
        let ids: Vec<String> = entries.iter().map(|(id, _)| id.clone()).collect();
        let entry_values: Vec<&Node> = entries.iter().map(|(_, entry)| entry).collect();
        pinned_workspace = first_agent_workspace_pin(&agents, &entry_values, env);
        forms.push(list_form(data, &ids, list.origin.clone(), pinned_workspace.clone()));
        diagnostics.push((data.load_warning("rosterMovedList", &[]), list.origin.clone()));
        next_agents.shift_remove(keys::LIST);
        next_agents.insert(keys::ENTRIES.into(), object(entries.into_iter().collect(), list.origin.clone()));
        legacy_order = Some(ids);
    }
    let converted = legacy_order.is_some();

    let (roster, roster_origin) = match next_agents.get(keys::ENTRIES) {
        None => (Members::new(), None),
        Some(entries) => match entries.as_object() {
            Some(fields) => (fields.clone(), entries.origin.clone()),
            None => return,
        },
    };
    if roster.is_empty() {
        if explicit && !converted {
            return;
        }
        if !explicit {
            let main = Members::from([("main".to_string(), object(Members::new(), None))]);
            next_agents.insert(keys::ENTRIES.into(), object(main, roster_origin));
            out.implicit_roster = true;
        }
        commit(root, next_agents, agents_origin, diagnostics, forms, out);
        return;
    }
    let valid_ids: Vec<String> = match &legacy_order {
        Some(order) => order.clone(),
        None => roster.iter().filter(|(_, e)| e.is_object()).map(|(id, _)| id.clone()).collect(),
    };
    if valid_ids.is_empty() {
        return;
    }
    let marker = |id: &str| roster[id].member(keys::DEFAULT);
    if valid_ids.iter().any(|id| marker(id).is_some_and(|m| !matches!(m.kind, NodeKind::Bool(_)))) {
        return;
    }
    let marked: Vec<&String> =
        valid_ids.iter().filter(|id| matches!(marker(id).map(|m| &m.kind), Some(NodeKind::Bool(true)))).collect();
    let single_marker = !explicit && marked.len() == 1;
    let owner = (valid_ids.len() > 1 && single_marker).then(|| normalize_agent_id(marked[0]));
    let marker_origin = marked.first().and_then(|id| marker(id)).and_then(|m| m.origin.clone());
    let marker_forms: Vec<(Vec<PathSeg>, Option<Arc<Origin>>)> = valid_ids
        .iter()
        .enumerate()
        .filter_map(|(index, id)| {
            let node = marker(id)?;
            let entry = match &legacy_order {
                Some(_) => vec![key(keys::AGENTS), key(keys::LIST), PathSeg::Index(index), key(keys::DEFAULT)],
                None => vec![key(keys::AGENTS), key(keys::ENTRIES), key(id), key(keys::DEFAULT)],
            };
            Some((entry, node.origin.clone()))
        })
        .collect();
    let mut changed = converted;

    if converted
        && owner.is_none()
        && let Some(workspace) = pinned_workspace
    {
        let first = &valid_ids[0];
        let first_origin = roster[first.as_str()].origin.clone();
        if let Some(fields) =
            next_agents.get_mut(keys::ENTRIES).and_then(|e| e.as_object_mut()?.get_mut(first)?.as_object_mut())
        {
            fields.insert(keys::WORKSPACE.into(), string(&workspace, first_origin));
        }
        diagnostics.push((data.load_warning("rosterPreservedWorkspace", &[]), roster_origin.clone()));
    }

    if let Some(owner) = &owner {
        let mut candidate = root.clone();
        set_agents(&mut candidate, next_agents.clone(), agents_origin.clone());
        if materialize_roles(&mut candidate, owner, marker_origin.clone(), &data.channel_aliases) {
            diagnostics.push((data.load_warning("rosterMaterialized", &[]), marker_origin.clone()));
            changed = true;
            next_agents = candidate.member(keys::AGENTS).and_then(Node::as_object).cloned().expect("agents object");
            *root = candidate;
        }
    }
    if single_marker {
        if let Some(entries) = next_agents.get_mut(keys::ENTRIES).and_then(Node::as_object_mut) {
            for entry in entries.values_mut() {
                if let Some(fields) = entry.as_object_mut() {
                    fields.shift_remove(keys::DEFAULT);
                }
            }
        }
        diagnostics.push((data.load_warning("rosterRemovedMarkers", &[]), marker_origin.clone()));
        changed = true;
        // What the marker made the release write, to be written in the file with the marker's removal.
        let ownership = match (&owner, &marker_origin, &agents_origin) {
            // Without an owner the marker changes nothing: removing it is all.
            (None, ..) => Some(Vec::new()),
            (Some(_), Some(marker), Some(agents)) => materialized_edits(root, marker).map(|mut edits| {
                edits.push(ConfigEdit::new(Place::member_of(agents, keys::OWNERSHIP), Change::Set("explicit".into())));
                edits
            }),
            _ => None,
        };
        forms.extend(marker_forms.into_iter().map(|(path, origin)| {
            let marks = origin.as_ref().zip(marker_origin.as_ref()).is_some_and(|(o, m)| Arc::ptr_eq(o, m));
            let with = if marks { ownership.clone() } else { Some(Vec::new()) };
            marker_form(data, owner.as_deref(), path, origin, with)
        }));
    }
    if changed {
        out.legacy_owner = owner;
        commit(root, next_agents, agents_origin, diagnostics, forms, out);
    }
}

fn list_form(
    data: &'static ReleaseMigrations,
    ids: &[String],
    origin: Option<Arc<Origin>>,
    workspace: Option<String>,
) -> MigratedForm {
    let entries: Vec<String> = ids.iter().map(|id| format!("{}: {{ … }}", js_key(id))).collect();
    let autofix = origin.as_deref().map(|list| {
        let edit = ConfigEdit::new(Place::written(list), Change::ListToEntries { workspace });
        Autofix::new("write `agents.list` as keyed `agents.entries`", Safety::Safe, vec![edit])
    });
    MigratedForm {
        autofix,
        form: "agents-list",
        path: vec![key(keys::AGENTS), key(keys::LIST)],
        origin,
        message: format!("`agents.list` is retired: OpenClaw {}", data.form("agents-list").action),
        fix: format!(
            "replace `list: [ … ]` with `entries: {{ {} }}` (each entry's settings without its `id`), or run `openclaw doctor --fix`",
            entries.join(", ")
        ),
    }
}

/// A `default` marker's form; `materialized` holds what must be written with the marker's
/// removal (`None`: it cannot be placed in a file).
fn marker_form(
    data: &'static ReleaseMigrations,
    owner: Option<&str>,
    path: Vec<PathSeg>,
    origin: Option<Arc<Origin>>,
    materialized: Option<Vec<ConfigEdit>>,
) -> MigratedForm {
    let action = &data.form("default-marker").action;
    let (message, fix) = match owner {
        Some(owner) => (
            format!(
                "`default: true` is retired: OpenClaw {action}, after making `{owner}` the owner of heartbeats, the system agent, talk and every unbound channel"
            ),
            format!(
                "remove `default: true` and add `agents.ownership: \"explicit\"` with `agents.defaults.systemAgent.agentId: \"{owner}\"` (plus channel bindings for `{owner}`), or run `openclaw doctor --fix`"
            ),
        ),
        None => (
            format!("`default` is retired: OpenClaw {action}"),
            "remove `default` (the release ignores it here), or run `openclaw doctor --fix`".to_string(),
        ),
    };
    let autofix = origin.as_deref().zip(materialized).map(|(marker, mut edits)| {
        edits.insert(0, ConfigEdit::new(Place::written(marker), Change::Remove));
        let title = match owner {
            Some(owner) => format!("remove `default: true` and write the roles it gives `{owner}`"),
            None => "remove the retired `default` marker".to_string(),
        };
        Autofix::new(title, Safety::Safe, edits)
    });
    MigratedForm { form: "default-marker", path, origin, message, fix, autofix }
}

/// The edits that write, where the config is written, every value the release materialized from
/// `marker` (values whose origin is the marker, placed at their nearest written parent). `None`
/// when one has no written parent.
fn materialized_edits(root: &Node, marker: &Arc<Origin>) -> Option<Vec<ConfigEdit>> {
    fn visit(node: &Node, marker: &Arc<Origin>, edits: &mut Vec<ConfigEdit>) -> Option<()> {
        let written = node.origin.as_deref();
        let is_marker = |child: &Node| child.origin.as_ref().is_some_and(|o| Arc::ptr_eq(o, marker));
        match &node.kind {
            NodeKind::Object(fields) => {
                for (name, child) in fields {
                    // The marker itself (still in the tree) is what the fix removes.
                    let the_marker = name == keys::DEFAULT && matches!(child.kind, NodeKind::Bool(_));
                    if is_marker(child) && !the_marker {
                        edits.push(ConfigEdit::new(Place::member_of(written?, name), Change::Set(child.to_value())));
                    } else {
                        visit(child, marker, edits)?;
                    }
                }
            }
            NodeKind::Array(items) => {
                for child in items {
                    if is_marker(child) {
                        edits.push(ConfigEdit::new(Place::written(written?), Change::Append(child.to_value())));
                    } else {
                        visit(child, marker, edits)?;
                    }
                }
            }
            _ => {}
        }
        Some(())
    }
    let mut edits = Vec::new();
    visit(root, marker, &mut edits)?;
    Some(edits)
}

/// A key as it can be written in JSON5 (quoted when it is not an identifier).
fn js_key(id: &str) -> String {
    let identifier = id.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier { id.to_string() } else { serde_json::Value::String(id.to_string()).to_string() }
}

/// `{ ...root, agents }`: the agents object in place (appended when the root had none).
fn set_agents(root: &mut Node, agents: Members, origin: Option<Arc<Origin>>) {
    let fields = root.as_object_mut().expect("root is an object");
    match fields.get_mut(keys::AGENTS) {
        Some(existing) => existing.kind = NodeKind::Object(agents),
        None => {
            fields.insert(keys::AGENTS.into(), object(agents, origin));
        }
    }
}

fn commit(
    root: &mut Node,
    agents: Members,
    agents_origin: Option<Arc<Origin>>,
    diagnostics: Vec<(String, Option<Arc<Origin>>)>,
    forms: Vec<MigratedForm>,
    out: &mut LoadMigration,
) {
    set_agents(root, agents, agents_origin);
    for (message, origin) in diagnostics {
        out.warn(vec![key(keys::AGENTS), key(keys::ENTRIES)], message, origin);
    }
    out.forms.extend(forms);
}

/// `resolveLegacyFirstAgentWorkspacePin`: a converted multi-agent list without ownership and
/// without any `default: true` keeps the first agent on the default workspace.
fn first_agent_workspace_pin(agents: &Members, entries: &[&Node], env: &MigrationEnv<'_>) -> Option<String> {
    let unmarked =
        entries.iter().all(|e| e.member(keys::DEFAULT).is_none_or(|d| matches!(d.kind, NodeKind::Bool(false))));
    if agents.contains_key(keys::OWNERSHIP) || entries.len() < 2 || !unmarked {
        return None;
    }
    let workspace = entries[0].member(keys::WORKSPACE);
    let blank = workspace.is_none_or(|w| w.as_str().is_some_and(|s| js_trim(s).is_empty()));
    if !blank {
        return None;
    }
    let configured =
        agents.get(keys::DEFAULTS).and_then(|d| d.member(keys::WORKSPACE)).and_then(Node::as_str).map(js_trim);
    Some(match configured.filter(|w| !w.is_empty()) {
        Some(dir) => dir.to_string(),
        // The layout of the releases that migrate legacy rosters while loading.
        None => {
            discovery::default_workspace_dir(env.env, env.cwd, WorkspaceLayout::DefaultsPerAgent).display().to_string()
        }
    })
}

/// `materializeLegacyDefaultAgentRoles` as the loader runs it (no workspace, no ambient channels):
/// channel-wide bindings for unbound channels, `agents.defaults.{heartbeat,systemAgent,
/// authInheritance,sessionStore}.agentId` and `talk.agentId`. Inserted values point at the marker.
/// Returns whether anything was inserted.
fn materialize_roles(
    root: &mut Node,
    owner: &str,
    marker: Option<Arc<Origin>>,
    aliases: &BTreeMap<String, String>,
) -> bool {
    let agent_id = normalize_agent_id(owner);
    let before = root.clone();
    let mut inserted = false;
    let id_node = || string(&agent_id, marker.clone());
    let fields = root.as_object_mut().expect("root is an object");

    let channels = unbound_channels(&before, aliases);
    if !channels.is_empty() {
        let mut bindings = match before.member(keys::BINDINGS).map(|b| &b.kind) {
            Some(NodeKind::Array(items)) => items.clone(),
            _ => Vec::new(),
        };
        for channel in channels {
            let matcher = Members::from([
                (keys::CHANNEL.to_string(), string(&channel, marker.clone())),
                (keys::ACCOUNT_ID.to_string(), string("*", marker.clone())),
            ]);
            let binding = Members::from([
                (keys::AGENT_ID.to_string(), id_node()),
                (keys::MATCH.to_string(), object(matcher, marker.clone())),
            ]);
            bindings.push(object(binding, marker.clone()));
        }
        match fields.get_mut(keys::BINDINGS) {
            Some(existing) => existing.kind = NodeKind::Array(bindings),
            None => {
                fields.insert(keys::BINDINGS.into(), Node::new(NodeKind::Array(bindings), marker.clone()));
            }
        }
        inserted = true;
    }

    let raw_defaults = before.get(&[key(keys::AGENTS), key(keys::DEFAULTS)]);
    if raw_defaults.is_none_or(Node::is_object) {
        let defaults = raw_defaults.and_then(Node::as_object);
        let sole = sole_agent_id(&before).unwrap_or_else(|| "main".to_string());
        let unset = |name: &str| match defaults.and_then(|d| d.get(name)) {
            None => true,
            Some(value) => value.is_object() && !has_key(value, keys::AGENT_ID),
        };
        let entry_has_heartbeat =
            agent_entries(&before).iter().any(|e| e.member(keys::HEARTBEAT).is_some_and(is_truthy));
        let store = before.get(&[key(keys::SESSION), key(keys::STORE)]).and_then(Node::as_str);
        let fixed_store = store.is_some_and(|s| !js_trim(s).is_empty() && !s.contains("{agentId}"));
        let wanted = [
            (keys::HEARTBEAT, !entry_has_heartbeat && defaults.and_then(|d| d.get(keys::HEARTBEAT)).is_none()),
            (keys::SYSTEM_AGENT, unset(keys::SYSTEM_AGENT)),
            (keys::AUTH_INHERITANCE, normalize_agent_id(&sole) != agent_id && unset(keys::AUTH_INHERITANCE)),
            (keys::SESSION_STORE, fixed_store && unset(keys::SESSION_STORE)),
        ];
        let mut materialized = defaults.cloned().unwrap_or_default();
        let mut changed = false;
        for (name, enabled) in wanted {
            if !enabled {
                continue;
            }
            match materialized.get_mut(name) {
                Some(existing) if existing.is_object() => {
                    existing.as_object_mut().expect("object").insert(keys::AGENT_ID.into(), id_node());
                }
                Some(existing) => {
                    *existing = object(Members::from([(keys::AGENT_ID.to_string(), id_node())]), marker.clone())
                }
                None => {
                    materialized.insert(
                        name.into(),
                        object(Members::from([(keys::AGENT_ID.to_string(), id_node())]), marker.clone()),
                    );
                }
            }
            changed = true;
        }
        if changed {
            let agents = fields.get_mut(keys::AGENTS).and_then(Node::as_object_mut).expect("agents object");
            match agents.get_mut(keys::DEFAULTS) {
                Some(existing) => existing.kind = NodeKind::Object(materialized),
                None => {
                    agents.insert(keys::DEFAULTS.into(), object(materialized, marker.clone()));
                }
            }
            inserted = true;
        }
    }

    let talk = before.member(keys::TALK);
    if talk.is_none_or(Node::is_object) && !talk.is_some_and(|t| has_key(t, keys::AGENT_ID)) {
        match fields.get_mut(keys::TALK).and_then(Node::as_object_mut) {
            Some(existing) => {
                existing.insert(keys::AGENT_ID.into(), id_node());
            }
            None => {
                fields.insert(
                    keys::TALK.into(),
                    object(Members::from([(keys::AGENT_ID.to_string(), id_node())]), marker.clone()),
                );
            }
        }
        inserted = true;
    }
    inserted
}

/// JavaScript truthiness of a JSON value.
fn is_truthy(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Null => false,
        NodeKind::Bool(b) => *b,
        NodeKind::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        NodeKind::String(s) => !s.is_empty(),
        NodeKind::Array(_) | NodeKind::Object(_) => true,
    }
}

/// `listAgentEntries`: object entries of `agents.entries`, else object items of `agents.list`.
fn agent_entries(root: &Node) -> Vec<&Node> {
    let Some(agents) = root.member(keys::AGENTS).filter(|a| a.is_object()) else { return Vec::new() };
    if let Some(entries) = agents.member(keys::ENTRIES) {
        return entries.as_object().map(|e| e.values().filter(|v| v.is_object()).collect()).unwrap_or_default();
    }
    match agents.member(keys::LIST).map(|l| &l.kind) {
        Some(NodeKind::Array(items)) => {
            items.iter().filter(|i| matches!(i.kind, NodeKind::Object(_) | NodeKind::Array(_))).collect()
        }
        _ => Vec::new(),
    }
}

/// `tryResolveSoleAgentId` on the keyed roster the loader has just produced.
fn sole_agent_id(root: &Node) -> Option<String> {
    let entries = root.get(&[key(keys::AGENTS), key(keys::ENTRIES)]).and_then(Node::as_object)?;
    let mut objects = entries.iter().filter(|(_, e)| e.is_object());
    match (objects.next(), objects.next()) {
        (Some((id, _)), None) => Some(normalize_agent_id(id)),
        _ => None,
    }
}

/// `listUnboundAmbientChannelIds` without ambient (environment) channels: the configured
/// channels (not `defaults`/`modelByChannel`, not `enabled: false`) that no channel-wide binding
/// (`accountId: "*"`, no peer/guild/team/roles) already routes, sorted.
fn unbound_channels(root: &Node, aliases: &BTreeMap<String, String>) -> Vec<String> {
    let bindings = match root.member(keys::BINDINGS).map(|b| &b.kind) {
        None | Some(NodeKind::Null) => &[][..],
        Some(NodeKind::Array(items)) => items.as_slice(),
        Some(_) => return Vec::new(),
    };
    let bindings: Vec<&Node> = bindings
        .iter()
        .filter(|b| b.is_object() && b.member(keys::TYPE).and_then(Node::as_str) != Some("acp"))
        .collect();
    let mut channels: Vec<String> = Vec::new();
    for (id, value) in root.member(keys::CHANNELS).and_then(Node::as_object).into_iter().flatten() {
        let Some(channel) = route_channel_id(id, aliases) else { continue };
        let metadata = matches!(js_trim(id), keys::DEFAULTS | keys::MODEL_BY_CHANNEL);
        let disabled = value.member(keys::ENABLED).is_some_and(|e| matches!(e.kind, NodeKind::Bool(false)));
        if !metadata && !disabled && !channels.contains(&channel) {
            channels.push(channel);
        }
    }
    channels.sort();
    channels.retain(|channel| !bindings.iter().any(|b| is_channel_wide_binding(b, channel, aliases)));
    channels
}

fn is_channel_wide_binding(binding: &Node, channel: &str, aliases: &BTreeMap<String, String>) -> bool {
    let Some(matcher) = binding.member(keys::MATCH).filter(|m| m.is_object()) else { return false };
    let text = |name: &str| matcher.member(name).and_then(Node::as_str).map(js_trim);
    text(keys::CHANNEL).and_then(|c| route_channel_id(c, aliases)).as_deref() == Some(channel)
        && text(keys::ACCOUNT_ID) == Some("*")
        && matcher.member(keys::PEER).is_none()
        && text(keys::GUILD_ID).is_none_or(str::is_empty)
        && text(keys::TEAM_ID).is_none_or(str::is_empty)
        && matcher.member(keys::ROLES).and_then(Node::as_array).is_none_or(|r| r.is_empty())
}

/// `normalizeRouteBindingChannelId`: a chat channel alias by its canonical id, any other id
/// trimmed and lower-cased; blank ids are none.
fn route_channel_id(raw: &str, aliases: &BTreeMap<String, String>) -> Option<String> {
    let id = js_trim(raw).to_lowercase();
    if id.is_empty() {
        return None;
    }
    Some(aliases.get(&id).cloned().unwrap_or(id))
}
