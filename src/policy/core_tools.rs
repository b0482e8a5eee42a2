//! The core tools the release's tool builder constructs for a run (`createOpenClawCodingTools` +
//! `createOpenClawTools`): the groups and their conditions are the release's data
//! (`coreTools`), each [`BuildCondition`] is decided here from the config and the session.

use serde_json::Value;

use super::construction::{ExplicitLists, InventoryTool, allowed, passes_steps};
use super::context::SessionContext;
use super::image_pairing;
use super::matcher::{CompiledPolicy, PluginGroups};
use super::rules::{Entry, Policy, Source};
use super::session::{Session, split_agent_key};
use super::shared::NameSet;
use super::steps::{Step, StepKind};
use crate::OpenClawVersion;
use crate::base::js::js_trim;
use crate::config::view::agents::AgentDefaults;
use crate::config::view::located::{strings, switched_off};
use crate::config::view::plugins::PluginsSection;
use crate::config::view::session::transcripts_switch;
use crate::config::view::tools::{ListKind, ToolsScope, WebTool};
use crate::release::pack::{BuildCondition, PlanToolRule, VersionPack};

/// What the conditions read, gathered once per run.
struct Builder<'s, 'a> {
    pack: &'static VersionPack,
    version: OpenClawVersion,
    config: &'a Value,
    session: &'s Session<'a>,
    ctx: &'s SessionContext,
    steps: &'s [Step],
    explicit: &'s ExplicitLists,
    global: Option<ToolsScope<'a>>,
    defaults: AgentDefaults<'a>,
}

/// The core tools built for this run, in the builder's order.
pub fn build<'a>(
    version: OpenClawVersion,
    config: &'a Value,
    session: &Session<'a>,
    ctx: &SessionContext,
    steps: &[Step],
    explicit: &ExplicitLists,
) -> Vec<InventoryTool> {
    let builder = Builder {
        pack: version.policy(),
        version,
        config,
        session,
        ctx,
        steps,
        explicit,
        global: ToolsScope::global(config),
        defaults: AgentDefaults::of(config),
    };
    let mut tools = Vec::new();
    for group in &builder.pack.core_tools {
        for tool in &group.tools {
            if builder.builds(&group.when, tool) {
                tools.push(InventoryTool { name: tool.clone(), plugin: None });
            }
        }
    }
    tools
}

