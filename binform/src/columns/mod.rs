//! Columns (`docs/format.md` §27): in the compact layout a sequence of
//! strings, options or derived types is written a column at a time, so
//! that like values lie together and integers pack in blocks (§22).
//!
//! What each kind of element writes is its type's `Pack::pack_all` and
//! reads its `Unpack::unpack_vec` (the string column is with the strings,
//! `impls::string`); this module holds the pieces they share: presence
//! bits, and the lengths of strings and sequences. Taking the next value
//! of a decoded column without trusting a hand-written decoder's count is
//! `read::lazy::next`, beside the vector built from a lazy column.

use alloc::vec::Vec;

pub(crate) mod lazy;
pub(crate) mod plain;
pub(crate) mod variants;

use crate::{ErrorKind, Reader, Result, Writer};

/// Writes flags as bits: flag `i` is bit `i % 8` of byte `i / 8`, the
/// last byte's unused bits zero (`⌈n / 8⌉` bytes for `n` flags).
pub(crate) fn write_bits<L: crate::Layout>(
    flags: impl Iterator<Item = bool>,
    w: &mut Writer<'_, L>,
) {
    // One loop by `fold`, as `packed::encode::gather` takes its values.
    let (byte, k) = flags.fold((0u8, 0u32), |(byte, k), flag| {
        let byte = byte | u8::from(flag) << k;
        if k < 7 {
            return (byte, k + 1);
        }
        w.write_u8(byte);
        (0, 0)
    });
    if k > 0 {
        w.write_u8(byte);
    }
}

/// [`write_bits`] of the flags of `slices`, `total` of them, eight at a
/// time: each eight bools (bytes of 0 or 1) gathered into a byte by one
/// multiplication, and joined in a 64-bit accumulator that is stored four
/// bytes at a time (or-ing each byte into the output at its bit position
/// cost two checked read-modify-writes a byte). A slice of up to 16 bools
/// is one push.
pub(crate) fn write_bit_slices<'a, L: crate::Layout>(
    slices: impl Iterator<Item = &'a [bool]>,
    total: usize,
    w: &mut Writer<'_, L>,
) {
    // Bit `i` of the result is byte `i` of `x`, each 0 or 1: the products
    // of the bytes with the multiplier's bytes meet in the top byte.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let out = w.extend_zeroed(total.div_ceil(8));
    // `acc` holds `filled` (below 32 between pushes) flags not yet stored,
    // which start at byte `at` of `out`; a push adds at most 16, so they
    // fit its 64 bits and one store makes room.
    let (mut acc, mut filled, mut at) = (0u64, 0u32, 0usize);
    let mut push = |bits: u64, count: u32| {
        acc |= bits << filled;
        filled += count;
        if filled >= 32 {
            // These 32 flags are among the `total`: their bytes exist.
            if let Some(dst) = out.get_mut(at..at + 4) {
                dst.copy_from_slice(&(acc as u32).to_le_bytes());
            }
            (acc, filled, at) = (acc >> 32, filled - 32, at + 4);
        }
    };
    // The flags of eight bools, gathered.
    let eight = |bools: &[bool]| {
        let x = u64::from_le_bytes(core::array::from_fn(|i| {
            u8::from(bools.get(i).copied().unwrap_or_default())
        }));
        x.wrapping_mul(GATHER) >> 56
    };
    // Each slice's last flags are the top ones of its last eight bools
    // (overlapping the eights before), and a slice of up to 16 is one
    // push: a loop over the last bools, and a push for them, cost almost
    // half of this function's instructions on mk48's column of reloads
    // (ten bools a slice; 122,603 -> 66,163 an encode). A slice shorter
    // than eight is taken bool by bool.
    for slice in slices {
        let n = slice.len();
        let tail = |k: usize| match n.checked_sub(8).and_then(|at| slice.get(at..)) {
            Some(bools) => eight(bools) >> (8 - k),
            None => 0,
        };
        match n {
            0 => {}
            1..8 => {
                let bits = slice
                    .iter()
                    .enumerate()
                    .fold(0u64, |bits, (i, &b)| bits | (u64::from(b) << i));
                push(bits, n as u32);
            }
            8..=16 => push(eight(slice) | tail(n - 8) << 8, n as u32),
            _ => {
                let eights = slice.chunks_exact(8);
                let rest = eights.remainder().len();
                for bools in eights {
                    push(eight(bools), 8);
                }
                if rest > 0 {
                    push(tail(rest), rest as u32);
                }
            }
        }
    }
    // The last flags' bytes: at most four (fewer than 32 flags).
    let last = filled.div_ceil(8) as usize;
    if let Some(dst) = out.get_mut(at..at + last) {
        dst.copy_from_slice(acc.to_le_bytes().get(..last).unwrap_or_default());
    }
    debug_assert_eq!(
        at * 8 + filled as usize,
        total,
        "the slices hold `total` flags"
    );
}

