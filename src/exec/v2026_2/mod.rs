//! 2026.2's pipeline: the hand-written splitter.

pub mod splitter;