impl<'a> Builder<'_, 'a> {
    fn builds(&self, condition: &BuildCondition, tool: &str) -> bool {
        let session = self.session;
        match condition {
            BuildCondition::Always => true,
            BuildCondition::WritableWorkspace => !read_only_sandbox(session),
            BuildCondition::ApplyPatchEnabled => apply_patch_built(self.pack, self.global.as_ref(), session, self.ctx),
            BuildCondition::VisionNotRuledOut => self.ctx.model_has_vision != Some(false),
            BuildCondition::NotSandboxed => !session.sandbox.sandboxed,
            BuildCondition::NotSandboxedOtherAgent => !session.sandbox.sandboxed && session.agent_id != tool,
            BuildCondition::Swarm { default } => {
                let agent = session.agent_tools.as_ref().and_then(ToolsScope::swarm_switch);
                agent.or_else(|| self.global.as_ref()?.swarm_switch()).unwrap_or(*default)
            }
            BuildCondition::WebSearchEnabled => !self.web_off(WebTool::Search),
            BuildCondition::WebSearchProviderPlugins => !self.web_off(WebTool::Search) && !self.plugins_off(),
            BuildCondition::WebFetchEnabled => !self.web_off(WebTool::Fetch),
            BuildCondition::VisionOrImageModel => self.ctx.model_has_vision == Some(true) || self.image_model(),
            BuildCondition::DocumentModel => self.document_model() && self.factory_admits(tool),
            BuildCondition::MediaModel(path) => self.media_model(path) && self.factory_admits(tool),
            BuildCondition::ImageModel => self.image_model(),
            BuildCondition::ConfiguredDocumentModel => self.document_model(),
            BuildCondition::ConfiguredMediaModel(path) => self.media_model(path),
            BuildCondition::TranscriptsEnabled => {
                transcripts_switch(self.config).is_some_and(|switch| switch.value.as_bool() == Some(true))
            }
            BuildCondition::PlanTool(rule) => self.plan_tool_built(tool, rule),
            BuildCondition::TranscriptChannels(channels) => {
                let channel = self.ctx.message_provider.as_deref().map(|m| m.trim().to_lowercase());
                let sender = self.ctx.sender_id.as_deref().is_some_and(|s| !s.trim().is_empty());
                !switched_off(transcripts_switch(self.config).as_ref())
                    && channel.is_some_and(|c| channels.contains(&c))
                    && sender
            }
            BuildCondition::PrimarySession => {
                is_primary(&session.session_key) && allowed(self.pack, tool, None, self.construction_deny())
            }
            BuildCondition::ProgressCard { subagent_policy } => self.progress_card_built(tool, *subagent_policy),
            BuildCondition::PairedImageModel => self
                .pack
                .image_model_pairing
                .as_ref()
                .is_some_and(|rules| image_pairing::image_tool_built(rules, self.config, self.version)),
        }
    }

    /// `plugins.enabled` is `false`.
    fn plugins_off(&self) -> bool {
        switched_off(PluginsSection::of(self.config).enabled().as_ref())
    }

    fn web_off(&self, tool: WebTool) -> bool {
        switched_off(self.global.as_ref().and_then(|g| g.web_enabled(tool)).as_ref())
    }

    /// `agents.defaults.imageModel` names a model.
    fn image_model(&self) -> bool {
        self.defaults.image_model().is_some_and(|m| m.names_a_model())
    }

    /// `agents.defaults.pdfModel` or `imageModel` names a model.
    fn document_model(&self) -> bool {
        self.defaults.pdf_model().is_some_and(|m| m.names_a_model()) || self.image_model()
    }

    /// The generation model setting at `path` under `agents.defaults` names a model.
    fn media_model(&self, path: &str) -> bool {
        self.defaults.media_model(path).is_some_and(|m| m.names_a_model())
    }

    fn global_list(&self, kind: ListKind) -> Vec<String> {
        strings(self.global.as_ref().and_then(|g| g.member(kind.key())).as_ref())
    }

    /// The deny lists construction checks: the global `tools.deny` and every policy's denies.
    fn construction_deny(&self) -> &NameSet {
        self.explicit.construction_deny.get_or_init(|| {
            let global = self.global_list(ListKind::Deny);
            NameSet::construction(self.pack, global.iter().chain(&self.explicit.deny).map(String::as_str))
        })
    }

    /// Whether a factory tool passes construction: plugins are on, and the global allowlist
    /// with every policy's allow entries (an alsoAllow-only policy adds `*`) and the
    /// construction-time denies admit it.
    fn factory_admits(&self, tool: &str) -> bool {
        if self.pack.media_tools_from_settings_alone {
            return true;
        }
        if self.plugins_off() {
            return false;
        }
        let mut allow = self.global_list(ListKind::Allow);
        let mut includes_defaults = false;
        for entry in &self.explicit.allow {
            match entry {
                Some(pattern) => allow.push(pattern.clone()),
                None => includes_defaults = true,
            }
        }
        if includes_defaults {
            allow.insert(0, "*".into());
        }
        allow.dedup();
        let allow = (!allow.is_empty()).then(|| NameSet::construction(self.pack, allow.iter().map(String::as_str)));
        allowed(self.pack, tool, allow.as_ref(), self.construction_deny())
    }

    /// `progress_card` must pass the profile, provider, global, agent and sub-agent policies
    /// (with shipped renames), the plugin denylist and the runtime allowlist, unless
    /// `tools.updatePlan` is off.
    fn progress_card_built(&self, tool: &str, subagent_policy: bool) -> bool {
        let pack = self.pack;
        if switched_off(self.global.as_ref().and_then(ToolsScope::update_plan).as_ref()) {
            return false;
        }
        // These checks apply the shipped renames, so a deny of `update_plan` blocks it.
        let deny = self.explicit.deny.iter().map(|p| Entry { pattern: p.clone(), source: Source::builtin("deny") });
        let renamed_deny = Policy { allow: None, deny: Some(deny.collect()) };
        if !CompiledPolicy::compile(pack, &renamed_deny, &PluginGroups::default()).evaluate(tool).keeps() {
            return false;
        }
        if let Some(runtime) = &self.ctx.tools_allow
            && (runtime.is_empty() || !allowed(pack, tool, Some(&runtime_set(pack, runtime)), &NameSet::default()))
        {
            return false;
        }
        let gating = [
            StepKind::Profile,
            StepKind::ProviderProfile,
            StepKind::Global,
            StepKind::GlobalProvider,
            StepKind::Agent,
            StepKind::AgentProvider,
        ];
        let gates = |kind: &StepKind| gating.contains(kind) || (subagent_policy && *kind == StepKind::Subagent);
        passes_steps(pack, self.steps.iter().filter(|s| gates(&s.kind)), tool)
    }
}

