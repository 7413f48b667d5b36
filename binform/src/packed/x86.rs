//! x86 kernels for packed integer blocks (`docs/format.md` §22).
//!
//! - SSSE3, the lengths form of 32-bit keys with 2-bit codes and 64-bit
//!   keys with 4-bit codes: one control byte announces one 16-byte vector
//!   of values (four `u32`, two `u64`), so one byte shuffle moves every
//!   payload of the group into its lane at once, where the scalar loop
//!   waits on each length to place the next load. The layout is that of
//!   Stream VByte (Lemire, Kurz, Rupp 2017).
//! - AVX2, bit-packed offsets of up to 16 bits: a group of eight values
//!   shifted into place in vector lanes to encode, shifted apart and added
//!   to the base to decode (4-byte keys in 32-bit lanes, each lane's bytes
//!   gathered by a shuffle: 100,000 small `i32` decode in 109 -> 72 µs).
//!
//! - x86-64-v4 (AVX-512 F, VL, BW, CD, DQ): no kernel of its own; the
//!   encoder's and decoder's block loops compiled for it
//!   (`encode::pack_slice_v4`, `decode::unpack_vec_v4`), where the
//!   compiler vectorizes the unsigned 64-bit extrema and leading-zero
//!   counts that AVX2 lacks. [`level`] says which build a CPU takes.
//! - AVX-512 VBMI2 (level 5): the lengths form one 64-byte vector of
//!   values at a time, decoded by a masked expand-load that reads exactly
//!   the announced payload bytes, encoded by a compress of each lane's
//!   payload bytes. 100,000 mixed `i32` decode in 95 -> 78 µs, `u64`
//!   103 -> 90 µs, `i128` (four a vector) 240 -> 101 µs; mixed `u64`
//!   encode 162 -> 115 µs (`i32` within noise: its scan and varint blocks
//!   are most of its time). Bit-packed offsets of up to 56 bits (25 for
//!   4-byte keys) by one byte permute a vector: sorted `u64` ids decode
//!   in 47 -> 26 µs, small `i32` 22.5 -> 15.3 µs. (The AVX2 kernels
//!   stay for CPUs without it.) The encoder's scan and varint form, and
//!   the varint form's decoder, are in `avx512`.
//!
//! Measured in alternating runs on this project's 2-core VM, 100,000
//! values (best of 3): mixed magnitudes, `i32` decode 233 -> 166 µs and
//! encode 237 -> 155 µs, `u64` decode 243 -> 150 µs (the rest of those
//! times is blocks whose varints were smaller); small values, `i32`
//! encode 114 -> 87 µs, `u64` 145 -> 115 µs, decode `i32` 109 -> 49 µs,
//! `u64` 109 -> 54 µs. The portable loops stay for
//! every other shape and CPU; the tests compare the two on random and
//! damaged blocks, and `scripts/miri.sh` runs the SSSE3 and AVX2 ones
//! under Miri (which has no AVX-512: those kernels are left out of its
//! builds, and are checked natively against the portable loops) in a build
//! with the features on.

use core::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi32, _mm256_add_epi64, _mm256_and_si256, _mm256_bsrli_epi128,
    _mm256_castsi128_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi32, _mm256_cmpgt_epi64,
    _mm256_extracti128_si256, _mm256_inserti128_si256, _mm256_loadu_si256, _mm256_max_epu32,
    _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi32, _mm256_set1_epi64x,
    _mm256_set_epi64x, _mm256_setr_epi32, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_sllv_epi32, _mm256_sllv_epi64, _mm256_srli_epi64, _mm256_srlv_epi32, _mm256_srlv_epi64,
    _mm256_storeu_si256, _mm256_sub_epi32, _mm256_sub_epi64, _mm256_xor_si256, _mm_and_si128,
    _mm_cmpeq_epi8, _mm_cvtsi128_si64, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi32, _mm_set1_epi64x, _mm_setzero_si128, _mm_shuffle_epi8, _mm_slli_epi32,
    _mm_srai_epi32, _mm_srli_epi32, _mm_srli_epi64, _mm_storeu_si128, _mm_sub_epi32, _mm_sub_epi64,
    _mm_unpackhi_epi64, _mm_xor_si128,
};

use core::mem::MaybeUninit;

use super::lane::Lane;

/// Whether the CPU has `feature`. Under Miri (which cannot run `cpuid`)
/// only what the build enables: `scripts/miri.sh` builds with SSSE3 and
/// AVX2 on, so that Miri checks these kernels too.
macro_rules! detected {
    ($feature:tt) => {
        if cfg!(miri) {
            cfg!(target_feature = $feature)
        } else {
            std::is_x86_feature_detected!($feature)
        }
    };
}

/// The x86-64 microarchitecture level the packed codec may compile its
/// loops for on this CPU, found once: 4 for x86-64-v4 (AVX-512 F, VL,
/// BW, CD and DQ, besides v3's), 5 for v4 with AVX-512 VBMI and VBMI2
/// (byte permutes, expand and compress: this crate's own step), 3 for
/// x86-64-v3 (AVX2, BMI1, BMI2, LZCNT and POPCNT: every AVX2 CPU so far
/// has the others), else 0. One load a call:
/// a short column asks at every block, and nine feature tests cost more
/// than its values.
// Its callers' AVX2 and AVX-512 paths are not built under Miri.
#[cfg(not(miri))]
#[inline]
pub(super) fn level() -> u8 {
    use core::sync::atomic::{AtomicU8, Ordering};
    static LEVEL: AtomicU8 = AtomicU8::new(u8::MAX);
    let known = LEVEL.load(Ordering::Relaxed);
    if known != u8::MAX {
        return known;
    }
    let v3 = detected!("avx2")
        && detected!("bmi1")
        && detected!("bmi2")
        && detected!("lzcnt")
        && detected!("popcnt");
    // Enabling `avx512f` enables `fma` and `f16c` too (rustc's feature
    // implications): the builds for v4 may use them.
    let v4 = v3
        && detected!("fma")
        && detected!("f16c")
        && detected!("avx512f")
        && detected!("avx512vl")
        && detected!("avx512bw")
        && detected!("avx512cd")
        && detected!("avx512dq");
    let v5 = v4 && detected!("avx512vbmi2") && detected!("avx512vbmi");
    let level = match (v3, v4, v5) {
        (_, _, true) => 5,
        (_, true, false) => 4,
        (true, false, false) => 3,
        _ => 0,
    };
    LEVEL.store(level, Ordering::Relaxed);
    level
}

/// Whether the CPU has AVX2 (the decoder's widening of fixed-width
/// offsets).
// Its callers' AVX2 paths are not built under Miri.
#[cfg(not(miri))]
#[inline]
pub(super) fn has_avx2() -> bool {
    detected!("avx2")
}

/// Whether the CPU has AVX2 and BMI2 (the decoder's bit-packed groups).
// Its callers' AVX2 paths are not built under Miri.
#[cfg(not(miri))]
#[inline]
pub(super) fn has_avx2_bmi2() -> bool {
    detected!("avx2") && detected!("bmi2")
}

/// What one control byte says of its group, as vectors: where each
/// payload byte goes, which bytes must not be zero, and how many payload
/// bytes the group takes.
#[repr(C, align(16))]
struct Tables {
    /// Decode: lane byte `k` takes payload byte `gather[c][k]` (`0x80`:
    /// zero).
    gather: [[u8; 16]; 256],
    /// Encode: payload byte `k` comes from lane byte `scatter[c][k]`.
    scatter: [[u8; 16]; 256],
    /// `0xFF` at the top payload byte of each value longer than one byte:
    /// a zero there is a payload longer than it needs (one value has one
    /// encoding).
    top: [[u8; 16]; 256],
    /// The group's payload bytes.
    total: [u8; 256],
    /// Bit `k` set where lane byte `k` takes a payload byte (`gather`'s
    /// entries that are not `0x80`): the AVX-512 kernel's expand mask.
    expand: [u16; 256],
    /// Bit `k` set where `top` has `0xFF`.
    top_bits: [u16; 256],
}

/// The tables of groups of `lanes` values of `lane` bytes, `code_bits`
/// bits a length. Codes above the lane's width (rejected before any
/// kernel runs) are clamped, so every entry stays within one vector.
const fn tables(lanes: usize, lane: usize, code_bits: usize) -> Tables {
    let mut t = Tables {
        gather: [[0x80; 16]; 256],
        scatter: [[0x80; 16]; 256],
        top: [[0; 16]; 256],
        total: [0; 256],
        expand: [0; 256],
        top_bits: [0; 256],
    };
    let mut c = 0;
    while c < 256 {
        let mut off = 0;
        let mut j = 0;
        while j < lanes {
            let code = (c >> (j * code_bits)) & ((1 << code_bits) - 1);
            let len = if code + 1 > lane { lane } else { code + 1 };
            let mut b = 0;
            while b < len {
                t.gather[c][j * lane + b] = (off + b) as u8;
                t.scatter[c][off + b] = (j * lane + b) as u8;
                t.expand[c] |= 1 << (j * lane + b);
                b += 1;
            }
            if len > 1 {
                t.top[c][j * lane + len - 1] = 0xFF;
                t.top_bits[c] |= 1 << (j * lane + len - 1);
            }
            off += len;
            j += 1;
        }
        t.total[c] = off as u8;
        c += 1;
    }
    t
}

/// The 2-bit codes of two 32-bit lanes side by side, from the mask of
/// their bytes that are not zero (lane 0 in bits 0-3): each code is the
/// index of its lane's highest such byte (0 for a zero lane).
static CODES_OF_NONZERO: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        table[mask] = (highest_byte(mask & 15) | highest_byte(mask >> 4) << 2) as u8;
        mask += 1;
    }
    table
};

