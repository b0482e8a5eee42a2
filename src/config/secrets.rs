//! Which config values are secrets, and how to show text without showing them.
//!
//! Masking is by position and by value, and always same-length (each masked byte becomes `*`,
//! line breaks are kept), so byte spans, line numbers and labels stay valid:
//! * by position: every value under a secret-bearing key path ([`is_secret_path`]), found in the
//!   parsed tree ([`super::json5`]) or, for text that did not parse, by a tolerant scan
//!   ([`unparsed_secret_ranges`]);
//! * by value: anything that looks like a credential wherever it is written
//!   ([`credential_ranges`]): URL userinfo, credential query parameters, known token shapes,
//!   long high-entropy strings, and `NAME=value` assignments of secret-looking names.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::LazyLock;

use ahash::AHashMap;
use regex::Regex;

use super::path::PathSeg;

/// Credential words: a key ending in one (or in a near miss of one: `botTokn`, `tokne`, `apiKy`)
/// names a secret. Compared lower-case, `_`/`-` removed.
const SECRET_WORDS: &[&str] = &[
    "token",
    "apikey",
    "password",
    "passwd",
    "passphrase",
    "secret",
    "privatekey",
    "accesskey",
    "credential",
    "authorization",
    "cookie",
];

/// Endings of keys ending in `key` that name something other than a credential
/// (`mainKey`, `defaultSessionKey`, `allowRequestSessionKey`).
const NON_SECRET_KEY_SUFFIXES: &[&str] = &["mainkey", "sessionkey", "publickey", "cachekey", "hotkey"];

/// Containers whose every value is treated as secret: env-var blocks and HTTP headers carry
/// credentials under arbitrary names.
const SECRET_CONTAINERS: &[&str] = &["env", "headers"];

/// Query parameters that carry credentials without a secret-looking name.
const SECRET_QUERY_PARAMS: &[&str] = &["sig", "signature", "auth", "pass", "pwd", "code"];

