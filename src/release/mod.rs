//! What each simulated OpenClaw release does, as data read from `data/` ([`pack`]), and the
//! release identifiers ([`version`]).

pub mod pack;
pub mod version;
