//! hashbrown's `HashMap` and `HashSet` are maps and sets (format.md §9),
//! as std's are: maps and sets without std.

use hashbrown::{HashMap, HashSet};
crate::impls::collections::hashed_collections!(
    HashMap,
    HashSet,
    crate::impls::collections::Table::Hash
);
