//! The encoder's look at a block before it writes: the extrema, and
//! what each form would cost, in one pass (vectorized where it can be).

use super::lane::{Key, Lane};
use super::layout::WIDTHS;
use super::tables::{BYTE_LEN_128, LENGTHS_64, VARINT_LEN_128};

/// The header and width of the narrowest fixed form holding `range`.
#[inline]
pub(super) fn narrowest<K: Key>(range: K) -> (u8, usize) {
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

/// What the encoder learns of a block in one pass.
pub(super) struct Scan<K> {
    /// The least and greatest keys.
    pub(super) lo: K,
    pub(super) hi: K,
    /// The bytes of the values' varints.
    pub(super) varints: u32,
    /// The bytes of the values' payloads in the lengths form.
    pub(super) bytes: u32,
    /// Every payload or-ed together: its byte length is the longest.
    pub(super) any: K,
}

/// A block's extrema and the sizes of its varint and lengths forms: the
/// encoder's one pass over the values. On x86 it runs inside
/// [`pack_slice_v3`](super::encode::pack_slice_v3), with AVX2 (SSE2 has no unsigned 32-bit min, max or
/// compare, which doubles the work of this loop; measured: 100,000
/// full-range `i32` encode in 115 µs with SSE2 alone, see the closing
/// note of issue 14) and `lzcnt`.
#[inline(always)]
pub(super) fn scan<T: Lane>(
    block: &[T],
    offsets: impl Fn(T::Key, T::Key) -> usize,
) -> Scan<T::Key> {
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
pub(super) fn extrema_by_halves<T: Lane>(block: &[T]) -> (T::Key, T::Key) {
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
pub(super) fn scan_narrow<T: Lane>(
    block: &[T],
    offsets: impl Fn(T::Key, T::Key) -> usize,
) -> Scan<T::Key> {
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
pub(super) const SCAN_CHUNK: usize = 64;

/// The varint and payload bytes of `chunk`, and its payloads or-ed.
#[inline(always)]
pub(super) fn lengths<T: Lane>(chunk: &[T], narrow: bool) -> (u32, u32, T::Key) {
    let (mut varints, mut bytes, mut any) = (0u32, 0u32, <T::Key as Key>::ZERO);
    if narrow {
        // Every payload below 2^56: each value's low 64 bits are its own
        // (a key flips only the top bit), zig-zagged in 64 bits, and the
        // tables below 2^56 are the 128-bit ones'.
        let (mut both, mut all) = (0u32, 0u64);
        for &x in chunk {
            let v = x.key().low64();
            let z = if T::ZIGZAG {
                crate::varint::zigzag_i64(v as i64)
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