/// Reads the bytes of `n` flags written by [`write_bits`]; a set bit past
/// the last flag is `InvalidValue` (one value, one encoding).
pub(crate) fn read_bits<'de, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<Bits<'de>> {
    let bytes = r.read_bytes(n.div_ceil(8))?;
    let used = n % 8;
    if used != 0 && bytes.last().is_some_and(|&last| last >> used != 0) {
        return Err(r.error_at(
            r.position() - 1,
            ErrorKind::InvalidValue,
            "a bit column has bits set past its last value",
        ));
    }
    Ok(Bits(bytes))
}

/// The bytes of a column of flags.
#[derive(Clone, Copy)]
pub(crate) struct Bits<'de>(&'de [u8]);

/// Each byte's eight flags, lowest bit first.
const SPREAD: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut i = 0;
        while i < 8 {
            table[byte][i] = (byte >> i) & 1 == 1;
            i += 1;
        }
        byte += 1;
    }
    table
};

impl Bits<'_> {
    /// Appends the `n` flags to `out`, a byte's eight at a time: whole
    /// bytes as one 8-byte copy each (a copy of a variable length was a
    /// `memcpy` call a byte), then the last byte's used bits.
    pub(crate) fn extend_into(self, n: usize, out: &mut Vec<bool>) {
        let (whole, last) = self.0.split_at((n / 8).min(self.0.len()));
        for &byte in whole {
            out.extend_from_slice(&SPREAD[usize::from(byte)]);
        }
        if let Some(&byte) = last.first() {
            let flags = &SPREAD[usize::from(byte)];
            out.extend_from_slice(flags.get(..n % 8).unwrap_or_default());
        }
    }

    /// Flag `i` (false past the end).
    #[inline(always)]
    pub(crate) fn get(self, i: usize) -> bool {
        self.0.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 == 1)
    }

    /// How many flags are set.
    pub(crate) fn count(self) -> usize {
        self.0.iter().map(|b| b.count_ones() as usize).sum()
    }
}

/// Reads the lengths of a column of `n` strings or sequences (packed
/// `u64` blocks, §22), then runs `f` on them: at most [`SHORT_LENGTHS`]
/// on the stack (most such columns inside structs are short), more in a
/// vector. (A column that keeps its lengths has them in [`Lengths`].)
pub(crate) fn with_lengths<'de, L: crate::Layout, R>(
    r: &mut Reader<'de, L>,
    n: usize,
    f: impl FnOnce(&mut Reader<'de, L>, &[u64]) -> Result<R>,
) -> Result<R> {
    if n <= SHORT_LENGTHS {
        let mut lens = [0u64; SHORT_LENGTHS];
        let lens = lens.get_mut(..n).unwrap_or_default();
        crate::packed::unpack_into(r, lens)?;
        return f(r, lens);
    }
    let lens: Vec<u64> = crate::packed::unpack_vec(r, n)?;
    let out = f(r, &lens);
    // The lengths' vector is freed: what it was charged is given back.
    r.refund_memory(lens.len().saturating_mul(core::mem::size_of::<u64>()));
    out
}

/// The lengths of a column of strings or sequences, kept by its lazy
/// reader (`impls::string`, `columns::plain`): at most
/// [`KEPT_LENGTHS`] in place (most such columns inside structs are
/// short), more in a vector.
pub(crate) enum Lengths {
    /// The first `.1` lengths of the array.
    Short([u64; KEPT_LENGTHS], usize),
    /// A vector of them.
    Long(Vec<u64>),
}

impl Lengths {
    /// The lengths.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[u64] {
        match self {
            Lengths::Short(lens, n) => lens.get(..*n).unwrap_or_default(),
            Lengths::Long(lens) => lens,
        }
    }
}

/// Reads the lengths of a column of `n` strings or sequences (packed
/// `u64` blocks, §22), to keep.
#[inline]
pub(crate) fn read_lengths<L: crate::Layout>(r: &mut Reader<'_, L>, n: usize) -> Result<Lengths> {
    if n <= KEPT_LENGTHS {
        // Read where they are kept (an array built and then moved was a
        // copy of all 32).
        let mut lens = Lengths::Short([0u64; KEPT_LENGTHS], n);
        if let Lengths::Short(short, _) = &mut lens {
            crate::packed::unpack_into(r, short.get_mut(..n).unwrap_or_default())?;
        }
        return Ok(lens);
    }
    crate::packed::unpack_vec(r, n).map(Lengths::Long)
}

