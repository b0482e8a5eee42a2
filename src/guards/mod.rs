//! Runtime guards OpenClaw applies around tools, beyond tool policy and exec approvals: the SSRF
//! guard of guarded fetches and the workspace/sandbox path guard of file tools.

pub mod file_access;
pub mod ipaddr;
pub mod path;
pub mod ssrf;
pub mod write;
