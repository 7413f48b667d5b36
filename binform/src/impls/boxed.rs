//! `Box<T>`, `Box<[T]>` (`Box<str>` lives with the strings). A box is
//! encoded as its contents; decoding one counts as a nesting level because
//! boxes are how types hold themselves.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

impl<T: Encoding + ?Sized> Encoding for Box<T> {
    encoding_transparent!(T);
}

impl<T: Pack + ?Sized> Pack for Box<T> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.nested(|w| (**self).pack(w))
    }

    /// The contents' column (§22, §27), one level down: boxes are how
    /// types hold themselves, and their columns nest as their values do.
    fn pack_all<'a, L: crate::Layout>(
        items: impl Iterator<Item = &'a Self> + Clone,
        w: &mut Writer<'_, L>,
    ) -> Result<()>
    where
        Self: 'a,
    {
        // An empty column is no bytes and no level, as its decoder counts.
        if items.clone().next().is_none() {
            return Ok(());
        }
        w.nested(|w| crate::write::pack_column(items.map(|b| &**b), w))
    }
}

// No `MIN_SIZE` from `T`: a type that holds itself through a box would make
// the constant depend on itself.
impl<'de, T: Unpack<'de>> Unpack<'de> for Box<T> {
    /// One pointer level deeper: the budget ends the recursion of types
    /// that hold themselves.
    #[inline]
    fn placeholder(work: &mut u32) -> Option<Self> {
        T::placeholder(work).map(Box::new)
    }

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        r.charge_memory(core::mem::size_of::<T>())?;
        r.nested_holding::<T, _>(|r| T::unpack(r).map(Box::new))
    }

    const COLUMN_MIN: usize = T::COLUMN_MIN;

    /// The contents' column (packed integers, strings, a derived type's
    /// columns, or rows), then each value boxed.
    fn unpack_vec<L: crate::Layout>(r: &mut Reader<'de, L>, len: usize) -> Result<Vec<Self>> {
        // An empty column is empty, and no level (a derived type's lazy
        // column reads its fields' columns of none).
        if len == 0 {
            return Ok(Vec::new());
        }
        let values = r.nested_holding::<T, _>(|r| T::unpack_vec(r, len))?;
        // Each value moves into a box of its own.
        r.charge_memory(values.len().saturating_mul(core::mem::size_of::<T>()))?;
        crate::columns::map_column(r, values, Box::new)
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for Box<[T]> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Box::default())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        // One level for the box, as its encoder counts.
        r.nested_holding::<T, _>(|r| Vec::<T>::unpack(r).map(Vec::into_boxed_slice))
    }

    /// A column of lengths, packed (two bytes for 256).
    const COLUMN_MIN: usize = 2;

    /// A column of sequences (§27), one level down, as the box's encoder
    /// counts.
    fn unpack_vec<L: crate::Layout>(r: &mut Reader<'de, L>, len: usize) -> Result<Vec<Self>> {
        if L::FIXED {
            return crate::read::unpack_each(r, len);
        }
        if len == 0 {
            return Ok(Vec::new());
        }
        r.nested_holding::<T, _>(|r| {
            crate::impls::seq::unpack_seqs(r, len, |_, items| Ok(items.into_boxed_slice()))
        })
    }
}

impl<T: Encoding + ?Sized> Encoding for &T {
    encoding_transparent!(T);
}

impl<T: Pack + ?Sized> Pack for &T {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.through_reference(|w| (**self).pack(w))
    }

    forward_columns!(T, |b: &Self| &**b);
}

impl<T: Encoding + ?Sized> Encoding for &mut T {
    encoding_transparent!(T);
}

impl<T: Pack + ?Sized> Pack for &mut T {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.through_reference(|w| (**self).pack(w))
    }

    forward_columns!(T, |b: &Self| &**b);
}
