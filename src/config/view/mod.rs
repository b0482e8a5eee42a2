//! Typed, read-only views of the loaded config: the facts commands ask about, computed once and
//! read the way the release reads them (loosely where JavaScript does).

pub mod env;
pub mod ids;
pub mod inbound;
pub mod keys;