/// The index of the highest set bit of a 4-bit mask (0 for none).
const fn highest_byte(nibble: usize) -> usize {
    match nibble {
        0..=1 => 0,
        2..=3 => 1,
        4..=7 => 2,
        _ => 3,
    }
}

/// Four 32-bit values a control byte, 2-bit codes.
static T32: Tables = tables(4, 4, 2);
/// Two 64-bit values a control byte, 4-bit codes.
static T64: Tables = tables(2, 8, 4);

/// What one control byte of two 128-bit values (4-bit codes) says, as
/// bit masks over its 32 lane bytes: the AVX-512 kernel's [`Tables`]
/// (whose 16-byte rows a group of 32 bytes does not fit).
#[cfg(not(miri))]
struct Wide {
    /// Bit `k` set where lane byte `k` takes a payload byte.
    expand: [u32; 256],
    /// Bit `k` set at the top payload byte of each value longer than one.
    top_bits: [u32; 256],
    /// The group's payload bytes.
    total: [u8; 256],
}

#[cfg(not(miri))]
static T128: Wide = {
    let mut t = Wide {
        expand: [0; 256],
        top_bits: [0; 256],
        total: [0; 256],
    };
    let mut c = 0;
    while c < 256 {
        let mut j = 0;
        while j < 2 {
            let len = ((c >> (4 * j)) & 15) + 1;
            let mut b = 0;
            while b < len {
                t.expand[c] |= 1 << (16 * j + b);
                b += 1;
            }
            if len > 1 {
                t.top_bits[c] |= 1 << (16 * j + len - 1);
            }
            t.total[c] += len as u8;
            j += 1;
        }
        c += 1;
    }
    t
};

/// The kernel's tables for `T` and `code_bits`, if it has one: whole-width
/// integer lanes (every payload of the key's width is a value) of 4 bytes
/// with 2-bit codes or 8 bytes with 4-bit codes.
#[inline(always)]
fn tables_for<T: Lane>(code_bits: u32) -> Option<&'static Tables> {
    if !T::WHOLE || core::mem::size_of::<T>() != core::mem::size_of::<T::Key>() {
        return None;
    }
    match (core::mem::size_of::<T>(), code_bits) {
        (4, 2) => Some(&T32),
        (8, 4) => Some(&T64),
        _ => None,
    }
}

#[inline(always)]
fn load(v: &[u8; 16]) -> __m128i {
    #[allow(unsafe_code)]
    // SAFETY: `v` is 16 readable bytes; the load is unaligned.
    unsafe {
        _mm_loadu_si128(v.as_ptr().cast())
    }
}

/// The lengths-form values of whole control bytes while 16 payload bytes
/// remain (a vector load at each group's first byte): the values done,
/// the payload bytes used, and whether any payload was longer than it
/// needs. `(0, 0, false)` when the CPU or `T` has no kernel. Lengths were
/// checked against the key's width before.
#[inline]
pub(super) fn get_lengths<T: Lane>(
    codes: &[u8],
    code_bits: u32,
    payloads: &[u8],
    out: &mut [MaybeUninit<T>],
) -> (usize, usize, bool) {
    #[cfg(not(miri))]
    if wide_kernel::<T>(code_bits) && level() >= 5 {
        #[allow(unsafe_code)]
        // SAFETY: `get_lengths128_avx512` only needs AVX-512 F, BW, DQ
        // and VBMI2, which level 5 says the CPU has.
        return unsafe { get_lengths128_avx512(codes, payloads, out) };
    }
    let Some(t) = tables_for::<T>(code_bits) else {
        return (0, 0, false);
    };
    #[cfg_attr(miri, allow(unused_mut))]
    let (mut done, mut pos, mut bad) = (0, 0, false);
    #[cfg(not(miri))]
    if level() >= 5 {
        #[allow(unsafe_code)]
        // SAFETY: `get_lengths_avx512` only needs AVX-512 F, BW, DQ and
        // VBMI2, which level 5 says the CPU has.
        let found = unsafe { get_lengths_avx512(t, codes, payloads, out) };
        (done, pos, bad) = found;
    }
    if !detected!("ssse3") {
        return (done, pos, bad);
    }
    let per_byte = 16 / core::mem::size_of::<T>();
    let (Some(codes), Some(payloads), Some(out)) = (
        codes.get(done / per_byte..),
        payloads.get(pos..),
        out.get_mut(done..),
    ) else {
        return (done, pos, bad);
    };
    #[allow(unsafe_code)]
    // SAFETY: `get_lengths_ssse3` only needs SSSE3, which the CPU was just
    // found to support.
    let (more, used, worse) = unsafe { get_lengths_ssse3(t, codes, payloads, out) };
    (done + more, pos + used, bad | worse)
}

/// The lengths form four control bytes at a time (sixteen 32-bit or
/// eight 64-bit values, one 64-byte vector), by [`expand_groups`]. The
/// SSSE3 kernel takes a control byte (a 16-byte vector) a step.
#[cfg(not(miri))]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vbmi2")]
fn get_lengths_avx512<T: Lane>(
    t: &Tables,
    codes: &[u8],
    payloads: &[u8],
    out: &mut [MaybeUninit<T>],
) -> (usize, usize, bool) {
    use core::arch::x86_64::{
        _mm512_and_si512, _mm512_set1_epi32, _mm512_set1_epi64, _mm512_setzero_si512,
        _mm512_srli_epi32, _mm512_srli_epi64, _mm512_sub_epi32, _mm512_sub_epi64, _mm512_xor_si512,
    };
    let lanes = 64 / core::mem::size_of::<T>();
    let masks = |c: u8| {
        let c = usize::from(c);
        (u64::from(t.expand[c]), u64::from(t.top_bits[c]), t.total[c])
    };
    // `varint::unzigzag_i32`/`_i64` in each lane (the kernel tests compare
    // with the portable loop, which calls them).
    let unzigzag = |v| {
        if !T::ZIGZAG {
            v
        } else if lanes == 16 {
            let one = _mm512_and_si512(v, _mm512_set1_epi32(1));
            let sign = _mm512_sub_epi32(_mm512_setzero_si512(), one);
            _mm512_xor_si512(_mm512_srli_epi32::<1>(v), sign)
        } else {
            let one = _mm512_and_si512(v, _mm512_set1_epi64(1));
            let sign = _mm512_sub_epi64(_mm512_setzero_si512(), one);
            _mm512_xor_si512(_mm512_srli_epi64::<1>(v), sign)
        }
    };
    expand_groups(codes, payloads, out, 4, masks, unzigzag)
}

/// The lengths form by masked expand-loads, one 64-byte vector of values
/// a step (`codes_per` control bytes): one load puts each payload byte
/// into its lane byte and zeroes the rest, reading exactly the payload
/// bytes the codes announce (so no slack past them); one byte test finds
/// the top payload bytes that are zero; `finish` undoes each lane's
/// zig-zag. `masks` gives a control byte's expand mask, its top bytes and
/// its payload bytes, over its `64 / codes_per` lane bytes. The values
/// done, the payload bytes used, and whether any payload was longer than
/// it needs.
#[cfg(not(miri))]
#[inline]
// DQ for the 128-bit zig-zag `finish` brings (level 5 has it).
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vbmi2")]
fn expand_groups<T: Lane>(
    codes: &[u8],
    payloads: &[u8],
    out: &mut [MaybeUninit<T>],
    codes_per: usize,
    masks: impl Fn(u8) -> (u64, u64, u8),
    finish: impl Fn(core::arch::x86_64::__m512i) -> core::arch::x86_64::__m512i,
) -> (usize, usize, bool) {
    use core::arch::x86_64::{
        _mm512_maskz_expandloadu_epi8, _mm512_storeu_si512, _mm512_testn_epi8_mask,
    };
    let lanes = 64 / core::mem::size_of::<T>();
    let step = 64 / codes_per;
    let mut bad = 0u64;
    let mut pos = 0usize;
    let mut done = 0usize;
    for (group, slots) in codes
        .chunks_exact(codes_per)
        .zip(out.chunks_exact_mut(lanes))
    {
        let mut expand = 0u64;
        let mut top = 0u64;
        let mut total = 0usize;
        for (k, &c) in group.iter().enumerate() {
            let (e, t, n) = masks(c);
            expand |= e << (step * k);
            top |= t << (step * k);
            total += usize::from(n);
        }
        let Some(src) = payloads.get(pos..pos + total) else {
            break;
        };
        #[allow(unsafe_code)]
        // SAFETY: the expand-load reads `expand`'s popcount bytes from
        // `src`: each control byte's mask has a bit for each payload byte
        // it counts (`tables`, `T128`), so `total`, `src.len()` exactly.
        let v = unsafe { _mm512_maskz_expandloadu_epi8(expand, src.as_ptr().cast()) };
        bad |= _mm512_testn_epi8_mask(v, v) & top;
        #[allow(unsafe_code)]
        // SAFETY: `slots` is `lanes` values of `64 / lanes` bytes, 64
        // writable bytes; `T` is a primitive integer (`T::WHOLE`, which
        // the kernels' callers check), valid for every bit pattern. The
        // store is unaligned.
        unsafe {
            _mm512_storeu_si512(slots.as_mut_ptr().cast(), finish(v))
        };
        pos += total;
        done += lanes;
    }
    (done, pos, bad != 0)
}

