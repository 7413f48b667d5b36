//! Building a vector from a type's lazy column (`Unpack::read_column`,
//! §27): the elements made one at a time where they are stored. Here, in
//! `read`, because it is `Unpack::unpack_vec`'s default for every type
//! with a lazy column; the columns themselves are `columns`'.

use alloc::vec::Vec;

use crate::{Layout, Reader, Result, Unpack};

/// The `unpack_vec` of a type with a lazy column (a derived type, an
/// option, a tuple: `Unpack::LAZY_COLUMN`, the default's test): rows in
/// the fixed layout; in the compact one its lazy column, each element
/// built in place in the vector. Once they are, the leaves' vectors are
/// freed, and what they were charged is given back (at most what the
/// column was charged).
#[inline]
pub(crate) fn unpack_lazy<'de, T: Unpack<'de>, L: Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<Vec<T>> {
    // Rows in the fixed layout, and for a struct whose fields' columns
    // would all be rows (its `COLUMNS`).
    if L::FIXED || !T::COLUMNS {
        return super::unpack_each(r, n);
    }
    // No elements, no columns (nor a recursion through them).
    if n == 0 {
        return Ok(Vec::new());
    }
    // The elements are built in this frame: a stack with room for them,
    // but no level (the rows inside count theirs).
    r.growing_for::<T, _>(|r| {
        let room = r.cautious_capacity::<T>(n);
        let (mut column, refund) = transient_column::<T, L>(r, n)?;
        let mut out = r.vec_with_room::<T>(n, room)?;
        for i in 0..n {
            if out.len() == out.capacity() {
                r.grow_toward(&mut out, i + 1, n)?;
            }
            super::push_next(r, &mut out, &mut column)?;
        }
        drop(column);
        r.refund_memory(refund);
        Ok(out)
    })
}

/// `T`'s lazy column of `n` values, and what its leaves' vectors were
/// charged (at most what was spent reading it): the caller gives that back
/// once it has built the elements and dropped the column.
#[inline(always)]
pub(crate) fn transient_column<'de, T: Unpack<'de>, L: Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<(impl Iterator<Item = T> + use<'de, T, L>, usize)> {
    let before = r.memory_left();
    let outer = core::mem::take(&mut r.transient);
    let column = T::read_column(r, n);
    let held = core::mem::replace(&mut r.transient, outer);
    let column = column?;
    let spent = before.saturating_sub(r.memory_left());
    Ok((column, spent.min(held)))
}

/// The next value of a decoded column. A column holds exactly as many
/// values as were asked for, unless a hand-written `unpack_vec` returned
/// fewer, or a lazy column could not allocate a value: that is an error,
/// never a panic.
#[inline(always)]
pub(crate) fn next<T, L: crate::Layout>(
    r: &Reader<'_, L>,
    column: &mut impl Iterator<Item = T>,
) -> Result<T> {
    match column.next() {
        Some(v) => Ok(v),
        None => Err(super::short_column(r)),
    }
}