impl Builder<'_, '_> {
    /// 2026.5's `update_plan` (`shouldIncludeUpdatePlanToolForOpenClawTools`): named by the
    /// construction-time allowlists (an alsoAllow-only policy's "include defaults" names
    /// nothing) and not denied; else `tools.experimental.planTool`; else a strict-agentic run.
    fn plan_tool_built(&self, tool: &str, rule: &PlanToolRule) -> bool {
        let global_allow = [ListKind::Allow, ListKind::AlsoAllow].into_iter().flat_map(|kind| self.global_list(kind));
        let named: Vec<String> = global_allow.chain(self.explicit.allow.iter().flatten().cloned()).collect();
        let allow = NameSet::construction(self.pack, named.iter().map(String::as_str));
        if rule.named_by_allowlists
            && !allow.is_blank()
            && allowed(self.pack, tool, Some(&allow), self.construction_deny())
        {
            return true;
        }
        if let Some(configured) = self.global.as_ref().and_then(ToolsScope::experimental_plan_tool) {
            return configured;
        }
        let contract = self.session.agent.as_ref().and_then(|a| a.execution_contract(&rule.contract_block));
        let contract = contract.or_else(|| self.defaults.execution_contract(&rule.contract_block));
        contract != Some("default") && strict_agentic_model(self.ctx, &rule.strict_agentic_providers)
    }
}

/// A GPT-5-family model of one of `providers` (`isStrictAgenticSupportedProviderModel`): the
/// model id, without a `provider/` or `provider:` prefix, is `gpt-5` or starts with `gpt-5.`,
/// `gpt-5o` or `gpt-5-`, in any case.
fn strict_agentic_model(ctx: &SessionContext, providers: &[String]) -> bool {
    let provider = ctx.model_provider.as_deref().map(|p| js_trim(p).to_lowercase()).unwrap_or_default();
    if !providers.contains(&provider) {
        return false;
    }
    let model = js_trim(ctx.model_id.as_deref().unwrap_or_default());
    let bare = match model.find(['/', ':']) {
        Some(at) if at > 0 && at + 1 < model.len() => &model[at + 1..],
        _ => model,
    };
    let bare = bare.to_lowercase();
    bare.strip_prefix("gpt-5").is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', 'o', '-']))
}

/// A runtime `toolsAllow` list as construction reads it.
fn runtime_set(pack: &VersionPack, runtime: &[String]) -> NameSet {
    NameSet::construction(pack, runtime.iter().map(String::as_str))
}

/// Whether `tools.updatePlan` is off (then `progress_card` is never built).
pub fn update_plan_off(config: &Value) -> bool {
    switched_off(ToolsScope::global(config).and_then(|g| g.update_plan()).as_ref())
}

pub fn read_only_sandbox(session: &Session<'_>) -> bool {
    session.sandbox.sandboxed && session.sandbox.workspace_access == "ro"
}

