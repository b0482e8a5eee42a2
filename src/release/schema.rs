//! The release's config JSON Schema (`config-schema.json`) as the build splits it
//! (`build/schema_pieces.rs`): pieces that are parsed and compiled only when a config reaches them.
//!
//! The build writes one text and tables of offsets into it, not a table of string references:
//! every reference in a static table is patched by the dynamic loader when the program starts,
//! and the thousands of pieces of eight releases made that, one page fault per page of the table,
//! a larger part of a small command's time than its work.

/// Every piece of one release's schema; the first is the root.
pub struct SchemaPieces {
    /// Each piece's text and each split member's name, one after another.
    pub text: &'static str,
    pub pieces: &'static [SchemaPiece],
    pub members: &'static [SchemaMember],
}

/// One node of the schema with its large parts split off into pieces of their own.
pub struct SchemaPiece {
    /// Where the node's JSON text is in [`SchemaPieces::text`], each split member reading `true`.
    pub text: [u32; 2],
    /// Where its split members are in [`SchemaPieces::members`].
    pub members: [u32; 2],
    /// The piece every array item is validated against, when `items` was split.
    pub items: Option<u32>,
    /// The piece the values of properties not in `properties` are validated against, when
    /// `additionalProperties` was split.
    pub other_properties: Option<u32>,
}

/// A split member: where its property name is in [`SchemaPieces::text`], and its piece.
pub struct SchemaMember {
    pub name: [u32; 2],
    pub piece: u32,
}

impl SchemaPieces {
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    fn slice(&self, at: [u32; 2]) -> &'static str {
        super::text_at(self.text, at)
    }

    /// The JSON text of piece `index`.
    pub fn text(&self, index: usize) -> &'static str {
        self.slice(self.pieces[index].text)
    }

    /// The split members of piece `index`: property name and piece index.
    pub fn members(&self, index: usize) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        let [start, end] = self.pieces[index].members;
        self.members[start as usize..end as usize].iter().map(|m| (self.slice(m.name), m.piece as usize))
    }

    /// The piece every array item of piece `index` is validated against, when split.
    pub fn items(&self, index: usize) -> Option<usize> {
        self.pieces[index].items.map(|piece| piece as usize)
    }

    /// The piece the values of other properties of piece `index` are validated against, when split.
    pub fn other_properties(&self, index: usize) -> Option<usize> {
        self.pieces[index].other_properties.map(|piece| piece as usize)
    }
}
