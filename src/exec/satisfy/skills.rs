//! Skill CLIs the gateway reports (`skills.bins`): auto-allowed when the approvals document turns
//! on `autoAllowSkills`, if the executable was found by name on `PATH` at the skill's own path.

use std::path::Path;

use crate::exec::lookup::{Executable, has_path_separator, lexical_resolve};
use crate::exec::segments::EvalContext;

/// Whether `exe` is a reported skill CLI that the approvals document lets run.
pub fn skill_allowed(exe: &Executable, ctx: &EvalContext) -> bool {
    if !ctx.auto_allow_skills
        || ctx.skill_bins.is_empty()
        || exe.resolved_path.is_none()
        || has_path_separator(exe.raw.trim())
    {
        return false;
    }
    let Some(trust) = exe.trust_path() else {
        return false;
    };
    let name = exe.name.to_lowercase();
    ctx.skill_bins.iter().any(|s| {
        s.name.trim().to_lowercase() == name
            && lexical_resolve(Path::new("/"), s.resolved_path.trim()).to_string_lossy() == trust
    })
}
