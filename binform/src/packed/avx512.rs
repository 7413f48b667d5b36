//! AVX-512 kernels of the block encoder (`docs/format.md` §22): its scan
//! of a block, and its varint form eight values a step.
//!
//! The scan finds a block of 32-bit values' extrema and what its varint
//! and lengths forms would take in one pass: each lane's lengths are
//! arithmetic on its leading zeros (`vplzcnt`), summed in lanes. The
//! portable scan counts a compare a length threshold (seven, each a
//! compare, a mask move and a subtract).
//!
//! A varint below 2^56 is one little-endian word: the value shifted past
//! its length marker, the marker's ones below (`varint::prefix_word`).
//! Each 64-bit lane builds its value's word (its length from its leading
//! zeros), and one byte compress packs every lane's used bytes, stored
//! whole into slack. The scalar writer waits on each value's length to
//! place the next store; here a group's eight are independent.
//!
//! The varint form also decodes eight values a step
//! ([`get_varints_avx512`]), from one 64-byte window.
//!
//! The scan needs level 4 (`x86::level`), the varint writer and reader
//! level 5 (v4 with VBMI2 and VBMI). Miri has no AVX-512, so this module
//! is left out of its builds; the tests compare it with the portable code
//! natively (and fail, rather than
//! pass having checked nothing, on a CPU without the features when
//! `BINFORM_REQUIRE_AVX512` is set).

use core::arch::x86_64::{
    __m512i, _mm256_loadu_si256, _mm256_slli_epi32, _mm256_srai_epi32, _mm256_storeu_si256,
    _mm256_xor_si256, _mm512_add_epi32, _mm512_add_epi64, _mm512_add_epi8, _mm512_and_si512,
    _mm512_broadcast_i32x4, _mm512_castsi512_si128, _mm512_cmpeq_epi64_mask,
    _mm512_cmpeq_epi8_mask, _mm512_cmpgt_epu64_mask, _mm512_cmplt_epu64_mask,
    _mm512_cmplt_epu8_mask, _mm512_cvtepi64_epi32, _mm512_cvtepu32_epi64, _mm512_loadu_si512,
    _mm512_lzcnt_epi32, _mm512_lzcnt_epi64, _mm512_mask_add_epi8, _mm512_mask_permutexvar_epi8,
    _mm512_maskz_compress_epi8, _mm512_maskz_permutexvar_epi8, _mm512_maskz_sllv_epi64,
    _mm512_max_epu32, _mm512_min_epu32, _mm512_mullo_epi32, _mm512_or_si512,
    _mm512_permutex2var_epi8, _mm512_permutexvar_epi8, _mm512_reduce_add_epi32,
    _mm512_reduce_max_epu32, _mm512_reduce_min_epu32, _mm512_set1_epi32, _mm512_set1_epi64,
    _mm512_set1_epi8, _mm512_set_epi64, _mm512_setzero_si512, _mm512_shuffle_epi8,
    _mm512_slli_epi32, _mm512_slli_epi64, _mm512_sllv_epi64, _mm512_srai_epi32, _mm512_srai_epi64,
    _mm512_srli_epi32, _mm512_srli_epi64, _mm512_srlv_epi64, _mm512_storeu_si512, _mm512_sub_epi32,
    _mm512_sub_epi64, _mm512_test_epi64_mask, _mm512_xor_si512, _mm_cvtsi128_si32, _mm_setr_epi8,
};

use core::mem::MaybeUninit;

use super::lane::{Key, Lane};
use super::scan::Scan;

/// [`Scan`] of `block` in one vector pass, when `T` is a whole-width
/// 32-bit integer and the CPU has level 4; else `None`. The sizes are
/// exact, as the portable scan's are whenever they can win (so the same
/// form wins). 64-bit lengths counted so measured no faster than the
/// portable scan, whose early exits settle small and sorted values
/// after a chunk (100,000 small `u64` encode 61 -> 81 µs).
#[inline(always)]
pub(super) fn scan<T: Lane>(block: &[T]) -> Option<Scan<T::Key>> {
    if !whole_lane::<T>() || core::mem::size_of::<T>() != 4 || super::x86::level() < 4 {
        return None;
    }
    #[allow(unsafe_code)]
    // SAFETY: `scan32_avx512` needs AVX-512 F and CD, which level 4 says
    // the CPU has.
    let (lo, hi, varints, bytes) = unsafe { scan32_avx512(block) };
    Some(Scan {
        lo: T::Key::from_u64(lo.into()),
        hi: T::Key::from_u64(hi.into()),
        varints,
        bytes,
        // Payloads of up to 32 bits fit 2-bit codes whatever they are.
        any: T::Key::ZERO,
    })
}