/// Whether [`get_lengths128_avx512`] reads `T`'s blocks: whole 128-bit
/// integers, 4-bit codes.
#[cfg(not(miri))]
#[inline(always)]
fn wide_kernel<T: Lane>(code_bits: u32) -> bool {
    T::WHOLE
        && core::mem::size_of::<T>() == 16
        && core::mem::size_of::<T::Key>() == 16
        && code_bits == 4
}

/// The lengths form of 128-bit values, two control bytes (four values,
/// one 64-byte vector) at a time, by [`expand_groups`]; the zig-zag of
/// each 128-bit lane is a funnel shift of its halves and a sign spread
/// over both. The portable loop took each value in two masked words and a
/// 128-bit zig-zag, most of a mixed `i128` decode.
#[cfg(not(miri))]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vbmi2")]
fn get_lengths128_avx512<T: Lane>(
    codes: &[u8],
    payloads: &[u8],
    out: &mut [MaybeUninit<T>],
) -> (usize, usize, bool) {
    use core::arch::x86_64::{
        _mm512_bsrli_epi128, _mm512_movm_epi64, _mm512_set1_epi64, _mm512_shrdi_epi64,
        _mm512_test_epi64_mask, _mm512_xor_si512,
    };
    let masks = |c: u8| {
        let c = usize::from(c);
        let t = &T128;
        (u64::from(t.expand[c]), u64::from(t.top_bits[c]), t.total[c])
    };
    let unzigzag = |v| {
        if !T::ZIGZAG {
            return v;
        }
        // Each 128-bit lane shifted right by one (its high half's low bit
        // into the low half's top), then flipped where its low bit was
        // set (both halves).
        let shifted = _mm512_shrdi_epi64::<1>(v, _mm512_bsrli_epi128::<8>(v));
        let odd = _mm512_test_epi64_mask(v, _mm512_set1_epi64(1)) & 0x55;
        _mm512_xor_si512(shifted, _mm512_movm_epi64(odd | odd << 1))
    };
    expand_groups(codes, payloads, out, 2, masks, unzigzag)
}

#[target_feature(enable = "ssse3")]
fn get_lengths_ssse3<T: Lane>(
    t: &Tables,
    codes: &[u8],
    payloads: &[u8],
    out: &mut [MaybeUninit<T>],
) -> (usize, usize, bool) {
    let lanes = 16 / core::mem::size_of::<T>();
    let zero = _mm_setzero_si128();
    let mut bad = zero;
    let mut pos = 0usize;
    let mut done = 0usize;
    for (&c, slots) in codes.iter().zip(out.chunks_exact_mut(lanes)) {
        if payloads.len() < pos + 16 {
            break;
        }
        let c = usize::from(c);
        #[allow(unsafe_code)]
        // SAFETY: `pos + 16 <= payloads.len()` was just checked; the load
        // is unaligned.
        let data = unsafe { _mm_loadu_si128(payloads.as_ptr().add(pos).cast()) };
        let v = _mm_shuffle_epi8(data, load(&t.gather[c]));
        bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(v, zero), load(&t.top[c])));
        // `varint::unzigzag_i32`/`_i64` in each lane (the kernel tests
        // compare with the portable loop, which calls them).
        let v = if !T::ZIGZAG {
            v
        } else if lanes == 4 {
            let sign = _mm_sub_epi32(zero, _mm_and_si128(v, _mm_set1_epi32(1)));
            _mm_xor_si128(_mm_srli_epi32::<1>(v), sign)
        } else {
            let sign = _mm_sub_epi64(zero, _mm_and_si128(v, _mm_set1_epi64x(1)));
            _mm_xor_si128(_mm_srli_epi64::<1>(v), sign)
        };
        #[allow(unsafe_code)]
        // SAFETY: `slots` is `lanes` values of `16 / lanes` bytes, 16
        // writable bytes; `T` is a primitive integer (`T::WHOLE`), valid
        // for every bit pattern. The store is unaligned.
        unsafe {
            _mm_storeu_si128(slots.as_mut_ptr().cast(), v)
        };
        pos += usize::from(t.total[c]);
        done += lanes;
    }
    (done, pos, _mm_movemask_epi8(bad) != 0)
}

/// Writes the lengths form of whole groups of `block` while room for
/// their stores remains: on AVX-512 VBMI2, a vector of 32-bit or 64-bit
/// values at a time ([`put_lengths_avx512`]); then, for 32-bit keys with
/// 2-bit codes, four values a step by SSSE3 (each group's code into
/// `codes`, its payloads packed by one shuffle). The values done and the
/// payload bytes written; `(0, 0)` when the CPU or `T` has no kernel (the
/// portable loop writes the rest).
#[inline]
pub(super) fn put_lengths<T: Lane>(
    block: &[T],
    code_bits: u32,
    codes: &mut [u8],
    payloads: &mut [u8],
) -> (usize, usize) {
    #[cfg_attr(miri, allow(unused_mut))]
    let (mut done, mut pos) = (0, 0);
    #[cfg(not(miri))]
    if level() >= 5 && compress_kernel::<T>(code_bits) {
        #[allow(unsafe_code)]
        // SAFETY: `put_lengths_avx512` only needs AVX-512 F, BW, CD and
        // VBMI2, BMI2 and POPCNT, which level 5 says the CPU has.
        let put = unsafe { put_lengths_avx512(block, code_bits, codes, payloads) };
        (done, pos) = put;
    }
    let kernel = tables_for::<T>(code_bits).is_some() && core::mem::size_of::<T>() == 4;
    if kernel && detected!("ssse3") {
        let per_byte = 4;
        let (Some(block), Some(codes), Some(payloads)) = (
            block.get(done..),
            codes.get_mut(done / per_byte..),
            payloads.get_mut(pos..),
        ) else {
            return (done, pos);
        };
        #[allow(unsafe_code)]
        // SAFETY: `put_lengths32_ssse3` only needs SSSE3, which the CPU was
        // just found to support.
        let (more, used) = unsafe { put_lengths32_ssse3(block, codes, payloads) };
        return (done + more, pos + used);
    }
    (done, pos)
}

/// Whether [`put_lengths_avx512`] writes `T`'s blocks of `code_bits`-bit
/// codes: whole-width integer lanes of 4 bytes with 2-bit codes, or of 8
/// bytes with 2 or 4-bit codes.
#[cfg(not(miri))]
#[inline(always)]
fn compress_kernel<T: Lane>(code_bits: u32) -> bool {
    T::WHOLE
        && core::mem::size_of::<T>() == core::mem::size_of::<T::Key>()
        && matches!(
            (core::mem::size_of::<T>(), code_bits),
            (4, 2) | (8, 2) | (8, 4)
        )
}