/// Whether `apply_patch` is built: `tools.exec.applyPatch` (agent block over global), the model
/// allowlist, the provider gate (2026.2) and the sandbox.
fn apply_patch_built(
    pack: &VersionPack,
    global: Option<&ToolsScope<'_>>,
    session: &Session<'_>,
    ctx: &SessionContext,
) -> bool {
    let rules = &pack.apply_patch;
    let agent_setting = session.agent_tools.as_ref().and_then(ToolsScope::apply_patch);
    let settings = agent_setting.or_else(|| global?.apply_patch());
    let enabled = settings.as_ref().and_then(|s| s.enabled());
    if !enabled.unwrap_or(rules.enabled_by_default) || read_only_sandbox(session) {
        return false;
    }
    let provider = ctx.model_provider.as_deref().map(|p| p.trim().to_lowercase()).unwrap_or_default();
    if rules.providers.as_ref().is_some_and(|providers| !providers.contains(&provider)) {
        return false;
    }
    let allow_models = settings.map(|s| s.allow_models()).unwrap_or_default();
    if allow_models.is_empty() {
        return true;
    }
    let model = ctx.model_id.as_deref().map(|m| m.trim().to_lowercase()).unwrap_or_default();
    let qualified =
        if !provider.is_empty() && !model.contains('/') { format!("{provider}/{model}") } else { model.clone() };
    !model.is_empty() && allow_models.iter().any(|m| *m == model || *m == qualified)
}

/// The session is a primary one: not a sub-agent and not an ACP session.
pub fn is_primary(session_key: &str) -> bool {
    let key = session_key.trim().to_lowercase();
    let rest = split_agent_key(&key).map_or(key.as_str(), |(_, rest)| rest).to_string();
    !rest.starts_with("subagent:") && !rest.starts_with("acp:")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{inventory, steps};
    use serde_json::json;

    fn core(version: OpenClawVersion, config: &Value, ctx: SessionContext) -> Vec<String> {
        let session = Session::resolve(config, &ctx, version).unwrap();
        let built = steps::build(version, config, &session, &ctx);
        let inventory = inventory::construct(
            version.policy(),
            version,
            config,
            &session,
            &ctx,
            &built.steps,
            built.sandbox.as_deref(),
        );
        inventory.tools.into_iter().filter(|t| t.plugin.is_none()).map(|t| t.name).collect()
    }

    #[test]
    fn conditions_follow_the_session() {
        let v = OpenClawVersion::V2026_9;
        let config = json!({"agents": {"entries": {"openclaw": {}, "main": {}}}});
        let agent = |id: &str| SessionContext { agent_id: Some(id.into()), ..Default::default() };
        assert!(core(v, &config, agent("main")).contains(&"openclaw".to_string()));
        assert!(!core(v, &config, agent("openclaw")).contains(&"openclaw".to_string()));
        let sender = |channel: &str| SessionContext {
            message_provider: Some(channel.into()),
            sender_id: Some("u1".into()),
            ..agent("main")
        };
        assert!(core(v, &config, sender(" Telegram ")).contains(&"transcripts".to_string()));
        assert!(!core(v, &config, sender("voice")).contains(&"transcripts".to_string()));
        let off = json!({"transcripts": {"enabled": false}});
        assert!(!core(v, &off, sender("telegram")).contains(&"transcripts".to_string()));
    }

    #[test]
    fn factory_tools_need_a_model_plugins_and_the_allowlists() {
        let v = OpenClawVersion::V2026_9;
        let owner = || SessionContext { sender_is_owner: Some(true), ..Default::default() };
        let with = |extra: Value| {
            let mut config = json!({"agents": {"defaults": {"mediaModels": {"image": {"fallbacks": [" ", "x/y"]}}}}});
            config.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            core(v, &config, owner())
        };
        assert!(with(json!({})).contains(&"image_generate".to_string()));
        assert!(!with(json!({"plugins": {"enabled": false}})).contains(&"image_generate".to_string()));
        assert!(!with(json!({"tools": {"deny": ["group:media"]}})).contains(&"image_generate".to_string()));
        assert!(!core(v, &json!({}), owner()).contains(&"image_generate".to_string()));
    }
}