/// The least and greatest keys, the varint bytes and the payload bytes of
/// a block of 32-bit values, sixteen a step.
#[target_feature(enable = "avx512f,avx512cd")]
fn scan32_avx512<T: Lane>(block: &[T]) -> (u32, u32, u32, u32) {
    let zero = _mm512_setzero_si512();
    // Extra varint bytes and payload bytes, summed in lanes (at most
    // 4 * BLOCK / 16 in a lane: no overflow).
    let (mut extra, mut bytes) = (zero, zero);
    let (mut lo, mut hi) = (_mm512_set1_epi32(-1), zero);
    // Whole vectors only of 4-byte values (a constant test, which keeps
    // the loads sound for any `T`); the rest one by one.
    let split = if core::mem::size_of::<T>() == 4 {
        block.len() / 16 * 16
    } else {
        0
    };
    let (groups, rest) = block.split_at(split);
    for group in groups.chunks_exact(16) {
        #[allow(unsafe_code)]
        // SAFETY: `group` is sixteen values of 4 bytes, 64 readable bytes;
        // the load is unaligned.
        let v = unsafe { _mm512_loadu_si512(group.as_ptr().cast()) };
        let (key, z) = if T::ZIGZAG {
            (
                _mm512_xor_si512(v, _mm512_set1_epi32(i32::MIN)),
                _mm512_xor_si512(_mm512_slli_epi32::<1>(v), _mm512_srai_epi32::<31>(v)),
            )
        } else {
            (v, v)
        };
        lo = _mm512_min_epu32(lo, key);
        hi = _mm512_max_epu32(hi, key);
        // Significant bits less one (at least one bit): 31 - lz(z | 1).
        let top = _mm512_sub_epi32(
            _mm512_set1_epi32(31),
            _mm512_lzcnt_epi32(_mm512_or_si512(z, _mm512_set1_epi32(1))),
        );
        // Extra varint bytes (bits - 1) / 7, as `* 37 >> 8` (exact below
        // 64); payload bytes (bits + 7) / 8.
        let more = _mm512_srli_epi32::<8>(_mm512_mullo_epi32(top, _mm512_set1_epi32(37)));
        extra = _mm512_add_epi32(extra, more);
        let len = _mm512_srli_epi32::<3>(_mm512_add_epi32(top, _mm512_set1_epi32(8)));
        bytes = _mm512_add_epi32(bytes, len);
    }
    let mut lo = _mm512_reduce_min_epu32(lo);
    let mut hi = _mm512_reduce_max_epu32(hi);
    let mut extra = _mm512_reduce_add_epi32(extra) as u32;
    let mut bytes = _mm512_reduce_add_epi32(bytes) as u32;
    for &x in rest {
        let (k, z) = (x.key().low64() as u32, x.payload());
        lo = lo.min(k);
        hi = hi.max(k);
        extra += z.varint_len() - 1;
        bytes += z.byte_len();
    }
    (lo, hi, block.len() as u32 + extra, bytes)
}

/// Room past the last varint that [`put_varints`] may store into: one
/// whole vector.
pub(super) const SLACK: usize = 64;

/// Whether [`put_varints`] has a kernel for `T` on this CPU: whole-width
/// 32-bit and 64-bit integers (the varint of a 32-bit value, at most five
/// bytes, still fits a 64-bit lane).
#[inline(always)]
pub(super) fn has_varint_kernel<T: Lane>() -> bool {
    whole_lane::<T>() && super::x86::level() >= 5
}

