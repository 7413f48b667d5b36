//! `IndexMap` and `IndexSet` are maps and sets (format.md §9), as std's
//! are: their iteration order is their order, so a round trip keeps it.

use indexmap::{IndexMap, IndexSet};
crate::impls::collections::hashed_collections!(
    IndexMap,
    IndexSet,
    crate::impls::collections::Table::Index
);
