//! SARIF 2.1.0 logs (via `serde-sarif`), for GitHub code scanning and other SARIF viewers.

use serde_sarif::sarif;

use super::{Finding, Level, Rule};

fn level(level: Level) -> sarif::ResultLevel {
    match level {
        Level::Error => sarif::ResultLevel::Error,
        Level::Warning => sarif::ResultLevel::Warning,
        Level::Note => sarif::ResultLevel::Note,
    }
}

/// One run of `tool` (at `version`) with its rules and findings.
pub fn log(tool: &str, version: &str, rules: &[Rule], findings: &[Finding]) -> sarif::Sarif {
    let descriptors: Vec<sarif::ReportingDescriptor> = rules
        .iter()
        .map(|rule| {
            sarif::ReportingDescriptor::builder()
                .id(rule.id)
                .short_description(sarif::MultiformatMessageString::builder().text(rule.description).build())
                .build()
        })
        .collect();
    let results: Vec<sarif::Result> = findings
        .iter()
        .map(|finding| {
            let locations: Vec<sarif::Location> = finding
                .location
                .iter()
                .map(|at| {
                    let physical = sarif::PhysicalLocation::builder()
                        .artifact_location(sarif::ArtifactLocation::builder().uri(at.file.as_str()).build())
                        .region(
                            sarif::Region::builder().start_line(at.line as i64).start_column(at.column as i64).build(),
                        )
                        .build();
                    sarif::Location::builder().physical_location(physical).build()
                })
                .collect();
            let message = sarif::Message::builder().text(format!("{}: {}", finding.title, finding.message)).build();
            let builder = sarif::Result::builder().rule_id(finding.rule_id.as_str()).level(level(finding.level));
            match rules.iter().position(|r| r.id == finding.rule_id) {
                Some(index) => builder.rule_index(index as i64).message(message).locations(locations).build(),
                None => builder.message(message).locations(locations).build(),
            }
        })
        .collect();
    let driver = sarif::ToolComponent::builder().name(tool).version(version).rules(descriptors).build();
    let run = sarif::Run::builder().tool(sarif::Tool::builder().driver(driver).build()).results(results).build();
    sarif::Sarif::builder()
        .schema(sarif::SCHEMA_URL)
        .version(serde_json::json!(sarif::Version::V2_1_0.to_string()))
        .runs(vec![run])
        .build()
}

/// The log as pretty JSON.
pub fn to_string(log: &sarif::Sarif) -> Result<String, String> {
    serde_json::to_string_pretty(log).map(|s| s + "\n").map_err(|e| format!("cannot write SARIF: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Location;

    #[test]
    fn results_point_at_rules_and_files() {
        let rules = [Rule { id: "diff/tool-gained", description: "a tool became reachable" }];
        let findings = [Finding {
            rule_id: "diff/tool-gained".into(),
            level: Level::Error,
            title: "new access".into(),
            message: "dev/main gains exec".into(),
            location: Some(Location { file: "head.json5".into(), line: 4, column: 9 }),
        }];
        let value = serde_json::to_value(log("clawpolicy", "0.1.0", &rules, &findings)).unwrap();
        assert_eq!(value["version"], "2.1.0");
        let result = &value["runs"][0]["results"][0];
        assert_eq!(result["ruleId"], "diff/tool-gained");
        assert_eq!(result["ruleIndex"], 0);
        assert_eq!(result["level"], "error");
        assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startLine"], 4);
        assert_eq!(value["runs"][0]["tool"]["driver"]["rules"][0]["id"], "diff/tool-gained");
    }
}