/// Writes the varints of every value of `block` (each value's scalar
/// encoding, as `Lane::write_scalars` writes it) into `out`, which holds
/// their total bytes and [`SLACK`] more; the bytes written (fewer than
/// the values' only if `out` is too short). Without a kernel for `T`
/// ([`has_varint_kernel`]) one value at a time.
pub(super) fn put_varints<T: Lane>(block: &[T], out: &mut [u8]) -> usize {
    let kernel = has_varint_kernel::<T>();
    let (mut done, mut pos) = (0, 0);
    while done < block.len() {
        let (Some(rest), Some(room)) = (block.get(done..), out.get_mut(pos..)) else {
            break;
        };
        if kernel {
            #[allow(unsafe_code)]
            // SAFETY: `put_varints_avx512` needs AVX-512 F, BW, CD, DQ, VL
            // and VBMI2 and POPCNT, which level 5 (`has_varint_kernel`)
            // says the CPU has.
            let (more, used) = unsafe { put_varints_avx512(rest, room) };
            done += more;
            pos += used;
        }
        // The kernel stops at a group holding a 64-bit payload of 2^56 or
        // more (the 9-byte form does not fit a lane), and before a tail
        // shorter than a group: those values one by one.
        let end = block.len().min(done + GROUP);
        for &x in block.get(done..end).unwrap_or_default() {
            let (bytes, len) = crate::varint::encode_u64(x.payload().low64());
            // The whole encoding's bytes where the room holds them (the
            // next value, or the caller's truncation, drops those past
            // `len`): a copy of a variable length was a `memcpy` call a
            // value, 15% of a mixed `u64` encode. Exactly its bytes near
            // the room's end.
            match out.get_mut(pos..pos + bytes.len()) {
                Some(dst) => dst.copy_from_slice(&bytes),
                None => {
                    let (Some(dst), Some(src)) = (out.get_mut(pos..pos + len), bytes.get(..len))
                    else {
                        return pos;
                    };
                    dst.copy_from_slice(src);
                }
            }
            pos += len;
        }
        done = end;
    }
    pos
}

/// Values a step: one 64-bit lane each.
const GROUP: usize = 8;

/// [`put_varints`]' vector loop: whole groups of eight, until the room
/// for a whole store runs out or a group holds a payload of 2^56 or more.
/// The values done and the bytes written.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx512vbmi2,popcnt")]
fn put_varints_avx512<T: Lane>(block: &[T], out: &mut [u8]) -> (usize, usize) {
    // A constant test, which keeps the loads below sound for any `T`.
    if !whole_lane::<T>() {
        return (0, 0);
    }
    let byte_index = _mm512_set1_epi64(0x0706_0504_0302_0100);
    // `vpshufb` indices (within each 128 bits) of every lane's lowest
    // byte, for each byte of the lane.
    let spread = _mm512_broadcast_i32x4(_mm_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8,
    ));
    let one = _mm512_set1_epi64(1);
    let long = _mm512_set1_epi64(!((1i64 << 56) - 1));
    let (mut done, mut pos) = (0, 0);
    for group in block.chunks_exact(GROUP) {
        let z: __m512i = if core::mem::size_of::<T>() == 4 {
            #[allow(unsafe_code)]
            // SAFETY: `group` is eight values of 4 bytes, 32 readable
            // bytes; the load is unaligned.
            let v = unsafe { _mm256_loadu_si256(group.as_ptr().cast()) };
            // `varint::zigzag_i32` in each lane, then widened: a 32-bit
            // value's scalar is the zig-zag of its 64-bit widening, the
            // same number.
            let z = if T::ZIGZAG {
                _mm256_xor_si256(_mm256_slli_epi32::<1>(v), _mm256_srai_epi32::<31>(v))
            } else {
                v
            };
            _mm512_cvtepu32_epi64(z)
        } else {
            #[allow(unsafe_code)]
            // SAFETY: `group` is eight values of 8 bytes, 64 readable
            // bytes; the load is unaligned.
            let v = unsafe { _mm512_loadu_si512(group.as_ptr().cast()) };
            let z = if T::ZIGZAG {
                _mm512_xor_si512(_mm512_slli_epi64::<1>(v), _mm512_srai_epi64::<63>(v))
            } else {
                v
            };
            if _mm512_test_epi64_mask(z, long) != 0 {
                break;
            }
            z
        };
        // Extra bytes: (significant bits - 1) / 7, as `* 37 >> 8` (exact
        // below 64), in each lane's low 32 bits (the high ones are zero).
        let lz = _mm512_lzcnt_epi64(_mm512_or_si512(z, one));
        let extra = _mm512_srli_epi64::<8>(_mm512_mullo_epi32(
            _mm512_sub_epi64(_mm512_set1_epi64(63), lz),
            _mm512_set1_epi64(37),
        ));
        let len = _mm512_add_epi64(extra, one);
        let marker = _mm512_sub_epi64(_mm512_sllv_epi64(one, extra), one);
        let word = _mm512_or_si512(_mm512_sllv_epi64(z, len), marker);
        let keep = _mm512_cmplt_epu8_mask(byte_index, _mm512_shuffle_epi8(len, spread));
        // Packed in a register and stored whole: the next group
        // overwrites what this one does not use.
        let Some(dst) = out.get_mut(pos..pos + 64) else {
            break;
        };
        #[allow(unsafe_code)]
        // SAFETY: `dst` is 64 writable bytes; the store is unaligned.
        unsafe {
            _mm512_storeu_si512(
                dst.as_mut_ptr().cast(),
                _mm512_maskz_compress_epi8(keep, word),
            )
        };
        pos += keep.count_ones() as usize;
        done += GROUP;
    }
    (done, pos)
}

