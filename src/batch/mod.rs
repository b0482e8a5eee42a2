//! The JSONL batch protocol: one case per line in the OpenClaw oracle's field names, one answer
//! per line, for `tools` ([`tools`]) and `exec` ([`exec`]).

pub mod exec;
mod recent;
pub mod tools;