/// Columns of at most this many strings or sequences keep their lengths
/// on the stack.
const SHORT_LENGTHS: usize = 32;

/// Columns of at most this many strings that keep their lengths while
/// they are read lazily keep them in place ([`Lengths`]): fewer than
/// [`SHORT_LENGTHS`], since the column is moved into its reader's
/// iterator (at 32, people's decode was 1% slower than at 12).
const KEPT_LENGTHS: usize = 12;

/// The sum of a column's lengths (read at `at`), as a `usize`; a sum
/// that overflows is more than any input holds.
pub(crate) fn total_of<L: crate::Layout>(
    r: &Reader<'_, L>,
    lens: &[u64],
    at: usize,
) -> Result<usize> {
    lens.iter()
        .try_fold(0u64, |sum, &len| sum.checked_add(len))
        .and_then(|t| usize::try_from(t).ok())
        .ok_or_else(|| {
            r.error_at(
                at,
                ErrorKind::UnexpectedEnd,
                "a column's lengths add up to more than any input holds",
            )
        })
}

/// A decoded column's values made into a wrapper's (`Box::new`,
/// `Cell::new`, ...): the new vector is charged first (wrappers of one
/// layout with their contents reuse the allocation, and are charged all
/// the same).
pub(crate) fn map_column<T, U, L: crate::Layout>(
    r: &mut Reader<'_, L>,
    values: Vec<T>,
    f: impl FnMut(T) -> U,
) -> Result<Vec<U>> {
    r.charge_memory(values.len().saturating_mul(core::mem::size_of::<U>()))?;
    Ok(values.into_iter().map(f).collect())
}

/// The `pack_all` of a type whose sequences are columns (§27): rows in
/// the fixed layout, and in the compact one the column `$body` writes,
/// with the elements bound to `$items` and the writer to `$w`.
macro_rules! column_pack_all {
    (|$items:ident, $w:ident| $body:expr) => {
        #[inline]
        fn pack_all<'a, L: crate::Layout>(
            $items: impl Iterator<Item = &'a Self> + Clone,
            $w: &mut crate::Writer<'_, L>,
        ) -> crate::Result<()>
        where
            Self: 'a,
        {
            if L::FIXED {
                return crate::write::pack_each_of($items, $w);
            }
            $body
        }
    };
}

/// The `Pack` hooks of a wrapper encoded as its contents (`$get` borrows
/// them): its slices and sequences are its contents' (§22, §27), so that
/// what the schema shows, the contents' type, is what is written.
macro_rules! forward_columns {
    ($inner:ty, $get:expr) => {
        #[inline]
        fn pack_all<'a, L: crate::Layout>(
            items: impl Iterator<Item = &'a Self> + Clone,
            w: &mut crate::Writer<'_, L>,
        ) -> crate::Result<()>
        where
            Self: 'a,
        {
            // As a reference: a shared value inside may be met again
            // through another (`Writer::owns_path`).
            // A level for rows, as the contents' `unpack_vec` counts.
            w.through_reference(|w| crate::write::pack_column::<$inner, L>(items.map($get), w))
        }
    };
}

/// The `Unpack` hooks of a wrapper encoded as its contents (`$new` wraps
/// one): its sequences decode as its contents' (§22, §27), then wrapped.
macro_rules! forward_unpack_columns {
    ($new:expr) => {
        const COLUMN_MIN: usize = T::COLUMN_MIN;

        #[inline]
        fn unpack_vec<L: crate::Layout>(
            r: &mut crate::Reader<'de, L>,
            len: usize,
        ) -> crate::Result<alloc::vec::Vec<Self>> {
            let values = T::unpack_vec(r, len)?;
            crate::columns::map_column(r, values, $new)
        }
    };
}

#[cfg(test)]
pub(crate) mod tests {
    //! These run under Miri (`scripts/miri.sh`, and CI's subset), which
    //! checks the in-place writes into a vector's spare capacity
    //! (`read::push_made`, `push_next`, `push_within`) behind lazy columns
    //! and sequences of them, and a lazy string column's inline
    //! allocation (`impls::string::small_string`).
    use alloc::string::{String, ToString};
    use alloc::vec;
    use alloc::vec::Vec;

    use crate::{from_slice, to_vec, ErrorKind};

    /// Tuples, options and sequences of them: lazy columns (tuples and
    /// options build each value where it is stored), sequences filled from
    /// them, and leaves cut from their vector.
    type Rows = Vec<(u32, Option<String>, Vec<(u8, String)>, Vec<String>)>;
    /// Sequences of sequences of a lazy column, some empty.
    type Nested = Vec<Vec<Vec<(u8, Option<u8>)>>>;

