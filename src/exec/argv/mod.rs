//! Reading one command's argv the way both releases do: words split from text
//! ([`split_shell_args`]), the one option scanner ([`scan`]), the wrappers a release looks
//! through or refuses ([`wrappers`]), and shells and their inline commands ([`shells`]).
//!
//! Where a newcomer adds things: a new transparent or blocked wrapper is data
//! (`data/<line>/exec.json` → `wrappers`); a new kind of wrapper gets a file in [`wrappers`]; a
//! new option grammar is a [`scan::Grammar`], never another option loop.

pub mod scan;
pub mod shell_names;
pub mod shells;
pub mod wrappers;

pub use scan::option_name;

/// `normalizeExecutableToken`: lowercase basename without a Windows executable suffix.
pub fn normalize_executable(token: &str) -> String {
    let base = token.rsplit(['/', '\\']).next().unwrap_or(token).trim().to_lowercase();
    for suffix in [".exe", ".cmd", ".bat", ".com"] {
        if let Some(stripped) = base.strip_suffix(suffix) {
            return stripped.to_string();
        }
    }
    base
}

/// `NAME=value` (an environment assignment word).
pub fn is_env_assignment(token: &str) -> bool {
    let Some((name, _)) = token.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether a quoted empty word (`''`, `""`) is a word of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmptyWords {
    /// It is (`splitShellArgs` of 2026.9's wrapper code).
    Keep,
    /// It vanishes (2026.2's `splitShellArgs`).
    Drop,
}

/// POSIX-ish argv splitting (`splitShellArgs`): single and double quotes, backslashes (inside
/// double quotes only before `\ " $ ``); `None` when a quote or escape is unterminated.
pub fn split_shell_args(raw: &str, empty_words: EmptyWords) -> Option<Vec<String>> {
    let mut tokens = Vec::new();
    let mut buf = String::new();
    let mut in_token = false;
    let mut chars = raw.chars().peekable();
    let mut quote: Option<char> = None;
    let finish = |buf: &mut String, tokens: &mut Vec<String>| {
        if empty_words == EmptyWords::Keep || !buf.is_empty() {
            tokens.push(std::mem::take(buf));
        }
    };
    while let Some(ch) = chars.next() {
        match quote {
            Some('\'') => {
                if ch == '\'' {
                    quote = None;
                } else {
                    buf.push(ch);
                }
            }
            Some(_) => match ch {
                '"' => quote = None,
                '\\' if matches!(chars.peek(), Some('\\' | '"' | '$' | '`')) => buf.push(chars.next()?),
                _ => buf.push(ch),
            },
            None => match ch {
                '\'' | '"' => {
                    quote = Some(ch);
                    in_token = true;
                }
                '\\' => {
                    buf.push(chars.next()?);
                    in_token = true;
                }
                c if c.is_whitespace() => {
                    if in_token {
                        finish(&mut buf, &mut tokens);
                        in_token = false;
                    }
                }
                c => {
                    buf.push(c);
                    in_token = true;
                }
            },
        }
    }
    if quote.is_some() {
        return None;
    }
    if in_token {
        finish(&mut buf, &mut tokens);
    }
    Some(tokens)
}

/// An argv from shell words, for tests.
#[cfg(test)]
pub(crate) fn words(line: &str) -> Vec<String> {
    split_shell_args(line, EmptyWords::Keep).expect("balanced quotes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_args_split() {
        let keep = |s: &str| split_shell_args(s, EmptyWords::Keep);
        assert_eq!(keep(r#"a 'b c' "d\"e" f\ g"#).unwrap(), vec!["a", "b c", "d\"e", "f g"]);
        assert_eq!(keep("'open"), None);
        assert_eq!(keep("a\\"), None);
        assert_eq!(keep("FOO=1 ls ''").unwrap(), vec!["FOO=1", "ls", ""]);
        let drop = |s: &str| split_shell_args(s, EmptyWords::Drop);
        assert_eq!(drop("ls # hi").unwrap(), vec!["ls", "#", "hi"]);
        assert_eq!(drop("FOO=1 ls ''").unwrap(), vec!["FOO=1", "ls"]);
        assert_eq!(drop("a\\ ").unwrap(), vec!["a "]);
    }
}