fn normalized(key: &str) -> String {
    key.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// Whether a key name looks like it holds a credential (`token`, `apiKey`, `botToken`, `password`,
/// `clientSecret`, `OPENAI_API_KEY`, …), misspellings included (`botTokn`, `apiKy`): a value
/// under a misspelled secret key is still a secret.
pub fn is_secret_key(key: &str) -> bool {
    // A config repeats a few key names thousands of times (a fleet's `tools`, `deny`, `exec`),
    // and the misspelling check compares each with every credential word: answered once per name.
    // Short names only: a long one is rare and would cost memory to keep.
    const KEPT: usize = 4_096;
    const KEPT_LEN: usize = 64;
    thread_local! {
        static ANSWERED: RefCell<AHashMap<String, bool>> = RefCell::new(AHashMap::new());
    }
    if let Some(answer) = ANSWERED.with_borrow(|answered| answered.get(key).copied()) {
        return answer;
    }
    let answer = looks_secret(key);
    if key.len() > KEPT_LEN {
        return answer;
    }
    ANSWERED.with_borrow_mut(|answered| {
        if answered.len() >= KEPT {
            answered.clear();
        }
        answered.insert(key.to_string(), answer);
    });
    answer
}

fn looks_secret(key: &str) -> bool {
    let key = normalized(key);
    if NON_SECRET_KEY_SUFFIXES.iter().any(|s| key.ends_with(s)) {
        return false;
    }
    ["password", "secret", "apikey", "credential"].iter().any(|word| key.contains(word))
        || key.ends_with("key")
        || SECRET_WORDS.iter().any(|word| key.ends_with(word))
        || is_misspelled_secret_word(&key)
}

/// Whether the (normalized) key ends in a near miss of a credential word: one edit away (two for
/// long words), transpositions included. Plurals of `token` are counts (`maxTokens`), not secrets.
fn is_misspelled_secret_word(key: &str) -> bool {
    if key.ends_with("tokens") {
        return false;
    }
    // Where each tail of the key starts: `starts[len - n]` is the start of its last n characters.
    let starts: Vec<usize> = key.char_indices().map(|(at, _)| at).collect();
    SECRET_WORDS.iter().any(|word| {
        let tolerance = if word.len() >= 8 { 2 } else { 1 };
        (word.len() - tolerance..=word.len() + tolerance)
            .filter(|&n| n <= starts.len())
            .map(|n| &key[starts[starts.len() - n]..])
            .any(|tail| letters_within(tail, word, tolerance) && strsim::osa_distance(tail, word) <= tolerance)
    })
}

/// Whether the letter counts of `a` and `b` differ by at most two per allowed edit: an edit
/// (insertion, deletion, substitution, transposition) changes at most two counts by one, so a
/// tail further away cannot be `tolerance` edits from the word. Counting in 64 buckets only
/// merges letters, which never makes the difference larger: a cheap test before the real one.
fn letters_within(a: &str, b: &str, tolerance: usize) -> bool {
    let mut counts = [0i32; 64];
    a.chars().for_each(|c| counts[c as usize % 64] += 1);
    b.chars().for_each(|c| counts[c as usize % 64] -= 1);
    counts.iter().map(|n| n.unsigned_abs() as usize).sum::<usize>() <= 2 * tolerance
}

/// Whether the value at `path` is (or is inside) a secret: any secret-looking key on the way, or
/// anything inside an env block or a header map. `env.shellEnv` holds settings, not variables.
pub fn is_secret_path(path: &[PathSeg]) -> bool {
    SecretScope::of(path).is_secret()
}

/// [`is_secret_path`] extended one key at a time, so that deciding for a value deep in a file
/// costs no more than for one at the top.
#[derive(Debug, Clone, Default)]
pub(crate) struct SecretScope {
    secret: bool,
    /// The secret container (`env`, `headers`) this scope is, when it is one.
    container: Option<&'static str>,
}

impl SecretScope {
    pub(crate) fn of(path: &[PathSeg]) -> Self {
        path.iter().filter_map(PathSeg::as_key).fold(SecretScope::default(), |scope, key| scope.key(key))
    }

    /// The scope of the member `key` of an object in this scope.
    pub(crate) fn key(&self, key: &str) -> Self {
        let in_container = self.container.is_some_and(|parent| !(parent == "env" && key == "shellEnv"));
        let container = SECRET_CONTAINERS.iter().find(|name| **name == key).copied();
        SecretScope { secret: self.secret || in_container || is_secret_key(key), container }
    }

    pub(crate) fn is_secret(&self) -> bool {
        self.secret
    }
}

/// A string that is only an env reference (`${OPENAI_API_KEY}`): not a plaintext secret, safe to show.
pub fn is_env_reference(s: &str) -> bool {
    let s = s.trim();
    s.starts_with("${") && s.ends_with('}')
}

/// Masks `range` of `text` in place: every byte becomes `*` except line breaks.
/// A range that cuts a character is widened to whole characters, so the result stays UTF-8.
pub(crate) fn mask_range(text: &mut [u8], range: Range<usize>) {
    let is_continuation = |b: &u8| (0x80..0xC0).contains(b);
    let mut end = range.end.min(text.len());
    while text.get(end).is_some_and(is_continuation) {
        end += 1;
    }
    let mut start = range.start.min(end);
    while start > 0 && text.get(start).is_some_and(is_continuation) {
        start -= 1;
    }
    for byte in &mut text[start..end] {
        if *byte != b'\n' && *byte != b'\r' {
            *byte = b'*';
        }
    }
}

/// `text` with every credential-looking part masked ([`credential_ranges`]); for messages and
/// other text that is not a config file.
pub fn mask_text(text: &str) -> String {
    mask_text_and_values(text, &[])
}

/// Whether a value in force under a secret path is masked wherever a message repeats it. Short
/// values and plain words (`debug`, `production`: env blocks hold settings too) are not: masking
/// them would garble messages, and snippets mask them by position anyway.
fn is_masked_in_messages(value: &str) -> bool {
    let plain_word = value.len() <= 16
        && (value.bytes().all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'_')
            || value.bytes().all(|b| b.is_ascii_uppercase() || b == b'-' || b == b'_'));
    value.len() >= 5 && !plain_word
}

/// [`mask_text`], and every occurrence of one of `values` masked too.
pub fn mask_text_and_values(text: &str, values: &[String]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for value in values.iter().filter(|v| is_masked_in_messages(v)) {
        for (start, _) in text.match_indices(value.as_str()) {
            mask_range(&mut bytes, start..start + value.len());
        }
    }
    for range in credential_ranges(text) {
        mask_range(&mut bytes, range);
    }
    String::from_utf8(bytes).expect("masking replaces whole characters")
}

