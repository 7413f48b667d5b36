//! Maps and sets: a length, then the entries (key then value for maps) in
//! the collection's iteration order. Decoding rejects a repeated key, so a
//! decoded map holds exactly the entries that were written.
//!
//! Inserting a key hashes or compares it, which walks all of it; a key
//! built from shared values (`Rc`s that point at each other's halves) can
//! be exponentially larger than its bytes, so every key's expansion is
//! charged to a budget before it is inserted (`Reader::charge_key`).

use alloc::collections::{BTreeMap, BTreeSet};

use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

#[cold]
#[inline(never)]
fn duplicate<L: crate::Layout>(r: &Reader<'_, L>, at: usize, what: &str) -> crate::Error {
    r.error_at(
        at,
        ErrorKind::InvalidValue,
        alloc::format!("duplicate {what}"),
    )
}

/// Encodes `len` entries from an iterator of key-value pairs: in the
/// compact layout the keys' column, then the values' (§27); in the fixed
/// layout key, value, key, value.
#[inline]
pub(super) fn pack_map<'a, K: Pack + 'a, V: Pack + 'a, L: crate::Layout>(
    w: &mut Writer<'_, L>,
    len: usize,
    entries: impl Iterator<Item = (&'a K, &'a V)> + Clone,
) -> Result<()> {
    w.write_len(len);
    w.nested(|w| {
        if !L::FIXED {
            crate::write::pack_column(entries.clone().map(|(k, _)| k), w)?;
            return crate::write::pack_column(entries.map(|(_, v)| v), w);
        }
        for (k, v) in entries {
            k.pack(w)?;
            v.pack(w)?;
        }
        Ok(())
    })
}

/// Encodes `len` items from an iterator: in the compact layout their
/// column (§27), as a sequence's; in the fixed layout one after another.
#[inline]
pub(super) fn pack_set<'a, T: Pack + 'a, L: crate::Layout>(
    w: &mut Writer<'_, L>,
    len: usize,
    items: impl Iterator<Item = &'a T> + Clone,
) -> Result<()> {
    w.write_len(len);
    w.nested(|w| {
        if !L::FIXED {
            return crate::write::pack_column(items, w);
        }
        items.into_iter().try_for_each(|item| item.pack(w))
    })
}

/// How a map or set stores its entries, for what it is charged.
#[derive(Clone, Copy)]
pub(crate) enum Table {
    /// A B-tree: leaves of eleven entries, between 5/11 and full (up to
    /// 2.2 slots an entry), and edges; a non-empty tree allocates a whole
    /// leaf.
    Tree,
    /// A hash table (std's, hashbrown's): up to 2.3 slots an entry (8/7 of
    /// the entries, rounded up to a power of two) and a control byte a
    /// slot; at least four slots. (Without `std` or `hashbrown`, unused.)
    #[cfg_attr(not(any(feature = "std", feature = "hashbrown")), allow(dead_code))]
    Hash,
    /// indexmap's: its entries with their hashes in a vector (up to twice
    /// the entries, from doubling), and a hash table of indexes.
    #[cfg(feature = "indexmap")]
    Index,
}

impl Table {
    /// What `len` entries `E` are charged.
    fn size<E>(self, len: usize) -> usize {
        if len == 0 {
            return 0;
        }
        let e = core::mem::size_of::<E>();
        let word = core::mem::size_of::<usize>();
        let (per_entry, first) = match self {
            Table::Tree => ((e + 1) * 7 / 3 + word, 11 * e + 8 * word),
            Table::Hash => ((e + 1) * 7 / 3, 4 * (e + 1) + 16),
            #[cfg(feature = "indexmap")]
            Table::Index => (2 * (e + word) + 3 * word, 4 * (e + word) + 16),
        };
        len.saturating_mul(per_entry).saturating_add(first)
    }
}

