//! Typed, read-only views of the loaded config: the facts commands ask about, computed once and
//! read the way the release reads them (loosely where JavaScript does).
//!
//! Each area's views have their own file (`agents`, `tools`, `sandbox`, `session`, `channels`,
//! `plugins`, `models`, `inbound`, …), and every value they hand out carries its key path
//! ([`located::Located`]). A config key the library newly reads gets a method in a view, not a
//! string key at the call site.

pub mod agents;
pub mod automation;
pub mod channels;
pub mod elevated;
pub mod env;
pub mod exec;
pub mod ids;
pub mod inbound;
pub mod keys;
pub mod located;
pub mod mcp;
pub mod meta;
pub mod model_setting;
pub mod models;
pub mod plugins;
pub mod sandbox;
pub mod session;
pub mod tools;
