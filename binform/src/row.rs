//! A derived struct's fields as one row: in the compact layout (format.md
//! §9) each field in declaration order through the writer's or the
//! reader's cursor, nothing between them; in any layout, each field's
//! placeholder; and a compact struct's table of fields for its schema.
//!
//! Why the runtime does it, not the derive: the same statements a field,
//! written out in every derived type, were most of what rustc checked of
//! the derive's output. Here they are generic code over a tuple of the
//! fields' types, checked once; the derive's output names the tuple
//! (`(&__private::FieldsOf::<(A, B)>::NEW).__binform_unpack_row(..)`, as
//! the columns do) and rustc checks one call. Inlined, the code is the
//! same: every choice a field is a test on constants.
//!
//! A selector whose fields lack an encoding finds `NoFields`' methods
//! instead (`__private`), so the one error a missing encoding gives is
//! the field's own (`Field`, at the field). That needs another use of
//! every field's type under the same bounds, which reports it: the
//! per-field sums (`MAX_SIZE`, `MIN_SIZE`) for the rows, a compact
//! struct's `COLUMNS` for its table, a tolerant type's field decoders
//! for its placeholder.

use crate::read::ReadCursor;
use crate::write::Cursor;
use crate::{Layout, Result};

/// Writes the fields of a derived struct from a tuple `R` of references
/// to them: implemented for the selector `&__private::FieldsOf<R>` of
/// tuples of up to 16 references to encodable types (`impls/tuples.rs`).
///
/// # Safety
/// The derive promises that a struct's `pack_reserved` writes at most its
/// `MAX_SIZE` into room made for it ([`Kept`](crate::write::Kept)); it
/// writes its fields through this trait, whose implementations must
/// write each field within the room [`pack_next`](crate::__private::pack_next)
/// is told of, so that `unsafe` is needed to implement it.
#[doc(hidden)]
#[allow(unsafe_code)]
pub unsafe trait PackRow<R> {
    /// Writes each field in turn through the cursor `c` (each one
    /// [`pack_next`](crate::__private::pack_next) call), the first as if
    /// the field before it had the `MAX_SIZE` `first_prev`: the struct's
    /// own `MAX_SIZE`, for which its caller made room when it is a bound.
    ///
    /// # Safety
    /// When `first_prev` is a bound, the cursor has room for the sum of
    /// the fields' `MAX_SIZE`s and [`RESERVE_SLACK`](crate::write::RESERVE_SLACK).
    unsafe fn __binform_pack_row<L: Layout>(
        self,
        row: R,
        c: &mut Cursor<'_, '_, L>,
        first_prev: usize,
    ) -> Result<()>;
}

/// Reads the fields `F` (a tuple of up to 16 decodable types) of a
/// derived struct: implemented for the selector
/// `&__private::FieldsOf<F>` (`impls/tuples.rs`).
#[doc(hidden)]
pub trait UnpackRow<'de, F> {
    /// Reads each field in turn through the cursor `c`, the `i`-th
    /// error given the path `names[i]`.
    fn __binform_unpack_row<L: Layout>(
        self,
        c: &mut ReadCursor<'_, 'de, L>,
        names: &'static [&'static str],
    ) -> Result<F>;

    /// Each field's placeholder in turn (each spends from `work`), or
    /// `None` at the first field that has none.
    fn __binform_placeholder_row(self, work: &mut u32) -> Option<F>;
}