/// Decodes map entries into an empty map through `insert`, which must
/// return whether the key was new. `make` builds the map with room for a
/// checked capacity, or `None` if that allocation fails.
#[inline]
pub(super) fn unpack_map<'de, K: Unpack<'de>, V: Unpack<'de>, M, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    table: Table,
    make: impl FnOnce(usize) -> Option<M>,
    mut insert: impl FnMut(&mut M, K, V) -> bool,
) -> Result<M> {
    let len = if L::FIXED {
        r.read_len_for::<(K, V)>()?
    } else {
        let start = r.position();
        let len = r.read_len()?;
        r.check_column::<K>(len, start)?;
        r.check_column::<V>(len, start)?;
        len
    };
    r.charge_memory(table.size::<(K, V)>(len))?;
    let capacity = r.cautious_capacity::<(K, V)>(len);
    // The stack each level gets follows the entry its frames hold.
    r.nested_holding::<(K, V), _>(|r| {
        if !L::FIXED {
            // The keys' column, charged for the hashing and comparing of
            // all of them, then the values' (§27).
            let at = r.position();
            let before = r.expansion();
            let keys = crate::error::in_field(K::unpack_vec(r, len), "[keys]")?;
            r.charge_key(before, at)?;
            let values = crate::error::in_field(V::unpack_vec(r, len), "[values]")?;
            if keys.len() != len || values.len() != len {
                return Err(crate::read::short_column(r));
            }
            let mut map = make(capacity).ok_or_else(|| r.alloc_error(len))?;
            for (i, (k, v)) in keys.into_iter().zip(values).enumerate() {
                if !insert(&mut map, k, v) {
                    return Err(duplicate(r, at, "map key").in_field(&alloc::format!("[key {i}]")));
                }
            }
            return Ok(map);
        }
        let mut map = make(capacity).ok_or_else(|| r.alloc_error(len))?;
        for i in 0..len {
            let at = r.position();
            let before = r.expansion();
            let k = crate::error::in_element(K::unpack(r), "key ", i)?;
            r.charge_key(before, at)?;
            let v = crate::error::in_element(V::unpack(r), "", i)?;
            if !insert(&mut map, k, v) {
                return Err(duplicate(r, at, "map key"));
            }
        }
        Ok(map)
    })
}

/// Decodes set items into an empty set through `insert` (see `unpack_map`).
#[inline]
pub(super) fn unpack_set<'de, T: Unpack<'de>, S, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    table: Table,
    make: impl FnOnce(usize) -> Option<S>,
    mut insert: impl FnMut(&mut S, T) -> bool,
) -> Result<S> {
    let len = if L::FIXED {
        r.read_len_for::<T>()?
    } else {
        r.read_seq_len::<T>()?
    };
    r.charge_memory(table.size::<T>(len))?;
    let capacity = r.cautious_capacity::<T>(len);
    r.nested_holding::<T, _>(|r| {
        if !L::FIXED {
            // The items' column (§27), charged as keys, then inserted.
            let at = r.position();
            let before = r.expansion();
            let items = T::unpack_vec(r, len)?;
            r.charge_key(before, at)?;
            if items.len() != len {
                return Err(crate::read::short_column(r));
            }
            let mut set = make(capacity).ok_or_else(|| r.alloc_error(len))?;
            for (i, item) in items.into_iter().enumerate() {
                if !insert(&mut set, item) {
                    return Err(duplicate(r, at, "set element").in_field(&alloc::format!("[{i}]")));
                }
            }
            return Ok(set);
        }
        let mut set = make(capacity).ok_or_else(|| r.alloc_error(len))?;
        for i in 0..len {
            let at = r.position();
            let before = r.expansion();
            let item = crate::error::in_element(T::unpack(r), "", i)?;
            r.charge_key(before, at)?;
            if !insert(&mut set, item) {
                return Err(duplicate(r, at, "set element"));
            }
        }
        Ok(set)
    })
}

