//! 2026.9's pipeline: tree-sitter analysis, the authorization plan, pinning, strict inline eval
//! and package-manager unwrapping.

pub mod analysis;
pub mod inline_eval;
pub mod pin;
pub mod pkg_manager;
pub mod plan;
