//! A channel's allowFrom formatter, run on entries and on sender values alike before they are
//! compared: the steps the release's data lists for the channel, then the trim-and-drop-empty
//! every release applies to a formatter's output (`resolveAllowFromFormatter`). Hand-written:
//! each step mirrors a line of the release's JavaScript (`normalizeE164`,
//! `normalizeWhatsAppTarget`, `normalizeReefTarget`, the anchored `/^(a|b):/i` strips), and the
//! slug of names (`normalizeAtHashSlug`).

use std::sync::LazyLock;

use regex::Regex;

use crate::base::js::{is_js_space, js_trim};
use crate::release::elevated::{FormatStep, NameSlug};

/// The steps of one channel's formatter.
#[derive(Debug, Clone, Copy)]
pub struct Formatter<'r> {
    pub steps: &'r [FormatStep],
}

impl Formatter<'_> {
    /// The formatted values, in order, empty results dropped.
    pub fn format<'v>(&self, values: impl IntoIterator<Item = &'v str>) -> Vec<String> {
        values
            .into_iter()
            .filter_map(|value| self.steps.iter().try_fold(value.to_string(), |value, step| apply(step, value)))
            .map(|value| js_trim(&value).to_string())
            .filter(|value| !value.is_empty())
            .collect()
    }
}

fn apply(step: &FormatStep, value: String) -> Option<String> {
    match step {
        FormatStep::Trim => Some(js_trim(&value).to_string()).filter(|v| !v.is_empty()),
        FormatStep::Lowercase => Some(value.to_lowercase()),
        FormatStep::StripPrefix(prefixes) => Some(strip_prefix_ignore_ascii_case(&value, prefixes).to_string()),
        FormatStep::StripSuffix(suffix) => Some(value.strip_suffix(suffix.as_str()).unwrap_or(&value).to_string()),
        FormatStep::E164 if value == "*" => Some(value),
        FormatStep::E164 => Some(normalize_e164(&value)),
        FormatStep::WhatsappTarget if value == "*" => Some(value),
        FormatStep::WhatsappTarget => whatsapp_target(&value),
        FormatStep::ReefHandle => Some(reef_handle(&value).unwrap_or(value)),
    }
}

/// `value` without the first of `prefixes` it starts with (ASCII case-insensitively).
pub fn strip_prefix_ignore_ascii_case<'v>(value: &'v str, prefixes: &[String]) -> &'v str {
    prefixes
        .iter()
        .find_map(|prefix| {
            let head = value.get(..prefix.len())?;
            head.eq_ignore_ascii_case(prefix).then(|| &value[prefix.len()..])
        })
        .unwrap_or(value)
}

/// `normalizeE164`: without a leading `whatsapp:`, trimmed, only digits and `+` kept, led by `+`.
fn normalize_e164(number: &str) -> String {
    let number = js_trim(number.strip_prefix("whatsapp:").unwrap_or(number));
    let digits: String = number.chars().filter(|c| c.is_ascii_digit() || *c == '+').collect();
    if digits.starts_with('+') { digits } else { format!("+{digits}") }
}

static WHATSAPP_USER_JID: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i-u)^([0-9]+)(?::[0-9]+)?@s\.whatsapp\.net$").expect("static regex"));
static WHATSAPP_LID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i-u)^([0-9]+)@lid$").expect("static regex"));
static WHATSAPP_GROUP_LOCAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[0-9]+(-[0-9]+)*$").expect("static regex"));

/// `normalizeWhatsAppTarget`: a group JID as `<id>@g.us`, a user JID or LID as its phone in E.164,
/// a phone number in E.164; `None` for anything else.
fn whatsapp_target(value: &str) -> Option<String> {
    let mut candidate = js_trim(value);
    loop {
        let next = js_trim(strip_prefix_ignore_ascii_case(candidate, &["whatsapp:".to_string()]));
        if next == candidate {
            break;
        }
        candidate = next;
    }
    if candidate.is_empty() {
        return None;
    }
    let group_local = candidate
        .len()
        .checked_sub(5)
        .filter(|&at| candidate.is_char_boundary(at) && candidate[at..].eq_ignore_ascii_case("@g.us"))
        .map(|at| &candidate[..at]);
    if let Some(local) = group_local
        && WHATSAPP_GROUP_LOCAL.is_match(local)
    {
        return Some(format!("{local}@g.us"));
    }
    let phone = [&*WHATSAPP_USER_JID, &*WHATSAPP_LID]
        .iter()
        .find_map(|re| re.captures(candidate))
        .map(|captures| captures[1].to_string());
    let number = match phone {
        Some(phone) => phone,
        None if candidate.contains('@') => return None,
        None => candidate.to_string(),
    };
    Some(normalize_e164(&number)).filter(|n| n.len() > 1)
}