/// The lengths form of whole groups of one 64-byte vector (sixteen 32-bit
/// or eight 64-bit values): each lane's byte length from its leading
/// zeros, one compare making the mask of every lane's payload bytes, one
/// compress packing them (stored whole: 64 bytes of room), and the lanes'
/// codes gathered by one truncation and a bit extract. The values done
/// and the payload bytes written. The SSSE3 kernel takes four 32-bit
/// values a step, and 64-bit ones are a scalar loop.
#[cfg(not(miri))]
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi2,bmi2,popcnt")]
fn put_lengths_avx512<T: Lane>(
    block: &[T],
    code_bits: u32,
    codes: &mut [u8],
    payloads: &mut [u8],
) -> (usize, usize) {
    use core::arch::x86_64::{
        _mm512_broadcast_i32x4, _mm512_cmplt_epu8_mask, _mm512_cvtepi32_epi8, _mm512_cvtepi64_epi8,
        _mm512_loadu_si512, _mm512_lzcnt_epi32, _mm512_lzcnt_epi64, _mm512_maskz_compress_epi8,
        _mm512_max_epu32, _mm512_max_epu64, _mm512_set1_epi32, _mm512_set1_epi64,
        _mm512_shuffle_epi8, _mm512_slli_epi32, _mm512_slli_epi64, _mm512_srai_epi32,
        _mm512_srai_epi64, _mm512_srli_epi32, _mm512_srli_epi64, _mm512_storeu_si512,
        _mm512_sub_epi32, _mm512_sub_epi64, _mm512_xor_si512, _mm_setr_epi8, _pext_u64,
    };
    let lane = core::mem::size_of::<T>();
    let lanes = 64 / lane;
    // Code bytes a vector of lanes takes: 4 (sixteen 2-bit or eight 4-bit
    // codes) or 2 (eight 2-bit codes).
    let code_bytes = lanes * code_bits as usize / 8;
    // Each byte's index in its lane.
    let byte_index = if lane == 4 {
        _mm512_set1_epi32(0x0302_0100)
    } else {
        _mm512_set1_epi64(0x0706_0504_0302_0100)
    };
    // `vpshufb` indices (within each 128 bits) of every lane's lowest
    // byte, for each byte of the lane.
    let spread = if lane == 4 {
        _mm512_broadcast_i32x4(_mm_setr_epi8(
            0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12,
        ))
    } else {
        _mm512_broadcast_i32x4(_mm_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8,
        ))
    };
    let one = _mm512_set1_epi32(1);
    let mut pos = 0usize;
    let mut done = 0usize;
    for (group, code) in block
        .chunks_exact(lanes)
        .zip(codes.chunks_exact_mut(code_bytes))
    {
        #[allow(unsafe_code)]
        // SAFETY: `group` is `lanes` values of `lane` bytes, 64 readable
        // bytes; the load is unaligned.
        let v = unsafe { _mm512_loadu_si512(group.as_ptr().cast()) };
        // `varint::zigzag_i32`/`_i64` in each lane, then each lane's
        // payload bytes (at least one): its significant bits rounded up.
        let len = if lane == 4 {
            let z = if T::ZIGZAG {
                _mm512_xor_si512(_mm512_slli_epi32::<1>(v), _mm512_srai_epi32::<31>(v))
            } else {
                v
            };
            let len = _mm512_srli_epi32::<3>(_mm512_sub_epi32(
                _mm512_set1_epi32(39),
                _mm512_lzcnt_epi32(z),
            ));
            (z, _mm512_max_epu32(len, one))
        } else {
            let z = if T::ZIGZAG {
                _mm512_xor_si512(_mm512_slli_epi64::<1>(v), _mm512_srai_epi64::<63>(v))
            } else {
                v
            };
            let len = _mm512_srli_epi64::<3>(_mm512_sub_epi64(
                _mm512_set1_epi64(71),
                _mm512_lzcnt_epi64(z),
            ));
            (z, _mm512_max_epu64(len, _mm512_set1_epi64(1)))
        };
        let (z, len) = len;
        let keep = _mm512_cmplt_epu8_mask(byte_index, _mm512_shuffle_epi8(len, spread));
        // Packed in a register and stored whole (a compress-store to
        // memory is many times slower): 64 bytes of room, of which the
        // next group overwrites what this one does not use.
        let Some(dst) = payloads.get_mut(pos..pos + 64) else {
            break;
        };
        #[allow(unsafe_code)]
        // SAFETY: `dst` is 64 writable bytes; the store is unaligned.
        unsafe {
            _mm512_storeu_si512(dst.as_mut_ptr().cast(), _mm512_maskz_compress_epi8(keep, z))
        };
        let n = keep.count_ones() as usize;
        // Each lane's code (its length less one) as a byte, then the
        // codes of a code byte gathered into it.
        let less = if lane == 4 {
            let c = _mm512_cvtepi32_epi8(_mm512_sub_epi32(len, one));
            let mut both = [0u8; 16];
            #[allow(unsafe_code)]
            // SAFETY: `both` is 16 writable bytes; the store is unaligned.
            unsafe {
                _mm_storeu_si128(both.as_mut_ptr().cast(), c)
            };
            both
        } else {
            let c = _mm512_cvtepi64_epi8(_mm512_sub_epi64(len, _mm512_set1_epi64(1)));
            let mut both = [0u8; 16];
            #[allow(unsafe_code)]
            // SAFETY: `both` is 16 writable bytes; the store is unaligned.
            unsafe {
                _mm_storeu_si128(both.as_mut_ptr().cast(), c)
            };
            both
        };
        let word = |k: usize| {
            let mut b = [0u8; 8];
            if let Some(src) = less.get(8 * k..8 * k + 8) {
                b.copy_from_slice(src);
            }
            u64::from_le_bytes(b)
        };
        if code_bits == 2 {
            // Four 2-bit codes a byte: bytes 0 and 4 of each word.
            for (k, pair) in code.chunks_exact_mut(2).enumerate() {
                let x = word(k);
                let y = x | x >> 6 | x >> 12 | x >> 18;
                let c = _pext_u64(y, 0x0000_00FF_0000_00FF) as u16;
                pair.copy_from_slice(&c.to_le_bytes());
            }
        } else {
            // Two 4-bit codes a byte: the even bytes.
            let x = word(0);
            let c = _pext_u64(x | x >> 4, 0x00FF_00FF_00FF_00FF) as u32;
            // Eight 64-bit lanes: four code bytes. A copy of a constant
            // length (`code`'s is the loop's variable: a `memcpy` call a
            // group, 7% of a mixed `u64` encode).
            debug_assert_eq!(code.len(), 4, "eight 4-bit codes");
            if let Some(dst) = code.first_chunk_mut::<4>() {
                *dst = c.to_le_bytes();
            }
        }
        pos += n;
        done += lanes;
    }
    (done, pos)
}

#[target_feature(enable = "ssse3")]
fn put_lengths32_ssse3<T: Lane>(
    block: &[T],
    codes: &mut [u8],
    payloads: &mut [u8],
) -> (usize, usize) {
    let zero = _mm_setzero_si128();
    let mut pos = 0usize;
    let mut done = 0usize;
    for (code, group) in codes.iter_mut().zip(block.chunks_exact(4)) {
        if payloads.len() < pos + 16 {
            break;
        }
        #[allow(unsafe_code)]
        // SAFETY: `group` is four values of 4 bytes (`tables_for` checked
        // the size), 16 readable bytes; the load is unaligned.
        let v = unsafe { _mm_loadu_si128(group.as_ptr().cast()) };
        // `varint::zigzag_i32` in each lane.
        let z = if T::ZIGZAG {
            _mm_xor_si128(_mm_slli_epi32::<1>(v), _mm_srai_epi32::<31>(v))
        } else {
            v
        };
        // Each lane's length less one is the index of its highest byte
        // that is not zero: from the mask of those bytes, two lanes a
        // table lookup (shifts and compares a lane cost twice the
        // instructions).
        let nonzero = !(_mm_movemask_epi8(_mm_cmpeq_epi8(z, zero)) as u32);
        let c = usize::from(CODES_OF_NONZERO[(nonzero & 0xFF) as usize])
            | usize::from(CODES_OF_NONZERO[((nonzero >> 8) & 0xFF) as usize]) << 4;
        *code = c as u8;
        let packed = _mm_shuffle_epi8(z, load(&T32.scatter[c]));
        #[allow(unsafe_code)]
        // SAFETY: `pos + 16 <= payloads.len()` was just checked; the store
        // is unaligned.
        unsafe {
            _mm_storeu_si128(payloads.as_mut_ptr().add(pos).cast(), packed)
        };
        pos += usize::from(T32.total[c]);
        done += 4;
    }
    (done, pos)
}

/// Whether the bit-packing kernels serve `T` at `bits` bits on this CPU:
/// whole 4 or 8-byte integers, offsets of at most 16 bits, AVX2.
#[inline(always)]
fn has_bit_kernel<T: Lane>(bits: u32) -> bool {
    let size = core::mem::size_of::<T>();
    let whole = T::WHOLE && size == core::mem::size_of::<T::Key>();
    whole && (size == 4 || size == 8) && bits <= 16 && detected!("avx2")
}

/// What a key flips of its value: a signed type's sign bit (`Lane::key`).
#[inline(always)]
fn sign_flip<T: Lane>() -> u64 {
    match (T::ZIGZAG, core::mem::size_of::<T>() == 8) {
        (false, _) => 0,
        (true, true) => 1 << 63,
        (true, false) => 1 << 31,
    }
}

/// The shifts of four offsets of `b` bits within a half group.
#[target_feature(enable = "avx2")]
fn group_shifts(b: usize) -> __m256i {
    _mm256_set_epi64x(3 * b as i64, 2 * b as i64, b as i64, 0)
}

/// Bit-packed offsets of at most 16 bits (`super::put_bits_grouped`'s
/// layout) with AVX2: a group's eight offsets are taken from their keys,
/// widened to 64-bit lanes and shifted into place four at a time, then
/// or-ed together. `None` when the CPU or `T` has no kernel (whole 4 or
/// 8-byte integers).
#[inline]
pub(super) fn put_bits_grouped<T: Lane>(
    block: &[T],
    lo: T::Key,
    bits: u32,
    out: &mut [u8],
) -> Option<usize> {
    use super::lane::Key;
    if !has_bit_kernel::<T>(bits) {
        return None;
    }
    #[allow(unsafe_code)]
    // SAFETY: `put_bits_grouped_avx2` only needs AVX2, which the CPU was
    // just found to support.
    Some(unsafe { put_bits_grouped_avx2(block, lo.low64(), bits, out) })
}

#[target_feature(enable = "avx2")]
fn put_bits_grouped_avx2<T: Lane>(block: &[T], lo: u64, bits: u32, out: &mut [u8]) -> usize {
    let b = bits as usize;
    let wide = core::mem::size_of::<T>() == 8;
    let (flip, shifts) = (sign_flip::<T>(), group_shifts(b));
    let bi = b as i32;
    let pair_shifts = _mm256_setr_epi32(0, bi, 0, bi, 0, bi, 0, bi);
    let quad_shifts = _mm256_set_epi64x(2 * b as i64, 0, 2 * b as i64, 0);
    // Or of the four lanes: one joined word.
    let join = |v: __m256i| {
        let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))) as u64
    };
    let mut done = 0;
    for (g, group) in block.chunks_exact(8).enumerate() {
        let Some(dst) = out.get_mut(g * b..g * b + 16) else {
            break;
        };
        let (low, high) = if wide {
            let (flip, lo) = (
                _mm256_set1_epi64x(flip as i64),
                _mm256_set1_epi64x(lo as i64),
            );
            #[allow(unsafe_code)]
            // SAFETY: `group` is eight values of 8 bytes, 64 readable
            // bytes; the loads are unaligned.
            let (a, c) = unsafe {
                let p = group.as_ptr().cast::<__m256i>();
                (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)))
            };
            let (a, c) = (
                _mm256_sub_epi64(_mm256_xor_si256(a, flip), lo),
                _mm256_sub_epi64(_mm256_xor_si256(c, flip), lo),
            );
            (
                join(_mm256_sllv_epi64(a, shifts)),
                join(_mm256_sllv_epi64(c, shifts)),
            )
        } else {
            let (flip, lo) = (_mm256_set1_epi32(flip as i32), _mm256_set1_epi32(lo as i32));
            #[allow(unsafe_code)]
            // SAFETY: `group` is eight values of 4 bytes, 32 readable
            // bytes; the load is unaligned.
            let v = unsafe { _mm256_loadu_si256(group.as_ptr().cast()) };
            let off = _mm256_sub_epi32(_mm256_xor_si256(v, flip), lo);
            // Pairs in 32 bits (2b <= 32), then pairs of pairs in each
            // half's low 64 bits (4b <= 64), all within 128-bit halves:
            // no widening to 64-bit lanes, no cross-half permute.
            let y = _mm256_sllv_epi32(off, pair_shifts);
            let pairs = _mm256_and_si256(
                _mm256_or_si256(y, _mm256_srli_epi64::<32>(y)),
                _mm256_set1_epi64x(0xFFFF_FFFF),
            );
            let q = _mm256_sllv_epi64(pairs, quad_shifts);
            let quads = _mm256_or_si256(q, _mm256_bsrli_epi128::<8>(q));
            (
                _mm_cvtsi128_si64(_mm256_castsi256_si128(quads)) as u64,
                _mm_cvtsi128_si64(_mm256_extracti128_si256::<1>(quads)) as u64,
            )
        };
        // The high four at bit 4b of the 16 bytes, as two words by 64-bit
        // shifts (a 128-bit shift by a variable took a quarter of the
        // kernel); 1 <= 4b <= 64, so neither shift reaches 64.
        let first = low | ((high << (4 * b - 1)) << 1);
        let second = high >> (64 - 4 * b);
        dst[..8].copy_from_slice(&first.to_le_bytes());
        dst[8..].copy_from_slice(&second.to_le_bytes());
        done += 8;
    }
    done
}

