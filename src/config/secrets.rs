//! Which config values are secrets, and how to show them without showing them.

use serde_json::Value;

use super::path::PathSeg;

/// What a redacted value prints as.
pub const REDACTED: &str = "***";

/// Key name endings that mark a credential (compared lower-case, `_`/`-` removed).
const SECRET_KEY_SUFFIXES: &[&str] = &[
    "token",
    "apikey",
    "password",
    "passwd",
    "passphrase",
    "secret",
    "privatekey",
    "accesskey",
    "credential",
    "credentials",
    "authorization",
    "cookie",
    "key",
];

/// Keys ending in `key` that name something other than a credential.
const NON_SECRET_KEYS: &[&str] = &["mainkey", "sessionkey", "defaultsessionkey", "publickey", "cachekey", "hotkey"];

/// Containers whose every value is treated as secret: env-var blocks and HTTP headers carry
/// credentials under arbitrary names.
const SECRET_CONTAINERS: &[&str] = &["env", "headers"];

fn normalized(key: &str) -> String {
    key.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// Whether a key name looks like it holds a credential (`token`, `apiKey`, `botToken`, `password`,
/// `clientSecret`, `OPENAI_API_KEY`, …).
pub fn is_secret_key(key: &str) -> bool {
    let key = normalized(key);
    if NON_SECRET_KEYS.contains(&key.as_str()) {
        return false;
    }
    key.contains("password")
        || key.contains("secret")
        || key.contains("apikey")
        || SECRET_KEY_SUFFIXES.iter().any(|s| key.ends_with(s))
}

/// Whether the value at `path` is (or is inside) a secret: any secret-looking key on the way, or
/// anything inside an env block or a header map. `env.shellEnv` holds settings, not variables.
pub fn is_secret_path(path: &[PathSeg]) -> bool {
    let keys: Vec<&str> = path.iter().filter_map(PathSeg::as_key).collect();
    keys.iter().any(|k| is_secret_key(k))
        || keys.iter().enumerate().any(|(i, k)| {
            SECRET_CONTAINERS.contains(k) && keys.len() > i + 1 && !(*k == "env" && keys[i + 1] == "shellEnv")
        })
}

/// A SecretRef object (`{source: "env"|"file"|"exec"|"store", provider?, id}`): resolved later by
/// the secrets runtime, never a plaintext secret itself, but it marks a secret slot.
pub fn is_secret_ref(value: &Value) -> bool {
    value.as_object().is_some_and(|obj| {
        matches!(obj.get("source").and_then(Value::as_str), Some("env" | "file" | "exec" | "store"))
            && obj.get("id").is_some_and(Value::is_string)
    })
}

/// A string that is only an env reference (`${OPENAI_API_KEY}`): not a plaintext secret, safe to show.
pub fn is_env_reference(s: &str) -> bool {
    let s = s.trim();
    s.starts_with("${") && s.ends_with('}')
}

/// `value` with every secret string replaced by [`REDACTED`]; `path` is where `value` sits.
pub fn redact_value(path: &[PathSeg], value: &Value) -> Value {
    let mut path = path.to_vec();
    redact_in(&mut path, value)
}

fn redact_in(path: &mut Vec<PathSeg>, value: &Value) -> Value {
    match value {
        Value::String(_) if is_secret_path(path) => Value::String(REDACTED.to_string()),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| with_segment(path, PathSeg::Index(i), |p| redact_in(p, item)))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), with_segment(path, PathSeg::Key(k.clone()), |p| redact_in(p, v))))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn with_segment<T>(path: &mut Vec<PathSeg>, seg: PathSeg, f: impl FnOnce(&mut Vec<PathSeg>) -> T) -> T {
    path.push(seg);
    let out = f(path);
    path.pop();
    out
}

/// Masks the inside of a string literal in source text (quotes kept, line breaks kept so that
/// line numbers and byte spans stay valid).
pub(crate) fn mask_literal(text: &mut [u8], start: usize, end: usize) {
    if end <= start + 1 {
        return;
    }
    for byte in &mut text[start + 1..end - 1] {
        if *byte != b'\n' && *byte != b'\r' {
            *byte = b'*';
        }
    }
}

