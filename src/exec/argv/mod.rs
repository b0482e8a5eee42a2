//! Reading an argv: wrappers and shells.

pub mod wrappers;