/// Bit-packed offsets of at most 16 bits, decoded eight at a time with
/// AVX2 (the layout of `super::put_bits_grouped`): a group's `bits` bytes
/// are loaded as one 16-byte word while 16 bytes remain, each half
/// shifted apart in four 64-bit lanes, masked and added to the base; a
/// sum past the key's width is a value out of range. The values done and
/// whether any was out of range; `None` when the CPU or `T` has no kernel.
#[inline]
pub(super) fn get_bits_grouped<T: Lane>(
    bytes: &[u8],
    bits: u32,
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> Option<(usize, bool)> {
    use super::lane::Key;
    if !has_bit_kernel::<T>(bits) {
        return None;
    }
    let check = super::lane::bits_may_overflow::<T>(base, bits);
    #[allow(unsafe_code)]
    // SAFETY: the kernels only need AVX2, which the CPU was just found to
    // support.
    Some(unsafe {
        if core::mem::size_of::<T>() == 4 {
            let base = base.low64() as u32;
            if check {
                get_bits32_avx2::<T, true>(bytes, bits, base, out)
            } else {
                get_bits32_avx2::<T, false>(bytes, bits, base, out)
            }
        } else if check {
            get_bits_grouped_avx2::<T, true>(bytes, bits, base.low64(), out)
        } else {
            get_bits_grouped_avx2::<T, false>(bytes, bits, base.low64(), out)
        }
    })
}

/// [`get_bits_avx512`] where it applies (`T` and `bits`, a CPU of level
/// 5): the values done and whether any was out of range, else `None`.
/// Wider offsets than the AVX2 kernels take.
#[cfg(not(miri))]
#[inline]
pub(super) fn get_bits_wide<T: Lane>(
    bytes: &[u8],
    bits: u32,
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> Option<(usize, bool)> {
    use super::lane::Key;
    if !permute_bits_kernel::<T>(bits) || level() < 5 {
        return None;
    }
    let check = super::lane::bits_may_overflow::<T>(base, bits);
    #[allow(unsafe_code)]
    // SAFETY: `get_bits_avx512` only needs AVX-512 F, BW, DQ and VBMI,
    // which level 5 says the CPU has.
    Some(unsafe {
        match check {
            true => get_bits_avx512::<T, true>(bytes, bits, base.low64(), out),
            false => get_bits_avx512::<T, false>(bytes, bits, base.low64(), out),
        }
    })
}

/// Whether [`get_bits_avx512`] reads `T`'s blocks of `bits`-bit offsets:
/// whole integers of 8 bytes with offsets of up to 56 bits (each within 8
/// bytes of its first), or of 4 bytes with up to 25 (within 4). It once
/// lost to the AVX2 kernels on 16 bits and narrower (100,000 small `i32`
/// 22 -> 28 µs): its index vectors were built in scalar loops at every
/// block, and a block's last windows, short of 64 bytes, took the
/// portable loop. Built in vectors, and those windows loaded under a
/// mask, it takes small `i32` 22.5 -> 15.3 µs, `u64` 31.5 -> 28.7 µs and
/// sorted ids 27 -> 24.5 µs.
#[cfg(not(miri))]
#[inline(always)]
fn permute_bits_kernel<T: Lane>(bits: u32) -> bool {
    let size = core::mem::size_of::<T>();
    let whole = T::WHOLE && size == core::mem::size_of::<T::Key>();
    whole && bits > 0 && ((size == 8 && bits <= 56) || (size == 4 && bits <= 25))
}

/// Bit-packed offsets one 64-byte vector of values at a time (eight 8-byte
/// or sixteen 4-byte), from a 64-byte window at the group's first byte:
/// one byte permute puts each value's bytes in its lane (from the byte
/// its offset starts in), then a shift by its own bit, a mask and the
/// base; a key below the base wrapped (out of range). The values done
/// (a multiple of 8: the rest starts on a whole byte) and whether any
/// was out of range.
#[cfg(not(miri))]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vbmi")]
fn get_bits_avx512<T: Lane, const CHECK: bool>(
    bytes: &[u8],
    bits: u32,
    base: u64,
    out: &mut [MaybeUninit<T>],
) -> (usize, bool) {
    use core::arch::x86_64::{
        _mm512_add_epi32, _mm512_add_epi64, _mm512_and_si512, _mm512_cmplt_epu32_mask,
        _mm512_cmplt_epu64_mask, _mm512_loadu_si512, _mm512_maskz_loadu_epi8, _mm512_mullo_epi32,
        _mm512_mullo_epi64, _mm512_permutexvar_epi8, _mm512_set1_epi32, _mm512_set1_epi64,
        _mm512_set_epi32, _mm512_set_epi64, _mm512_srli_epi32, _mm512_srli_epi64,
        _mm512_srlv_epi32, _mm512_srlv_epi64, _mm512_storeu_si512, _mm512_xor_si512,
    };
    let lane = core::mem::size_of::<T>();
    // A constant test, which keeps the stores below sound for any caller.
    if lane != 4 && lane != 8 {
        return (0, false);
    }
    let lanes = 64 / lane;
    let b = bits as usize;
    // Lane `i`'s bytes from the byte its offset starts in (`i * b / 8`,
    // spread to each of its bytes and counted up), and the bit within
    // that byte (`i * b % 8`). In vectors: built in scalar loops, they
    // cost a short block more than its values.
    let (index, shift) = if lane == 8 {
        let bit = _mm512_mullo_epi64(
            _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0),
            _mm512_set1_epi64(b as i64),
        );
        let start = _mm512_srli_epi64::<3>(bit);
        let index = _mm512_add_epi64(
            _mm512_mullo_epi64(start, _mm512_set1_epi64(0x0101_0101_0101_0101)),
            _mm512_set1_epi64(0x0706_0504_0302_0100),
        );
        let shift = _mm512_and_si512(bit, _mm512_set1_epi64(7));
        (index, shift)
    } else {
        let bit = _mm512_mullo_epi32(
            _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
            _mm512_set1_epi32(b as i32),
        );
        let start = _mm512_srli_epi32::<3>(bit);
        let index = _mm512_add_epi32(
            _mm512_mullo_epi32(start, _mm512_set1_epi32(0x0101_0101)),
            _mm512_set1_epi32(0x0302_0100),
        );
        let shift = _mm512_and_si512(bit, _mm512_set1_epi32(7));
        (index, shift)
    };
    let flip = sign_flip::<T>();
    let mut bad = 0u16;
    let mut done = 0;
    for (g, slots) in out.chunks_exact_mut(lanes).enumerate() {
        // The group's values take `lanes * b / 8` bytes (a whole number:
        // `lanes` is a multiple of 8); the window reads 64.
        let at = g * lanes * b / 8;
        let Some(src) = bytes.get(at..) else {
            break;
        };
        // The last windows of a block reach past its bytes: loaded under
        // a mask of what is there (a masked-off byte is not read, and
        // reads as zero). A group's own bytes are always there.
        #[allow(unsafe_code)]
        let data = if src.len() >= 64 {
            // SAFETY: `src` has 64 readable bytes; the load is unaligned.
            unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
        } else {
            // SAFETY: the mask selects only the first `src.len()` bytes
            // (fewer than 64), all readable; the load is unaligned.
            unsafe { _mm512_maskz_loadu_epi8((1u64 << src.len()) - 1, src.as_ptr().cast()) }
        };
        let gathered = _mm512_permutexvar_epi8(index, data);
        let v = if lane == 8 {
            let mask = _mm512_set1_epi64(((1u64 << b) - 1) as i64);
            let base_v = _mm512_set1_epi64(base as i64);
            let off = _mm512_and_si512(_mm512_srlv_epi64(gathered, shift), mask);
            let keys = _mm512_add_epi64(base_v, off);
            if CHECK {
                bad |= u16::from(_mm512_cmplt_epu64_mask(keys, base_v));
            }
            _mm512_xor_si512(keys, _mm512_set1_epi64(flip as i64))
        } else {
            let mask = _mm512_set1_epi32(((1u32 << b) - 1) as i32);
            let base_v = _mm512_set1_epi32(base as u32 as i32);
            let off = _mm512_and_si512(_mm512_srlv_epi32(gathered, shift), mask);
            let keys = _mm512_add_epi32(base_v, off);
            if CHECK {
                bad |= _mm512_cmplt_epu32_mask(keys, base_v);
            }
            _mm512_xor_si512(keys, _mm512_set1_epi32(flip as u32 as i32))
        };
        #[allow(unsafe_code)]
        // SAFETY: `slots` is `lanes` values of `lane` bytes, 64 writable
        // bytes; `T` is a primitive integer (`T::WHOLE`), valid for every
        // bit pattern. The store is unaligned.
        unsafe {
            _mm512_storeu_si512(slots.as_mut_ptr().cast(), v)
        };
        done += lanes;
    }
    (done, bad != 0)
}

/// [`get_bits_grouped`] for 4-byte keys in 32-bit lanes: each group's
/// eight offsets (of at most 16 bits, `b` bytes a group) are gathered by
/// one byte shuffle, each lane's four bytes from the byte its offset
/// starts in (the low half from the group's first byte, the high half
/// from its byte `b / 2`), then shifted by their own bit, masked and added
/// to the base. Half the lanes of the 64-bit kernel, and no cross-lane
/// permute to narrow them (Zen 1 splits that into eight operations).
#[target_feature(enable = "avx2")]
fn get_bits32_avx2<T: Lane, const CHECK: bool>(
    bytes: &[u8],
    bits: u32,
    base: u32,
    out: &mut [MaybeUninit<T>],
) -> (usize, bool) {
    let b = bits as usize;
    let high = b / 2;
    // Lane j's first byte within its half (the shuffle's source) and the
    // bit its offset starts at within that byte.
    let mut gather = [0x80u8; 32];
    let mut shifts = [0i32; 8];
    for j in 0..8 {
        let (half, from) = if j < 4 { (0, 0) } else { (16, 8 * high) };
        let bit = j * b - from;
        for k in 0..4 {
            if let Some(slot) = gather.get_mut(half + 4 * (j % 4) + k) {
                *slot = (bit / 8 + k) as u8;
            }
        }
        if let Some(shift) = shifts.get_mut(j) {
            *shift = (bit % 8) as i32;
        }
    }
    #[allow(unsafe_code)]
    // SAFETY: both arrays are 32 readable bytes; the loads are unaligned.
    let (gather, shifts) = unsafe {
        (
            _mm256_loadu_si256(gather.as_ptr().cast()),
            _mm256_loadu_si256(shifts.as_ptr().cast()),
        )
    };
    let mask = _mm256_set1_epi32(((1u32 << b) - 1) as i32);
    let base_v = _mm256_set1_epi32(base as i32);
    let flip = _mm256_set1_epi32(sign_flip::<T>() as u32 as i32);
    let mut bad = _mm256_setzero_si256();
    let mut done = 0;
    for (g, slots) in out.chunks_exact_mut(8).enumerate() {
        let Some(src) = bytes.get(g * b..g * b + high + 16) else {
            break;
        };
        #[allow(unsafe_code)]
        // SAFETY: `src` holds `high + 16` bytes, so both 16-byte loads (at
        // 0 and at `high`) are inside it; they are unaligned.
        let data = unsafe {
            let low = _mm_loadu_si128(src.as_ptr().cast());
            let top = _mm_loadu_si128(src.as_ptr().add(high).cast());
            _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(low), top)
        };
        let offsets = _mm256_and_si256(
            _mm256_srlv_epi32(_mm256_shuffle_epi8(data, gather), shifts),
            mask,
        );
        let keys = _mm256_add_epi32(base_v, offsets);
        if CHECK {
            // A sum that wrapped is below the base.
            let kept = _mm256_cmpeq_epi32(_mm256_max_epu32(keys, base_v), keys);
            bad = _mm256_or_si256(bad, _mm256_xor_si256(kept, _mm256_set1_epi32(-1)));
        }
        #[allow(unsafe_code)]
        // SAFETY: `slots` is eight values of 4 bytes, 32 writable bytes;
        // `T` is a primitive integer (`T::WHOLE`), valid for every bit
        // pattern. The store is unaligned.
        unsafe {
            _mm256_storeu_si256(slots.as_mut_ptr().cast(), _mm256_xor_si256(keys, flip))
        };
        done += 8;
    }
    (done, _mm256_movemask_epi8(bad) != 0)
}