/// Best-effort masking for text that did not parse (a parse error still shows a snippet): any
/// quoted value written right after a secret-looking key on the same line.
pub(crate) fn mask_unparsed_text(text: &str) -> String {
    static MEMBER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"([A-Za-z0-9_$-]+)["']?[ \t]*:[ \t]*(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"#)
            .expect("static regex")
    });
    let mut masked = text.as_bytes().to_vec();
    for member in MEMBER.captures_iter(text) {
        let (Some(whole), Some(key)) = (member.get(0), member.get(1)) else {
            continue;
        };
        let quote =
            whole.as_str().rfind(':').map_or(0, |colon| colon + whole.as_str()[colon..].find(['"', '\'']).unwrap_or(0));
        let literal = &whole.as_str()[quote..];
        if is_secret_key(key.as_str()) && !is_env_reference(&literal[1..literal.len() - 1]) {
            mask_literal(&mut masked, whole.start() + quote, whole.end());
        }
    }
    String::from_utf8(masked).expect("masking writes ASCII over whole literals")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::path::parse_dotted;
    use serde_json::json;

    #[test]
    fn secret_keys() {
        for key in [
            "token",
            "botToken",
            "apiKey",
            "OPENAI_API_KEY",
            "password",
            "clientSecret",
            "privateKey",
            "webhookSecret",
            "appToken",
        ] {
            assert!(is_secret_key(key), "{key}");
        }
        for key in ["mainKey", "sessionKey", "profile", "allow", "maxTokens", "keys", "dmPolicy"] {
            assert!(!is_secret_key(key), "{key}");
        }
    }

    #[test]
    fn secret_paths_include_descendants_and_env_blocks() {
        assert!(is_secret_path(&parse_dotted("gateway.auth.token")));
        assert!(is_secret_path(&parse_dotted("gateway.auth.token.id")));
        assert!(is_secret_path(&parse_dotted("env.vars.ANYTHING")));
        assert!(is_secret_path(&parse_dotted("env.OPENROUTER")));
        assert!(!is_secret_path(&parse_dotted("env.shellEnv.enabled")));
        assert!(!is_secret_path(&parse_dotted("tools.exec.security")));
        assert!(is_secret_path(&parse_dotted("tools.web.fetch.headers.X-Custom")));
    }

    #[test]
    fn redacts_strings_only_under_secret_paths() {
        let value = json!({"gateway": {"auth": {"mode": "token", "token": "abc"}}, "channels": {"telegram": {"botToken": "123:x", "enabled": true}}});
        assert_eq!(
            redact_value(&[], &value),
            json!({"gateway": {"auth": {"mode": "token", "token": REDACTED}}, "channels": {"telegram": {"botToken": REDACTED, "enabled": true}}})
        );
    }

    #[test]
    fn secret_refs_and_env_references() {
        assert!(is_secret_ref(&json!({"source": "env", "provider": "default", "id": "X"})));
        assert!(!is_secret_ref(&json!({"source": "web", "id": "X"})));
        assert!(is_env_reference(" ${OPENAI_API_KEY} "));
        assert!(!is_env_reference("sk-${X}"));
    }

    #[test]
    fn unparsed_text_masks_values_after_secret_keys() {
        let text = "{ \"apiKey\": \"sk-1\", token: 'a\\'b', name: \"n\", password: \"${PW}\", oops";
        assert_eq!(
            mask_unparsed_text(text),
            "{ \"apiKey\": \"****\", token: '****', name: \"n\", password: \"${PW}\", oops"
        );
    }

    #[test]
    fn masking_keeps_length_and_line_breaks() {
        let mut text = b"{t: 'ab\\\ncd'}".to_vec();
        mask_literal(&mut text, 4, 12);
        assert_eq!(String::from_utf8(text).unwrap(), "{t: '***\n**'}");
    }
}
