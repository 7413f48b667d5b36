//! Packed integer sequences (`docs/format.md` §22): the elements of a
//! sequence or array of integers go in blocks of [`BLOCK`] values, each
//! written as varints, as offsets from the block's minimum in whole bytes,
//! as bit-packed offsets, or as byte-length-coded payloads, whichever is
//! smallest.
//!
//! Why blocks: one varint per value is a serial chain of length decisions
//! that no compiler vectorizes, and full-range values cost a fifth more
//! than their width. Fixed-width offsets are a plain widen-and-add loop in
//! both directions, and narrow whenever a block's values lie close together
//! (ids, timestamps, counters), however large they are. Choosing per block
//! keeps an outlier's cost inside its own block, and the varint form keeps
//! small mixed values as compact as before: a block is never more than its
//! one header byte larger than the varints of the same values. Mixed
//! magnitudes that no base serves take the lengths form: all lengths
//! first, so each payload is read without waiting on the one before.
//!
//! Offsets are taken in an *ordered key* space (the value's bits, with the
//! sign bit flipped for signed types), where subtraction from the minimum
//! never wraps and the key order is the value order.

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use crate::varint::{LEN_MASK, VARINT_MIN};
use crate::{ErrorKind, Reader, Result, Writer};

pub(crate) use layout::BLOCK;
use layout::{
    bits_len, code_bits, codes_len, BITS, LENGTHS2, LENGTHS4, MAX_BITS, SHORT, VARINTS, WIDTHS,
};

pub(crate) mod layout;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86;

/// An unsigned key type: the arithmetic of offsets.
pub(crate) trait Key:
    Copy + Ord + core::ops::BitOr<Output = Self> + core::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    /// The varint length of a value (a zig-zagged one for signed types)
    /// held in this width: one byte plus one per 7 bits passed, counted by
    /// comparisons in the key's own width so that a loop over a block
    /// vectorizes (values from 2^56 take the 9-byte form).
    fn varint_len(self) -> u32;
    /// The bytes the value takes without its leading zero bytes (at least
    /// one): its length in the lengths form.
    fn byte_len(self) -> u32;
    /// 1 when the key reaches `2^shift` (`shift` below the width), else
    /// 0: a count to add in a vector lane.
    #[inline(always)]
    fn reaches(self, shift: u32) -> Self {
        Self::from_u64(u64::from(self >> shift != Self::ZERO))
    }
    fn wrapping_sub(self, other: Self) -> Self;
    fn wrapping_add(self, other: Self) -> Self;
    /// The low 64 bits.
    fn low64(self) -> u64;
    fn to_u128(self) -> u128;
    /// From a value that fits (an offset no wider than the key).
    fn from_u128(v: u128) -> Self;
    fn from_u64(v: u64) -> Self;
}

macro_rules! key {
    ($($k:ty),*) => {$(
        impl Key for $k {
            const ZERO: Self = 0;
            #[inline(always)]
            fn varint_len(self) -> u32 {
                // Thresholds below the width, and at most 2^56 (the
                // 9-byte form).
                let last = if <$k>::BITS > 56 { 56 } else { <$k>::BITS - 1 };
                let mut len = 1;
                let mut shift = 7;
                while shift <= last {
                    len += u32::from(self >> shift != 0);
                    shift += 7;
                }
                len
            }
            #[inline(always)]
            fn byte_len(self) -> u32 {
                // Scalar callers only (the encoder's vector pass counts
                // thresholds itself): a leading-zero count and a table.
                u32::from(BYTE_LEN[(self as u64).leading_zeros() as usize])
            }
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self { <$k>::wrapping_sub(self, other) }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self { <$k>::wrapping_add(self, other) }
            #[inline(always)]
            fn low64(self) -> u64 { self as u64 }
            #[inline(always)]
            fn to_u128(self) -> u128 { self as u128 }
            #[inline(always)]
            fn from_u128(v: u128) -> Self { v as $k }
            #[inline(always)]
            fn from_u64(v: u64) -> Self { v as $k }
        }
    )*};
}

key!(u16, u32, u64);