    fn rows(n: u32) -> Rows {
        (0..n)
            .map(|i| {
                let seq = (0..i % 4).map(|k| (k as u8, k.to_string())).collect();
                let words = (0..i % 3).map(|k| "w".repeat(k as usize)).collect();
                (i, (i % 2 == 0).then(|| i.to_string()), seq, words)
            })
            .collect()
    }

    #[test]
    fn lazy_columns_and_sequences_of_them_round_trip() {
        for n in [0, 1, 2, 7, 40] {
            let value = rows(n);
            let bytes = to_vec(&value).unwrap();
            assert_eq!(from_slice::<Rows>(&bytes).unwrap(), value, "{n} rows");
        }
        let nested: Nested = vec![
            vec![],
            vec![vec![(1, None)], vec![]],
            vec![vec![(2, Some(3)), (4, None)]],
        ];
        let bytes = to_vec(&nested).unwrap();
        assert_eq!(from_slice::<Nested>(&bytes).unwrap(), nested);
    }

    #[test]
    fn a_cut_column_is_an_error_and_frees_what_was_written() {
        let bytes = to_vec(&rows(12)).unwrap();
        // Every strict prefix fails; the values already written into the
        // vectors' capacity are dropped (Miri would see a leak or a
        // double drop).
        for end in 0..bytes.len() {
            let err = from_slice::<Rows>(&bytes[..end]).unwrap_err();
            assert!(err.kind() == ErrorKind::UnexpectedEnd, "{end}: {err}");
        }
    }

    /// Rows holding a list of strings: one list of `long` of them (its
    /// buffer past the small-allocation path), the others short or empty.
    type Lists = Vec<(u8, Vec<String>)>;

    fn lists(long: usize) -> Lists {
        vec![
            (1, vec![]),
            (2, (0..long).map(|k| k.to_string()).collect()),
            (3, vec!["é".into(), String::new()]),
        ]
    }

    #[test]
    fn a_column_of_string_lists_round_trips_with_a_long_list() {
        for long in [0, 1, 13, 200] {
            let value = lists(long);
            let bytes = to_vec(&value).unwrap();
            assert_eq!(
                from_slice::<Lists>(&bytes).unwrap(),
                value,
                "{long} strings"
            );
        }
    }

    #[test]
    fn a_column_of_string_lists_is_charged_to_the_memory_budget() {
        // The lists' buffers (24 bytes a string) are charged before they
        // are made: a budget below them fails as a limit, and the least
        // budget that succeeds is at least what they take.
        let least = least_budget(&lists(200));
        assert!(least >= 202 * core::mem::size_of::<String>(), "{least}");
    }

    /// The least memory budget (to 64 bytes, under 64 KiB) that decodes
    /// `value`'s bytes back to it; 64 bytes less is `LimitExceeded`.
    pub(super) fn least_budget<T>(value: &T) -> usize
    where
        T: crate::Pack + for<'de> crate::Unpack<'de> + PartialEq + core::fmt::Debug,
    {
        let bytes = to_vec(value).unwrap();
        let decode = |budget: usize| {
            crate::Options::new()
                .max_memory(budget)
                .from_slice::<T>(&bytes)
        };
        let least = (0..64 * 1024)
            .step_by(64)
            .find(|&budget| decode(budget).is_ok())
            .expect("some budget under 64 KiB decodes");
        assert_eq!(&decode(least).unwrap(), value);
        let err = decode(least - 64).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
        least
    }

    #[test]
    fn bit_slices_are_the_bits_of_their_flags_in_order() {
        // Slices of every length from 0 to 40 in shifting orders, so that
        // short slices, one-push slices (8 to 16), whole eights with every
        // rest, and the accumulator's 32-bit stores fall at every bit
        // position; against the flag-at-a-time writer.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..40usize {
            let slices: Vec<Vec<bool>> = (0..round)
                .map(|k| {
                    (0..(k * 7 + round) % 41)
                        .map(|_| {
                            state ^= state << 13;
                            state ^= state >> 7;
                            state ^= state << 17;
                            state & 1 == 1
                        })
                        .collect()
                })
                .collect();
            let total = slices.iter().map(Vec::len).sum();
            let (mut sliced, mut flat) = (Vec::new(), Vec::new());
            super::write_bit_slices(
                slices.iter().map(Vec::as_slice),
                total,
                &mut crate::Writer::<crate::layout::Compact>::new(&mut sliced),
            );
            super::write_bits(
                slices.iter().flatten().copied(),
                &mut crate::Writer::<crate::layout::Compact>::new(&mut flat),
            );
            assert_eq!(sliced, flat, "round {round}");
        }
    }
}
