//! Typed, read-only views of the loaded config: the facts commands ask about, computed once and
//! read the way the release reads them (loosely where JavaScript does).

pub mod agents;
pub mod channels;
pub mod ids;
pub mod inbound;
pub mod located;
pub mod models;
pub mod plugins;
pub mod sandbox;
pub mod session;
pub mod tools;
