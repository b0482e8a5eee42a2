//! Questions about every session of a config at once: which sessions there are and who can reach
//! them ([`contexts`]), exec decisions across sessions ([`probe`]), what differs between two
//! resolutions ([`delta`]), and the commands built on them: [`diff`], [`matrix`], [`who_can`], [`upgrade`].

pub mod contexts;
pub mod delta;
pub mod diff;
pub mod matrix;
pub mod probe;
pub mod upgrade;
pub mod who_can;