#[target_feature(enable = "avx2")]
fn get_bits_grouped_avx2<T: Lane, const CHECK: bool>(
    bytes: &[u8],
    bits: u32,
    base: u64,
    out: &mut [MaybeUninit<T>],
) -> (usize, bool) {
    // 8-byte keys only (4-byte keys take `get_bits32_avx2`): a constant
    // test, which keeps the stores below sound for any caller.
    if core::mem::size_of::<T>() != 8 {
        return (0, false);
    }
    let b = bits as usize;
    let (flip, shifts) = (sign_flip::<T>(), group_shifts(b));
    let mask = _mm256_set1_epi64x(((1u64 << b) - 1) as i64);
    let base_v = _mm256_set1_epi64x(base as i64);
    let flip_v = _mm256_set1_epi64x(flip as i64);
    let top = _mm256_set1_epi64x(i64::MIN);
    let zero = _mm256_setzero_si256();
    // Four keys of one half: base plus each offset.
    let keys = |half: u64| {
        let lanes = _mm256_and_si256(
            _mm256_srlv_epi64(_mm256_set1_epi64x(half as i64), shifts),
            mask,
        );
        _mm256_add_epi64(base_v, lanes)
    };
    // Out of range: a key that wrapped (below the base, compared as
    // signed after a flip).
    let over =
        |k: __m256i| _mm256_cmpgt_epi64(_mm256_xor_si256(base_v, top), _mm256_xor_si256(k, top));
    let mut bad = zero;
    let mut done = 0;
    for (g, slots) in out.chunks_exact_mut(8).enumerate() {
        let Some(src) = bytes.get(g * b..g * b + 16) else {
            break;
        };
        let mut raw = [0u8; 16];
        raw.copy_from_slice(src);
        let word = u128::from_le_bytes(raw);
        let group_mask = u128::MAX >> (128 - 8 * b);
        let word = word & group_mask;
        let (k0, k1) = (keys(word as u64), keys((word >> (4 * b)) as u64));
        if CHECK {
            bad = _mm256_or_si256(bad, _mm256_or_si256(over(k0), over(k1)));
        }
        let (v0, v1) = (_mm256_xor_si256(k0, flip_v), _mm256_xor_si256(k1, flip_v));
        #[allow(unsafe_code)]
        // SAFETY: `slots` is eight values of 8 bytes (checked above), 64
        // writable bytes; `T` is a primitive integer (`T::WHOLE`), valid for every
        // bit pattern. The stores are unaligned.
        unsafe {
            let p = slots.as_mut_ptr().cast::<__m256i>();
            _mm256_storeu_si256(p, v0);
            _mm256_storeu_si256(p.add(1), v1);
        }
        done += 8;
    }
    (done, _mm256_movemask_epi8(bad) != 0)
}

#[cfg(test)]
mod tests {
    //! The kernels against the portable loops, which Miri checks: the
    //! same bytes from the encoder, the same values and verdicts from the
    //! decoder, on blocks of every mix of lengths and on damaged ones.
    use alloc::vec;
    use alloc::vec::Vec;

    use super::super::decode::{get_lengths_checked, slots};
    use super::super::lane::{Key, Lane};
    use super::super::layout::codes_len;

    /// Values of random byte lengths: each a random word cut to a random
    /// number of bytes, so every code appears in every lane.
    fn mixed(n: usize, seed: u64) -> Vec<u64> {
        let mut next = super::super::tests::xorshift(seed);
        (0..n).map(|_| next() >> (8 * (next() % 8))).collect()
    }

    /// The lengths form written value by value: codes, then payloads.
    fn reference<T: Lane>(block: &[T], code_bits: u32) -> (Vec<u8>, Vec<u8>) {
        let mut codes = vec![0u8; codes_len(block.len(), code_bits)];
        let mut payloads = Vec::new();
        for (i, x) in block.iter().enumerate() {
            let z = x.payload().to_u128();
            let len = z
                .to_le_bytes()
                .iter()
                .rposition(|&b| b != 0)
                .map_or(1, |i| i + 1);
            let bit = i * code_bits as usize;
            codes[bit / 8] |= ((len - 1) as u8) << (bit % 8);
            payloads.extend_from_slice(&z.to_le_bytes()[..len]);
        }
        (codes, payloads)
    }

    fn round_trip<T: Lane + PartialEq + core::fmt::Debug>(block: &[T], code_bits: u32) {
        let (codes, payloads) = reference(block, code_bits);
        // Encoder: the kernel's part, then the portable loop's, equal the
        // reference.
        let mut out_codes = vec![0u8; codes.len()];
        let mut out_payloads = vec![0u8; payloads.len() + 16];
        let (done, pos) = super::put_lengths(block, code_bits, &mut out_codes, &mut out_payloads);
        let per_byte = 8 / code_bits as usize;
        assert_eq!(done % per_byte, 0);
        assert_eq!(pos, reference(&block[..done], code_bits).1.len());
        assert_eq!(&out_codes[..done / per_byte], &codes[..done / per_byte]);
        assert_eq!(&out_payloads[..pos], &payloads[..pos]);
        // Decoder: the kernel's values, then the checked loop's.
        let mut back = vec![T::default(); block.len()];
        let (done, pos, bad) = super::get_lengths(&codes, code_bits, &payloads, slots(&mut back));
        assert!(!bad);
        assert!(!get_lengths_checked(
            &codes[done / per_byte..],
            code_bits,
            &payloads[pos..],
            slots(&mut back[done..])
        ));
        assert_eq!(back, block);
    }

