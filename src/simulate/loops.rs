//! Tool-call loop detection as OpenClaw configures it (`tools.loopDetection`): repeated identical
//! calls, polling without progress, ping-pong between two calls, and the global circuit breaker.
//! A critical hit blocks the call; a warning lets it run.

use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::OpenClawVersion;
use crate::config::view::tools::{LoopCount, LoopDetection, LoopDetector, ToolsScope};

/// The settings in force, after OpenClaw's defaults and clamps.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoopSettings {
    pub enabled: bool,
    pub history_size: usize,
    pub warning_threshold: usize,
    pub critical_threshold: usize,
    pub global_circuit_breaker_threshold: usize,
    pub generic_repeat: bool,
    pub known_poll_no_progress: bool,
    pub ping_pong: bool,
    /// 2026.9 blocks a non-poll call whose identical outcome repeated `critical_threshold` times.
    pub generic_critical: bool,
}

impl LoopSettings {
    /// `tools.loopDetection` (the agent's block field by field over the global one), read as
    /// the release reads it (`toolCalls.loopDetection` in its data).
    pub fn resolve(version: OpenClawVersion, config: &Value, agent_tools: Option<&ToolsScope<'_>>) -> Self {
        let rules = &version.policy().tool_calls.loop_detection;
        let config = LoopDetection::new(ToolsScope::global(config).as_ref(), agent_tools);
        let number = |count: LoopCount, default: usize| {
            if !rules.configurable {
                return default;
            }
            config.count(count).and_then(|v| v.as_u64()).filter(|n| *n > 0).map_or(default, |n| n as usize)
        };
        let switch =
            |detector| !rules.configurable || config.detector(detector).and_then(|v| v.as_bool()).unwrap_or(true);
        let warning_threshold = number(LoopCount::WarningThreshold, rules.warning_threshold);
        let critical_threshold =
            number(LoopCount::CriticalThreshold, rules.critical_threshold).max(warning_threshold + 1);
        let global_circuit_breaker_threshold =
            number(LoopCount::GlobalCircuitBreakerThreshold, rules.global_circuit_breaker_threshold)
                .max(critical_threshold + 1);
        LoopSettings {
            enabled: config.enabled().and_then(|v| v.as_bool()) == Some(true),
            history_size: number(LoopCount::HistorySize, rules.history_size),
            warning_threshold,
            critical_threshold,
            global_circuit_breaker_threshold,
            generic_repeat: switch(LoopDetector::GenericRepeat),
            known_poll_no_progress: switch(LoopDetector::KnownPollNoProgress),
            ping_pong: switch(LoopDetector::PingPong),
            generic_critical: rules.generic_critical,
        }
    }
}

/// One remembered call.
#[derive(Debug, Clone)]
struct Record {
    tool: String,
    args_hash: String,
    result_hash: Option<String>,
}

/// What the detector says about the next call.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct LoopHit {
    /// `warning` or `critical`.
    pub level: &'static str,
    pub detector: &'static str,
    pub count: usize,
    pub message: String,
}

/// The session's call history.
#[derive(Debug, Default)]
pub struct LoopState {
    history: Vec<Record>,
}