/// Characters kept of a parser's message about a file that did not parse.
const MAX_PARSE_MESSAGE_CHARS: usize = 300;

/// A parser's message about a file that did not parse as what it should be, safe to print: the
/// values it quotes (`invalid type: string "…"`) and anything credential-like are masked, and it
/// is cut short. The file may be anything (a credentials file, `/proc/self/environ`).
pub fn parse_error_message(message: &str) -> String {
    static QUOTED: LazyLock<Regex> = LazyLock::new(|| regex(r#""(?:[^"\\]|\\.)*""#));
    let mut bytes = message.as_bytes().to_vec();
    for quoted in QUOTED.find_iter(message) {
        mask_range(&mut bytes, quoted.start() + 1..quoted.end() - 1);
    }
    let masked = mask_text(&String::from_utf8(bytes).expect("masking replaces whole characters"));
    match masked.char_indices().nth(MAX_PARSE_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &masked[..cut]),
        None => masked,
    }
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("static regex")
}

/// Byte ranges of `text` that look like credentials, wherever they are written: URL passwords
/// (and user-only userinfo, a token used as user name), credential query parameters, known token
/// shapes, long high-entropy strings, and the value of a `NAME=value` with a secret-looking name
/// (env files, shell lines; `key: value` is left to the config scanners, it is also English).
/// Word boundaries are ASCII ones (`(?-u:\b)`): Unicode ones cost more to compile than the rest
/// of a small command's loading, and a token after a non-ASCII letter is still a token.
pub fn credential_ranges(text: &str) -> Vec<Range<usize>> {
    credential_ranges_given(text, Clues::of(text))
}

/// What a text holds that each credential pattern needs, found in one pass over it. A pattern
/// whose clue is missing cannot match, so it is neither compiled nor run: compiling them all
/// cost a small `lint` a fifth of its instructions, for messages that hold no credential.
#[derive(Debug, Clone, Copy)]
struct Clues {
    /// `://`: URL userinfo.
    url: bool,
    /// `=`: query parameters and assignments.
    equals: bool,
    /// A token shape's start: one of [`TOKEN_PREFIXES`], or six digits and a colon (a bot
    /// token). Tool names and config paths, which most messages quote, have none.
    token: bool,
    /// `bearer` or `basic` in any ASCII case, or `ſ`, which Unicode case folding matches to `s`.
    auth_scheme: bool,
    /// A run of 24 `[A-Za-z0-9+/=_-]`.
    long_run: bool,
}

impl Clues {
    /// Every pattern may match: what the clues must never change (tests).
    #[cfg(test)]
    const ANY: Clues = Clues { url: true, equals: true, token: true, auth_scheme: true, long_run: true };

    fn of(text: &str) -> Clues {
        let (mut digits, mut bot_token, mut long_run, mut longest_long_run) = (0, false, 0, 0);
        for byte in text.bytes() {
            bot_token |= byte == b':' && digits >= 6;
            digits = if byte.is_ascii_digit() { digits + 1 } else { 0 };
            let token = byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'+' | b'/' | b'=');
            long_run = if token { long_run + 1 } else { 0 };
            longest_long_run = longest_long_run.max(long_run);
        }
        let lower = |word: &str| text.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word.as_bytes()));
        Clues {
            url: text.contains("://"),
            equals: text.contains('='),
            token: bot_token || TOKEN_PREFIXES.iter().any(|prefix| text.contains(prefix)),
            auth_scheme: lower("bearer") || lower("basic") || text.contains('ſ'),
            long_run: longest_long_run >= 24,
        }
    }
}

/// How every token shape of [`credential_ranges`] but the bot token starts.
const TOKEN_PREFIXES: &[&str] = &[
    "sk-",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "npm_",
    "hf_",
    "xox",
    "xapp-",
    "AKIA",
    "AIza",
    "eyJ",
    "-----BEGIN ",
];