    #[test]
    fn kernels_match_the_portable_loops() {
        let has_ssse3 = detected!("ssse3");
        for (n, seed) in [(256, 1), (255, 2), (64, 3), (17, 4), (8, 5), (256, 6)] {
            let raw = mixed(n, seed);
            let u32s: Vec<u32> = raw.iter().map(|&v| v as u32 >> (v % 32)).collect();
            round_trip(&u32s, 2);
            round_trip(&u32s.iter().map(|&v| v as i32).collect::<Vec<_>>(), 2);
            round_trip(&raw, 4);
            round_trip(&raw.iter().map(|&v| v as i64).collect::<Vec<_>>(), 4);
            round_trip(&raw.iter().map(|&v| v as usize).collect::<Vec<_>>(), 4);
            round_trip(&raw.iter().map(|&v| v as isize).collect::<Vec<_>>(), 4);
        }
        // The kernels ran (on a CPU with SSSE3): a full block is mostly
        // theirs.
        let block: Vec<i32> = mixed(256, 9).iter().map(|&v| v as i32).collect();
        let (codes, payloads) = reference(&block, 2);
        let mut back = vec![0i32; 256];
        let (done, _, _) = super::get_lengths(&codes, 2, &payloads, slots(&mut back));
        let mut out_codes = vec![0u8; codes.len()];
        let mut out_payloads = vec![0u8; payloads.len() + 16];
        let (put, _) = super::put_lengths(&block, 2, &mut out_codes, &mut out_payloads);
        if has_ssse3 {
            assert!(done >= 200 && put >= 200, "{done} {put}");
        }
        // Other shapes have no kernel.
        assert_eq!(
            super::get_lengths(&codes, 4, &payloads, slots(&mut back)).0,
            0
        );
        assert_eq!(
            super::get_lengths(&codes, 2, &payloads, slots(&mut [0u16; 256])).0,
            0
        );
    }

    #[test]
    fn bit_kernel_matches_the_portable_writer() {
        fn check<T: Lane + core::fmt::Debug>(block: &[T]) {
            let lo = block.iter().map(|x| x.key()).min().unwrap();
            let hi = block.iter().map(|x| x.key()).max().unwrap();
            let bits = (128 - hi.wrapping_sub(lo).to_u128().leading_zeros()).max(1);
            let len = super::super::layout::bits_len(block.len(), bits) + 16;
            let (mut kernel, mut portable) = (vec![0u8; len], vec![0u8; len]);
            let done = super::put_bits_grouped(block, lo, bits, &mut kernel);
            let expected = super::super::encode::put_bits_grouped(block, lo, bits, &mut portable);
            if let Some(done) = done {
                assert_eq!(done, expected);
                assert_eq!(kernel, portable, "{bits} bits: {block:?}");
            } else {
                assert!(!detected!("avx2"));
            }
        }
        for (n, seed) in [(256, 11), (64, 12), (15, 13)] {
            let raw = mixed(n, seed);
            for bits in 1..=16 {
                let narrow: Vec<u64> = raw.iter().map(|&v| v >> (64 - bits)).collect();
                check(&narrow);
                check(&narrow.iter().map(|&v| v as u32).collect::<Vec<_>>());
                // Signed values around zero and around a far base.
                check(
                    &narrow
                        .iter()
                        .map(|&v| v as i64 - (1 << (bits - 1)))
                        .collect::<Vec<_>>(),
                );
                check(
                    &narrow
                        .iter()
                        .map(|&v| v as i32 - (1 << (bits - 1)))
                        .collect::<Vec<_>>(),
                );
                check(
                    &narrow
                        .iter()
                        .map(|&v| v as i64 + i64::MIN)
                        .collect::<Vec<_>>(),
                );
                check(
                    &narrow
                        .iter()
                        .map(|&v| (v as u32).wrapping_add(u32::MAX - 70_000))
                        .collect::<Vec<_>>(),
                );
            }
        }
    }

    #[test]
    fn bit_decoder_kernel_matches_the_portable_reader() {
        // Random offsets under random bases, some near the key's top so
        // that sums leave the range: the kernel's values and verdict are
        // the serial reader's, group by group.
        fn check<T: Lane + PartialEq + core::fmt::Debug>(bytes: &[u8], bits: u32, base: T::Key) {
            let n = bytes.len() * 8 / bits as usize;
            let mut kernel = vec![T::default(); n];
            #[cfg(not(miri))]
            let wide = super::get_bits_wide(bytes, bits, base, slots(&mut kernel));
            #[cfg(miri)]
            let wide = None;
            let found =
                wide.or_else(|| super::get_bits_grouped(bytes, bits, base, slots(&mut kernel)));
            let Some((done, bad)) = found else {
                // No kernel for this width on this CPU.
                #[cfg(not(miri))]
                assert!(!(super::level() >= 5 && super::permute_bits_kernel::<T>(bits)));
                assert!(!detected!("avx2") || bits > 16);
                return;
            };
            // The kernels stop less than their window (16 bytes, 64 for
            // AVX-512) from the end.
            assert!(
                done + 8 > n.saturating_sub(64 * 8 / bits as usize),
                "{done} of {n}"
            );
            let mut serial = vec![T::default(); done];
            let expected =
                super::super::decode::get_bits_serial(bytes, bits, base, slots(&mut serial));
            assert_eq!(bad, expected, "{bits} bits, base {:?}", base.to_u128());
            if !bad {
                assert_eq!(&kernel[..done], &serial[..], "{bits} bits");
            }
        }
        let bytes: Vec<u8> = mixed(80, 21).iter().flat_map(|v| v.to_le_bytes()).collect();
        for bits in 1..=56u32 {
            for base in [
                0u64,
                12_345,
                (1 << 32) - 70_000,
                (1 << 32) - 1,
                u64::MAX - 70_000,
            ] {
                if bits <= 32 {
                    check::<u32>(&bytes, bits, base as u32);
                    check::<i32>(&bytes, bits, base as u32);
                }
                check::<u64>(&bytes, bits, base);
                check::<i64>(&bytes, bits, base);
            }
        }
    }

    #[test]
    fn kernels_find_every_payload_longer_than_it_needs() {
        // A value of 1 written in 2 to 4 (8) bytes, at each position a
        // kernel reads: the verdict is the checked loop's.
        fn check<T: Lane>(n: usize, code_bits: u32, widest: usize) {
            for at in 0..n {
                for len in 2..=widest {
                    let mut codes = vec![0u8; codes_len(n, code_bits)];
                    let mut payloads = Vec::new();
                    for i in 0..n {
                        let l = if i == at { len } else { 1 };
                        let bit = i * code_bits as usize;
                        codes[bit / 8] |= ((l - 1) as u8) << (bit % 8);
                        payloads.push(2);
                        payloads.extend(core::iter::repeat_n(0, l - 1));
                    }
                    let mut out = vec![T::default(); n];
                    let (done, pos, bad) =
                        super::get_lengths(&codes, code_bits, &payloads, slots(&mut out));
                    let per_byte = 8 / code_bits as usize;
                    let bad_rest = get_lengths_checked(
                        &codes[done / per_byte..],
                        code_bits,
                        &payloads[pos..],
                        slots(&mut out[done..]),
                    );
                    assert!(bad || bad_rest, "value {at} in {len} bytes");
                    assert!(
                        !detected!("ssse3") || at >= done || bad,
                        "the kernel read value {at} and missed it"
                    );
                }
            }
        }
        check::<i32>(64, 2, 4);
        check::<u32>(64, 2, 4);
        check::<u64>(32, 4, 8);
        check::<i64>(32, 4, 8);
    }