/// Describes a derived struct of the fields `F` (a tuple of up to 16
/// types with an encoding, in tag order) for its schema: implemented for
/// the selector `&__private::FieldsOf<F>` (`impls/tuples.rs`). The
/// table of the fields' entries is built here, where rustc checks it
/// once, not in every derived type's `describe`, where its coercions
/// were an eighth of what rustc checked of the derive's output.
#[doc(hidden)]
pub trait DescribeRow {
    /// [`describe_derived`](crate::__private::describe_derived) of a
    /// struct whose `i`-th field (by tag) has the tag and name
    /// `fields[i]`.
    fn __binform_describe(
        self,
        b: &mut crate::schema::Builder,
        type_name: &str,
        tolerant: bool,
        fields: &[(u32, &'static str)],
        reserved: &[u32],
    ) -> crate::TypeRef;
}

/// The room of a row's fields from each one on: the fields' `MAX_SIZE`s
/// `maxes` summed from the last backwards, the unbounded ones as 0
/// ([`bounded`](crate::__private::bounded)), plus the slack of the last
/// store. Evaluated at compile time for each tuple.
pub(crate) const fn rooms<const N: usize>(maxes: [usize; N]) -> [usize; N] {
    let mut rooms = [0usize; N];
    let mut room = crate::write::RESERVE_SLACK;
    let mut k = N;
    while k > 0 {
        k -= 1;
        room = crate::__private::bounded_plus(room, maxes[k]);
        rooms[k] = room;
    }
    rooms
}

/// The `MAX_SIZE` of the field before the `k`-th of a row: `first` for
/// the first.
#[inline(always)]
pub(crate) const fn prev_max(first: usize, maxes: &[usize], k: usize) -> usize {
    match k.checked_sub(1) {
        Some(prev) => maxes[prev],
        None => first,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::RESERVE_SLACK;

    // The rooms are those of the derive's `__room{k}` chain, which
    // structs that are not rows still use: each field's bounded share
    // and those after it, an unbounded field counting 0.
    #[test]
    fn rooms_sum_the_bounded_fields_from_each_one_on() {
        let unbounded = usize::MAX;
        assert_eq!(
            rooms([4, unbounded, 8, 2]),
            [
                14 + RESERVE_SLACK,
                10 + RESERVE_SLACK,
                10 + RESERVE_SLACK,
                2 + RESERVE_SLACK
            ]
        );
        assert_eq!(rooms::<0>([]), [0usize; 0]);
    }

    /// Every field bounded: the struct's caller makes room for all of
    /// it, and the row writes each field without a check.
    #[derive(binform_derive::Packable, Debug, PartialEq, Clone)]
    #[binform(crate = "crate")]
    struct Bounded {
        a: u8,
        b: u32,
        c: i64,
        d: bool,
    }

    /// Bounded runs after unbounded fields, and a bounded row nested in
    /// a row: each run makes its own room after a field with checks.
    #[derive(binform_derive::Packable, Debug, PartialEq, Clone)]
    #[binform(crate = "crate")]
    struct Mixed {
        a: u16,
        s: alloc::string::String,
        inner: Bounded,
        b: u64,
        v: alloc::vec::Vec<u8>,
        c: (u8, i128),
    }

    // The row's `unsafe` writes (`pack_next` into room made before it),
    // under Miri in CI (`row::`): every path of the room, each value at
    // its widest, round-trips in both layouts.
    #[test]
    fn rows_write_into_their_room_in_both_layouts() {
        let bounded = Bounded {
            a: u8::MAX,
            b: u32::MAX,
            c: i64::MIN,
            d: true,
        };
        let mixed = Mixed {
            a: u16::MAX,
            s: "x".repeat(200),
            inner: bounded.clone(),
            b: u64::MAX,
            v: alloc::vec![7; 3],
            c: (1, i128::MIN),
        };
        let bytes = crate::to_vec(&bounded).unwrap();
        assert_eq!(crate::from_slice::<Bounded>(&bytes).unwrap(), bounded);
        let bytes = crate::to_vec(&mixed).unwrap();
        assert_eq!(crate::from_slice::<Mixed>(&bytes).unwrap(), mixed);
        let bytes = crate::fixed::to_vec(&mixed).unwrap();
        assert_eq!(crate::fixed::from_slice::<Mixed>(&bytes).unwrap(), mixed);
        // Cut anywhere, the row's read is an error, never a panic.
        let bytes = crate::to_vec(&mixed).unwrap();
        for end in 0..bytes.len() {
            assert!(crate::from_slice::<Mixed>(&bytes[..end]).is_err());
        }
    }

    #[test]
    fn the_first_field_follows_the_given_max_size() {
        assert_eq!(prev_max(7, &[1, 2, 3], 0), 7);
        assert_eq!(prev_max(7, &[1, 2, 3], 2), 2);
    }
}
