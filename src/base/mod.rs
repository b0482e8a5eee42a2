//! Foundations every layer shares and that depend on nothing else of the crate: making config
//! text safe to print ([`escape`]), OpenClaw's tool glob ([`glob`]), JavaScript string semantics ([`js`]), independent work spread over the cores ([`parallel`]), reading user-given files with hard limits ([`userfile`]), opening SQLite stores read-only
//! ([`sqlite`]) and bounded YAML ([`yaml`]).

pub mod escape;
pub mod glob;
pub mod js;
pub mod json;
pub mod parallel;
pub mod sqlite;
pub mod stream;
pub mod userfile;
pub mod yaml;
