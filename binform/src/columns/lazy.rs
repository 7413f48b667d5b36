//! Columns read lazily: the same bytes as `Unpack::unpack_vec` (§27),
//! read the same way, but a column of derived structs, enums, options or
//! tuples is not built as a vector of its own. Its fields' columns are
//! read, and each element is made from them when it is asked for, where
//! it is stored: in the vector of the outermost sequence, or inside the
//! element of an enclosing column.
//!
//! Built eagerly, a `Vec<Contact>` of mk48 made a vector for each nested
//! struct, option and tuple column, then moved every value out of it into
//! the next level: a quarter of the decode. Only the leaves (integers,
//! strings, sequences, anything without a lazy column) are vectors now.
//!
//! Which path a derived type's field takes is chosen at compile time by
//! method resolution (`__private::ColumnOf`): a type with a lazy column
//! ([`Columnar`]) is read lazily, any other through its `unpack_vec`.

use alloc::vec::{IntoIter, Vec};

use crate::{Layout, Reader, Result, Unpack};

/// A type whose column (§27) can be read as an iterator that makes each
/// value when it is asked for it. Implemented by the derive (for types
/// with columns), by `Option` and tuples of such types, and by the
/// leaves, whose iterator is their decoded vector's.
///
/// The iterator yields exactly `n` values when the column was well
/// formed; fewer is a short column, which the reader of the values turns
/// into an error ([`unpack_lazy`]).
#[doc(hidden)]
pub trait Columnar<'de>: Unpack<'de> {
    /// Reads a column of `n` values (`n` checked by the caller against
    /// the input, as for `unpack_vec`).
    fn read_column<L: Layout>(
        r: &mut Reader<'de, L>,
        n: usize,
    ) -> Result<impl Iterator<Item = Self> + use<'de, Self, L>>;
}

/// A leaf's column: its decoded vector, whose bytes are counted as the
/// enclosing lazy column's transient memory (given back once the
/// elements are built).
#[inline(always)]
pub fn leaf<'de, T: Unpack<'de>, L: Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<IntoIter<T>> {
    let values = T::unpack_vec(r, n)?;
    note_transient(r, &values);
    Ok(values.into_iter())
}

/// Counts `values` as transient memory of the lazy column being read.
#[inline(always)]
pub(crate) fn note_transient<T, L: Layout>(r: &mut Reader<'_, L>, values: &[T]) {
    let bytes = values.len().saturating_mul(core::mem::size_of::<T>());
    r.transient = r.transient.saturating_add(bytes);
}

/// Leaves: types whose column is their decoded vector.
macro_rules! leaf_columns {
    ($($ty:ty),* $(,)?) => {$(
        impl<'de> crate::columns::lazy::Columnar<'de> for $ty {
            #[inline(always)]
            fn read_column<L: crate::Layout>(
                r: &mut crate::Reader<'de, L>,
                n: usize,
            ) -> crate::Result<impl Iterator<Item = Self> + use<'de, L>> {
                crate::columns::lazy::leaf(r, n)
            }
        }
    )*};
}

pub(crate) use leaf_columns;

leaf_columns!(
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    bool,
    char,
    (),
    alloc::string::String,
);

/// A derived struct's rows, when its fields' columns would all be rows
/// (`Encoding::COLUMNS` unset); else none, and its fields' columns are
/// read.
#[inline(always)]
pub fn rows_of<'de, T: Unpack<'de>, L: Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<IntoIter<T>> {
    match T::COLUMNS {
        true => Ok(Vec::new().into_iter()),
        false => leaf(r, n),
    }
}

/// Presence bits, then the present values' column (as `unpack_vec`).
impl<'de, T: Columnar<'de>> Columnar<'de> for Option<T> {
    #[inline(always)]
    fn read_column<L: Layout>(
        r: &mut Reader<'de, L>,
        n: usize,
    ) -> Result<impl Iterator<Item = Self> + use<'de, T, L>> {
        let bits = super::read_bits(r, n)?;
        let present = bits.count();
        r.check_column::<T>(present, r.position())?;
        let mut values = T::read_column(r, present)?;
        let mut i = 0usize;
        Ok(core::iter::from_fn(move || {
            let v = match bits.get(i) {
                true => Some(values.next()?),
                false => None,
            };
            i += 1;
            Some(v)
        }))
    }
}

/// A derived type's `unpack_vec`: rows in the fixed layout; in the
/// compact one its lazy column, each element built in place in the
/// vector. Once they are, the leaves' vectors are freed, and what they
/// were charged is given back (at most what the column was charged).
#[inline]
pub fn unpack_lazy<'de, T: Columnar<'de>, L: Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<Vec<T>> {
    // Rows in the fixed layout, and for a struct whose fields' columns
    // would all be rows (its `COLUMNS`).
    if L::FIXED || !T::COLUMNS {
        return crate::read::unpack_each(r, n);
    }
    // No elements, no columns (nor a recursion through them).
    if n == 0 {
        return Ok(Vec::new());
    }
    // The elements are built in this frame: a stack with room for them,
    // but no level (the rows inside count theirs).
    r.growing_for::<T, _>(|r| {
        let before = r.memory_left();
        let outer = core::mem::take(&mut r.transient);
        let column = T::read_column(r, n);
        let held = core::mem::replace(&mut r.transient, outer);
        let mut column = column?;
        let spent = before.saturating_sub(r.memory_left());
        let mut out = r.vec_with_capacity::<T>(n)?;
        for i in 0..n {
            let v = super::next(r, &mut column)?;
            if out.len() == out.capacity() {
                r.grow_toward(&mut out, i + 1, n)?;
            }
            out.push(v);
        }
        drop(column);
        r.refund_memory(spent.min(held));
        Ok(out)
    })
}
