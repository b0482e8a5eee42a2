//! The release's config JSON Schema (`config-schema.json`) as the build splits it
//! (`build.rs`): pieces that are parsed and compiled only when a config reaches them.

/// Every piece of one release's schema; the first is the root.
pub struct SchemaPieces(pub &'static [SchemaPiece]);

/// One node of the schema with its large parts split off into pieces of their own.
pub struct SchemaPiece {
    /// The node as JSON text, each split member reading `true`.
    pub text: &'static str,
    /// The split members: property name and piece index.
    pub members: &'static [(&'static str, usize)],
    /// The piece every array item is validated against, when `items` was split.
    pub items: Option<usize>,
    /// The piece the values of properties not in `properties` are validated against, when
    /// `additionalProperties` was split.
    pub other_properties: Option<usize>,
}