/// Deterministic JSON: object keys sorted at every level.
pub fn stable_json(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", serde_json::to_string(k).unwrap_or_default(), stable_json(&map[k])))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(stable_json).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

fn digest(value: &Value) -> String {
    crate::exec::satisfy::allowlist::hex(&Sha256::digest(stable_json(value).as_bytes()))
}

fn is_known_poll(tool: &str, params: &Value) -> bool {
    tool == "command_status"
        || (tool == "process" && matches!(params.get("action").and_then(Value::as_str), Some("poll" | "log")))
}

impl LoopState {
    /// Consecutive identical outcomes of this exact call, newest first.
    fn no_progress_streak(&self, tool: &str, args_hash: &str) -> usize {
        let mut latest: Option<&str> = None;
        let mut streak = 0;
        for record in self.history.iter().rev().filter(|r| r.tool == tool && r.args_hash == args_hash) {
            let Some(result) = record.result_hash.as_deref() else { continue };
            match latest {
                None => {
                    latest = Some(result);
                    streak = 1;
                }
                Some(first) if first == result => streak += 1,
                Some(_) => break,
            }
        }
        streak
    }

    /// Length of the alternating A/B tail if the next call continues it, and whether every
    /// call of the tail returned the same result as its twin.
    fn ping_pong(&self, current: &str) -> (usize, bool) {
        let Some(last) = self.history.last() else { return (0, false) };
        let Some(other) = self.history.iter().rev().skip(1).find(|r| r.args_hash != last.args_hash) else {
            return (0, false);
        };
        let tail = self
            .history
            .iter()
            .rev()
            .enumerate()
            .take_while(|(i, r)| &r.args_hash == if i % 2 == 0 { &last.args_hash } else { &other.args_hash })
            .count();
        if tail < 2 || current != other.args_hash {
            return (0, false);
        }
        let window = &self.history[self.history.len() - tail..];
        let same = |hash: &str| {
            let results: Vec<Option<&String>> =
                window.iter().filter(|r| r.args_hash == hash).map(|r| r.result_hash.as_ref()).collect();
            results.iter().all(Option::is_some) && results.windows(2).all(|w| w[0] == w[1])
        };
        (tail + 1, same(&last.args_hash) && same(&other.args_hash))
    }

    /// Checks the next call against the history (before it is recorded).
    pub fn detect(&self, settings: &LoopSettings, tool: &str, params: &Value) -> Option<LoopHit> {
        if !settings.enabled {
            return None;
        }
        let args_hash = format!("{tool}:{}", digest(params));
        let streak = self.no_progress_streak(tool, &args_hash);
        let poll = is_known_poll(tool, params);
        let hit = |level, detector, count, message: String| Some(LoopHit { level, detector, count, message });
        if streak >= settings.global_circuit_breaker_threshold {
            return hit(
                "critical",
                "global_circuit_breaker",
                streak,
                format!(
                    "CRITICAL: {tool} repeated identical no-progress outcomes {streak} times. Session execution blocked by global circuit breaker to prevent runaway loops."
                ),
            );
        }
        if poll && settings.known_poll_no_progress && streak >= settings.critical_threshold {
            return hit(
                "critical",
                "known_poll_no_progress",
                streak,
                format!(
                    "CRITICAL: Called {tool} with identical arguments and no progress {streak} times. This appears to be a stuck polling loop. Session execution blocked to prevent resource waste."
                ),
            );
        }
        if poll && settings.known_poll_no_progress && streak >= settings.warning_threshold {
            return hit(
                "warning",
                "known_poll_no_progress",
                streak,
                format!(
                    "WARNING: You have called {tool} {streak} times with identical arguments and no progress. Stop polling and either (1) increase wait time between checks, or (2) report the task as failed if the process is stuck."
                ),
            );
        }
        let (alternating, no_progress) = self.ping_pong(&args_hash);
        if settings.ping_pong && alternating >= settings.critical_threshold && no_progress {
            return hit(
                "critical",
                "ping_pong",
                alternating,
                format!(
                    "CRITICAL: You are alternating between repeated tool-call patterns ({alternating} consecutive calls) with no progress. This appears to be a stuck ping-pong loop. Session execution blocked to prevent resource waste."
                ),
            );
        }
        if settings.ping_pong && alternating >= settings.warning_threshold {
            return hit(
                "warning",
                "ping_pong",
                alternating,
                format!(
                    "WARNING: You are alternating between repeated tool-call patterns ({alternating} consecutive calls). This looks like a ping-pong loop; stop retrying and report the task as failed."
                ),
            );
        }
        if !poll && settings.generic_critical && streak >= settings.critical_threshold {
            return hit(
                "critical",
                "generic_repeat",
                streak,
                format!(
                    "CRITICAL: Called {tool} with identical outcomes {streak} times. Session execution blocked to prevent runaway loops."
                ),
            );
        }
        let recent = self.history.iter().filter(|r| r.tool == tool && r.args_hash == args_hash).count();
        if !poll && settings.generic_repeat && recent >= settings.warning_threshold {
            return hit(
                "warning",
                "generic_repeat",
                recent,
                format!(
                    "WARNING: You have called {tool} {recent} times with identical arguments. If this is not making progress, stop retrying and report the task as failed."
                ),
            );
        }
        None
    }

    /// Remembers a call that was let through, with its result when the scenario gives one.
    pub fn record(&mut self, settings: &LoopSettings, tool: &str, params: &Value, result: Option<&Value>) {
        if !settings.enabled {
            return;
        }
        self.history.push(Record {
            tool: tool.to_string(),
            args_hash: format!("{tool}:{}", digest(params)),
            result_hash: result.map(digest),
        });
        if self.history.len() > settings.history_size {
            let excess = self.history.len() - settings.history_size;
            self.history.drain(..excess);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn settings(version: OpenClawVersion) -> LoopSettings {
        LoopSettings::resolve(version, &json!({"tools": {"loopDetection": {"enabled": true}}}), None)
    }

    #[test]
    fn generic_repeat_warns_at_ten_and_blocks_on_identical_outcomes_in_2026_9() {
        let s = settings(OpenClawVersion::V2026_9);
        let mut state = LoopState::default();
        let params = json!({"path": "a"});
        for _ in 0..10 {
            assert_eq!(state.detect(&s, "read", &params).map(|h| h.level), None);
            state.record(&s, "read", &params, Some(&json!("same")));
        }
        assert_eq!(state.detect(&s, "read", &params).map(|h| (h.level, h.count)), Some(("warning", 10)));
        for _ in 0..10 {
            state.record(&s, "read", &params, Some(&json!("same")));
        }
        let hit = state.detect(&s, "read", &params).unwrap();
        assert_eq!((hit.level, hit.detector, hit.count), ("critical", "generic_repeat", 20));
        let legacy = settings(OpenClawVersion::V2026_2);
        let mut state = LoopState::default();
        for _ in 0..25 {
            state.record(&legacy, "read", &params, Some(&json!("same")));
        }
        assert_eq!(state.detect(&legacy, "read", &params).map(|h| h.level), Some("warning"));
    }

    #[test]
    fn disabled_by_default_and_thresholds_clamped() {
        let off = LoopSettings::resolve(OpenClawVersion::V2026_9, &json!({}), None);
        assert!(!off.enabled);
        let config =
            json!({"tools": {"loopDetection": {"enabled": true, "warningThreshold": 5, "criticalThreshold": 3}}});
        let s = LoopSettings::resolve(OpenClawVersion::V2026_2, &config, None);
        assert_eq!((s.warning_threshold, s.critical_threshold, s.global_circuit_breaker_threshold), (5, 6, 30));
        let fixed = LoopSettings::resolve(OpenClawVersion::V2026_9, &config, None);
        assert_eq!(fixed.warning_threshold, 10, "2026.9 reads only `enabled`");
    }

    #[test]
    fn ping_pong_and_polls() {
        let s = settings(OpenClawVersion::V2026_9);
        let mut state = LoopState::default();
        let (a, b) = (json!({"path": "a"}), json!({"path": "b"}));
        for i in 0..10 {
            let params = if i % 2 == 0 { &a } else { &b };
            state.record(&s, "read", params, Some(&json!(i % 2)));
        }
        assert_eq!(state.detect(&s, "read", &a).map(|h| (h.detector, h.count)), Some(("ping_pong", 11)));
        let poll = json!({"action": "poll", "sessionId": "x"});
        let mut state = LoopState::default();
        for _ in 0..20 {
            state.record(&s, "process", &poll, Some(&json!({"status": "running"})));
        }
        assert_eq!(
            state.detect(&s, "process", &poll).map(|h| (h.level, h.detector)),
            Some(("critical", "known_poll_no_progress"))
        );
        assert_eq!(stable_json(&json!({"b": 1, "a": [{"d": 2, "c": 3}]})), r#"{"a":[{"c":3,"d":2}],"b":1}"#);
    }
}
