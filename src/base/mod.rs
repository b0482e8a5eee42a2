//! Foundations every layer shares and that depend on nothing else of the crate: making config
//! text safe to print ([`escape`]), reading user-given files with hard limits ([`userfile`]) and
//! bounded YAML ([`yaml`]).

pub mod escape;
pub mod userfile;
pub mod yaml;
