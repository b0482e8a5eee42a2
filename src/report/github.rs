//! GitHub Actions workflow commands (`::error file=…,line=…::message`), which the runner turns
//! into annotations on the pull request.

use super::{Level, Problem};

/// Escapes the message part of a workflow command.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a property value (also `:` and `,`, which separate properties).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation line.
pub fn annotation(problem: &Problem) -> String {
    let command = match problem.level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "notice",
    };
    let mut properties = Vec::new();
    if let Some(position) = &problem.position {
        properties.push(format!("file={}", escape_property(&position.file)));
        properties.push(format!("line={}", position.line));
        properties.push(format!("col={}", position.column));
    }
    properties.push(format!("title={}", escape_property(&problem.title)));
    format!("::{command} {}::{}", properties.join(","), escape_data(&problem.message))
}

/// Annotations for every unsuppressed problem, one per line.
pub fn annotations(problems: &[Problem]) -> String {
    problems.iter().filter(|p| p.suppressed.is_none()).map(|p| annotation(p) + "\n").collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Position;

    #[test]
    fn escapes_separators_and_newlines() {
        let problem = Problem {
            rule_id: "CP201".into(),
            level: Level::Warning,
            title: "CP201 unknown-tool: a, b".into(),
            message: "100% wrong\nsecond line".into(),
            position: Some(Position { file: "conf/a,b.json5".into(), line: 3, column: 7 }),
            suppressed: None,
        };
        assert_eq!(
            annotation(&problem),
            "::warning file=conf/a%2Cb.json5,line=3,col=7,title=CP201 unknown-tool%3A a%2C b::100%25 wrong%0Asecond line"
        );
    }
}
