//! `clawpolicy catalog`: the selected release's tools, groups and profiles, or (`--releases`)
//! the releases clawpolicy simulates.

use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use super::output::{self, Format};
use crate::OpenClawVersion;

#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// List the simulated releases instead: each line, the npm release its pack was made from,
    /// and the releases it stands for (`--openclaw-version` takes the line or any of them).
    #[arg(long)]
    pub releases: bool,
    #[arg(long, value_parser = output::formats("table", output::TABLES_AND_DOCUMENTS), default_value = "table")]
    pub format: Format,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CatalogTool<'a> {
    id: &'a str,
    section: &'a str,
    groups: Vec<&'a str>,
    profiles: Vec<&'a str>,
    sandbox_default: Option<&'static str>,
    owner_only: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Catalog<'a> {
    openclaw_version: &'a str,
    tools: Vec<CatalogTool<'a>>,
    groups: Vec<(&'a str, &'a [String])>,
    profiles: Vec<(&'a str, Option<&'a [String]>)>,
    aliases: &'a std::collections::BTreeMap<String, String>,
}

/// One registered release, as `--releases` lists it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ListedRelease {
    line: &'static str,
    release: OpenClawVersion,
    patches: &'static [&'static str],
    default: bool,
}

pub fn run(global: &super::Global, args: &CatalogArgs) -> miette::Result<ExitCode> {
    if args.releases {
        return releases(args.format);
    }
    let version = global.version;
    let pack = version.policy();
    let catalog = Catalog {
        openclaw_version: &pack.release,
        tools: pack
            .tools
            .iter()
            .map(|tool| CatalogTool {
                id: &tool.id,
                section: &tool.section,
                groups: pack.groups().iter().filter(|(_, m)| m.contains(&tool.id)).map(|(g, _)| g.as_str()).collect(),
                profiles: pack
                    .profiles
                    .iter()
                    .filter(|p| p.allow.as_ref().is_some_and(|a| a.contains(&tool.id) || a.iter().any(|x| x == "*")))
                    .map(|p| p.id.as_str())
                    .collect(),
                sandbox_default: if pack.sandbox.default_allow.contains(&tool.id) {
                    Some("allow")
                } else if pack.sandbox.default_deny.contains(&tool.id) {
                    Some("deny")
                } else {
                    None
                },
                owner_only: pack.owner_only.filters_sessions() && pack.owner_only.tools.contains(&tool.id),
            })
            .collect(),
        groups: pack.groups().iter().map(|(g, m)| (g.as_str(), m.as_slice())).collect(),
        profiles: pack.profiles.iter().map(|p| (p.id.as_str(), p.allow.as_deref())).collect(),
        aliases: &pack.aliases,
    };
    match args.format {
        Format::Human => output::write_stdout(&render(&catalog))?,
        format => output::emit_machine(format, "catalog", &catalog)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `--releases`: every registered release, newest first.
fn releases(format: Format) -> miette::Result<ExitCode> {
    let listed: Vec<ListedRelease> = OpenClawVersion::ALL
        .into_iter()
        .map(|version| ListedRelease {
            line: version.line(),
            release: version,
            patches: version.patches(),
            default: version == OpenClawVersion::default(),
        })
        .collect();
    match format {
        Format::Human => {
            let mut table = output::table(&["Line", "Made from", "Stands for", ""]);
            for release in &listed {
                table.add_row(vec![
                    release.line.to_string(),
                    release.release.id().to_string(),
                    release.patches.join(", "),
                    if release.default { "default" } else { "" }.to_string(),
                ]);
            }
            output::write_stdout(&format!(
                "OpenClaw releases simulated (--openclaw-version takes a line or a release it stands for)\n{table}\n"
            ))?;
        }
        format => output::emit_machine(format, "releases", &serde_json::json!({ "releases": listed }))?,
    }
    Ok(ExitCode::SUCCESS)
}

fn render(catalog: &Catalog<'_>) -> String {
    let mut tools = output::table(&["Tool", "Section", "Profiles", "Sandbox default", "Owner-only"]);
    for tool in &catalog.tools {
        tools.add_row(vec![
            tool.id.to_string(),
            tool.section.to_string(),
            tool.profiles.join(", "),
            tool.sandbox_default.unwrap_or("-").to_string(),
            if tool.owner_only { "yes" } else { "" }.to_string(),
        ]);
    }
    let mut groups = output::table(&["Group", "Members"]);
    for (group, members) in &catalog.groups {
        groups.add_row(vec![group.to_string(), members.join(", ")]);
    }
    let mut profiles = output::table(&["Profile", "Allows"]);
    for (profile, allow) in &catalog.profiles {
        profiles.add_row(vec![profile.to_string(), allow.map_or("(no policy: every tool)".into(), |a| a.join(", "))]);
    }
    let aliases: Vec<String> = catalog.aliases.iter().map(|(from, to)| format!("{from} → {to}")).collect();
    format!(
        "OpenClaw {} tool catalog ({} tools)\n{tools}\n\nGroups\n{groups}\n\nProfiles\n{profiles}\n\nAliases: {}\n",
        catalog.openclaw_version,
        catalog.tools.len(),
        aliases.join(", ")
    )
}