    /// Each kernel on its own (not only the part the dispatch leaves
    /// it): its bytes, values and verdicts against the reference, on
    /// every CPU level that can run it.
    #[test]
    fn each_kernel_alone_matches_the_reference() {
        /// A lengths-form writer, and a reader, as the kernels are.
        type Writer<T> = fn(&[T], u32, &mut [u8], &mut [u8]) -> (usize, usize);
        type Reader<T> = fn(
            &super::Tables,
            &[u8],
            &[u8],
            &mut [core::mem::MaybeUninit<T>],
        ) -> (usize, usize, bool);
        fn check<T: Lane + PartialEq + core::fmt::Debug>(block: &[T], code_bits: u32) {
            let (codes, payloads) = reference(block, code_bits);
            let per_byte = 8 / code_bits as usize;
            // Encoders: SSSE3 (32-bit lanes), AVX-512.
            let mut writers: Vec<(&str, Writer<T>)> = Vec::new();
            if detected!("ssse3")
                && super::tables_for::<T>(code_bits).is_some()
                && size_of::<T>() == 4
            {
                writers.push(("ssse3", |b, _, c, p| {
                    #[allow(unsafe_code)]
                    // SAFETY: the CPU has SSSE3.
                    unsafe {
                        super::put_lengths32_ssse3(b, c, p)
                    }
                }));
            }
            #[cfg(not(miri))]
            if super::super::tests::cpu_has_level(5) && super::compress_kernel::<T>(code_bits) {
                writers.push(("avx512", |b, cb, c, p| {
                    #[allow(unsafe_code)]
                    // SAFETY: level 5: the CPU has the kernel's features.
                    unsafe {
                        super::put_lengths_avx512(b, cb, c, p)
                    }
                }));
            }
            for (name, write) in writers {
                let mut out_codes = vec![0u8; codes.len()];
                let mut out_payloads = vec![0u8; payloads.len() + 64];
                let (done, pos) = write(block, code_bits, &mut out_codes, &mut out_payloads);
                assert!(done > 0 || block.len() < 16, "{name} wrote nothing");
                assert_eq!(pos, reference(&block[..done], code_bits).1.len(), "{name}");
                assert_eq!(
                    &out_codes[..done / per_byte],
                    &codes[..done / per_byte],
                    "{name}"
                );
                assert_eq!(&out_payloads[..pos], &payloads[..pos], "{name}");
            }
            // Decoders, each on the block and on copies whose every value
            // in turn is made one byte longer than it needs.
            let Some(t) = super::tables_for::<T>(code_bits) else {
                return;
            };
            let mut readers: Vec<(&str, Reader<T>)> = Vec::new();
            if detected!("ssse3") {
                readers.push(("ssse3", |t, c, p, o| {
                    #[allow(unsafe_code)]
                    // SAFETY: the CPU has SSSE3.
                    unsafe {
                        super::get_lengths_ssse3(t, c, p, o)
                    }
                }));
            }
            #[cfg(not(miri))]
            if super::super::tests::cpu_has_level(5) {
                readers.push(("avx512", |t, c, p, o| {
                    #[allow(unsafe_code)]
                    // SAFETY: level 5: the CPU has the kernel's features.
                    unsafe {
                        super::get_lengths_avx512(t, c, p, o)
                    }
                }));
            }
            for (name, read) in readers {
                let mut back = vec![T::default(); block.len()];
                let (done, pos, bad) = read(t, &codes, &payloads, slots(&mut back));
                assert!(!bad, "{name}");
                assert!(done > 0 || block.len() < 16, "{name} read nothing");
                assert!(!get_lengths_checked(
                    &codes[done / per_byte..],
                    code_bits,
                    &payloads[pos..],
                    slots(&mut back[done..])
                ));
                assert_eq!(back, block, "{name}");
                let widest = size_of::<T>().min(1 << code_bits);
                for at in 0..block.len() {
                    let (c, p) = longer_at(block, code_bits, at);
                    if p.is_empty() || reference_len(block[at]) >= widest {
                        continue;
                    }
                    let mut out = vec![T::default(); block.len()];
                    let (done, _, bad) = read(t, &c, &p, slots(&mut out));
                    assert!(at >= done || bad, "{name} read value {at} and missed it");
                }
            }
        }
        /// The payload bytes the reference gives `x`.
        fn reference_len<T: Lane>(x: T) -> usize {
            x.payload()
                .to_u128()
                .to_le_bytes()
                .iter()
                .rposition(|&b| b != 0)
                .map_or(1, |i| i + 1)
        }
        /// The reference form with value `at` one byte longer than it
        /// needs (a zero top byte).
        fn longer_at<T: Lane>(block: &[T], code_bits: u32, at: usize) -> (Vec<u8>, Vec<u8>) {
            let mut codes = vec![0u8; codes_len(block.len(), code_bits)];
            let mut payloads = Vec::new();
            for (i, x) in block.iter().enumerate() {
                let z = x.payload().to_u128();
                let len = reference_len(*x) + usize::from(i == at);
                let bit = i * code_bits as usize;
                codes[bit / 8] |= ((len - 1) as u8) << (bit % 8);
                payloads.extend_from_slice(&z.to_le_bytes()[..len]);
            }
            (codes, payloads)
        }
        // Edge values, rotated through every lane: zero, the extremes,
        // and each side of a byte length's step.
        let edges: [i64; 16] = [
            0,
            -1,
            1,
            127,
            128,
            129,
            -127,
            -128,
            -129,
            255,
            256,
            -65_536,
            65_535,
            i64::MIN,
            i64::MAX,
            i64::from(i32::MIN),
        ];
        for r in 0..edges.len() {
            let block: Vec<i64> = (0..64).map(|i| edges[(i + r) % edges.len()]).collect();
            check(&block, 4);
            check(&block.iter().map(|&v| v as u64).collect::<Vec<_>>(), 4);
            let small: Vec<i64> = block
                .iter()
                .map(|&v| v.clamp(-(1 << 30), 1 << 30))
                .collect();
            check(&small, 2);
            check(&small.iter().map(|&v| v as i32).collect::<Vec<_>>(), 2);
            check(&block.iter().map(|&v| v as u32).collect::<Vec<_>>(), 2);
            let wide: Vec<i128> = block.iter().map(|&v| i128::from(v) << 60).collect();
            check_wide(&wide);
        }
        for (n, seed) in [(256, 11), (255, 12), (64, 13), (17, 14)] {
            let raw = mixed(n, seed);
            let u32s: Vec<u32> = raw.iter().map(|&v| v as u32 >> (v % 32)).collect();
            check(&u32s, 2);
            check(&u32s.iter().map(|&v| v as i32).collect::<Vec<_>>(), 2);
            check(&raw, 4);
            check(&raw.iter().map(|&v| v as i64).collect::<Vec<_>>(), 4);
            // 64-bit lanes of payloads up to 4 bytes: 2-bit codes (the
            // compress writer's third shape).
            let short: Vec<u64> = u32s.iter().map(|&v| u64::from(v)).collect();
            check(&short, 2);
            check(&short.iter().map(|&v| v as i64 >> 1).collect::<Vec<_>>(), 2);
            // 128-bit lanes (the wide kernel).
            let wide: Vec<u128> = raw
                .iter()
                .zip(raw.iter().rev())
                .map(|(&a, &b)| (u128::from(a) << 64 | u128::from(b)) >> (a % 128))
                .collect();
            check_wide(&wide);
            // Signed, of both signs (zig-zag's low bit) in every lane.
            check_wide(
                &wide
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| match (i + seed as usize) % 3 {
                        0 => -((v >> 2) as i128),
                        _ => (v >> 2) as i128,
                    })
                    .collect::<Vec<_>>(),
            );
        }
        /// The wide kernel: values, and a longer-than-needed payload at
        /// every position.
        fn check_wide<T: Lane + PartialEq + core::fmt::Debug>(block: &[T]) {
            #[cfg(not(miri))]
            if super::super::tests::cpu_has_level(5) {
                let read = |c: &[u8], p: &[u8], o: &mut [core::mem::MaybeUninit<T>]| {
                    #[allow(unsafe_code)]
                    // SAFETY: level 5: the CPU has the kernel's features.
                    unsafe {
                        super::get_lengths128_avx512(c, p, o)
                    }
                };
                let (codes, payloads) = reference(block, 4);
                let mut back = vec![T::default(); block.len()];
                let (done, pos, bad) = read(&codes, &payloads, slots(&mut back));
                assert!(!bad);
                assert!(done > 0 || block.len() < 4);
                assert!(!get_lengths_checked(
                    &codes[done / 2..],
                    4,
                    &payloads[pos..],
                    slots(&mut back[done..])
                ));
                assert_eq!(back, block);
                for at in 0..block.len() {
                    if reference_len(block[at]) >= 16 {
                        continue;
                    }
                    let (c, p) = longer_at(block, 4, at);
                    let mut out = vec![T::default(); block.len()];
                    let (done, _, bad) = read(&c, &p, slots(&mut out));
                    assert!(at >= done || bad, "wide: value {at} missed");
                }
            }
            let _ = block;
        }
    }

    /// The AVX-512 bit kernel's range check, value by value: one offset of
    /// all ones (or one less) at each position of several groups, under
    /// the base that makes exactly that value leave the key's range (or
    /// reach its top).
    #[cfg(not(miri))]
    #[test]
    fn wide_bit_kernel_finds_each_value_out_of_range() {
        use super::super::encode::put_bits;
        fn check<T: Lane + PartialEq + core::fmt::Debug>(bits: u32) {
            let n = 64;
            let mask = (1u64 << bits) - 1;
            let key_max = T::KEY_MAX.low64();
            let base = <T::Key as Key>::from_u64(key_max - mask + 1);
            for k in 0..n {
                for (top, wraps) in [(mask, true), (mask - 1, false)] {
                    let offsets: Vec<u64> = (0..n).map(|i| if i == k { top } else { 0 }).collect();
                    let mut bytes = vec![0u8; n * bits as usize / 8 + 64];
                    put_bits(&offsets, 0, bits, &mut bytes);
                    let mut kernel = vec![T::default(); n];
                    let Some((done, bad)) =
                        super::get_bits_wide(&bytes, bits, base, slots(&mut kernel))
                    else {
                        assert!(super::level() < 5, "{bits} bits");
                        return;
                    };
                    assert!(done >= 16, "{bits} bits: {done} done");
                    assert_eq!(bad, wraps && k < done, "{bits} bits, value {k}");
                    let mut serial = vec![T::default(); done];
                    let expected = super::super::decode::get_bits_serial(
                        &bytes,
                        bits,
                        base,
                        slots(&mut serial),
                    );
                    assert_eq!(bad, expected);
                    if !bad {
                        assert_eq!(&kernel[..done], &serial[..], "{bits} bits, value {k}");
                    }
                }
            }
        }
        for bits in 17..=56 {
            check::<u64>(bits);
            check::<i64>(bits);
            if bits <= 25 {
                check::<u32>(bits);
                check::<i32>(bits);
            }
        }
    }
}
