//! Columns of plain scalars read in place (§27): bytes, `i8` and floats,
//! whose column is their values' little-endian bytes, `N` to a value.
//! Inside a lazy column each value is taken from the input when it is
//! asked for, and each sequence of them is copied from the input, where
//! the general path decoded the whole column into a transient vector
//! first (`read::leaf`, `impls::seq::copied_seqs`): an allocation and a
//! copy of the column, and for mk48's terrain bytes a second copy of
//! every byte.

use alloc::vec::Vec;

use super::Lengths;
use crate::{ErrorKind, Layout, Reader, Result, Unpack};

/// The `N`-byte values of a column of `n` (`n` checked by the caller
/// against the input, as for any column).
#[inline(always)]
fn values_of<'de, L: Layout, const N: usize>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<&'de [[u8; N]]> {
    let at = r.position();
    let Some(len) = n.checked_mul(N) else {
        return Err(r.error_at(
            at,
            ErrorKind::UnexpectedEnd,
            "a column of plain values longer than any input",
        ));
    };
    let bytes = r.read_bytes(len)?;
    // `len` is a multiple of `N`: nothing is left over.
    Ok(bytes.as_chunks::<N>().0)
}

/// A column of `n` plain values, each made by `from` from its bytes when
/// it is asked for (`Unpack::read_column` of the plain scalars).
#[inline(always)]
pub(crate) fn plain_column<'de, T, L: Layout, const N: usize, F>(
    r: &mut Reader<'de, L>,
    n: usize,
    from: F,
) -> Result<impl Iterator<Item = T> + use<'de, T, L, N, F>>
where
    F: Fn([u8; N]) -> T + Copy,
{
    let values = values_of::<L, N>(r, n)?;
    Ok(values.iter().map(move |&b| from(b)))
}

/// A column of `n` sequences of plain values (`Unpack::read_seqs` of the
/// plain scalars): their lengths, then their values, and each sequence
/// copied from the input when it is asked for. The sequences' buffers
/// are charged to the memory budget before any is made.
#[inline(always)]
pub(crate) fn plain_seqs<'de, T: Unpack<'de>, L: Layout, const N: usize, F>(
    r: &mut Reader<'de, L>,
    n: usize,
    from: F,
) -> Result<PlainSeqs<'de, N, F>>
where
    F: Fn([u8; N]) -> T + Copy,
{
    let lens = super::read_lengths(r, n)?;
    let at = r.position();
    let total = super::total_of(r, lens.as_slice(), at)?;
    r.check_column::<T>(total, at)?;
    r.charge_memory(total.saturating_mul(core::mem::size_of::<T>()))?;
    // The elements' column is a level down when there are any, as the
    // writer counts it (`impls::seq::pack_seqs`).
    let values = match total {
        0 => &[][..],
        _ => r.nested_holding::<T, _>(|r| values_of::<L, N>(r, total))?,
    };
    if let Lengths::Long(lens) = &lens {
        r.note_transient(lens);
    }
    Ok(PlainSeqs {
        lens,
        next: 0,
        values,
        from,
    })
}

/// The iterator of [`plain_seqs`]: each sequence in turn, made from the
/// values left. `None` past the last one (the lengths add up to the
/// values' count, so a sequence never runs short of them), or where a
/// large one cannot be allocated, which the column's reader reports as
/// an error.
pub(crate) struct PlainSeqs<'de, const N: usize, F> {
    lens: Lengths,
    next: usize,
    values: &'de [[u8; N]],
    from: F,
}

impl<T, const N: usize, F: Fn([u8; N]) -> T + Copy> Iterator for PlainSeqs<'_, N, F> {
    type Item = Vec<T>;

    #[inline(always)]
    fn next(&mut self) -> Option<Vec<T>> {
        let len = usize::try_from(*self.lens.as_slice().get(self.next)?).ok()?;
        self.next += 1;
        let (seq, rest) = self.values.split_at_checked(len)?;
        self.values = rest;
        // Empty sequences allocate nothing; others exactly their length
        // (charged when the column was read), a large one through the
        // fallible allocation (its length was declared by the input).
        let mut out = crate::read::vec_room(len)?;
        out.extend(seq.iter().map(|&b| (self.from)(b)));
        Some(out)
    }
}

