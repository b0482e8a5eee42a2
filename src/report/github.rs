//! GitHub Actions workflow commands (`::error file=…,line=…::message`), which the runner turns
//! into annotations on the pull request.

use super::{Finding, Level};

/// Data is escaped so a message cannot end the command early or inject another one; other
/// control characters (ESC, NUL, …) are made visible so they reach neither the log nor the
/// terminal of whoever reads it.
fn escape_data(text: &str) -> String {
    let text = text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A");
    crate::base::escape::visible(&text).into_owned()
}

/// Property values additionally escape the separators `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation line. `file`, `line` and `col` are optional (an annotation without a file is
/// shown on the run summary).
pub fn annotation(
    level: Level,
    file: Option<&str>,
    line: Option<usize>,
    col: Option<usize>,
    title: &str,
    message: &str,
) -> String {
    let command = match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "notice",
    };
    let mut properties = Vec::new();
    if let Some(file) = file {
        properties.push(format!("file={}", escape_property(file)));
    }
    if let Some(line) = line {
        properties.push(format!("line={line}"));
    }
    if let Some(col) = col {
        properties.push(format!("col={col}"));
    }
    if !title.is_empty() {
        properties.push(format!("title={}", escape_property(title)));
    }
    let properties = if properties.is_empty() { String::new() } else { format!(" {}", properties.join(",")) };
    format!("::{command}{properties}::{}", escape_data(message))
}

/// Every unsuppressed finding as one annotation line each.
pub fn annotations(findings: &[Finding]) -> String {
    findings
        .iter()
        .filter(|f| f.suppressed.is_none())
        .map(|f| {
            let at = f.location.as_ref();
            annotation(
                f.level,
                at.map(|l| l.file.as_str()),
                at.map(|l| l.line),
                at.map(|l| l.column),
                &f.title,
                &f.message,
            ) + "\n"
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_escaped() {
        let line = annotation(Level::Warning, Some("a,b.json5"), Some(3), Some(9), "x: y", "50%\nnext");
        assert_eq!(line, "::warning file=a%2Cb.json5,line=3,col=9,title=x%3A y::50%25%0Anext");
        assert_eq!(annotation(Level::Note, None, None, None, "", "hi"), "::notice::hi");
        let hostile = annotation(Level::Error, Some("a\u{1b}.json5"), None, None, "t\0", "m\u{1b}[2J\u{fffe}");
        assert_eq!(hostile, "::error file=a\\u{1b}.json5,title=t\\u{0}::m\\u{1b}[2J\\u{fffe}");
    }
}