impl<K: Encoding, V: Encoding> Encoding for BTreeMap<K, V> {
    encoding_builtin!("map", K, V);
}

impl<K: Pack, V: Pack> Pack for BTreeMap<K, V> {
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        pack_map(w, self.len(), self.iter())
    }
}

impl<'de, K: Unpack<'de> + Ord, V: Unpack<'de>> Unpack<'de> for BTreeMap<K, V> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(BTreeMap::new())
    }

    const MIN_SIZE: usize = 1;

    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        unpack_map(
            r,
            Table::Tree,
            |_| Some(BTreeMap::new()),
            |m, k, v| m.insert(k, v).is_none(),
        )
    }
}

impl<T: Encoding> Encoding for BTreeSet<T> {
    encoding_builtin!("set", T);
}

impl<T: Pack> Pack for BTreeSet<T> {
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        pack_set(w, self.len(), self.iter())
    }
}

impl<'de, T: Unpack<'de> + Ord> Unpack<'de> for BTreeSet<T> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(BTreeSet::new())
    }

    const MIN_SIZE: usize = 1;

    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        unpack_set(
            r,
            Table::Tree,
            |_| Some(BTreeSet::new()),
            |s, t| s.insert(t),
        )
    }
}

/// The impls of a hashed map and set with a `BuildHasher` parameter and
/// `with_hasher`/`try_reserve` (std's, hashbrown's, indexmap's): the
/// entries in iteration order, each key charged to the key budget before
/// it is inserted, a repeated key `InvalidValue`, a reservation that fails
/// an error rather than an abort. Used for std's maps and by the
/// `hashbrown` and `indexmap` features, so a build with none is unused.
#[allow(unused_macros)]
macro_rules! hashed_collections {
    ($map:ident, $set:ident, $table:expr) => {
        use core::hash::{BuildHasher, Hash};

        use crate::impls::collections::{pack_map, pack_set, unpack_map, unpack_set};
        use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

        impl<K: Encoding, V: Encoding, S> Encoding for $map<K, V, S> {
            encoding_builtin!("map", K, V);
        }

        impl<K: Pack, V: Pack, S> Pack for $map<K, V, S> {
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                pack_map(w, self.len(), self.iter())
            }
        }

        impl<'de, K, V, S> Unpack<'de> for $map<K, V, S>
        where
            K: Unpack<'de> + Eq + Hash,
            V: Unpack<'de>,
            S: BuildHasher + Default,
        {
            const MIN_SIZE: usize = 1;

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some($map::with_hasher(S::default()))
            }

            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                unpack_map(
                    r,
                    $table,
                    |n| {
                        let mut map = $map::with_hasher(S::default());
                        map.try_reserve(n).ok()?;
                        Some(map)
                    },
                    |m, k, v| m.insert(k, v).is_none(),
                )
            }
        }

        impl<T: Encoding, S> Encoding for $set<T, S> {
            encoding_builtin!("set", T);
        }

        impl<T: Pack, S> Pack for $set<T, S> {
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                pack_set(w, self.len(), self.iter())
            }
        }

        impl<'de, T, S> Unpack<'de> for $set<T, S>
        where
            T: Unpack<'de> + Eq + Hash,
            S: BuildHasher + Default,
        {
            const MIN_SIZE: usize = 1;

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some($set::with_hasher(S::default()))
            }

            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                unpack_set(
                    r,
                    $table,
                    |n| {
                        let mut set = $set::with_hasher(S::default());
                        set.try_reserve(n).ok()?;
                        Some(set)
                    },
                    |s, t| s.insert(t),
                )
            }
        }
    };
}

#[allow(unused_imports)]
pub(crate) use hashed_collections;

#[cfg(feature = "std")]
mod hashed {
    use std::collections::{HashMap, HashSet};

    hashed_collections!(HashMap, HashSet, crate::impls::collections::Table::Hash);
}
