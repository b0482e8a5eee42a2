//! SARIF 2.1.0 as GitHub code scanning reads it: rule metadata with help and security
//! severity, results with physical locations, and suppressions with their justification.

use serde_json::json;
use serde_sarif::sarif::{
    ArtifactLocation, Invocation, Location, Message, MultiformatMessageString, Notification, PhysicalLocation,
    PropertyBag, Region, ReportingConfiguration, ReportingDescriptor, Result as SarifResult, ResultLevel, Run,
    SCHEMA_URL, Sarif, Suppression, Tool, ToolComponent,
};

use super::{Finding, Level, Rule};

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
    }
}

fn result_level(level: Level) -> ResultLevel {
    match level {
        Level::Error => ResultLevel::Error,
        Level::Warning => ResultLevel::Warning,
        Level::Note => ResultLevel::Note,
    }
}

fn descriptor(rule: &Rule) -> ReportingDescriptor {
    let mut properties = PropertyBag::builder().tags(rule.tags.clone()).build();
    if let Some(severity) = rule.security_severity {
        properties.additional_properties.insert("security-severity".into(), json!(format!("{severity:.1}")));
    }
    ReportingDescriptor::builder()
        .id(rule.id.clone())
        .name(rule.name.clone())
        .short_description(MultiformatMessageString::builder().text(rule.summary.clone()).build())
        .help(
            MultiformatMessageString::builder().text(rule.summary.clone()).markdown(rule.help_markdown.clone()).build(),
        )
        .default_configuration(ReportingConfiguration::builder().level(json!(level_name(rule.level))).build())
        .properties(properties)
        .build()
}

fn result(finding: &Finding, rules: &[Rule]) -> SarifResult {
    let message = Message::builder().text(format!("{}: {}", finding.title, finding.message)).build();
    let mut result = SarifResult::builder()
        .rule_id(finding.rule_id.clone())
        .level(result_level(finding.level))
        .message(message)
        .build();
    result.rule_index = rules.iter().position(|r| r.id == finding.rule_id).and_then(|i| i64::try_from(i).ok());
    if let Some(location) = &finding.location {
        let region = Region::builder()
            .start_line(i64::try_from(location.line).unwrap_or(i64::MAX))
            .start_column(i64::try_from(location.column).unwrap_or(i64::MAX))
            .build();
        let physical = PhysicalLocation::builder()
            .artifact_location(ArtifactLocation::builder().uri(location.file.clone()).build())
            .region(region)
            .build();
        result.locations = Some(vec![Location::builder().physical_location(physical).build()]);
    }
    if let Some(reason) = &finding.suppressed {
        result.suppressions =
            Some(vec![Suppression::builder().kind(json!("external")).justification(reason.clone()).build()]);
    }
    result
}

/// [`log`] with nothing left out, as text.
pub fn render(tool: &str, version: &str, rules: &[Rule], findings: &[Finding]) -> String {
    // Plain data structures always serialize.
    serde_json::to_string_pretty(&log(tool, version, rules, findings, &[])).unwrap_or_default() + "\n"
}

/// A SARIF log with one run of `tool` (name, version, information URI); `notes` (what the
/// results leave out) become the notifications of the run's invocation.
pub fn log(tool: &str, version: &str, rules: &[Rule], findings: &[Finding], notes: &[String]) -> Sarif {
    let driver = ToolComponent::builder()
        .name(tool.to_string())
        .version(version.to_string())
        .rules(rules.iter().map(descriptor).collect::<Vec<_>>())
        .build();
    let mut run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .results(findings.iter().map(|f| result(f, rules)).collect::<Vec<_>>())
        .build();
    if !notes.is_empty() {
        let notifications = notes
            .iter()
            .map(|note| {
                Notification::builder()
                    .message(Message::builder().text(note.clone()).build())
                    .level(json!("note"))
                    .build()
            })
            .collect::<Vec<_>>();
        run.invocations = Some(vec![
            Invocation::builder().execution_successful(true).tool_execution_notifications(notifications).build(),
        ]);
    }
    Sarif::builder().schema(SCHEMA_URL).version(json!("2.1.0")).runs(vec![run]).build()
}