/// An integer type whose sequences are packed.
pub(crate) trait Lane: Copy + Default {
    /// The ordered key space: the value's width, unsigned.
    type Key: Key;
    /// The largest key (that of the type's largest value).
    const KEY_MAX: Self::Key;
    /// Whether payloads are zig-zagged (signed types). This and `WHOLE`
    /// are read by the vector kernels only.
    #[cfg_attr(not(all(feature = "std", target_arch = "x86_64")), allow(dead_code))]
    const ZIGZAG: bool;
    /// Whether the type has its key's size and every payload of the key's
    /// width is one of its values: then a vector kernel may store decoded
    /// lanes straight into a block.
    #[cfg_attr(not(all(feature = "std", target_arch = "x86_64")), allow(dead_code))]
    const WHOLE: bool;
    /// The value's key: order-preserving and invertible.
    fn key(self) -> Self::Key;
    /// The value of a key between those of the type's least and greatest
    /// values.
    fn from_key(key: Self::Key) -> Self;
    /// The length of the value's scalar encoding (its varint).
    fn scalar_len(self) -> u32;
    /// The value its varint holds (zig-zagged for signed types), in the
    /// key's width.
    fn payload(self) -> Self::Key;
    /// The top byte of the key-width payload.
    #[inline(always)]
    fn payload_top(self) -> u64 {
        (self.payload() >> (8 * core::mem::size_of::<Self::Key>() as u32 - 8)).low64()
    }
    /// The least payload of any value from `lo` to `hi`: that of the
    /// value nearest zero.
    fn least_payload(lo: Self, hi: Self) -> Self::Key;
    /// The value of a payload, and whether the payload was one of the
    /// type's (it may not be for `usize`/`isize` on narrower targets).
    fn from_payload(payload: Self::Key) -> (Self, bool);
    /// Writes the scalar encodings of `items` (a block's varint form).
    fn write_scalars(items: &[Self], w: &mut Writer<'_>);
    /// Writes one scalar encoding (a block's base).
    fn write_scalar(self, w: &mut Writer<'_>);
    /// Reads one scalar encoding, checked against the type's range.
    fn read_scalar(r: &mut Reader<'_>) -> Result<Self>;
}

/// The header and width of the narrowest fixed form holding `range`.
#[inline]
fn narrowest<K: Key>(range: K) -> (u8, usize) {
    let range = range.to_u128();
    let mut code = 1;
    for width in WIDTHS {
        if width >= 16 || range >> (8 * width) == 0 {
            break;
        }
        code += 1;
    }
    (code, WIDTHS[usize::from(code) - 1])
}

/// Writes `items` as packed blocks.
#[inline]
pub(crate) fn pack_slice<T: Lane>(items: &[T], w: &mut Writer<'_>) {
    // A short block (common inside structs) has nothing to scan: its
    // varints, without the feature checks and the call.
    if items.len() < SHORT {
        return T::write_scalars(items, w);
    }
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if x86::has_v3() {
        #[allow(unsafe_code)]
        // SAFETY: `pack_slice_v3` only needs the features `has_v3` just
        // found on the CPU.
        return unsafe { pack_slice_v3(items, w) };
    }
    pack_blocks(items, w)
}

/// [`pack_blocks`] compiled for x86-64-v3 (AVX2, BMI1/2, LZCNT): the
/// block writer inlines into it, so every leading-zero count is one
/// `lzcnt` (plain x86-64 has only `bsr`, which needs a branch-free fixup
/// for zero) and the scan's loops use AVX2.
#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
fn pack_slice_v3<T: Lane>(items: &[T], w: &mut Writer<'_>) {
    pack_blocks(items, w)
}

#[inline(always)]
fn pack_blocks<T: Lane>(items: &[T], w: &mut Writer<'_>) {
    for block in items.chunks(BLOCK) {
        pack_block(block, w);
    }
}

/// Writes the values of `items` as packed blocks, gathering each block in
/// a buffer first (for sequences that are not one slice): each block as
/// `T::pack_slice` writes them (the integers' packed blocks, or a
/// `NonZero`'s integers').
pub(crate) fn pack_iter<T: crate::Pack + Copy + Default>(
    items: impl Iterator<Item = T>,
    w: &mut Writer<'_>,
) -> crate::Result<()> {
    let mut buf = [T::default(); BLOCK];
    let mut n = 0;
    for item in items {
        if let Some(slot) = buf.get_mut(n) {
            *slot = item;
        }
        n += 1;
        if n == BLOCK {
            T::pack_slice(&buf, w)?;
            w.checkpoint();
            n = 0;
        }
    }
    T::pack_slice(buf.get(..n).unwrap_or_default(), w)
}

/// Writes one block (1 to [`BLOCK`] values) in its smallest form; ties go
/// to whole-byte offsets, then to bits, then to lengths, in the order they
/// decode fastest (`docs/format.md` §22).
#[inline(always)]
fn pack_block<T: Lane>(block: &[T], w: &mut Writer<'_>) {
    if block.len() < SHORT {
        T::write_scalars(block, w);
        return;
    }
    let n = block.len();
    // The fixed and bit forms' sizes after the header byte, from the
    // extrema alone.
    let offset_forms = |lo: T::Key, hi: T::Key| {
        let range = hi.wrapping_sub(lo);
        let (code, width) = narrowest(range);
        let base_len = T::from_key(lo).scalar_len() as usize;
        let bits = 128 - range.to_u128().leading_zeros();
        let packed = if (1..=MAX_BITS).contains(&bits) {
            // The width byte, then exactly the bits needed.
            1 + base_len + bits_len(n, bits)
        } else {
            usize::MAX
        };
        (code, width, bits, base_len + n * width, packed)
    };
    // Varints and lengths take a byte a value at least, so when an offset
    // form takes no more, they need not be counted (ties go to offsets):
    // a third of the scan's work for 32-bit values.
    let Scan {
        lo,
        hi,
        varints,
        bytes,
        any,
    } = scan(block, |lo, hi| {
        let (_, _, _, fixed, packed) = offset_forms(lo, hi);
        fixed.min(packed)
    });
    let (code, width, bits, fixed, packed) = offset_forms(lo, hi);
    let base = T::from_key(lo);
    // Lengths: 2-bit codes when every payload fits in 4 bytes.
    let (lengths_header, len_bits) = if any.byte_len() <= 4 {
        (LENGTHS2, 2)
    } else {
        (LENGTHS4, 4)
    };
    let lengths = codes_len(n, len_bits).saturating_add(bytes as usize);
    let mut best = fixed;
    let mut form = code;
    for (size, header) in [
        (packed, BITS),
        (lengths, lengths_header),
        (varints as usize, VARINTS),
    ] {
        if size < best {
            best = size;
            form = header;
        }
    }
    w.write_u8(form);
    match form {
        VARINTS => T::write_scalars(block, w),
        BITS => {
            w.write_u8(bits as u8);
            base.write_scalar(w);
            // Slack for the grouped writer's whole 16-byte stores.
            let out = w.extend_zeroed(bits_len(n, bits) + BITS_SLACK);
            put_bits(block, lo, bits, out);
            w.unextend(BITS_SLACK);
        }
        LENGTHS2 | LENGTHS4 => put_lengths(block, len_bits, lengths, w),
        _ => {
            base.write_scalar(w);
            match width {
                0 => {}
                1 => put::<T, 1>(block, lo, w),
                2 => put::<T, 2>(block, lo, w),
                4 => put::<T, 4>(block, lo, w),
                8 => put::<T, 8>(block, lo, w),
                _ => put::<T, 16>(block, lo, w),
            }
        }
    }
}

/// What the encoder learns of a block in one pass.
struct Scan<K> {
    /// The least and greatest keys.
    lo: K,
    hi: K,
    /// The bytes of the values' varints.
    varints: u32,
    /// The bytes of the values' payloads in the lengths form.
    bytes: u32,
    /// Every payload or-ed together: its byte length is the longest.
    any: K,
}

/// A block's extrema and the sizes of its varint and lengths forms: the
/// encoder's one pass over the values. On x86 it runs inside
/// [`pack_slice_v3`], with AVX2 (SSE2 has no unsigned 32-bit min, max or
/// compare, which doubles the work of this loop; measured: 100,000
/// full-range `i32` encode in 115 µs with SSE2 alone, see the closing
/// note of issue 14) and `lzcnt`.
#[inline(always)]
fn scan<T: Lane>(block: &[T], offsets: impl Fn(T::Key, T::Key) -> usize) -> Scan<T::Key> {
    if core::mem::size_of::<T::Key>() < 8 {
        return scan_narrow(block, offsets);
    }
    let (lo, hi) = if core::mem::size_of::<T::Key>() == 16 {
        extrema_by_halves(block)
    } else {
        let mut lo = T::KEY_MAX;
        let mut hi = <T::Key as Key>::ZERO;
        for &x in block {
            let k = x.key();
            lo = lo.min(k);
            hi = hi.max(k);
        }
        (lo, hi)
    };
    let mut scan = Scan {
        lo,
        hi,
        varints: u32::MAX,
        bytes: u32::MAX,
        any: T::KEY_MAX,
    };
    // Varints and lengths win only below the best offset form; counting
    // them stops as soon as neither can. Every value left takes at least
    // the lengths of the payload nearest zero (the block's least payload),
    // and at least a byte: often the first chunk settles it (ids, full
    // ranges, narrow ranges), and the extrema alone when offsets take a
    // byte a value or less.
    let best = offsets(lo, hi);
    let n = block.len();
    let least = T::least_payload(T::from_key(lo), T::from_key(hi));
    let (least_varint, least_bytes) = (least.varint_len() as usize, least.byte_len() as usize);
    let least_codes = n.div_ceil(4);
    if best <= n * least_varint && best <= least_codes + n * least_bytes {
        return scan;
    }
    // When offsets take nearly the key's width (a full range), count the
    // payloads with their top byte set: each takes the full width in
    // bytes and the longest varints, which for full-range values settles
    // it in one compare a value (counting each value's lengths to learn
    // the same cost more than the rest of the encode).
    // The first chunk decides whether to look (mixed magnitudes span
    // the full range too, but few of them fill the top byte).
    let key_bytes = core::mem::size_of::<T::Key>();
    let shift = 8 * key_bytes as u32 - 8;
    let count_full = |values: &[T]| values.iter().filter(|x| x.payload_top() != 0).count();
    let (first, others) = block.split_at(n.min(SCAN_CHUNK));
    let full_first = if best >= n * (key_bytes - 1) {
        count_full(first)
    } else {
        0
    };
    if full_first * 2 > first.len() {
        let full = full_first + count_full(others);
        let top = T::Key::from_u128(1u128 << shift);
        let (top_varint, top_bytes) = (top.varint_len() as usize, top.byte_len() as usize);
        let rest = n - full;
        if best <= rest * least_varint + full * top_varint
            && best <= least_codes + rest * least_bytes + full * top_bytes
        {
            return scan;
        }
    }
    // 128-bit values whose payloads all stay below 2^56 (those of the
    // extremes do: a payload grows with the value's magnitude) have the
    // lengths of their low 64 bits, counted as 64-bit values.
    let narrow = core::mem::size_of::<T::Key>() == 16
        && T::from_key(lo).payload().to_u128() >> 56 == 0
        && T::from_key(hi).payload().to_u128() >> 56 == 0;
    let (mut varints, mut bytes, mut any) = (0usize, 0usize, <T::Key as Key>::ZERO);
    let mut left = n;
    for chunk in block.chunks(SCAN_CHUNK) {
        let (v, b, a) = lengths(chunk, narrow);
        varints += v as usize;
        bytes += b as usize;
        any = any | a;
        left -= chunk.len();
        if best <= varints + left * least_varint && best <= least_codes + bytes + left * least_bytes
        {
            return scan;
        }
    }
    scan.varints = varints as u32;
    scan.bytes = bytes as u32;
    scan.any = any;
    scan
}

/// The least and greatest 128-bit keys of `block`, in 64-bit halves: the
/// high halves' extrema first, then the low halves' among the keys that
/// share them. A 128-bit compare is a subtract with borrow and two
/// conditional moves a bound (about 15 instructions a value, callgrind);
/// two passes of 64-bit extrema vectorize.
#[inline(always)]
fn extrema_by_halves<T: Lane>(block: &[T]) -> (T::Key, T::Key) {
    let high = |x: T| (x.key().to_u128() >> 64) as u64;
    let (mut high_lo, mut high_hi) = (u64::MAX, 0u64);
    for &x in block {
        high_lo = high_lo.min(high(x));
        high_hi = high_hi.max(high(x));
    }
    let (mut low_lo, mut low_hi) = (u64::MAX, 0u64);
    for &x in block {
        let (h, l) = (high(x), x.key().to_u128() as u64);
        low_lo = low_lo.min(if h == high_lo { l } else { u64::MAX });
        low_hi = low_hi.max(if h == high_hi { l } else { 0 });
    }
    let join = |h: u64, l: u64| T::Key::from_u128(u128::from(h) << 64 | u128::from(l));
    (join(high_lo, low_lo), join(high_hi, low_hi))
}

/// [`scan`] for keys of up to 32 bits, in passes that vectorize
/// (AVX2 has unsigned 32-bit min and max). Each count is its own
/// lane-wide chain: a compare and a subtract a threshold.
///
/// The first pass finds the extrema and how many payloads reach 2^7, 2^8
/// and the top varint group (2^28 for 32-bit keys, 2^14 for 16-bit):
/// that bounds both the varints and the lengths form from below, and
/// settles most blocks, small values (a narrow offset form beats a
/// byte a value and more) and full ranges (each top payload takes the
/// longest varint and a full-width payload) alike. Only when either form
/// may still win does a second pass count the thresholds between, for
/// both forms' exact sizes.
#[inline(always)]
fn scan_narrow<T: Lane>(block: &[T], offsets: impl Fn(T::Key, T::Key) -> usize) -> Scan<T::Key> {
    let width = 8 * core::mem::size_of::<T::Key>() as u32;
    let zero = <T::Key as Key>::ZERO;
    let n = block.len();
    let top = 7 * ((width - 1) / 7);
    let (mut lo, mut hi) = (T::KEY_MAX, zero);
    let mut first = [zero; 3];
    for &x in block {
        let k = x.key();
        lo = lo.min(k);
        hi = hi.max(k);
        let z = x.payload();
        for (count, shift) in first.iter_mut().zip([7, 8, top]) {
            *count = count.wrapping_add(z.reaches(shift));
        }
    }
    let [r7, r8, r_top] = first.map(|c| c.low64() as usize);
    let top_key = <T::Key as Key>::from_u64(1 << top);
    // A top payload takes this many bytes more than one from 2^7 (2^8).
    let top_varint = top_key.varint_len() as usize - 2;
    let top_bytes = top_key.byte_len() as usize - 2;
    let codes = n.div_ceil(4);
    let least_varints = n + r7 + r_top * top_varint;
    let least_lengths = codes + n + r8 + r_top * top_bytes;
    let best = offsets(lo, hi);
    let mut scan = Scan {
        lo,
        hi,
        varints: u32::MAX,
        bytes: u32::MAX,
        // Payloads of up to 32 bits fit 2-bit codes.
        any: zero,
    };
    if best <= least_varints && best <= least_lengths {
        return scan;
    }
    // The thresholds between: varints' 2^14 and 2^21 below the top,
    // payloads' 2^16 and 2^24 below the width.
    let mut between = [zero; 4];
    for &x in block {
        let z = x.payload();
        for (count, shift) in between.iter_mut().zip([14, 21, 16, 24]) {
            let bound = if shift % 8 == 0 { width } else { top };
            if shift < bound {
                *count = count.wrapping_add(z.reaches(shift));
            }
        }
    }
    let [r14, r21, r16, r24] = between.map(|c| c.low64() as usize);
    scan.varints = (n + r7 + r14 + r21 + r_top) as u32;
    scan.bytes = (n + r8 + r16 + r24) as u32;
    scan
}

/// Values counted between checks of whether the varint and lengths
/// forms can still win (scalar counts: 64 and 128-bit keys).
const SCAN_CHUNK: usize = 64;

/// The varint and payload bytes of `chunk`, and its payloads or-ed.
#[inline(always)]
fn lengths<T: Lane>(chunk: &[T], narrow: bool) -> (u32, u32, T::Key) {
    let (mut varints, mut bytes, mut any) = (0u32, 0u32, <T::Key as Key>::ZERO);
    if narrow {
        // Every payload below 2^56: each value's low 64 bits are its own
        // (a key flips only the top bit), zig-zagged in 64 bits, and the
        // tables below 2^56 are the 128-bit ones'.
        let (mut both, mut all) = (0u32, 0u64);
        for &x in chunk {
            let v = x.key().low64();
            let z = if T::ZIGZAG {
                (v << 1) ^ ((v as i64 >> 63) as u64)
            } else {
                v
            };
            both += LENGTHS_64[z.leading_zeros() as usize];
            all |= z;
        }
        return (both & 0xFFFF, both >> 16, <T::Key as Key>::from_u64(all));
    }
    if core::mem::size_of::<T::Key>() != 8 {
        // 128-bit keys (narrower ones take `scan_narrow`): the same
        // lookups by the payload's leading zeros, counted in 128 bits
        // without a branch (a per-value `varint_len` and `byte_len` took
        // two thirds of a full-range `i128` encode; perf, issue 14).
        for &x in chunk {
            let z = x.payload().to_u128();
            let (high, low) = ((z >> 64) as u64, z as u64);
            let lz = if high != 0 {
                high.leading_zeros()
            } else {
                64 + low.leading_zeros()
            } as usize;
            varints += u32::from(VARINT_LEN_128.get(lz).copied().unwrap_or(0));
            bytes += u32::from(BYTE_LEN_128.get(lz).copied().unwrap_or(0));
            any = any | x.payload();
        }
    } else {
        // 64-bit keys: from each payload's leading zeros through tables.
        // AVX2 has no unsigned 64-bit compare: counting the thresholds in
        // vectors took 8 emulated compares a value, 2 ns (perf, issue 14);
        // this scalar pass takes about a third.
        // Both lengths from one lookup, summed side by side in one word
        // (at most 9 * 64 each a chunk: no carry between the halves).
        let mut both = 0u32;
        for &x in chunk {
            let z = x.payload();
            both += LENGTHS_64[z.low64().leading_zeros() as usize];
            any = any | z;
        }
        varints = both & 0xFFFF;
        bytes = both >> 16;
    }
    (varints, bytes, any)
}

/// The varint length of a `u64` by its leading zeros (index 64 is zero).
const VARINT_LEN: [u8; 65] = {
    let mut table = [0u8; 65];
    let mut lz = 0;
    while lz <= 64 {
        let v = if lz == 64 { 0 } else { u64::MAX >> lz };
        table[lz] = crate::varint::len_u64(v) as u8;
        lz += 1;
    }
    table
};

/// A `u64`'s varint length (low half) and byte length (high half) by its
/// leading zeros.
const LENGTHS_64: [u32; 65] = {
    let mut table = [0u32; 65];
    let mut lz = 0;
    while lz <= 64 {
        table[lz] = VARINT_LEN[lz] as u32 | (BYTE_LEN[lz] as u32) << 16;
        lz += 1;
    }
    table
};

/// The byte length (at least 1) of a `u64` by its leading zeros.
const BYTE_LEN: [u8; 65] = {
    let mut table = [0u8; 65];
    let mut lz = 0;
    while lz <= 64 {
        table[lz] = if lz >= 56 {
            1
        } else {
            (64 - lz as u8).div_ceil(8)
        };
        lz += 1;
    }
    table
};

/// The varint length of a `u128` by its leading zeros (index 128 is
/// zero): a `u64`'s below 2^56, then `0xFF`, a count and the bytes.
const VARINT_LEN_128: [u8; 129] = {
    let mut table = [0u8; 129];
    let mut lz = 0;
    while lz <= 128 {
        // Below 2^56 (72 leading zeros) the short forms.
        table[lz] = if lz >= 72 {
            VARINT_LEN[lz - 64]
        } else {
            2 + crate::varint::long_u128_bytes(u128::MAX >> lz) as u8
        };
        lz += 1;
    }
    table
};

/// The byte length (at least 1) of a `u128` by its leading zeros.
const BYTE_LEN_128: [u8; 129] = {
    let mut table = [0u8; 129];
    let mut lz = 0;
    while lz <= 128 {
        table[lz] = if lz >= 64 {
            BYTE_LEN[lz - 64]
        } else {
            (128 - lz as u8).div_ceil(8)
        };
        lz += 1;
    }
    table
};

/// Writes a block in the lengths form: `total` bytes, the codes of
/// `code_bits` bits (each value's byte length less one), then each value's
/// payload in that many little-endian bytes. Every payload is stored as a
/// whole word into slack past the end, then the cursor moves by its
/// length: no branch on the length.
#[inline(always)]
fn put_lengths<T: Lane>(block: &[T], code_bits: u32, total: usize, w: &mut Writer<'_>) {
    if code_bits == 2 {
        put_lengths_coded::<T, 2>(block, total, w)
    } else {
        put_lengths_coded::<T, 4>(block, total, w)
    }
}

#[inline(always)]
fn put_lengths_coded<T: Lane, const CB: usize>(block: &[T], total: usize, w: &mut Writer<'_>) {
    const SLACK: usize = 16;
    let per_byte = 8 / CB;
    let n_codes = codes_len(block.len(), CB as u32);
    let out = w.extend_zeroed(total + SLACK);
    let (codes, payloads) = out.split_at_mut(n_codes);
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let (done, mut pos) = x86::put_lengths(block, CB as u32, codes, payloads);
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    let (done, mut pos) = (0, 0);
    let codes = codes.get_mut(done / per_byte..).unwrap_or_default();
    let block = block.get(done..).unwrap_or_default();
    // Each code byte is gathered in a register and stored once: or-ing
    // codes into memory one by one chained every value to the last store.
    // Whole groups first, so that the inner loop has a fixed count and
    // unrolls (a loop of two values a byte cost a branch a value).
    let mut group_code = |group: &[T], pos: &mut usize| {
        let mut byte = 0u8;
        for (j, &x) in group.iter().enumerate() {
            let z = x.payload();
            let len = z.byte_len() as usize;
            byte |= ((len - 1) as u8) << (j * CB);
            if core::mem::size_of::<T::Key>() <= 8 {
                if let Some(dst) = payloads.get_mut(*pos..*pos + 8) {
                    dst.copy_from_slice(&z.low64().to_le_bytes());
                }
            } else if let Some(dst) = payloads.get_mut(*pos..*pos + 16) {
                dst.copy_from_slice(&z.to_u128().to_le_bytes());
            }
            *pos += len;
        }
        byte
    };
    let groups = block.chunks_exact(per_byte);
    let rest = groups.remainder();
    let mut codes = codes.iter_mut();
    // Groups first: `zip` takes from its left side first, and a code
    // taken as the groups run out would be lost to the rest.
    for (group, code) in groups.zip(codes.by_ref()) {
        *code = group_code(group, &mut pos);
    }
    if let Some(code) = codes.next() {
        *code = group_code(rest, &mut pos);
    }
    w.unextend(SLACK);
}

/// Stores each value's offset from `lo` in `bits` bits, little-endian bit
/// order: offset `i` starts at bit `i * bits` of `out`. Narrow offsets are
/// first joined `K` at a time into one word of up to 64 bits (independent
/// work for each group), so the accumulator that carries bits across
/// words takes a step per group, not per value.
#[inline(always)]
fn put_bits<T: Lane>(block: &[T], lo: T::Key, bits: u32, out: &mut [u8]) {
    if bits > 16 {
        return match bits {
            17..=32 => put_bits_joined::<T, 2>(block, lo, bits, out),
            _ => put_bits_joined::<T, 1>(block, lo, bits, out),
        };
    }
    // Up to 16 bits, eight offsets fill exactly `bits` bytes: groups of
    // eight are written independently, and the rest continues at a whole
    // byte.
    let done = put_bits_grouped_dispatch(block, lo, bits, out);
    let (Some(block), Some(out)) = (block.get(done..), out.get_mut(done / 8 * bits as usize..))
    else {
        return;
    };
    match bits {
        0..=8 => put_bits_joined::<T, 8>(block, lo, bits, out),
        _ => put_bits_joined::<T, 4>(block, lo, bits, out),
    }
}

/// Bytes past a bit-packed block's end that [`put_bits_grouped`] may
/// store into (zeros, dropped after).
const BITS_SLACK: usize = 16;

/// [`put_bits_grouped`], by the AVX2 kernel where the CPU and `T` have
/// one (it shifts a group's offsets in vector lanes).
#[inline]
fn put_bits_grouped_dispatch<T: Lane>(block: &[T], lo: T::Key, bits: u32, out: &mut [u8]) -> usize {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if let Some(done) = x86::put_bits_grouped(block, lo, bits, out) {
        return done;
    }
    put_bits_grouped(block, lo, bits, out)
}

/// Offsets of at most 16 bits, eight at a time while 16 bytes of `out`
/// remain: the eight are joined into one 128-bit word, four to a half,
/// and stored whole at the group's first byte; its bytes past the group's
/// `bits` are zero, and the next group's store overwrites them. No
/// accumulator carries from one group to the next, so groups overlap in
/// the CPU (the joined writer shifted every word through one register).
/// The values done.
#[inline(always)]
fn put_bits_grouped<T: Lane>(block: &[T], lo: T::Key, bits: u32, out: &mut [u8]) -> usize {
    let b = bits as usize;
    let offset = |x: T| x.key().wrapping_sub(lo).low64();
    let shifts = [0, b as u64, 2 * b as u64, 3 * b as u64];
    let half = |four: &[T]| {
        let mut lanes = [0u64; 4];
        for ((lane, &x), &shift) in lanes.iter_mut().zip(four).zip(&shifts) {
            *lane = offset(x) << shift;
        }
        (lanes[0] | lanes[1]) | (lanes[2] | lanes[3])
    };
    let mut done = 0;
    for (g, group) in block.chunks_exact(8).enumerate() {
        let Some(dst) = out.get_mut(g * b..g * b + 16) else {
            break;
        };
        let (low, high) = group.split_at(4);
        let joined = u128::from(half(low)) | (u128::from(half(high)) << (4 * b));
        dst.copy_from_slice(&joined.to_le_bytes());
        done += 8;
    }
    done
}

#[inline(always)]
fn put_bits_joined<T: Lane, const K: usize>(block: &[T], lo: T::Key, bits: u32, out: &mut [u8]) {
    let mut acc: u64 = 0;
    let mut filled = 0u32;
    let mut pos = 0;
    // Appends the low `width` (1 to 64) bits of `v`.
    let mut push = |v: u64, width: u32| {
        acc |= v << filled;
        let total = filled + width;
        if total >= 64 {
            if let Some(dst) = out.get_mut(pos..pos + 8) {
                dst.copy_from_slice(&acc.to_le_bytes());
            }
            pos += 8;
            // The bits of `v` that did not fit (none when `filled` was 0;
            // two shifts, as one by 64 would overflow).
            acc = (v >> 1) >> (63 - filled);
            filled = total - 64;
        } else {
            filled = total;
        }
    };
    let offset = |x: T| x.key().wrapping_sub(lo).low64();
    let groups = block.chunks_exact(K);
    let rest = groups.remainder();
    for group in groups {
        let mut joined = 0u64;
        for (j, &x) in group.iter().enumerate() {
            joined |= offset(x) << (j as u32 * bits);
        }
        push(joined, K as u32 * bits);
    }
    for &x in rest {
        push(offset(x), bits);
    }
    let rest = (filled as usize).div_ceil(8);
    if let (Some(dst), Some(src)) = (out.get_mut(pos..pos + rest), acc.to_le_bytes().get(..rest)) {
        dst.copy_from_slice(src);
    }
}

/// Stores each value's offset from `lo` in `W` little-endian bytes.
#[inline(always)]
fn put<T: Lane, const W: usize>(block: &[T], lo: T::Key, w: &mut Writer<'_>) {
    w.extend_chunks(block, |x: T| {
        let off = x.key().wrapping_sub(lo);
        let mut bytes = [0u8; W];
        if W <= 8 {
            if let Some(src) = off.low64().to_le_bytes().get(..W) {
                bytes.copy_from_slice(src);
            }
        } else if let Some(src) = off.to_u128().to_le_bytes().get(..W) {
            bytes.copy_from_slice(src);
        }
        bytes
    });
}

/// Decodes a vector of `len` packed values; `len` was checked against the
/// input with [`min_size`], and the whole vector is charged to the memory
/// budget before anything is allocated.
pub(crate) fn unpack_vec<T: Lane>(r: &mut Reader<'_>, len: usize) -> Result<Vec<T>> {
    let mut out: Vec<T> = r.vec_with_capacity(len)?;
    if len < SHORT {
        // One headerless block of varints: pushed one by one, without the
        // block machinery (short vectors are common inside structs; the
        // general path cost about 100 instructions more for 2 values).
        for _ in 0..len {
            out.push(T::read_scalar(r)?);
        }
        return Ok(out);
    }
    let mut left = len;
    while left > 0 {
        let n = left.min(BLOCK);
        let start = out.len();
        if out.capacity() < start + n {
            // Grow at most to the charged length: doubling could reach
            // twice what the memory budget was charged.
            let want = (out.capacity() * 2).clamp(start + n, len);
            out.reserve_exact(want - start);
        }
        // The block is decoded straight into the spare capacity: zeroing
        // it first cost 10-40% of an integer decode (a `memset` a block).
        if let Some(block) = out.spare_capacity_mut().get_mut(..n) {
            unpack_block(r, block)?;
            #[allow(unsafe_code)]
            // SAFETY: the capacity holds `start + n` values (reserved
            // above), and `unpack_block` returned `Ok`, which it does only
            // after writing every one of the block's `n` slots (each form's
            // loops end on the block's last value, and any that stops early
            // hands the rest to a loop that writes them all). The slots
            // before `start` were initialized by earlier blocks.
            unsafe {
                out.set_len(start + n)
            };
        }
        left -= n;
    }
    Ok(out)
}

/// Decodes `out.len()` packed values into `out` (an array).
pub(crate) fn unpack_into<T: Lane>(r: &mut Reader<'_>, out: &mut [T]) -> Result<()> {
    #[allow(unsafe_code)]
    // SAFETY: the decoders write only initialized values into their slots.
    let slots = unsafe { as_slots(out) };
    for block in slots.chunks_mut(BLOCK) {
        unpack_block(r, block)?;
    }
    Ok(())
}

/// `values` as slots for the decoders, which write into possibly
/// uninitialized memory (a vector's spare capacity).
///
/// # Safety
/// `MaybeUninit<T>` has `T`'s layout; the caller writes only initialized
/// values through the result (as every decoder here does: `MaybeUninit::new`
/// or stores of whole integers), so `values` stays valid.
#[allow(unsafe_code)]
pub(super) unsafe fn as_slots<T: Lane>(values: &mut [T]) -> &mut [MaybeUninit<T>] {
    // SAFETY: same length and layout; the validity of what is written is
    // the caller's promise above.
    unsafe { core::slice::from_raw_parts_mut(values.as_mut_ptr().cast(), values.len()) }
}

/// [`as_slots`] for tests, which hand the decoders initialized vectors.
#[cfg(test)]
pub(super) fn slots<T: Lane>(values: &mut [T]) -> &mut [MaybeUninit<T>] {
    #[allow(unsafe_code)]
    // SAFETY: the decoders under test write only initialized values.
    unsafe {
        as_slots(values)
    }
}

/// Decodes one block of `out.len()` values.
#[inline]
fn unpack_block<T: Lane>(r: &mut Reader<'_>, out: &mut [MaybeUninit<T>]) -> Result<()> {
    let at = r.position();
    let header = if out.len() < SHORT {
        VARINTS
    } else {
        r.read_u8()?
    };
    if header == VARINTS {
        let mut done = 0;
        if core::mem::size_of::<T::Key>() <= 8 {
            let (n, used, bad) = get_varints_fast(r.rest(), out);
            // A bad value is read again below, for its error and offset.
            if !bad {
                r.advance(used);
                done = n;
            }
        }
        for slot in out.iter_mut().skip(done) {
            *slot = MaybeUninit::new(T::read_scalar(r)?);
        }
        return Ok(());
    }
    if header == BITS {
        return unpack_bits(r, at, out);
    }
    if let Some(code_bits) = code_bits(header) {
        return unpack_lengths(r, at, code_bits, out);
    }
    let width = match layout::width(header) {
        Some(width) if width <= core::mem::size_of::<T::Key>() => width,
        Some(width) => {
            return Err(r.error_at(
                at,
                ErrorKind::InvalidValue,
                alloc::format!(
                    "packed block of {width}-byte offsets for a {}-byte integer",
                    core::mem::size_of::<T::Key>()
                ),
            ))
        }
        None => {
            return Err(r.error_at(
                at,
                ErrorKind::InvalidValue,
                alloc::format!("packed block header {header} is not 0 to 9"),
            ))
        }
    };
    let base = T::read_scalar(r)?;
    // At most 256 values of 16 bytes: no overflow.
    let bytes = r.read_bytes(out.len() * width)?;
    let base = base.key();
    // One pass widens, adds and notes any value out of range.
    if width == 0 {
        out.fill(MaybeUninit::new(T::from_key(base)));
        return Ok(());
    }
    if widen(width, bytes, base, out) {
        return Err(overflow_error(r, at, "byte", width, base));
    }
    Ok(())
}

/// Widens a block's offsets of `width` bytes into `out`, adding `base`;
/// whether any value left the type's range. AVX2 where the CPU has it,
/// as for [`scan`].
#[inline]
fn widen<T: Lane>(width: usize, bytes: &[u8], base: T::Key, out: &mut [MaybeUninit<T>]) -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if std::is_x86_feature_detected!("avx2") {
        #[allow(unsafe_code)]
        // SAFETY: `widen_avx2` only needs AVX2, which the CPU was just
        // found to support.
        return unsafe { widen_avx2(width, bytes, base, out) };
    }
    widen_portable(width, bytes, base, out)
}

#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx2")]
fn widen_avx2<T: Lane>(
    width: usize,
    bytes: &[u8],
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> bool {
    widen_portable(width, bytes, base, out)
}

#[inline(always)]
fn widen_portable<T: Lane>(
    width: usize,
    bytes: &[u8],
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> bool {
    match width {
        1 => get::<T, 1>(bytes, base, out),
        2 => get::<T, 2>(bytes, base, out),
        4 => get::<T, 4>(bytes, base, out),
        8 => get::<T, 8>(bytes, base, out),
        _ => get::<T, 16>(bytes, base, out),
    }
}

/// Decodes a block of bit-packed offsets (header 7).
fn unpack_bits<T: Lane>(r: &mut Reader<'_>, at: usize, out: &mut [MaybeUninit<T>]) -> Result<()> {
    let bits = u32::from(r.read_u8()?);
    let key_bits = 8 * core::mem::size_of::<T::Key>() as u32;
    if bits == 0 || bits > MAX_BITS.min(key_bits) {
        return Err(r.error_at(
            at,
            ErrorKind::InvalidValue,
            alloc::format!(
                "packed block of {bits}-bit offsets for a {key_bits}-bit integer (1 to {} allowed)",
                MAX_BITS.min(key_bits)
            ),
        ));
    }
    let base = T::read_scalar(r)?.key();
    let bytes = r.read_bytes(bits_len(out.len(), bits))?;
    if get_bits(bytes, bits, base, out) {
        return Err(overflow_error(r, at, "bit", bits as usize, base));
    }
    Ok(())
}

/// Decodes a block in the lengths form (headers 8 and 9).
fn unpack_lengths<T: Lane>(
    r: &mut Reader<'_>,
    at: usize,
    code_bits: u32,
    out: &mut [MaybeUninit<T>],
) -> Result<()> {
    let n = out.len();
    let codes = r.read_bytes(codes_len(n, code_bits))?;
    let key_bytes = core::mem::size_of::<T::Key>();
    // Codes of 2 bits announce at most 4 bytes: nothing to look for in
    // 4-byte and wider keys.
    let longest = if key_bytes >= 1 << code_bits {
        1
    } else {
        layout::codes_longest(codes, code_bits)
    };
    if longest > key_bytes || !layout::padding_is_zero(codes, n, code_bits) {
        let what = if longest > key_bytes {
            alloc::format!("a {longest}-byte value for a {key_bytes}-byte integer")
        } else {
            alloc::string::String::from("non-zero codes past its last value")
        };
        return Err(r.error_at(
            at,
            ErrorKind::InvalidValue,
            alloc::format!("packed block of byte lengths with {what}"),
        ));
    }
    let payloads = r.read_bytes(layout::payload_len(codes, n, code_bits))?;
    if get_lengths(codes, code_bits, payloads, out) {
        return Err(r.error_at(
            at,
            ErrorKind::InvalidValue,
            "packed block of byte lengths with a value in more bytes than it needs, or out of \
             the integer's range",
        ));
    }
    Ok(())
}

/// Reads each value of a lengths-form block: its length from its code,
/// its payload from a whole little-endian word masked to that length.
/// Whether any payload was longer than needed (a zero top byte: one value
/// has one encoding) or not one of the type's values. Lengths were
/// checked against the key's width, and `payloads` holds exactly the bytes
/// the codes announce.
#[inline]
fn get_lengths<T: Lane>(
    codes: &[u8],
    code_bits: u32,
    payloads: &[u8],
    out: &mut [MaybeUninit<T>],
) -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let (codes, payloads, out, bad_vector) = {
        let (done, pos, bad) = x86::get_lengths(codes, code_bits, payloads, out);
        let Some((codes, payloads, out)) = lengths_rest(codes, code_bits, payloads, out, done, pos)
        else {
            return true;
        };
        (codes, payloads, out, bad)
    };
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    let bad_vector = false;
    let fast = |codes: &[u8], payloads: &[u8], out: &mut [MaybeUninit<T>]| {
        if code_bits == 2 {
            get_lengths_fast::<T, 2>(codes, payloads, out)
        } else {
            get_lengths_fast::<T, 4>(codes, payloads, out)
        }
    };
    let (done, pos, mut bad) = fast(codes, payloads, out);
    bad |= bad_vector;
    let Some((codes, payloads, out)) = lengths_rest(codes, code_bits, payloads, out, done, pos)
    else {
        return true;
    };
    // The last whole control bytes, whose whole-word loads would pass the
    // payloads' end: the same fast path over a zero-padded copy (value by
    // value, with a `memcpy` call a word, they cost 4% of a mixed `i32`
    // decode's instructions). The codes were checked against the
    // payloads' length, so no value reads padding.
    let (codes, payloads, out) = match payloads.len() {
        0 => (codes, payloads, out),
        len @ ..=LENGTHS_TAIL => {
            let mut padded = [0u8; 2 * LENGTHS_TAIL];
            if let Some(dst) = padded.get_mut(..len) {
                dst.copy_from_slice(payloads);
            }
            let (done, pos, tail_bad) = fast(codes, &padded, out);
            bad |= tail_bad;
            let Some(rest) = lengths_rest(codes, code_bits, payloads, out, done, pos) else {
                return true;
            };
            rest
        }
        _ => (codes, payloads, out),
    };
    bad |= get_lengths_checked(codes, code_bits, payloads, out);
    bad
}

/// The payload bytes a lengths-form block can have left when the fast
/// path stops: less than its window, at most two 16-byte payloads a code
/// byte and a word of slack.
const LENGTHS_TAIL: usize = 64;

/// What is left of a lengths-form block after `done` values (a multiple
/// of the values a control byte holds) and `pos` payload bytes.
#[inline(always)]
fn lengths_rest<'a, 'b, T>(
    codes: &'a [u8],
    code_bits: u32,
    payloads: &'a [u8],
    out: &'b mut [T],
    done: usize,
    pos: usize,
) -> Option<(&'a [u8], &'a [u8], &'b mut [T])> {
    Some((
        codes.get(done / (8 / code_bits as usize)..)?,
        payloads.get(pos..)?,
        out.get_mut(done..)?,
    ))
}

/// The bulk of a lengths-form block: whole control bytes, while the
/// payloads left hold every value a control byte can announce plus a
/// key's width of slack, so each payload is one unaligned load masked to
/// its length, with no branch on the length. Returns the values and
/// payload bytes consumed, and whether any value was bad.
#[inline(always)]
fn get_lengths_fast<T: Lane, const CB: usize>(
    codes: &[u8],
    payloads: &[u8],
    out: &mut [MaybeUninit<T>],
) -> (usize, usize, bool) {
    let per_byte = 8 / CB;
    let key_bytes = core::mem::size_of::<T::Key>();
    let most = per_byte * (1 << CB) + key_bytes.max(8);
    let mut bad = false;
    let mut pos = 0;
    let mut done = 0;
    for (&c, slots) in codes.iter().zip(out.chunks_exact_mut(per_byte)) {
        let Some(window) = payloads.get(pos..pos + most) else {
            break;
        };
        let mut at = 0;
        for (j, slot) in slots.iter_mut().enumerate() {
            let len = usize::from((c >> (j * CB)) & ((1 << CB) - 1)) + 1;
            let (payload, minimal) = if key_bytes <= 8 {
                let mut raw = [0u8; 8];
                if let Some(src) = window.get(at..at + 8) {
                    raw.copy_from_slice(src);
                }
                let word = u64::from_le_bytes(raw) & LEN_MASK[len & 15];
                (<T::Key as Key>::from_u64(word), word >= LEN_MIN[len & 15])
            } else {
                // 16-byte keys: lengths of 1 to 16 bytes (checked), as
                // two words masked through tables (a 128-bit variable
                // mask and shift cost twice the instructions).
                let mut raw = [0u8; 16];
                if let Some(src) = window.get(at..at + 16) {
                    raw.copy_from_slice(src);
                }
                let raw = u128::from_le_bytes(raw);
                let (low_mask, high_mask) = LEN_MASK_128[len & 31];
                let low = raw as u64 & low_mask;
                let high = (raw >> 64) as u64 & high_mask;
                let word = (u128::from(high) << 64) | u128::from(low);
                // Minimal: one byte, or a top byte that is not zero (a
                // byte test, where comparing 128-bit words took two).
                let top = window.get(at + len - 1).copied().unwrap_or(0);
                (<T::Key as Key>::from_u128(word), (top != 0) | (len == 1))
            };
            bad |= !minimal;
            let (value, ok) = T::from_payload(payload);
            bad |= !ok;
            *slot = MaybeUninit::new(value);
            at += len;
        }
        pos += at;
        done += per_byte;
    }
    (done, pos, bad)
}

/// A varint block's values while 16 bytes of input remain, without a
/// branch on each varint's length: its first word gives the length (the
/// trailing ones of its first byte), the value is that word masked and
/// shifted, or the next 8 bytes for the 9-byte form, chosen without a
/// jump. The values read, the bytes used, and whether any varint was not
/// minimal or its value out of the type's range (then the caller reads the
/// block again, checked, for the error).
#[inline]
fn get_varints_fast<T: Lane>(input: &[u8], out: &mut [MaybeUninit<T>]) -> (usize, usize, bool) {
    let key_bits = 8 * core::mem::size_of::<T::Key>() as u32;
    let mut bad = false;
    let mut pos = 0;
    let mut done = 0;
    for slot in out.iter_mut() {
        let Some(window) = input.get(pos..pos + 16) else {
            break;
        };
        let mut first = [0u8; 8];
        let mut next = [0u8; 8];
        if let (Some(a), Some(b)) = (window.get(..8), window.get(1..9)) {
            first.copy_from_slice(a);
            next.copy_from_slice(b);
        }
        let word = u64::from_le_bytes(first);
        // 0 to 8 bytes follow the first.
        let extra = ((!word) | 0x100).trailing_zeros() as usize;
        let len = extra + 1;
        let short = (word & LEN_MASK[len & 15]) >> len;
        let value = if extra == 8 {
            u64::from_le_bytes(next)
        } else {
            short
        };
        bad |= value < VARINT_MIN[extra & 15];
        bad |= key_bits < 64 && value >> (key_bits & 63) != 0;
        let (v, ok) = T::from_payload(<T::Key as Key>::from_u64(value));
        bad |= !ok;
        *slot = MaybeUninit::new(v);
        pos += len;
        done += 1;
    }
    (done, pos, bad)
}

/// The least payload that needs `len` bytes (a shorter one has a zero top
/// byte: not minimal).
const LEN_MIN: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut len = 2;
    while len <= 8 {
        table[len] = 1 << (8 * (len - 1));
        len += 1;
    }
    table
};

/// The masks of a 16-byte payload of each length, as low and high words
/// (lengths 1 to 16; the table is padded so a length masked to 5 bits
/// indexes it without a check).
const LEN_MASK_128: [(u64, u64); 32] = {
    let mut table = [(0u64, 0u64); 32];
    let mut len = 1;
    while len <= 16 {
        table[len] = if len <= 8 {
            (LEN_MASK[len], 0)
        } else {
            (u64::MAX, LEN_MASK[len - 8])
        };
        len += 1;
    }
    table
};

/// [`get_lengths`] value by value, each load checked: the last values of
/// a block, and `u128` blocks.
fn get_lengths_checked<T: Lane>(
    codes: &[u8],
    code_bits: u32,
    payloads: &[u8],
    out: &mut [MaybeUninit<T>],
) -> bool {
    let mut bad = false;
    let mut pos = 0;
    let code_mask = (1u8 << code_bits) - 1;
    for (i, slot) in out.iter_mut().enumerate() {
        let bit = i * code_bits as usize;
        let code = codes
            .get(bit / 8)
            .map_or(0, |c| (c >> (bit % 8)) & code_mask);
        let len = usize::from(code) + 1;
        let payload = if core::mem::size_of::<T::Key>() <= 8 {
            let word = match payloads.get(pos..pos + 8) {
                Some(src) => {
                    let mut raw = [0u8; 8];
                    raw.copy_from_slice(src);
                    u64::from_le_bytes(raw)
                }
                None => {
                    let mut raw = [0u8; 8];
                    let src = payloads.get(pos..).unwrap_or_default();
                    let take = src.len().min(8);
                    if let (Some(dst), Some(src)) = (raw.get_mut(..take), src.get(..take)) {
                        dst.copy_from_slice(src);
                    }
                    u64::from_le_bytes(raw)
                }
            };
            // `len` ≤ 8 here: shifting by 64 − 8·len keeps the low `len`
            // bytes.
            let word = (word << (64 - 8 * len)) >> (64 - 8 * len);
            bad |= len > 1 && word >> (8 * (len - 1)) == 0;
            <T::Key as Key>::from_u64(word)
        } else {
            let mut raw = [0u8; 16];
            let src = payloads.get(pos..).unwrap_or_default();
            let take = src.len().min(len);
            if let (Some(dst), Some(src)) = (raw.get_mut(..take), src.get(..take)) {
                dst.copy_from_slice(src);
            }
            let word = u128::from_le_bytes(raw);
            bad |= len > 1 && word >> (8 * (len - 1)) == 0;
            <T::Key as Key>::from_u128(word)
        };
        pos += len;
        let (value, ok) = T::from_payload(payload);
        bad |= !ok;
        *slot = MaybeUninit::new(value);
    }
    bad
}

/// Widens each `bits`-bit offset and adds the base; whether any value left
/// the type's range. The offsets are taken from a 64-bit accumulator fed
/// one little-endian word at a time (the last one padded with zeros), so
/// each value is a shift and a mask, and a word is loaded every
/// `64 / bits` values without a bounds check per value.
#[inline]
fn get_bits<T: Lane>(bytes: &[u8], bits: u32, base: T::Key, out: &mut [MaybeUninit<T>]) -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let (done, mut bad) = match x86::get_bits_grouped(bytes, bits, base, out) {
        Some((done, bad)) => {
            // The rest from the byte the kernel stopped at (`done` is a
            // multiple of 8): its last groups, whose vector loads would
            // pass the block's end, through the kernel again over a
            // zero-padded copy (the portable path there cost 13% of a small
            // `i32` decode's instructions). The block holds exactly its
            // values' bits, so no value reads padding.
            let (Some(bytes), Some(rest)) =
                (bytes.get(done / 8 * bits as usize..), out.get_mut(done..))
            else {
                return true;
            };
            let (more, more_bad) = match bytes.len() {
                len @ ..=BITS_TAIL => {
                    let mut padded = [0u8; 2 * BITS_TAIL];
                    if let Some(dst) = padded.get_mut(..len) {
                        dst.copy_from_slice(bytes);
                    }
                    x86::get_bits_grouped(&padded, bits, base, rest).unwrap_or((0, false))
                }
                _ => get_bits_fast_dispatch(bytes, bits, base, rest),
            };
            (done + more, bad | more_bad)
        }
        None => get_bits_fast_dispatch(bytes, bits, base, out),
    };
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    let (done, mut bad) = get_bits_fast_dispatch(bytes, bits, base, out);
    let Some(rest) = out.get_mut(done..) else {
        return true;
    };
    if rest.is_empty() {
        return bad;
    }
    // The last values, from the word that holds the first of them (the
    // fast path stops at a whole byte: `done` is a multiple of 8).
    let start = done * bits as usize / 8;
    bad |= get_bits_serial(bytes.get(start..).unwrap_or_default(), bits, base, rest);
    bad
}

/// The bytes a bit-packed block can have left when the AVX2 kernel stops:
/// less than a group and its load window (at most 40 bytes, for 16-bit
/// offsets of 4-byte keys).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
const BITS_TAIL: usize = 64;

/// [`get_bits_fast`] with AVX2 and BMI2 where the CPU has them: the
/// compiler then gathers each group's eight values with vector shifts.
#[inline]
fn get_bits_fast_dispatch<T: Lane>(
    bytes: &[u8],
    bits: u32,
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> (usize, bool) {
    // 128-bit keys stay scalar: the compiler's AVX2 version of their
    // add with carry spilled to the stack.
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if core::mem::size_of::<T::Key>() <= 8
        && std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi2")
    {
        #[allow(unsafe_code)]
        // SAFETY: `get_bits_avx2` only needs AVX2 and BMI2, which the CPU
        // was just found to support.
        return unsafe { get_bits_avx2(bytes, bits, base, out) };
    }
    get_bits_fast(bytes, bits, base, out)
}

#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx2,bmi2")]
fn get_bits_avx2<T: Lane>(
    bytes: &[u8],
    bits: u32,
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> (usize, bool) {
    get_bits_fast(bytes, bits, base, out)
}

/// The values of a bit-packed block whose 8 bytes from their first byte
/// lie in `bytes`, eight at a time (eight values start on a whole byte):
/// each value is one unaligned load at its own byte, shifted by its bit
/// and masked, with nothing carried from one value to the next, so the
/// loads overlap instead of waiting on an accumulator. The values done
/// and whether any left the type's range.
#[inline(always)]
fn get_bits_fast<T: Lane>(
    bytes: &[u8],
    bits: u32,
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> (usize, bool) {
    // No compare a value when none can leave the range (for 128-bit
    // keys, whose compares cost most, a 12% faster decode).
    let plain = |off: u64| base.wrapping_add(<T::Key as Key>::from_u64(off));
    if bits_may_overflow::<T>(base, bits) {
        return get_bits_groups::<T, true>(bytes, bits, base, out, plain);
    }
    // A 128-bit base whose low half leaves room for the widest offset
    // (small values, ids): every key is the base's high half over a
    // 64-bit sum, with no carry chain between the halves.
    let (low, high) = (base.low64(), base.to_u128() >> 64);
    if core::mem::size_of::<T::Key>() == 16 && low.checked_add((1u64 << bits) - 1).is_some() {
        let flat = |off: u64| <T::Key as Key>::from_u128(high << 64 | u128::from(low + off));
        return get_bits_groups::<T, false>(bytes, bits, base, out, flat);
    }
    get_bits_groups::<T, false>(bytes, bits, base, out, plain)
}

/// Whether a bit-packed block from `base` with `bits`-bit offsets can hold
/// a value out of the type's range: only when the base leaves less room
/// above it than the widest offset (or is out of range itself). The
/// decoders check each value only then.
#[inline(always)]
fn bits_may_overflow<T: Lane>(base: T::Key, bits: u32) -> bool {
    let widest = <T::Key as Key>::from_u64((1u64 << bits) - 1);
    base > T::KEY_MAX || T::KEY_MAX.wrapping_sub(base) < widest
}

/// [`get_bits_fast`]'s loop: each offset's key by `key` (the base plus
/// the offset), checked against the range if `CHECK`.
#[inline(always)]
fn get_bits_groups<T: Lane, const CHECK: bool>(
    bytes: &[u8],
    bits: u32,
    base: T::Key,
    out: &mut [MaybeUninit<T>],
    key: impl Fn(u64) -> T::Key,
) -> (usize, bool) {
    let mask = (1u64 << bits) - 1;
    let step = bits as usize; // bytes per eight values
    let mut bad = false;
    let mut done = 0;
    for (group, slots) in out.chunks_exact_mut(8).enumerate() {
        // Eight values take `bits` bytes; the last load reaches 8 past
        // the start of the last value.
        let Some(window) = bytes.get(group * step..group * step + step + 8) else {
            break;
        };
        for (j, slot) in slots.iter_mut().enumerate() {
            let bit = j * bits as usize;
            let mut raw = [0u8; 8];
            if let Some(src) = window.get(bit / 8..bit / 8 + 8) {
                raw.copy_from_slice(src);
            }
            let key = key((u64::from_le_bytes(raw) >> (bit % 8)) & mask);
            if CHECK {
                bad |= (key < base) | (key > T::KEY_MAX);
            }
            *slot = MaybeUninit::new(T::from_key(key));
        }
        done += 8;
    }
    (done, bad)
}

/// [`get_bits`] value by value from a 64-bit accumulator: the block's
/// last values, whose loads would pass its end.
fn get_bits_serial<T: Lane>(
    bytes: &[u8],
    bits: u32,
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> bool {
    let mask = (1u64 << bits) - 1;
    let mut words = bytes.chunks_exact(8);
    let mut rest = words.remainder();
    let mut acc: u64 = 0;
    let mut avail = 0u32;
    let mut bad = false;
    for slot in out.iter_mut() {
        let off = if avail >= bits {
            let v = acc & mask;
            acc >>= bits;
            avail -= bits;
            v
        } else {
            let word = match words.next() {
                Some(chunk) => {
                    let mut raw = [0u8; 8];
                    raw.copy_from_slice(chunk);
                    u64::from_le_bytes(raw)
                }
                None => {
                    // The last partial word, once.
                    let mut raw = [0u8; 8];
                    if let Some(dst) = raw.get_mut(..rest.len()) {
                        dst.copy_from_slice(rest);
                    }
                    rest = &[];
                    u64::from_le_bytes(raw)
                }
            };
            // `avail` < `bits` ≤ 56: both shifts are in range.
            let v = (acc | (word << avail)) & mask;
            let used = bits - avail;
            acc = word >> used;
            avail = 64 - used;
            v
        };
        let key = base.wrapping_add(<T::Key as Key>::from_u64(off));
        bad |= (key < base) | (key > T::KEY_MAX);
        *slot = MaybeUninit::new(T::from_key(key));
    }
    bad
}

/// Reads one `W`-byte little-endian offset.
#[inline(always)]
fn offset<K: Key, const W: usize>(src: &[u8]) -> K {
    if W <= 8 {
        let mut raw = [0u8; 8];
        if let Some(dst) = raw.get_mut(..W) {
            dst.copy_from_slice(src);
        }
        K::from_u64(u64::from_le_bytes(raw))
    } else {
        let mut raw = [0u8; 16];
        if let Some(dst) = raw.get_mut(..W) {
            dst.copy_from_slice(src);
        }
        K::from_u128(u128::from_le_bytes(raw))
    }
}

#[cold]
#[inline(never)]
fn overflow_error<K: Key>(
    r: &Reader<'_>,
    at: usize,
    unit: &str,
    width: usize,
    base: K,
) -> crate::Error {
    r.error_at(
        at,
        ErrorKind::IntegerOverflow,
        alloc::format!(
            "a {width}-{unit} offset from base key {} overflows the integer type",
            base.to_u128()
        ),
    )
}

/// Widens each offset and adds the base; returns whether any sum left the
/// type's keys (a carry out of the key, or past the type's top: the
/// second test folds away where the key is exactly the type's width).
#[inline(always)]
fn get<T: Lane, const W: usize>(bytes: &[u8], base: T::Key, out: &mut [MaybeUninit<T>]) -> bool {
    // Too few bytes for every slot is a failure, so that success always
    // means every slot was written (callers pass exactly enough).
    let mut bad = bytes.len() / W < out.len();
    for (slot, src) in out.iter_mut().zip(bytes.chunks_exact(W)) {
        let key = base.wrapping_add(offset::<T::Key, W>(src));
        bad |= (key < base) | (key > T::KEY_MAX);
        *slot = MaybeUninit::new(T::from_key(key));
    }
    bad
}

/// `Lane` for the integer types up to 64 bits, whose scalars are `u64`
/// varints (zig-zag for signed).
macro_rules! lane64 {
    (unsigned $($ty:ty => $key:ty, $max:expr;)*) => {$(
        impl Lane for $ty {
            type Key = $key;
            const KEY_MAX: $key = <$ty>::MAX as $key;
            const ZIGZAG: bool = false;
            const WHOLE: bool = core::mem::size_of::<$ty>() == core::mem::size_of::<$key>();
            #[inline(always)]
            fn key(self) -> $key { self as $key }
            #[inline(always)]
            fn from_key(key: $key) -> Self { key as $ty }
            #[inline(always)]
            fn scalar_len(self) -> u32 { (self as $key).varint_len() }
            #[inline(always)]
            fn payload(self) -> $key { self as $key }
            #[inline(always)]
            fn least_payload(lo: Self, _: Self) -> $key { lo as $key }
            #[inline(always)]
            fn from_payload(payload: $key) -> (Self, bool) {
                (payload as $ty, payload <= <$ty>::MAX as $key)
            }
            #[inline]
            fn write_scalars(items: &[Self], w: &mut Writer<'_>) {
                w.write_varints($max, items.iter().map(|&x| x as u64));
            }
            #[inline(always)]
            fn write_scalar(self, w: &mut Writer<'_>) { w.write_varint(self as u64) }
            #[inline(always)]
            fn read_scalar(r: &mut Reader<'_>) -> Result<Self> {
                <$ty as crate::Unpack<'_>>::unpack(r)
            }
        }
    )*};
    (signed $($ty:ty => $key:ty, $wide:ty, $max:expr;)*) => {$(
        impl Lane for $ty {
            type Key = $key;
            const KEY_MAX: $key = (<$ty>::MAX as $key) ^ (1 << (<$key>::BITS - 1));
            const ZIGZAG: bool = true;
            const WHOLE: bool = core::mem::size_of::<$ty>() == core::mem::size_of::<$key>();
            #[inline(always)]
            fn key(self) -> $key { (self as $key) ^ (1 << (<$key>::BITS - 1)) }
            #[inline(always)]
            fn from_key(key: $key) -> Self { (key ^ (1 << (<$key>::BITS - 1))) as $ty }
            #[inline(always)]
            fn scalar_len(self) -> u32 { self.payload().varint_len() }
            #[inline(always)]
            fn payload(self) -> $key {
                // Zig-zag in the key's width, as the varint writes it.
                let v = self as $wide;
                ((v << 1) ^ (v >> (<$key>::BITS - 1))) as $key
            }
            #[inline(always)]
            fn least_payload(lo: Self, hi: Self) -> $key {
                if lo >= 0 {
                    lo.payload()
                } else if hi < 0 {
                    hi.payload()
                } else {
                    0
                }
            }
            #[inline(always)]
            fn from_payload(payload: $key) -> (Self, bool) {
                let v = ((payload >> 1) as $wide) ^ -((payload & 1) as $wide);
                (v as $ty, v as $ty as $wide == v)
            }
            #[inline]
            fn write_scalars(items: &[Self], w: &mut Writer<'_>) {
                w.write_varints($max, items.iter().map(|&x| crate::varint::zigzag_i64(x as i64)));
            }
            #[inline(always)]
            fn write_scalar(self, w: &mut Writer<'_>) { w.write_varint_signed(self as i64) }
            #[inline(always)]
            fn read_scalar(r: &mut Reader<'_>) -> Result<Self> {
                <$ty as crate::Unpack<'_>>::unpack(r)
            }
        }
    )*};
}

lane64!(unsigned u16 => u16, 3; u32 => u32, 5; u64 => u64, 9; usize => u64, 9;);
lane64!(signed i16 => u16, i16, 3; i32 => u32, i32, 5; i64 => u64, i64, 9; isize => u64, i64, 9;);

/// The length of a `u128` varint.
#[inline(always)]
fn u128_len(v: u128) -> u32 {
    if v < 1 << 56 {
        (v as u64).varint_len()
    } else {
        // `0xFF`, a byte count, then the value's bytes, counted without
        // encoding: the encoder's scan asks this of every value of a block.
        2 + crate::varint::long_u128_bytes(v) as u32
    }
}

impl Key for u128 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn varint_len(self) -> u32 {
        u128_len(self)
    }
    #[inline(always)]
    fn byte_len(self) -> u32 {
        let high = (self >> 64) as u64;
        if high == 0 {
            (self as u64).byte_len()
        } else {
            8 + high.byte_len()
        }
    }
    #[inline(always)]
    fn wrapping_sub(self, other: Self) -> Self {
        u128::wrapping_sub(self, other)
    }
    #[inline(always)]
    fn wrapping_add(self, other: Self) -> Self {
        u128::wrapping_add(self, other)
    }
    #[inline(always)]
    fn low64(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline(always)]
    fn from_u128(v: u128) -> Self {
        v
    }
    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        u128::from(v)
    }
}

impl Lane for u128 {
    type Key = u128;
    const KEY_MAX: u128 = u128::MAX;
    const ZIGZAG: bool = false;
    const WHOLE: bool = true;
    #[inline(always)]
    fn key(self) -> u128 {
        self
    }
    #[inline(always)]
    fn from_key(key: u128) -> Self {
        key
    }
    #[inline(always)]
    fn scalar_len(self) -> u32 {
        u128_len(self)
    }
    fn payload(self) -> u128 {
        self
    }
    fn from_payload(payload: u128) -> (Self, bool) {
        (payload, true)
    }
    fn least_payload(lo: Self, _: Self) -> u128 {
        lo
    }
    fn write_scalars(items: &[Self], w: &mut Writer<'_>) {
        items.iter().for_each(|&v| w.write_varint_u128(v));
    }
    #[inline(always)]
    fn write_scalar(self, w: &mut Writer<'_>) {
        w.write_varint_u128(self)
    }
    #[inline(always)]
    fn read_scalar(r: &mut Reader<'_>) -> Result<Self> {
        r.read_varint_u128()
    }
}

impl Lane for i128 {
    type Key = u128;
    const KEY_MAX: u128 = (i128::MAX as u128) ^ (1 << 127);
    const ZIGZAG: bool = true;
    const WHOLE: bool = true;
    #[inline(always)]
    fn key(self) -> u128 {
        (self as u128) ^ (1 << 127)
    }
    #[inline(always)]
    fn from_key(key: u128) -> Self {
        (key ^ (1 << 127)) as i128
    }
    #[inline(always)]
    fn scalar_len(self) -> u32 {
        u128_len(crate::varint::zigzag_i128(self))
    }
    fn payload(self) -> u128 {
        crate::varint::zigzag_i128(self)
    }
    /// From the high half alone: the zig-zag shift brings in one bit of
    /// the low half, at the bottom of the high half, which the top byte
    /// does not reach.
    #[inline(always)]
    fn payload_top(self) -> u64 {
        let high = (self >> 64) as i64;
        (((high << 1) ^ (high >> 63)) as u64) >> 56
    }
    fn from_payload(payload: u128) -> (Self, bool) {
        (crate::varint::unzigzag_i128(payload), true)
    }
    fn least_payload(lo: Self, hi: Self) -> u128 {
        if lo >= 0 {
            lo.payload()
        } else if hi < 0 {
            hi.payload()
        } else {
            0
        }
    }
    fn write_scalars(items: &[Self], w: &mut Writer<'_>) {
        items
            .iter()
            .for_each(|&v| w.write_varint_u128(crate::varint::zigzag_i128(v)));
    }
    #[inline(always)]
    fn write_scalar(self, w: &mut Writer<'_>) {
        w.write_varint_u128(crate::varint::zigzag_i128(self))
    }
    #[inline(always)]
    fn read_scalar(r: &mut Reader<'_>) -> Result<Self> {
        r.read_varint_u128().map(crate::varint::unzigzag_i128)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_len_matches_the_encoder() {
        for shift in 0..64 {
            for v in [1u64 << shift, (1u64 << shift) - 1, (1u64 << shift) + 1] {
                assert_eq!(v.varint_len() as usize, crate::varint::len_u64(v), "{v}");
                if let Ok(small) = u32::try_from(v) {
                    assert_eq!(small.varint_len() as usize, crate::varint::len_u64(v));
                }
                let signed = v as i64;
                assert_eq!(
                    signed.scalar_len() as usize,
                    crate::varint::len_u64(crate::varint::zigzag_i64(signed))
                );
                let signed = v as i32;
                assert_eq!(
                    signed.scalar_len() as usize,
                    crate::varint::len_u64(crate::varint::zigzag_i64(signed.into()))
                );
            }
        }
        for shift in 0..128 {
            for v in [1u128 << shift, (1u128 << shift) - 1, (1u128 << shift) + 5] {
                assert_eq!(u128_len(v) as usize, crate::varint::encode_u128(v).1, "{v}");
            }
        }
        assert_eq!(
            u128_len(u128::MAX) as usize,
            crate::varint::encode_u128(u128::MAX).1
        );
    }

    #[test]
    fn scan_counts_every_varint_and_payload_byte() {
        fn check<T: Lane + core::fmt::Debug>(block: &[T]) {
            let scan = scan(block, |_, _| usize::MAX);
            let expected: u32 = block.iter().map(|x| x.scalar_len()).sum();
            assert_eq!(scan.varints, expected, "{block:?}");
            let bytes = |x: &T| {
                let le = x.payload().to_u128().to_le_bytes();
                le.iter().rposition(|&b| b != 0).map_or(1, |i| i as u32 + 1)
            };
            // Counted only when the lengths form may win (the encoder's
            // choice is checked against every form's full size below).
            if scan.bytes != u32::MAX {
                let expected: u32 = block.iter().map(bytes).sum();
                assert_eq!(scan.bytes, expected, "{block:?}");
            }
        }
        let mut u = alloc::vec::Vec::new();
        for shift in 0..64 {
            u.extend([1u64 << shift, (1u64 << shift) - 1]);
        }
        for block in u.chunks(9) {
            check(block);
            check(&block.iter().map(|&v| v as i64).collect::<Vec<_>>());
            check(&block.iter().map(|&v| v as u32).collect::<Vec<_>>());
            check(&block.iter().map(|&v| v as i32).collect::<Vec<_>>());
            check(&block.iter().map(|&v| v as u16).collect::<Vec<_>>());
            check(&block.iter().map(|&v| v as i16).collect::<Vec<_>>());
            check(&block.iter().map(|&v| v as i128 * -3).collect::<Vec<_>>());
        }
        let mut wide = alloc::vec::Vec::new();
        for shift in 0..128 {
            wide.extend([1u128 << shift, (1u128 << shift) - 1]);
        }
        wide.push(u128::MAX);
        for block in wide.chunks(9) {
            check(block);
            check(&block.iter().map(|&v| v as i128).collect::<Vec<_>>());
        }
        check(&[u64::MAX; 256]);
        check(&[i16::MIN; 256]);
    }

    /// The form the rule of format.md §22 picks, computed the long way:
    /// every form's size in full, the smallest, ties in the rule's order.
    fn expected_form<T: Lane>(block: &[T]) -> u8 {
        let n = block.len();
        let lo = block.iter().map(|x| x.key()).min().unwrap();
        let hi = block.iter().map(|x| x.key()).max().unwrap();
        let range = hi.wrapping_sub(lo).to_u128();
        let base = T::from_key(lo).scalar_len() as usize;
        let (code, width) = narrowest(hi.wrapping_sub(lo));
        let bits = 128 - range.leading_zeros();
        let payload_bytes = |x: &T| {
            let le = x.payload().to_u128().to_le_bytes();
            le.iter().rposition(|&b| b != 0).map_or(1, |i| i + 1)
        };
        let longest = block.iter().map(payload_bytes).max().unwrap();
        let codes = if longest <= 4 {
            n.div_ceil(4)
        } else {
            n.div_ceil(2)
        };
        let lengths_header = if longest <= 4 { LENGTHS2 } else { LENGTHS4 };
        let forms = [
            (base + n * width, code),
            (
                if (1..=56).contains(&bits) {
                    1 + base + bits_len(n, bits)
                } else {
                    usize::MAX
                },
                BITS,
            ),
            (
                codes + block.iter().map(payload_bytes).sum::<usize>(),
                lengths_header,
            ),
            (block.iter().map(|x| x.scalar_len() as usize).sum(), VARINTS),
        ];
        let mut best = forms[0];
        for form in forms {
            if form.0 < best.0 {
                best = form;
            }
        }
        best.1
    }

    #[test]
    fn the_encoder_picks_the_smallest_form() {
        fn check<T: Lane + core::fmt::Debug>(block: &[T]) {
            let mut buf = Vec::new();
            pack_block(block, &mut Writer::new(&mut buf));
            assert_eq!(buf[0], expected_form(block), "{block:?}");
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..400 {
            let n = 8 + (next() % 249) as usize;
            // A spread that moves across every form: narrow ranges, mixed
            // magnitudes, full ranges, far from zero or around it.
            let shift = (round % 64) as u32;
            let offset = if round % 3 == 0 { next() } else { 0 };
            let raw: Vec<u64> = (0..n)
                .map(|i| {
                    let v = next() >> shift;
                    let v = if round % 5 == 0 {
                        v >> (next() % 64)
                    } else {
                        v
                    };
                    if round % 7 == 0 && i % 50 == 3 {
                        v.wrapping_mul(1 << 20)
                    } else {
                        v.wrapping_add(offset)
                    }
                })
                .collect();
            check(&raw);
            check(&raw.iter().map(|&v| v as i64).collect::<Vec<_>>());
            check(&raw.iter().map(|&v| v as u32).collect::<Vec<_>>());
            check(&raw.iter().map(|&v| (v >> 32) as i32).collect::<Vec<_>>());
            check(&raw.iter().map(|&v| v as i16).collect::<Vec<_>>());
            check(
                &raw.iter()
                    .map(|&v| (v as i128) << (shift % 3 * 20))
                    .collect::<Vec<_>>(),
            );
        }
    }

    #[test]
    fn every_form_fills_every_slot_of_a_vector() {
        // `unpack_vec` decodes into a vector's uninitialized capacity and
        // trusts a block's `Ok` to mean every slot was written. Blocks of
        // every form (and a headed and a headerless tail) round-trip, so
        // a slot left unwritten is a wrong value here, and a read of
        // uninitialized memory under Miri (`scripts/miri.sh`, which runs
        // this with and without the x86 kernels).
        let mut state = 0x853C_49E6_748F_EA9Bu64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // One block of each shape, as 64-bit patterns: equal values, byte,
        // 2-byte, 4-byte and full ranges far from zero, narrow bit
        // ranges, small varints with rare larger ones, mixed magnitudes.
        let mut raw: Vec<u64> = Vec::new();
        let far = next();
        let shapes: [&dyn Fn(u64, usize) -> u64; 9] = [
            &|_, _| far,
            &|r, _| far.wrapping_add(r >> 56),
            &|r, _| far.wrapping_add(r >> 48),
            &|r, _| far.wrapping_add(r >> 32),
            &|r, _| r,
            &|r, _| r >> 59,
            &|r, i| if i % 40 == 1 { r >> 44 } else { r >> 58 },
            &|r, _| r >> (r % 64),
            &|r, _| (r >> (r % 64)) >> 40,
        ];
        for shape in shapes {
            for i in 0..BLOCK {
                raw.push(shape(next(), i));
            }
        }
        fn check<T: Lane + PartialEq + core::fmt::Debug>(values: &[T], forms: &mut [bool; 10]) {
            // The whole run, then the last two shapes with a headed and a
            // headerless partial block after them.
            let last = values.len() - 2 * BLOCK;
            for values in [
                values,
                &values[last..][..BLOCK + 200],
                &values[last..][..BLOCK + 5],
            ] {
                let mut buf = Vec::new();
                pack_slice(values, &mut Writer::new(&mut buf));
                let options = crate::Options::new();
                let mut r = Reader::new(&buf, &options);
                let back = unpack_vec::<T>(&mut r, values.len()).expect("decodes");
                assert_eq!(back, values, "{} values", values.len());
                assert!(r.rest().is_empty());
            }
            for block in values.chunks(BLOCK) {
                let mut buf = Vec::new();
                pack_block(block, &mut Writer::new(&mut buf));
                forms[usize::from(buf[0])] = true;
            }
        }
        let mut forms = [false; 10];
        // The shapes in each integer width, signed and unsigned.
        macro_rules! check_as {
            ($($map:expr),*) => {$(
                check(&raw.iter().map($map).collect::<Vec<_>>(), &mut forms);
            )*};
        }
        check(&raw, &mut forms);
        check_as!(
            |&v| v as i64,
            |&v| (v >> 32) as u32,
            |&v| v as i32,
            |&v| (v >> 48) as i16,
            |&v| v as u16,
            |&v| (i128::from(v) << 64) ^ i128::from(v.rotate_left(17))
        );
        assert_eq!(forms, [true; 10], "forms seen (by header)");
    }

    #[test]
    fn wide_bit_blocks_carry_into_the_high_half_only_when_they_must() {
        // 128-bit bit-packed blocks whose base's low half leaves exactly
        // room for the widest offset (one 64-bit add a value) and one
        // short of it (the carry into the high half is needed).
        for bits in [1u32, 9, 20, 56] {
            let widest = (1u64 << bits) - 1;
            for room in [widest, widest - 1] {
                let base = (5u128 << 64) | u128::from(u64::MAX - room);
                let values: Vec<u128> = [base, base + u128::from(widest)]
                    .into_iter()
                    .chain(
                        (2..BLOCK as u64)
                            .map(|i| base + u128::from(i.wrapping_mul(0x9E37_79B9) % widest)),
                    )
                    .collect();
                let mut buf = Vec::new();
                pack_slice(&values, &mut Writer::new(&mut buf));
                assert_eq!(buf[0], BITS, "{bits} bits");
                let options = crate::Options::new();
                let back = unpack_vec::<u128>(&mut Reader::new(&buf, &options), values.len());
                assert_eq!(back.expect("decodes"), values, "{bits} bits, room {room}");
            }
        }
    }

    #[test]
    fn every_bit_width_round_trips_at_every_count() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for bits in 1..=MAX_BITS {
            for n in [1, 7, 8, 9, 15, 16, 17, 255, 256] {
                let values: Vec<u64> = (0..n)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        state >> (64 - bits)
                    })
                    .collect();
                // With the encoder's slack (the grouped writer's whole
                // stores) and without (the joined writer alone at the end).
                for slack in [0, BITS_SLACK] {
                    let len = bits_len(n, bits);
                    let mut out = vec![0u8; len + slack];
                    put_bits(&values, 0, bits, &mut out);
                    assert!(out[len..].iter().all(|&b| b == 0), "slack written");
                    let mut back = vec![0u64; n];
                    assert!(!get_bits(&out[..len], bits, 0, slots(&mut back)));
                    assert_eq!(back, values, "{bits} bits, {n} values, {slack} slack");
                }
            }
        }
    }

    #[test]
    fn keys_keep_order_and_invert() {
        let values = [i32::MIN, -5, -1, 0, 1, 7, i32::MAX];
        for pair in values.windows(2) {
            assert!(pair[0].key() < pair[1].key());
        }
        for v in values {
            assert_eq!(i32::from_key(v.key()), v);
        }
        // The greatest value has the greatest key.
        assert_eq!(i32::KEY_MAX, u32::MAX);
        assert_eq!(i16::KEY_MAX, u16::MAX);
        assert_eq!(i128::KEY_MAX, u128::MAX);
        assert_eq!(u64::KEY_MAX, u64::MAX);
        assert_eq!(isize::KEY_MAX, isize::MAX.key());
        assert_eq!(i64::from_key(0), i64::MIN);
    }

    /// The 128-bit shortcuts (extrema by halves, the payload's top byte
    /// from the high half) agree with the plain 128-bit arithmetic at the
    /// edges: high halves equal and one apart, low halves at their ends,
    /// signs on both sides of zero and of each half's boundary.
    #[test]
    fn wide_shortcuts_match_the_plain_arithmetic() {
        let edges: [i128; 14] = [
            i128::MIN,
            i128::MIN + 1,
            -(1 << 64) - 1,
            -(1 << 64),
            -(1 << 63),
            -1,
            0,
            1,
            (1 << 63) - 1,
            1 << 63,
            (1 << 64) - 1,
            1 << 64,
            (1 << 119) + (1 << 63),
            i128::MAX,
        ];
        for v in edges {
            let plain = (crate::varint::zigzag_i128(v) >> 120) as u64;
            assert_eq!(v.payload_top(), plain, "{v}");
        }
        // Every window of the edges, in order, reversed and rotated (so
        // that keys sharing a high half come in every order), so that the
        // extrema share high halves in some and not in others.
        for start in 0..edges.len() {
            for end in start + 1..=edges.len() {
                let window = &edges[start..end];
                let mut reversed = window.to_vec();
                reversed.reverse();
                let mut rotated = window.to_vec();
                rotated.rotate_left(window.len() / 2);
                for block in [window, &reversed, &rotated] {
                    let keys = block.iter().map(|v| v.key());
                    let plain = (keys.clone().min().unwrap(), keys.max().unwrap());
                    assert_eq!(extrema_by_halves(block), plain, "{block:?}");
                    let unsigned: Vec<u128> = block.iter().map(|&v| v as u128).collect();
                    let plain = (unsigned.iter().min(), unsigned.iter().max());
                    let (lo, hi) = extrema_by_halves(&unsigned);
                    assert_eq!((Some(&lo), Some(&hi)), plain, "{unsigned:?}");
                }
            }
        }
    }

    #[test]
    fn narrowest_width() {
        assert_eq!(narrowest(0u32), (1, 0));
        assert_eq!(narrowest(255u32), (2, 1));
        assert_eq!(narrowest(256u32), (3, 2));
        assert_eq!(narrowest(65_536u32), (4, 4));
        assert_eq!(narrowest(u64::MAX), (5, 8));
        assert_eq!(narrowest(u128::MAX), (6, 16));
    }
}
