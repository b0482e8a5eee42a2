//! `tools.exec.mode: "auto"` (2026.9): a call that would ask first goes to a model-backed reviewer
//! (`tools.exec.reviewer`), which allows, denies or hands it to a human. Whether the reviewer sees
//! a call is decided before it runs (`processGatewayAllowlist`): never under `ask: always`, for a
//! command with more segments than the release reviews, a shell started with login or interactive
//! startup files, a command that cannot be pinned to the executables it runs, a heredoc, or a
//! command whose allowlist plan needs a human. Not simulated: the reviewer's verdict (a model's)
//! and whether the release can pin a planned command's dispatch identity (when it cannot, the
//! reviewer defers to a human too).

use serde::Serialize;

use super::argv::shells::{has_startup_before_inline, shell_wrapper};
use super::{Ask, Decision, ExecOutcome};
use crate::release::exec::ExecRules;

/// Who decides a call that would ask.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AutoReview {
    /// The reviewer sees the call before any human.
    pub reviewed: bool,
    /// Why the call goes straight to a human, when it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub human_because: Option<String>,
}

/// The reviewer's place for this call; `None` unless mode `auto` is in force, the release has a
/// reviewer and the call would ask.
pub fn auto_review(outcome: &ExecOutcome, mode: Option<&str>, rules: &ExecRules) -> Option<AutoReview> {
    let max = rules.settings.auto_review_max_candidates?;
    if mode != Some("auto") || outcome.decision != Decision::Ask {
        return None;
    }
    let startup = outcome
        .segments
        .iter()
        .any(|s| shell_wrapper(&s.argv, &rules.wrappers).is_some() && has_startup_before_inline(&s.argv));
    let heredoc = outcome.plan_failure.as_ref().is_some_and(|f| f.reason == "heredoc");
    let unplanned = !outcome.analysis_ok;
    let human_because = if outcome.ask.value == Ask::Always {
        Some("ask=always: every call goes to a human".to_string())
    } else if outcome.segments.len() > max {
        Some(format!("more than {max} segments"))
    } else if startup {
        Some("a shell runs login or interactive startup files first".to_string())
    } else if heredoc {
        Some("a heredoc needs a human".to_string())
    } else if unplanned {
        Some("the command could not be planned, so it cannot be pinned to the executables it runs".to_string())
    } else {
        outcome.plan_unavailable_reason.as_ref().map(|reason| format!("the allowlist plan needs a human ({reason})"))
    };
    Some(AutoReview { reviewed: human_because.is_none(), human_because })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::OpenClawVersion;
    use crate::exec::{ExecRequest, evaluate};

    fn review(version: OpenClawVersion, command: &str, exec: serde_json::Value) -> Option<AutoReview> {
        let mut request = ExecRequest::new(command, "/tmp");
        request.config = std::borrow::Cow::Owned(json!({"tools": {"exec": exec}}));
        request.site.path_var = Some("/usr/bin:/bin".into());
        evaluate(&request, version).unwrap().auto_review
    }

    #[test]
    fn mode_auto_puts_the_reviewer_first_where_the_release_has_one() {
        let auto = json!({"mode": "auto", "host": "gateway"});
        assert!(review(OpenClawVersion::V2026_9, "ls -la", auto.clone()).unwrap().reviewed);
        let startup = review(OpenClawVersion::V2026_9, "bash -lc 'ls'", auto.clone()).unwrap();
        assert!(!startup.reviewed && startup.human_because.unwrap().contains("startup"));
        assert_eq!(review(OpenClawVersion::V2026_9, "ls", json!({"mode": "ask", "host": "gateway"})), None);
        assert_eq!(
            review(
                OpenClawVersion::V2026_2,
                "ls",
                json!({"security": "allowlist", "ask": "on-miss", "host": "gateway"})
            ),
            None
        );
    }
}