/// The `Unpack` hooks of a plain scalar of `$n` bytes (`$from` makes one
/// from them): its columns are read in place ([`plain_column`],
/// [`plain_seqs`]).
macro_rules! plain_column_unpack {
    ($n:literal, $from:expr) => {
        #[inline(always)]
        fn read_column<L: crate::Layout>(
            r: &mut Reader<'de, L>,
            n: usize,
        ) -> Result<impl Iterator<Item = Self> + use<'de, L>> {
            crate::columns::plain::plain_column::<Self, L, $n, _>(r, n, $from)
        }

        #[inline(always)]
        fn read_seqs<L: crate::Layout>(
            r: &mut Reader<'de, L>,
            n: usize,
        ) -> Result<impl Iterator<Item = alloc::vec::Vec<Self>> + use<'de, L>> {
            crate::columns::plain::plain_seqs::<Self, L, $n, _>(r, n, $from)
        }
    };
}
pub(crate) use plain_column_unpack;

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use crate::{from_slice, to_vec, ErrorKind};

    /// Plain scalars and sequences of them inside a lazy column (a
    /// tuple's): each read in place.
    type Plain = Vec<(u8, i8, f32, f64, Vec<u8>, Vec<i8>, Vec<f32>, Vec<f64>)>;

    fn plain(n: usize) -> Plain {
        // A NaN with a payload and a negative zero among the floats: their
        // bits must survive, not only their values.
        let f32s = [f32::from_bits(0x7FC0_1234), -0.0, 1.5, f32::MIN];
        let f64s = [f64::from_bits(0x7FF8_0000_0000_0042), -0.0, 2.25];
        (0..n)
            .map(|i| {
                (
                    i as u8,
                    -(i as i8),
                    f32s[i % 4],
                    f64s[i % 3],
                    (0..i % 5).map(|k| (k * 51) as u8).collect(),
                    (0..i % 3).map(|k| -(k as i8) * 40).collect(),
                    f32s[..i % 5].to_vec(),
                    f64s[..i % 4].to_vec(),
                )
            })
            .collect()
    }

    /// [`Plain`]'s rows with their floats as bits.
    type Bits = Vec<(u8, i8, u32, u64, Vec<u8>, Vec<i8>, Vec<u32>, Vec<u64>)>;

    /// The values' bits, so that a NaN compares equal to itself.
    fn bits(rows: &Plain) -> Bits {
        rows.iter()
            .map(|(a, b, c, d, e, f, g, h)| {
                (
                    *a,
                    *b,
                    c.to_bits(),
                    d.to_bits(),
                    e.clone(),
                    f.clone(),
                    g.iter().map(|v| v.to_bits()).collect(),
                    h.iter().map(|v| v.to_bits()).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn plain_columns_and_sequences_round_trip_bit_for_bit() {
        for n in [0, 1, 3, 40] {
            let value = plain(n);
            let bytes = to_vec(&value).unwrap();
            let back = from_slice::<Plain>(&bytes).unwrap();
            assert_eq!(bits(&back), bits(&value), "{n} rows");
        }
    }

    #[test]
    fn a_cut_plain_column_is_unexpected_end() {
        let bytes = to_vec(&plain(9)).unwrap();
        for end in 0..bytes.len() {
            let err = from_slice::<Plain>(&bytes[..end]).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "{end}: {err}");
        }
    }

    #[test]
    fn plain_sequences_count_their_level_both_ways() {
        // The least depth that writes rows holding bytes and floats
        // reads them, and one less does not (a level the writer counts
        // and the reader skipped would read them at one less).
        fn check<T: crate::Pack + for<'de> crate::Unpack<'de> + PartialEq + core::fmt::Debug>(
            value: T,
        ) {
            let least = (1..64)
                .find(|&d| crate::Options::new().max_depth(d).to_vec(&value).is_ok())
                .expect("some depth writes it");
            let bytes = crate::Options::new()
                .max_depth(least)
                .to_vec(&value)
                .unwrap();
            let back: T = crate::Options::new()
                .max_depth(least)
                .from_slice(&bytes)
                .unwrap();
            assert_eq!(back, value);
            let err = crate::Options::new()
                .max_depth(least - 1)
                .from_slice::<T>(&bytes)
                .unwrap_err();
            assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
        }
        check::<Vec<(u8, Vec<u8>)>>(vec![(1, vec![2, 3]), (4, vec![])]);
        check::<Vec<(u8, Vec<f32>)>>(vec![(1, vec![]), (4, vec![0.5])]);
    }

    #[test]
    fn plain_sequences_are_charged_to_the_memory_budget() {
        // Rows with one sequence of 10,000 bytes: the least budget that
        // decodes holds them, and 64 bytes less is a limit.
        let value: Vec<(u8, Vec<u8>)> = vec![(1, vec![]), (2, vec![7; 10_000]), (3, vec![1, 2])];
        let least = crate::columns::tests::least_budget(&value);
        assert!(least >= 10_002, "{least}");
    }
}
