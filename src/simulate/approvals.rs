//! The gateway's approval manager as a state machine: ids, idempotent registration, first
//! decision wins, expiry, and the grace period during which a resolved request stays visible.

use serde::Serialize;

/// Resolved entries stay observable this long (`EXEC_APPROVAL_RESOLVED_ENTRY_GRACE_MS`).
pub const RESOLVED_GRACE_MS: u64 = 15_000;

pub const DECISIONS: [&str; 3] = ["allow-once", "allow-always", "deny"];

#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    Pending,
    Resolved { decision: String, at_ms: u64 },
}

#[derive(Debug, Clone)]
struct Record {
    id: String,
    expires_at_ms: u64,
    allowed: Vec<&'static str>,
    state: State,
}

/// A registered request as the agent sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub id: String,
    /// The first 8 characters, shown to humans.
    pub slug: String,
    pub created_at_ms: u64,
    pub expires_at_ms: u64,
    pub allowed_decisions: Vec<&'static str>,
}

#[derive(Debug, Default)]
pub struct Manager {
    records: Vec<Record>,
    generated: u32,
}

fn valid_explicit_id(id: &str) -> bool {
    (1..=128).contains(&id.len())
        && id != "."
        && id != ".."
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

impl Manager {
    /// Entries still visible at `now`: pending and unexpired, or resolved within the grace period.
    fn visible(&self, now: u64) -> impl Iterator<Item = &Record> {
        self.records.iter().filter(move |r| match &r.state {
            State::Pending => now < r.expires_at_ms,
            State::Resolved { at_ms, .. } => now < at_ms + RESOLVED_GRACE_MS,
        })
    }

    /// Registers a request (an explicit id, or a generated one).
    pub fn register(
        &mut self,
        explicit: Option<&str>,
        now: u64,
        timeout_ms: u64,
        allowed: Vec<&'static str>,
    ) -> Result<Request, String> {
        let id = match explicit {
            Some(id) if id.starts_with("plugin:") => {
                return Err("approval ids starting with plugin: are reserved".into());
            }
            Some(id) if !valid_explicit_id(id) => {
                return Err("approval id must be 1-128 characters using only letters, numbers, '.', '_', ':', or '-', and cannot be '.' or '..'".into());
            }
            Some(id) => {
                match self.visible(now).find(|r| r.id == id).map(|r| &r.state) {
                    Some(State::Pending) => return Err("approval id already pending".into()),
                    Some(State::Resolved { .. }) => return Err(format!("approval id '{id}' already resolved")),
                    None => {}
                }
                id.to_string()
            }
            None => {
                self.generated += 1;
                format!("{:08x}-0000-4000-8000-{:012x}", self.generated, self.generated)
            }
        };
        self.records.retain(|r| r.id != id);
        let expires_at_ms = now + timeout_ms.max(1);
        self.records.push(Record { id: id.clone(), expires_at_ms, allowed: allowed.clone(), state: State::Pending });
        Ok(Request {
            slug: id.chars().take(8).collect(),
            id,
            created_at_ms: now,
            expires_at_ms,
            allowed_decisions: allowed,
        })
    }

    /// `/approve <id|prefix> <decision>` at `now`. Returns the decision now in force.
    pub fn resolve(&mut self, id_or_prefix: &str, decision: &str, now: u64) -> Result<String, String> {
        let decision = if decision == "always" { "allow-always" } else { decision };
        if !DECISIONS.contains(&decision) {
            return Err("invalid decision".into());
        }
        let exact = self.visible(now).any(|r| r.id == id_or_prefix);
        let matches: Vec<String> = self
            .visible(now)
            .filter(|r| if exact { r.id == id_or_prefix } else { r.id.starts_with(id_or_prefix) })
            .map(|r| r.id.clone())
            .collect();
        let id = match matches.as_slice() {
            [] => return Err("unknown or expired approval id".into()),
            [one] => one.clone(),
            _ => return Err("ambiguous approval id prefix; use the full id".into()),
        };
        let record = self.records.iter_mut().find(|r| r.id == id).expect("visible record exists");
        match &record.state {
            State::Resolved { decision: first, .. } if first == decision => Ok(first.clone()),
            State::Resolved { .. } => Err("approval already resolved".into()),
            State::Pending if !record.allowed.contains(&decision) => {
                Err(format!("{decision} is unavailable for this command"))
            }
            State::Pending => {
                record.state = State::Resolved { decision: decision.to_string(), at_ms: now };
                Ok(decision.to_string())
            }
        }
    }

    /// The decision recorded for `id`, if it was resolved before it expired.
    pub fn decision(&self, id: &str) -> Option<String> {
        self.records.iter().find(|r| r.id == id).and_then(|r| match &r.state {
            State::Resolved { decision, .. } => Some(decision.clone()),
            State::Pending => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifecycle() {
        let mut m = Manager::default();
        let all = DECISIONS.to_vec();
        let request = m.register(Some("abc12345xyz"), 0, 1000, all.clone()).unwrap();
        assert_eq!(request.slug, "abc12345");
        assert_eq!(m.register(Some("abc12345xyz"), 10, 1000, all.clone()).unwrap_err(), "approval id already pending");
        assert_eq!(m.resolve("abc1", "allow-once", 100), Ok("allow-once".into()));
        assert_eq!(m.resolve("abc12345xyz", "allow-once", 200), Ok("allow-once".into()), "same decision is idempotent");
        assert_eq!(m.resolve("abc12345xyz", "deny", 300).unwrap_err(), "approval already resolved");
        assert!(m.register(Some("abc12345xyz"), 400, 1000, all.clone()).unwrap_err().contains("already resolved"));
        assert_eq!(
            m.resolve("abc12345xyz", "deny", 100 + RESOLVED_GRACE_MS).unwrap_err(),
            "unknown or expired approval id"
        );
        assert!(
            m.register(Some("abc12345xyz"), 100 + RESOLVED_GRACE_MS, 1000, all.clone()).is_ok(),
            "gone after the grace period"
        );
        assert_eq!(
            m.resolve("abc12345xyz", "allow-once", 100 + RESOLVED_GRACE_MS + 1000).unwrap_err(),
            "unknown or expired approval id"
        );
        assert!(m.register(Some("plugin:x"), 0, 1000, all.clone()).unwrap_err().contains("reserved"));
        assert!(m.register(Some(".."), 0, 1000, all).is_err());
        let once = m.register(None, 0, 1000, vec!["allow-once", "deny"]).unwrap();
        assert_eq!(m.resolve(&once.id, "allow-always", 1).unwrap_err(), "allow-always is unavailable for this command");
        assert_eq!(m.resolve(&once.id, "maybe", 1).unwrap_err(), "invalid decision");
    }
}