static REEF_HANDLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[a-z0-9][a-z0-9_-]{0,62}$").expect("static regex"));

/// `normalizeReefTarget`: the lowercase handle without `reef:` or `@`, when it is a valid handle.
fn reef_handle(value: &str) -> Option<String> {
    let target = strip_prefix_ignore_ascii_case(js_trim(value), &["reef:".to_string(), "@".to_string()]).to_lowercase();
    REEF_HANDLE.is_match(&target).then_some(target)
}

static NOT_SLUG_UNICODE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[^\p{L}\p{M}\p{N}-]+").expect("static regex"));
static NOT_SLUG_ASCII: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[^a-z0-9-]+").expect("static regex"));
static DASHES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"-{2,}").expect("static regex"));

/// `normalizeAtHashSlug` as the release writes it.
pub fn slug(value: &str, kind: NameSlug) -> String {
    let lowered = js_trim(value).to_lowercase();
    let lowered = match kind {
        NameSlug::Ascii => lowered,
        NameSlug::UnicodeNfc => icu_normalizer::ComposingNormalizerBorrowed::new_nfc().normalize(&lowered).into_owned(),
    };
    if lowered.is_empty() {
        return String::new();
    }
    let unprefixed = lowered.trim_start_matches(['@', '#']);
    let mut dashed = String::with_capacity(unprefixed.len());
    let mut in_run = false;
    for c in unprefixed.chars() {
        let space = is_js_space(c) || c == '_';
        if !(space && in_run) {
            dashed.push(if space { '-' } else { c });
        }
        in_run = space;
    }
    let not_slug = match kind {
        NameSlug::Ascii => &*NOT_SLUG_ASCII,
        NameSlug::UnicodeNfc => &*NOT_SLUG_UNICODE,
    };
    let replaced = not_slug.replace_all(&dashed, "-");
    DASHES.replace_all(&replaced, "-").trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(json: &str) -> Vec<FormatStep> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn telegram_strips_its_prefixes_once_and_lowercases() {
        let telegram = steps(r#"["trim", {"stripPrefix": ["telegram:", "tg:"]}, "lowercase"]"#);
        let f = Formatter { steps: &telegram };
        assert_eq!(f.format(["TG:AbC", "telegram: 1", "tg:tg:1", "  "]), ["abc", "1", "tg:1"]);
    }

    #[test]
    fn e164_keeps_digits_and_plus() {
        assert_eq!(normalize_e164("+1 (555) 123-4567"), "+15551234567");
        assert_eq!(normalize_e164("whatsapp:15551234567"), "+15551234567");
        assert_eq!(normalize_e164("WhatsApp:1"), "+1");
        assert_eq!(normalize_e164(""), "+");
        assert_eq!(normalize_e164("1+2"), "+1+2");
    }

    #[test]
    fn whatsapp_targets() {
        assert_eq!(whatsapp_target("whatsapp:WHATSAPP:+1 555").as_deref(), Some("+1555"));
        assert_eq!(whatsapp_target("41796666864:0@s.whatsapp.net").as_deref(), Some("+41796666864"));
        assert_eq!(whatsapp_target("123@LID").as_deref(), Some("+123"));
        assert_eq!(whatsapp_target("120363-1@G.US").as_deref(), Some("120363-1@g.us"));
        assert_eq!(whatsapp_target("a@example.com"), None);
        assert_eq!(whatsapp_target("abc"), None);
    }

    #[test]
    fn reef_handles() {
        assert_eq!(reef_handle(" @Alice ").as_deref(), Some("alice"));
        assert_eq!(reef_handle("REEF:@alice"), None);
        assert_eq!(reef_handle("alice!"), None);
    }

    #[test]
    fn slugs_per_release() {
        assert_eq!(slug("  Ops Team ", NameSlug::Ascii), "ops-team");
        assert_eq!(slug("#ops_room", NameSlug::Ascii), "ops-room");
        assert_eq!(slug("Zoë", NameSlug::Ascii), "zo");
        assert_eq!(slug("Zoe\u{308}", NameSlug::UnicodeNfc), "zoë");
        assert_eq!(slug("a  --  b", NameSlug::UnicodeNfc), "a-b");
    }
}