fn credential_ranges_given(text: &str, clues: Clues) -> Vec<Range<usize>> {
    static USERINFO: LazyLock<Regex> =
        LazyLock::new(|| regex(r#"(?-u:\b)[A-Za-z][A-Za-z0-9+.-]*://([^/?#\s"'`<>\\]*)@"#));
    static QUERY: LazyLock<Regex> = LazyLock::new(|| regex(r#"[?&;]([A-Za-z0-9_.\-]+)=([^&#\s"'`<>\\]+)"#));
    static TOKEN_SHAPES: LazyLock<Regex> = LazyLock::new(|| {
        regex(concat!(
            r"(?-u:\b)sk-[A-Za-z0-9_\-]{16,}",
            r"|(?-u:\b)(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}",
            r"|(?-u:\b)github_pat_[A-Za-z0-9_]{20,}",
            r"|(?-u:\b)glpat-[A-Za-z0-9_\-]{20,}",
            r"|(?-u:\b)npm_[A-Za-z0-9]{30,}",
            r"|(?-u:\b)hf_[A-Za-z0-9]{30,}",
            r"|(?-u:\b)xox[abposr]-[A-Za-z0-9\-]{10,}",
            r"|(?-u:\b)xapp-[A-Za-z0-9\-]{10,}",
            r"|(?-u:\b)AKIA[0-9A-Z]{16}(?-u:\b)",
            r"|(?-u:\b)AIza[0-9A-Za-z_\-]{30,}",
            r"|(?-u:\b)[0-9]{6,12}:[A-Za-z0-9_\-]{30,}",
            r"|(?-u:\b)eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*",
            r"|-----BEGIN [A-Z ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z ]*PRIVATE KEY-----|\z)",
        ))
    });
    static BEARER: LazyLock<Regex> = LazyLock::new(|| regex(r"(?-u:\b)(?i:bearer|basic)\s+([A-Za-z0-9._~+/=\-]{8,})"));
    static LONG_RUN: LazyLock<Regex> = LazyLock::new(|| regex(r"[A-Za-z0-9+/=_\-]{24,}"));
    static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
        regex(r#"([A-Za-z_][A-Za-z0-9_.\-]*)[ \t]*=[ \t]*["']?(\$\{[^}\s]*\}|[^\s"'`,;&\x00{}\[\]]+)"#)
    });

    // `scheme://user:pass` cut before its `@` (an unterminated value): a port is all digits.
    static CUT_USERINFO: LazyLock<Regex> =
        LazyLock::new(|| regex(r#"(?-u:\b)[A-Za-z][A-Za-z0-9+.-]*://[^/?#\s"'`<>\\@:]*:([^/?#\s"'`<>\\@]+)$"#));

    let mut ranges = Vec::new();
    if clues.url {
        for line in text.lines() {
            let line_start = line.as_ptr() as usize - text.as_ptr() as usize;
            if let Some(password) = CUT_USERINFO.captures(line).and_then(|c| c.get(1))
                && !password.as_str().bytes().all(|b| b.is_ascii_digit())
            {
                ranges.push(line_start + password.start()..line_start + password.end());
            }
        }
        for caps in USERINFO.captures_iter(text) {
            let userinfo = caps.get(1).expect("group 1");
            match userinfo.as_str().find(':') {
                Some(colon) => ranges.push(userinfo.start() + colon + 1..userinfo.end()),
                None => ranges.push(userinfo.range()),
            }
        }
    }
    if clues.equals {
        for caps in QUERY.captures_iter(text) {
            let (name, value) = (caps.get(1).expect("group 1"), caps.get(2).expect("group 2"));
            let plain = name.as_str().to_ascii_lowercase();
            if is_secret_key(name.as_str()) || SECRET_QUERY_PARAMS.contains(&plain.as_str()) {
                ranges.push(value.range());
            }
        }
    }
    if clues.token {
        ranges.extend(TOKEN_SHAPES.find_iter(text).map(|m| m.range()));
    }
    if clues.auth_scheme {
        ranges.extend(BEARER.captures_iter(text).filter_map(|c| c.get(1)).map(|m| m.range()));
    }
    if clues.long_run {
        ranges.extend(LONG_RUN.find_iter(text).filter(|m| is_high_entropy(m.as_str())).map(|m| m.range()));
    }
    if clues.equals {
        for caps in ASSIGNMENT.captures_iter(text) {
            let (name, value) = (caps.get(1).expect("group 1"), caps.get(2).expect("group 2"));
            let flag = matches!(value.as_str(), "true" | "false" | "null");
            if is_secret_key(name.as_str()) && !flag && !is_env_reference(value.as_str()) {
                ranges.push(value.range());
            }
        }
    }
    ranges
}

/// A run of token characters that is probably random: hex of 32+ characters with letters and
/// digits, or 24+ characters mixing upper case, lower case and digits with high Shannon entropy.
/// Paths (`/…`, `~/…`, `./…`) are not tokens.
fn is_high_entropy(run: &str) -> bool {
    if run.starts_with(['/', '~', '.']) || run.contains("//") {
        return false;
    }
    let has = |f: fn(&char) -> bool| run.chars().any(|c| f(&c));
    let digit = has(char::is_ascii_digit);
    if run.len() >= 32 && digit && run.chars().all(|c| c.is_ascii_hexdigit()) && has(char::is_ascii_alphabetic) {
        return true;
    }
    digit && has(char::is_ascii_uppercase) && has(char::is_ascii_lowercase) && shannon_entropy(run) >= 3.5
}

fn shannon_entropy(s: &str) -> f64 {
    let mut counts = [0usize; 256];
    for byte in s.bytes() {
        counts[usize::from(byte)] += 1;
    }
    let len = s.len() as f64;
    counts.iter().filter(|&&n| n > 0).map(|&n| n as f64 / len).map(|p| -p * p.log2()).sum()
}

/// Byte ranges of values under secret paths in text that did not parse: a tolerant JSON5 scan
/// that follows braces, brackets, keys and colons as far as they make sense, so a value written
/// on the line after its key, a number, or a value in an `env` block is still found.
/// `base` is where the text sits in the resolved config (an included file's position).
pub(crate) fn unparsed_secret_ranges(text: &str, base: &[PathSeg]) -> Vec<Range<usize>> {
    /// An open `{` or `[`: the scope of the container, and in an object the current member's
    /// key and whether its colon was seen.
    struct Frame {
        is_object: bool,
        scope: SecretScope,
        key: Option<String>,
        after_colon: bool,
    }
    impl Frame {
        /// The scope of a value written here now.
        fn value_scope(&self) -> SecretScope {
            match (&self.key, self.is_object) {
                (Some(key), true) => self.scope.key(key),
                _ => self.scope.clone(),
            }
        }
    }
    let base = SecretScope::of(base);
    let mut stack: Vec<Frame> = Vec::new();
    let mut ranges = Vec::new();
    for token in json5_tokens(text) {
        match token.kind {
            TokenKind::Open(is_object) => {
                let scope = stack.last().map_or_else(|| base.clone(), Frame::value_scope);
                if let Some(top) = stack.last_mut() {
                    top.after_colon = false;
                }
                stack.push(Frame { is_object, scope, key: None, after_colon: false });
            }
            TokenKind::Close(is_object) => {
                while let Some(frame) = stack.pop() {
                    if frame.is_object == is_object {
                        break;
                    }
                }
                if let Some(top) = stack.last_mut() {
                    top.after_colon = false;
                }
            }
            TokenKind::Colon => {
                if let Some(top) = stack.last_mut() {
                    top.after_colon = true;
                }
            }
            TokenKind::Comma => {
                if let Some(top) = stack.last_mut().filter(|f| f.is_object) {
                    top.key = None;
                    top.after_colon = false;
                }
            }
            TokenKind::Scalar => {
                let value = token.text(text);
                match stack.last_mut() {
                    Some(top) if top.is_object && !top.after_colon => {
                        top.key = Some(value.trim_matches(['"', '\'']).to_string());
                    }
                    top => {
                        let secret = top.as_ref().map_or_else(|| base.is_secret(), |f| f.value_scope().is_secret());
                        if secret && !is_env_reference(value.trim_matches(['"', '\''])) {
                            ranges.push(token.inner_range(text));
                        }
                        if let Some(top) = top {
                            top.after_colon = false;
                        }
                    }
                }
            }
        }
    }
    ranges
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokenKind {
    /// `{` (true) or `[` (false).
    Open(bool),
    Close(bool),
    Colon,
    Comma,
    /// A string, number, word or anything else that is not punctuation.
    Scalar,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: TokenKind,
    range: (usize, usize),
}

impl Token {
    fn text<'t>(&self, text: &'t str) -> &'t str {
        &text[self.range.0..self.range.1]
    }

    /// The masked part: inside the quotes of a string, the whole of anything else.
    fn inner_range(&self, text: &str) -> Range<usize> {
        let (start, end) = self.range;
        let token = &text[start..end];
        let quote = token.chars().next().filter(|c| *c == '"' || *c == '\'');
        match quote {
            Some(q) if token.len() >= 2 && token.ends_with(q) => start + 1..end - 1,
            Some(_) => start + 1..end,
            None => start..end,
        }
    }
}

/// Tokens of JSON5-like text, never failing: an unterminated string ends at the end of its line,
/// an unterminated block comment at the end of the text.
fn json5_tokens(text: &str) -> impl Iterator<Item = Token> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        loop {
            let &b = bytes.get(i)?;
            let start = i;
            let kind = match b {
                b'{' | b'[' => TokenKind::Open(b == b'{'),
                b'}' | b']' => TokenKind::Close(b == b'}'),
                b':' => TokenKind::Colon,
                b',' => TokenKind::Comma,
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    i = memchr_line_end(bytes, i);
                    continue;
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i = text[i + 2..].find("*/").map_or(bytes.len(), |end| i + 2 + end + 2);
                    continue;
                }
                b'"' | b'\'' => {
                    i += 1;
                    while let Some(&c) = bytes.get(i) {
                        match c {
                            b'\\' => i += 1 + bytes.get(i + 1).map_or(1, |&next| utf8_width(next)),
                            b'\n' | b'\r' => break,
                            _ if c == b => {
                                i += 1;
                                break;
                            }
                            _ => i += 1,
                        }
                    }
                    i = i.min(bytes.len());
                    return Some(Token { kind: TokenKind::Scalar, range: (start, i) });
                }
                _ if b.is_ascii_whitespace() || b == 0 => {
                    i += 1;
                    continue;
                }
                _ => {
                    while let Some(&c) = bytes.get(i) {
                        if c.is_ascii_whitespace() || c == 0 || b"{}[]:,\"'".contains(&c) {
                            break;
                        }
                        i += 1;
                    }
                    return Some(Token { kind: TokenKind::Scalar, range: (start, i) });
                }
            };
            i += 1;
            return Some(Token { kind, range: (start, i) });
        }
    })
}