/// The length (1 to 8) of a varint whose first byte's low seven bits are
/// the index: one and its trailing ones. A first byte of `0xFF` (nine
/// bytes) is found apart.
static VARINT_LENS: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut x = 0;
    while x < 128 {
        table[x] = (x as u8).trailing_ones() as u8 + 1;
        x += 1;
    }
    table
};

/// The decoder's byte indices: each byte's own (`iota`); and for byte
/// `8k + j` of a group's gather, start `k` (`spread`) and `j` (`within`).
static GATHER: [[u8; 64]; 3] = {
    let mut table = [[0u8; 64]; 3];
    let mut i = 0;
    while i < 64 {
        table[0][i] = i as u8;
        table[1][i] = (i / 8) as u8;
        table[2][i] = (i % 8) as u8;
        i += 1;
    }
    table
};

/// Whether `T` is a whole-width integer of 4 or 8 bytes: what the
/// kernels' loads and stores assume.
#[inline(always)]
fn whole_lane<T: Lane>() -> bool {
    T::WHOLE
        && core::mem::size_of::<T>() == core::mem::size_of::<T::Key>()
        && matches!(core::mem::size_of::<T>(), 4 | 8)
}

/// Decodes varints of `T` from the start of `input` into whole groups of
/// eight of `out`, while 64 bytes of input remain and every varint of the
/// group is at most 8 bytes. The values done, the bytes used, and whether
/// any was not minimal or out of `T`'s range (as `get_varints_with`
/// says).
///
/// A group is decoded from one 64-byte window, its eight varints at most
/// 64 bytes. Each byte's varint length, if a value started there, by one
/// table permute; then the byte after that varint, `next`, and by
/// squaring it twice the byte eight varints on (`next[next[..]]`, three
/// permutes): the only chain from one group to the next. Off that chain,
/// the eight starts by doubling (0, then `next` of it, then `next²` of
/// both, then `next⁴` of the four), each value's 8 bytes gathered from
/// its start by one more permute, then shifted past its length and
/// masked. The scalar loop took a load and an add a value on its chain.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vl,avx512dq")]
pub(super) fn get_varints_avx512<T: Lane>(
    input: &[u8],
    out: &mut [MaybeUninit<T>],
) -> (usize, usize, bool) {
    // A constant test, which keeps the loads and stores below sound for
    // any `T`.
    if !whole_lane::<T>() {
        return (0, 0, false);
    }
    let lane = core::mem::size_of::<T>();
    // SAFETY (all five loads): each array is 64 readable bytes (the
    // table 128); the loads are unaligned.
    #[allow(unsafe_code)]
    let (iota, spread, within, lens_lo, lens_hi) = unsafe {
        (
            _mm512_loadu_si512(GATHER[0].as_ptr().cast()),
            _mm512_loadu_si512(GATHER[1].as_ptr().cast()),
            _mm512_loadu_si512(GATHER[2].as_ptr().cast()),
            _mm512_loadu_si512(VARINT_LENS.as_ptr().cast()),
            _mm512_loadu_si512(VARINT_LENS.as_ptr().add(64).cast()),
        )
    };
    // Bytes 2 and 3 of the doubling's second step take starts 0 and 1;
    // bytes 4 to 7 of its third take starts 0 to 3.
    let to_2_3 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, 0x0000_0000_0100_0000);
    let to_4_7 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, 0x0302_0100_0000_0000);
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi64(1);
    let nine = _mm512_set1_epi64(9);
    let low_byte = _mm512_set1_epi64(0xFF);
    let (mut done, mut pos, mut bad) = (0, 0, 0u8);
    while let (Some(window), Some(slots)) = (input.get(pos..pos + 64), out.get_mut(done..done + 8))
    {
        #[allow(unsafe_code)]
        // SAFETY: `window` is 64 readable bytes; the load is unaligned.
        let w = unsafe { _mm512_loadu_si512(window.as_ptr().cast()) };
        let lens = _mm512_permutex2var_epi8(lens_lo, w, lens_hi);
        let lens = _mm512_mask_add_epi8(
            lens,
            _mm512_cmpeq_epi8_mask(w, _mm512_set1_epi8(-1)),
            lens,
            _mm512_set1_epi8(1),
        );
        // Indices wrap at 64; only the first eight starts are followed,
        // and they stay below 64 while no varint of theirs passes 8 bytes
        // (checked below).
        let next = _mm512_add_epi8(iota, lens);
        let next2 = _mm512_permutexvar_epi8(next, next);
        let next4 = _mm512_permutexvar_epi8(next2, next2);
        let next8 = _mm512_permutexvar_epi8(next4, next4);
        let starts = _mm512_maskz_permutexvar_epi8(0b10, zero, next);
        let starts = _mm512_mask_permutexvar_epi8(
            starts,
            0b1100,
            _mm512_permutexvar_epi8(to_2_3, starts),
            next2,
        );
        let starts = _mm512_mask_permutexvar_epi8(
            starts,
            0xF0,
            _mm512_permutexvar_epi8(to_4_7, starts),
            next4,
        );
        let at = _mm512_add_epi8(_mm512_permutexvar_epi8(spread, starts), within);
        let len = _mm512_and_si512(_mm512_permutexvar_epi8(at, lens), low_byte);
        if _mm512_cmpeq_epi64_mask(len, nine) != 0 {
            break;
        }
        let word = _mm512_permutexvar_epi8(at, w);
        // 7 bits a byte: the value's bits past its length marker.
        let bits = _mm512_sub_epi64(_mm512_slli_epi64::<3>(len), len);
        let value = _mm512_and_si512(
            _mm512_srlv_epi64(word, len),
            _mm512_sub_epi64(_mm512_sllv_epi64(one, bits), one),
        );
        // Minimal: past one byte, at least 2^(7 (len - 1)).
        let least = _mm512_maskz_sllv_epi64(
            _mm512_cmpgt_epu64_mask(len, one),
            one,
            _mm512_sub_epi64(bits, _mm512_set1_epi64(7)),
        );
        bad |= _mm512_cmplt_epu64_mask(value, least);
        if lane == 4 {
            // A 32-bit payload is below 2^32.
            bad |= _mm512_test_epi64_mask(value, _mm512_set1_epi64(!0xFFFF_FFFF));
        }
        let value = if T::ZIGZAG {
            _mm512_xor_si512(
                _mm512_srli_epi64::<1>(value),
                _mm512_sub_epi64(zero, _mm512_and_si512(value, one)),
            )
        } else {
            value
        };
        #[allow(unsafe_code)]
        if lane == 4 {
            // SAFETY: `slots` is eight values of 4 bytes, 32 writable
            // bytes; the store is unaligned. Every lane of `T` is an
            // integer, for which any bits are a value.
            unsafe { _mm256_storeu_si256(slots.as_mut_ptr().cast(), _mm512_cvtepi64_epi32(value)) };
        } else {
            // SAFETY: `slots` is eight values of 8 bytes, 64 writable
            // bytes; as above.
            unsafe { _mm512_storeu_si512(slots.as_mut_ptr().cast(), value) };
        }
        pos += usize::from(_mm_cvtsi128_si32(_mm512_castsi512_si128(next8)) as u8);
        done += 8;
    }
    (done, pos, bad != 0)
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::super::lane::Lane;
    use super::{has_varint_kernel, put_varints, SLACK};
    use crate::Writer;

    /// The kernel's bytes against the scalar writer's, for `values` and
    /// each of their prefixes that ends a group early or late.
    fn check<T: Lane>(values: &[T]) {
        if !super::super::tests::cpu_has_level(5) || !has_varint_kernel::<T>() {
            return;
        }
        for n in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, values.len()] {
            let block = &values[..n.min(values.len())];
            let mut scalar = Vec::new();
            T::write_scalars(block, &mut Writer::new(&mut scalar));
            // Filled with a byte no varint here ends in, so a store that
            // misses its place shows.
            let mut out = alloc::vec![0xA5; scalar.len() + SLACK];
            let written = put_varints(block, &mut out);
            assert_eq!(written, scalar.len(), "{n} values");
            assert_eq!(&out[..written], &scalar[..], "{n} values");
        }
    }

    /// Each varint length's first and last value, for 32 and 64 bits,
    /// zig-zagged or not, and the 9-byte form's edge for 64 bits.
    fn varint_edges() -> Vec<u64> {
        let mut edges = Vec::new();
        for bits in (7..=63).step_by(7) {
            edges.extend([(1u64 << bits) - 1, 1 << bits]);
        }
        edges.extend([0, 1, u64::MAX, u64::MAX - 1, (1 << 56) - 1, 1 << 56]);
        edges
    }

    /// Values of random bit lengths, so every varint length appears in
    /// every lane; every `stride`-th value is from `edges`.
    fn values(n: usize, seed: u64, edges: &[u64]) -> Vec<u64> {
        let mut next = super::super::tests::xorshift(seed);
        (0..n)
            .map(|i| match edges.get(i / 3) {
                Some(&e) if i % 3 == 0 => e,
                _ => next() >> (next() % 64),
            })
            .collect()
    }

    #[test]
    fn the_varint_kernel_writes_what_the_scalar_writer_does() {
        let edges = varint_edges();
        for seed in 1..6 {
            let raw = values(300, seed, &edges);
            check::<u64>(&raw);
            check::<i64>(&raw.iter().map(|&v| v as i64).collect::<Vec<_>>());
            check::<u32>(&raw.iter().map(|&v| v as u32).collect::<Vec<_>>());
            check::<i32>(&raw.iter().map(|&v| v as i32).collect::<Vec<_>>());
            // Only values below 2^56: every 64-bit group goes through the
            // vector loop.
            let short: Vec<u64> = raw.iter().map(|&v| v >> 8).collect();
            check::<u64>(&short);
            check::<i64>(
                &short
                    .iter()
                    .map(|&v| v as i64 - (1 << 54))
                    .collect::<Vec<_>>(),
            );
        }
    }

    #[test]
    fn the_scan_kernel_counts_what_the_portable_scan_does() {
        fn check<T: Lane>(block: &[T]) {
            if !super::super::tests::cpu_has_level(4) {
                return;
            }
            let Some(fast) = super::scan(block) else {
                panic!("a 32-bit lane has a kernel");
            };
            // An offset form that never wins: the portable scan counts
            // both forms exactly.
            let portable = super::super::scan::scan_narrow(block, |_, _| usize::MAX);
            assert!(fast.lo == portable.lo && fast.hi == portable.hi, "extrema");
            assert_eq!(fast.varints, portable.varints, "varint bytes");
            assert_eq!(fast.bytes, portable.bytes, "payload bytes");
        }
        let mut edges = Vec::new();
        for bits in [7, 8, 14, 16, 21, 24, 28, 31, 32] {
            edges.extend([(1u64 << bits) - 1, 1 << bits]);
        }
        edges.extend([0, u64::from(u32::MAX), 1 << 31, (1 << 31) - 1]);
        for seed in 1..6 {
            let raw = values(300, seed, &edges);
            for n in [8, 15, 16, 17, 33, 256, 300] {
                let raw = &raw[..n];
                check::<u32>(&raw.iter().map(|&v| v as u32).collect::<Vec<_>>());
                check::<i32>(&raw.iter().map(|&v| v as i32).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn the_varint_decoder_reads_back_every_length() {
        // Valid varints of every length (the 9-byte form among them) come
        // back whole from the bulk loop, its kernel and the groups it
        // leaves to the word loop, with nothing reported bad.
        fn check<T: Lane + PartialEq + core::fmt::Debug>(values: &[T]) {
            let mut bytes = Vec::new();
            T::write_scalars(values, &mut Writer::new(&mut bytes));
            let used = bytes.len();
            // Room for every window: the loops stop short of the end.
            bytes.resize(used + 80, 0);
            let mut out = alloc::vec![core::mem::MaybeUninit::<T>::uninit(); values.len()];
            let (done, pos, bad) = super::super::decode::get_varints_fast(&bytes, &mut out);
            assert!(
                !bad && done == values.len() && pos == used,
                "{done} {pos} {bad}"
            );
            for (slot, want) in out.iter().zip(values) {
                #[allow(unsafe_code)]
                // SAFETY: the loop wrote the first `done` slots.
                let got = unsafe { slot.assume_init() };
                assert_eq!(&got, want);
            }
        }
        let edges = varint_edges();
        for seed in 1..8 {
            let raw = values(256, seed, &edges);
            check::<u64>(&raw);
            check::<i64>(&raw.iter().map(|&v| v as i64).collect::<Vec<_>>());
            check::<u32>(&raw.iter().map(|&v| v as u32).collect::<Vec<_>>());
            check::<i32>(&raw.iter().map(|&v| v as i32).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_varint_decoder_finds_each_bad_varint_in_its_group() {
        // One varint longer than its value needs, or out of a 32-bit
        // type's range, at each place of a group, among valid ones and
        // with room for every window after: reported bad. The least value
        // of each length in the same place is not.
        fn varint(v: u64, len: usize, out: &mut Vec<u8>) {
            if len == 9 {
                out.push(0xFF);
                out.extend_from_slice(&v.to_le_bytes());
            } else {
                let word = v << len | ((1u64 << (len - 1)) - 1);
                out.extend_from_slice(&word.to_le_bytes()[..len]);
            }
        }
        fn verdict<T: Lane>(odd: (u64, usize), at: usize) -> bool {
            let mut bytes = Vec::new();
            for i in 0..24 {
                let (v, len) = if i == at {
                    odd
                } else {
                    (200 + i as u64 * 37, 2)
                };
                varint(v, len, &mut bytes);
            }
            bytes.resize(bytes.len() + 80, 0);
            let mut out = alloc::vec![core::mem::MaybeUninit::<T>::uninit(); 24];
            super::super::decode::get_varints_fast(&bytes, &mut out).2
        }
        if !super::super::tests::cpu_has_level(5) {
            return;
        }
        for at in 0..16 {
            for len in 2..=9 {
                let least = 1u64 << (7 * (len - 1)).min(56);
                assert!(verdict::<u64>((least - 1, len), at), "{len} bytes at {at}");
                assert!(verdict::<i64>((least - 1, len), at), "{len} bytes at {at}");
                assert!(!verdict::<u64>((least, len), at), "{len} bytes at {at}");
                assert!(!verdict::<i64>((least, len), at), "{len} bytes at {at}");
                let fits = len <= 5 && least <= u64::from(u32::MAX);
                assert_eq!(
                    verdict::<u32>((least, len), at),
                    !fits,
                    "{len} bytes at {at}"
                );
            }
            assert!(verdict::<u32>((1 << 32, 5), at), "2^32 at {at}");
            assert!(verdict::<i32>((1 << 32, 5), at), "2^32 at {at}");
            assert!(!verdict::<u32>((u64::from(u32::MAX), 5), at));
        }
    }
}
