//! What both pipelines share: the context a command is evaluated in ([`EvalContext`]: the
//! release's rules, allowlist, safe bins, environment), the per-segment result ([`Segment`],
//! [`SatisfiedBy`]) and the evaluation of a whole command ([`Evaluation`]).

use std::ops::Range;

use serde::Serialize;

use crate::exec::lookup::ExecEnv;
use crate::exec::satisfy::allowlist::AllowlistEntry;
use crate::exec::satisfy::safe_bins::SafeBinPolicy;
use crate::release::exec::ExecRules;

/// What satisfied a segment (OpenClaw's `segmentSatisfiedBy` values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SatisfiedBy {
    Allowlist,
    SafeBins,
    SafeBuiltins,
    Skills,
    /// A shell wrapper whose inline chain was satisfied part by part, safe bins among them
    /// (2026.5).
    InlineChain,
}

impl SatisfiedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            SatisfiedBy::Allowlist => "allowlist",
            SatisfiedBy::SafeBins => "safeBins",
            SatisfiedBy::SafeBuiltins => "safeBuiltins",
            SatisfiedBy::Skills => "skills",
            SatisfiedBy::InlineChain => "inlineChain",
        }
    }
}

/// How far a 2026.9 plan candidate may be trusted (spec §3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrustMode {
    Executable,
    PromptOnly,
    ExactCommand,
}

/// A skill CLI the gateway reports (`skills.bins`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillBin {
    pub name: String,
    pub resolved_path: String,
}

/// Everything segment evaluation needs besides the command text.
#[derive(Debug, Clone)]
pub struct EvalContext {
    /// The release's exec rules (wrappers, lookup, safe-bin validation, inline eval).
    pub rules: &'static ExecRules,
    pub allowlist: Vec<AllowlistEntry>,
    pub safe_bins: SafeBinPolicy,
    pub env: ExecEnv,
    pub windows: bool,
    pub auto_allow_skills: bool,
    pub skill_bins: Vec<SkillBin>,
}

/// Why analysis failed, with the span of the offending construct when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanFailure {
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Range<usize>>,
}

/// One evaluated segment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Segment {
    pub argv: Vec<String>,
    pub raw: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Range<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub real_path: Option<String>,
    /// argv after transparent wrappers were stripped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effective_argv: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wrapper_chain: Vec<String>,
    pub policy_blocked: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trust_mode: Option<TrustMode>,
    /// Why the segment cannot be trusted (prompt-only reasons, blocked wrappers).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<AllowlistEntry>,
    pub satisfied_by: Option<SatisfiedBy>,
    /// For a segment no allowlist entry satisfied: the nearest entries and why each missed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub near_misses: Vec<NearMiss>,
}

impl Segment {
    /// A segment reported for display only (analysis failed before evaluation).
    pub fn unevaluated(argv: Vec<String>, raw: String, span: Option<Range<usize>>) -> Segment {
        Segment {
            argv,
            raw,
            span,
            resolved_path: None,
            real_path: None,
            effective_argv: None,
            wrapper_chain: Vec::new(),
            policy_blocked: false,
            trust_mode: None,
            reasons: Vec::new(),
            matched: None,
            satisfied_by: None,
            near_misses: Vec::new(),
        }
    }
}

/// Why an allowlist entry near an unsatisfied segment missed it
/// ([`crate::exec::satisfy::near_miss`] finds them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MissReason {
    /// A bare name where the release matches resolved paths (or a path-invoked command).
    BareName,
    /// The entry names the path the command was found at; the release matches its real path.
    Symlink,
    /// The entry names a wrapper (`env`, `timeout`, `sh`), or a wrapper the release will not
    /// look through stands in front of the command.
    Wrapper,
    /// `*` stops at `/` (`**` crosses it), or the case differs.
    Glob,
    /// The path matches, the entry's argument pattern (an allow-always binding to argv and working
    /// directory, or a regex) does not.
    ArgvBound,
    /// The entry is in another agent's approvals bucket.
    OtherAgent,
    /// Same executable name, another directory.
    OtherPath,
}

/// One near miss.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NearMiss {
    pub pattern: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arg_pattern: Option<String>,
    /// Where the entry is (`agents.main.allowlist[0]`, `what-if --allow[0]`).
    pub origin: String,
    pub reason: MissReason,
    /// Why, in words, with what would match.
    pub why: String,
    /// An entry for this agent that would match (checked with the release's matcher).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow: Option<String>,
}

/// The result of evaluating a command against allowlist, safe bins, builtins and skills.
#[derive(Debug, Clone)]
pub struct Evaluation {
    pub analysis_ok: bool,
    /// Every segment satisfied (before the decision layer zeroes it outside allowlist mode).
    pub allowlist_satisfied: bool,
    pub segments: Vec<Segment>,
    pub plan_failure: Option<PlanFailure>,
    /// The command with each satisfied executable pinned to the path it resolved to (2026.9's
    /// enforced mode), or why it cannot be; `None` where the release pins nothing or the analysis
    /// failed.
    pub pinned: Option<Result<String, String>>,
}