/// Length of the UTF-8 sequence a byte starts (1 for a stray continuation byte).
fn utf8_width(first: u8) -> usize {
    match first {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

fn memchr_line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..].iter().position(|&b| b == b'\n' || b == b'\r').map_or(bytes.len(), |p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::path::parse_dotted;

    fn masked(text: &str, ranges: Vec<Range<usize>>) -> String {
        let mut bytes = text.as_bytes().to_vec();
        for range in ranges {
            mask_range(&mut bytes, range);
        }
        String::from_utf8(bytes).unwrap()
    }

    fn unparsed(text: &str) -> String {
        masked(text, unparsed_secret_ranges(text, &[]))
    }

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
        for key in [
            "mainKey",
            "sessionKey",
            "allowRequestSessionKey",
            "profile",
            "allow",
            "maxTokens",
            "keys",
            "dmPolicy",
            "mode",
            "model",
        ] {
            assert!(!is_secret_key(key), "{key}");
        }
    }

    #[test]
    fn misspelled_secret_keys_are_secret_keys() {
        for key in ["botTokn", "tokne", "apiKy", "passwrd", "secrt", "clientSecert", "authorizaton"] {
            assert!(is_secret_key(key), "{key}");
        }
        for key in ["contextTokens", "reserveTokens", "topic", "session", "enabled", "workspace"] {
            assert!(!is_secret_key(key), "{key}");
        }
    }

    /// Pieces of credentials and of the text around them, for texts that come close to every
    /// pattern's clue and cross its thresholds; the token shapes' prefixes are added to them
    /// (`every_token_shape_is_its_own_clue` checks that list on its own).
    const CREDENTIAL_PIECES: &[&str] = &[
        "xoxb-",
        "xoxp-",
        "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF",
        "ABCDEFGHIJKLMNOP",
        "123456789:",
        "1234567",
        "RSA PRIVATE KEY-----",
        "-----END PRIVATE KEY-----",
        "https://",
        "user:",
        "pass@",
        ":8080",
        "?token=",
        "&api_key=",
        ";sig=",
        "=",
        "Bearer ",
        "BASIC\t",
        "baſic ",
        "API_KEY=",
        "password = '",
        "${TOKEN}",
        "abcdefgh",
        "QRSTUVWX",
        "01234567",
        "9f8e7d6c",
        "_",
        "-",
        "+",
        "/",
        ".",
        " ",
        "\n",
        "é",
        "\"",
    ];

    proptest::proptest! {
        /// The clues only spare work: with them, a text's credential ranges are those found by
        /// running every pattern.
        #[test]
        fn the_clues_never_hide_a_credential(
            pieces in proptest::collection::vec(
                proptest::sample::select([TOKEN_PREFIXES, CREDENTIAL_PIECES].concat()),
                0..24,
            ),
        ) {
            let text = pieces.concat();
            proptest::prop_assert_eq!(credential_ranges(&text), credential_ranges_given(&text, Clues::ANY), "{}", text);
        }

        /// The letter-count test before the edit distance never turns a near miss away: every
        /// string one or two edits from a credential word passes it.
        #[test]
        fn the_letter_count_test_keeps_every_near_miss(
            word in proptest::sample::select(SECRET_WORDS),
            edits in proptest::collection::vec((0..4u8, 0..20usize, proptest::char::range('_', 'z')), 1..=2),
        ) {
            let mut chars: Vec<char> = word.chars().collect();
            for (kind, at, letter) in edits {
                let at = at % (chars.len() + 1);
                match kind {
                    0 => chars.insert(at, letter),
                    1 if at < chars.len() => { chars.remove(at); }
                    2 if at < chars.len() => chars[at] = letter,
                    _ if at + 1 < chars.len() => chars.swap(at, at + 1),
                    _ => {}
                }
            }
            let near: String = chars.into_iter().collect();
            for tolerance in 1..=2 {
                if strsim::osa_distance(&near, word) <= tolerance {
                    proptest::prop_assert!(letters_within(&near, word, tolerance), "{near} {word}");
                }
            }
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
    fn env_references() {
        assert!(is_env_reference(" ${OPENAI_API_KEY} "));
        assert!(!is_env_reference("sk-${X}"));
    }

    #[test]
    fn unparsed_text_masks_values_after_secret_keys() {
        let text = "{ \"apiKey\": \"sk-1\", token: 'a\\'b', name: \"n\", password: \"${PW}\", oops";
        assert_eq!(unparsed(text), "{ \"apiKey\": \"****\", token: '****', name: \"n\", password: \"${PW}\", oops");
    }

    #[test]
    fn masking_does_not_panic_on_colon_in_unterminated_secret() {
        for text in ["{token: \"a:b\", x", "{token: \"a:b", "{token: 'a:", "{token: \"", "{\"token\": \"a:\\", "token:"]
        {
            let masked = unparsed(text);
            assert_eq!(masked.len(), text.len());
            assert!(!masked.contains("a:b"), "{text:?} -> {masked:?}");
        }
    }

    #[test]
    fn unparsed_masking_follows_structure_not_lines() {
        // A value on the line after its key, a number, an env var without a secret-looking name.
        let text = "{\n  token:\n    \"next-line\",\n  pin: 1234, password: 98765,\n  env: { vars: { GH_PAT: 'gh-x' } }, ok: 'shown'\n  oops";
        let masked = unparsed(text);
        for secret in ["next-line", "98765", "gh-x"] {
            assert!(!masked.contains(secret), "{secret} in {masked}");
        }
        assert!(masked.contains("1234") && masked.contains("shown"));
        // An included file knows where it lands.
        assert_eq!(masked_at("{ GH_PAT: 'x1' ", "env"), "{ GH_PAT: '**' ");
    }

    fn masked_at(text: &str, base: &str) -> String {
        masked(text, unparsed_secret_ranges(text, &parse_dotted(base)))
    }

    /// `text` with each of `secrets` replaced by as many `*`.
    fn with_masked(text: &str, secrets: &[&str]) -> String {
        secrets.iter().fold(text.to_string(), |t, s| t.replace(s, &"*".repeat(s.len())))
    }

    #[test]
    fn credentials_are_found_by_value() {
        let cases: &[(&str, &[&str])] = &[
            ("wss://user:PASS-w0rd@host:1/x", &["PASS-w0rd"]),
            ("https://ghtoken123@github.com/a", &["ghtoken123"]),
            ("https://u:p@ss@h/", &["p@ss"]),
            ("{ url: \"wss://user:cut-before-the-at", &["cut-before-the-at"]),
            ("https://h/x?key=abc&name=n&api_key=def&token=ghi", &["abc", "def", "ghi"]),
            ("use sk-abcdefghijklmnop1234 now", &["sk-abcdefghijklmnop1234"]),
            ("bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw!", &["123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"]),
            ("xoxb-1234567890-abcdef", &["xoxb-1234567890-abcdef"]),
            ("OPENAI_API_KEY=abc123 PATH=/usr/bin", &["abc123"]),
            ("export aws_secret_access_key = 'wJalr'", &["wJalr"]),
            ("Authorization: Bearer abc.def.ghi", &["abc.def.ghi"]),
            ("k wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLE9KEY z", &["wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLE9KEY"]),
            ("sha 3f786850e387550fdab836ed7e6dc881de23001b", &["3f786850e387550fdab836ed7e6dc881de23001b"]),
        ];
        for (text, secrets) in cases {
            assert_eq!(mask_text(text), with_masked(text, secrets), "{text}");
        }
        for plain in [
            "anthropic/claude-sonnet-4-5-20250929",
            "/Users/Alice/Projects2024/MyApp/src",
            "0b9d5a3c-8f1e-4b7a-9c2d-1e3f5a7b9c0d",
            "group:fs",
            "see https://example.com:8443",
            "mode: token, apiKey: ${OPENAI_API_KEY}, API_KEY=${OPENAI_API_KEY}",
            "Unrecognized key: \"alsoAlow\"",
            "insecure flag `hooks.token=true` is enabled",
            "secretRef: { source: 'env' }",
        ] {
            assert_eq!(mask_text(plain), plain);
        }
    }

    /// One credential of each token shape, alone in a message: its own clue must let the
    /// pattern run (a message with another credential would hide a missing clue).
    #[test]
    fn every_token_shape_is_its_own_clue() {
        let body = "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF";
        let shapes = [
            format!("sk-{body}"),
            format!("ghp_{body}"),
            format!("gho_{body}"),
            format!("ghu_{body}"),
            format!("ghs_{body}"),
            format!("ghr_{body}"),
            format!("github_pat_{body}"),
            format!("glpat-{body}"),
            format!("npm_{body}"),
            format!("hf_{body}"),
            "xoxa-1234567890".to_string(),
            "xapp-1234567890".to_string(),
            "AKIAABCDEFGHIJKLMNOP".to_string(),
            format!("AIza{body}"),
            format!("123456:{body}"),
            "eyJhbGciOiJ.eyJzdWIiOiJ.sig".to_string(),
            "-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----".to_string(),
        ];
        for shape in &shapes {
            let text = format!("the value {shape} was given");
            let found = credential_ranges(&text);
            assert!(!found.is_empty(), "{shape}");
            assert_eq!(found, credential_ranges_given(&text, Clues::ANY), "{shape}");
        }
    }

    #[test]
    fn parse_error_messages_do_not_echo_the_file() {
        let message = "invalid type: string \"hunter2 \\\" x\", expected struct SuppressionsFile at line 1 column 1";
        assert_eq!(
            parse_error_message(message),
            "invalid type: string \"************\", expected struct SuppressionsFile at line 1 column 1"
        );
        assert!(parse_error_message(&format!("unknown field `{}`", "x".repeat(1000))).chars().count() <= 301);
    }

    #[test]
    fn masking_widens_to_whole_characters() {
        let mut text = "aé😀b".as_bytes().to_vec();
        mask_range(&mut text, 2..4);
        assert_eq!(String::from_utf8(text).unwrap(), "a******b");
    }

    #[test]
    fn masking_keeps_length_and_line_breaks() {
        let mut text = b"{t: 'ab\\\ncd'}".to_vec();
        mask_range(&mut text, 5..11);
        assert_eq!(String::from_utf8(text).unwrap(), "{t: '***\n**'}");
    }
}
