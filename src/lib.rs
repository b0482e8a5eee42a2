//! clawpolicy: an offline linter and simulator for OpenClaw tool policy and exec approvals.
//!
//! Layers, lowest first (a layer uses only the ones below it; docs/architecture.md):
//! [`base`] (text, file and YAML reading every layer shares), [`release`] (what each OpenClaw
//! release does, as data), [`config`] (loading, validating and viewing `openclaw.json`),
//! [`policy`] (the one tool-policy resolver and tool explanations), [`exec`] (exec approval),
//! [`guards`] (SSRF and file-path guards), [`fleet`] (questions about every session of a config:
//! matrix, who-can, diff), [`lint`], [`simulate`], [`suite`], [`batch`] (the JSONL protocol),
//! [`report`] (output formats) and [`cli`] (the command line, the only place that prints).

pub mod base;
pub mod batch;
pub mod cli;
pub mod config;
pub mod exec;
pub mod fix;
pub mod fleet;
#[doc(hidden)]
pub mod fuzzing;
pub mod guards;
pub mod lint;
pub mod lsp;
pub mod policy;
pub mod release;
pub mod report;
pub mod simulate;
pub mod suite;

pub use release::version::OpenClawVersion;
