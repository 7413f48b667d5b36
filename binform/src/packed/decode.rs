//! Reading blocks: a header, then each form's reader, straight into the
//! vector's spare capacity; every value checked against its type's range.

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use crate::varint::{LEN_MASK, VARINT_MIN};
use crate::{ErrorKind, Reader, Result};

use super::lane::{bits_may_overflow, Key, Lane};
use super::layout::{bits_len, codes_len, Form, BLOCK, SHORT};
use super::tables::{LEN_MASK_128, LEN_MIN};

/// Decodes a vector of `len` packed values; `len` was checked against the
/// input with [`min_size`], and the whole vector is charged to the memory
/// budget before anything is allocated.
pub(crate) fn unpack_vec<T: Lane, L: crate::Layout>(
    r: &mut Reader<'_, L>,
    len: usize,
) -> Result<Vec<T>> {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if len >= SHORT && super::x86::level() >= 4 {
        #[allow(unsafe_code)]
        // SAFETY: `unpack_vec_v4` only needs the features of level 4,
        // which `level` just found on the CPU.
        return unsafe { unpack_vec_v4(r, len) };
    }
    unpack_vec_in(r, len)
}

/// [`unpack_vec`] compiled for x86-64-v4 (as the encoder's
/// `pack_slice_v4`): the blocks' portable loops vectorize further, and the
/// kernels inline. Measured in alternating runs, 100,000 values (`hot`):
/// full-range `i128` 190 -> 127 µs; the other shapes within noise.
#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(
    enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512bw,avx512cd,avx512dq"
)]
pub(super) fn unpack_vec_v4<T: Lane, L: crate::Layout>(
    r: &mut Reader<'_, L>,
    len: usize,
) -> Result<Vec<T>> {
    unpack_vec_in(r, len)
}

/// [`unpack_vec`]'s body, for each build of it.
#[inline(always)]
pub(super) fn unpack_vec_in<T: Lane, L: crate::Layout>(
    r: &mut Reader<'_, L>,
    len: usize,
) -> Result<Vec<T>> {
    let mut out: Vec<T> = r.vec_with_capacity(len)?;
    if len < SHORT {
        // One headerless block of varints: pushed one by one, without the
        // block machinery (short vectors are common inside structs; the
        // general path cost about 100 instructions more for 2 values).
        // (`len` is under one block, within any preallocation: no growth.)
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
            // Grow at most to the charged length (doubling could reach
            // twice what the memory budget was charged), and fallibly.
            r.grow_toward(&mut out, start + n, len)?;
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
pub(crate) fn unpack_into<T: Lane, L: crate::Layout>(
    r: &mut Reader<'_, L>,
    out: &mut [T],
) -> Result<()> {
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
pub(super) fn unpack_block<T: Lane, L: crate::Layout>(
    r: &mut Reader<'_, L>,
    out: &mut [MaybeUninit<T>],
) -> Result<()> {
    if out.len() < SHORT {
        // A headerless block of varints (a short column's lengths, a
        // sequence's last values) one by one: the kernels' setup and call
        // cost more than it (a string column of one person's keywords).
        for slot in out.iter_mut() {
            *slot = MaybeUninit::new(T::read_scalar(r)?);
        }
        return Ok(());
    }
    let at = r.position();
    let header = r.read_u8()?;
    let form = super::layout::form(header)
        .map_err(|problem| r.error_at(at, ErrorKind::InvalidValue, problem))?;
    let width = match form {
        Form::Varints => {
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
        Form::Bits => return unpack_bits(r, at, out),
        Form::Lengths(code_bits) => return unpack_lengths(r, at, code_bits, out),
        Form::Fixed(width) if width <= core::mem::size_of::<T::Key>() => width,
        Form::Fixed(width) => {
            return Err(r.error_at(
                at,
                ErrorKind::InvalidValue,
                alloc::format!(
                    "packed block of {width}-byte offsets for a {}-byte integer",
                    core::mem::size_of::<T::Key>()
                ),
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
pub(super) fn widen<T: Lane>(
    width: usize,
    bytes: &[u8],
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if super::x86::level() >= 4 {
        #[allow(unsafe_code)]
        // SAFETY: `widen_v4` only needs the features of level 4, which
        // `level` found on the CPU.
        return unsafe { widen_v4(width, bytes, base, out) };
    }
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if super::x86::has_avx2() {
        #[allow(unsafe_code)]
        // SAFETY: `widen_avx2` only needs AVX2, which the CPU was just
        // found to support.
        return unsafe { widen_avx2(width, bytes, base, out) };
    }
    widen_portable(width, bytes, base, out)
}

/// [`widen_portable`] built for x86-64-v4: 64-byte vectors, and unsigned
/// 64-bit maxima (AVX2 has none).
#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(
    enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512bw,avx512cd,avx512dq"
)]
pub(super) fn widen_v4<T: Lane>(
    width: usize,
    bytes: &[u8],
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> bool {
    widen_portable(width, bytes, base, out)
}

#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx2")]
pub(super) fn widen_avx2<T: Lane>(
    width: usize,
    bytes: &[u8],
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> bool {
    widen_portable(width, bytes, base, out)
}

#[inline(always)]
pub(super) fn widen_portable<T: Lane>(
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
pub(super) fn unpack_bits<T: Lane, L: crate::Layout>(
    r: &mut Reader<'_, L>,
    at: usize,
    out: &mut [MaybeUninit<T>],
) -> Result<()> {
    let bits = u32::from(r.read_u8()?);
    let key_bits = 8 * core::mem::size_of::<T::Key>() as u32;
    super::layout::check_bits(bits, key_bits)
        .map_err(|problem| r.error_at(at, ErrorKind::InvalidValue, problem))?;
    let base = T::read_scalar(r)?.key();
    let len = bits_len(out.len(), bits);
    // The input from the block's bits on, when it holds at least the
    // kernels' widest window past them: their loads may then pass the
    // block's end (each value is masked to its own bits), and its last
    // values need no zero-padded copy. A copy of the last partial word
    // was a `memcpy` call and a stalled load (a tenth of ten people's
    // decode, `perf`).
    let after = r.rest();
    let bytes = r.read_bytes(len)?;
    let bytes = match after.len() >= len.saturating_add(BITS_READ_PAST) {
        true => after,
        false => bytes,
    };
    if get_bits(bytes, bits, base, out) {
        return Err(overflow_error(r, at, "bit", bits as usize, base));
    }
    Ok(())
}

/// Decodes a block in the lengths form (headers 8 and 9).
pub(super) fn unpack_lengths<T: Lane, L: crate::Layout>(
    r: &mut Reader<'_, L>,
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
        super::layout::codes_longest(codes, code_bits)
    };
    if longest > key_bytes || !super::layout::padding_is_zero(codes, n, code_bits) {
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
    let payloads = r.read_bytes(super::layout::payload_len(codes, n, code_bits))?;
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
pub(super) fn get_lengths<T: Lane>(
    codes: &[u8],
    code_bits: u32,
    payloads: &[u8],
    out: &mut [MaybeUninit<T>],
) -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let (codes, payloads, out, bad_vector) = {
        let (done, pos, bad) = super::x86::get_lengths(codes, code_bits, payloads, out);
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
pub(super) const LENGTHS_TAIL: usize = 64;

/// What is left of a lengths-form block after `done` values (a multiple
/// of the values a control byte holds) and `pos` payload bytes.
#[inline(always)]
pub(super) fn lengths_rest<'a, 'b, T>(
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
pub(super) fn get_lengths_fast<T: Lane, const CB: usize>(
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
/// branch on each varint's length: the value is its first word masked and
/// shifted, or the next 8 bytes for the 9-byte form, chosen without a
/// jump. The values read, the bytes used, and whether any varint was not
/// minimal or its value out of the type's range (then the caller reads the
/// block again, checked, for the error).
///
/// Each value starts where the last one ends: the loop's one chain. Taken
/// from the loaded word (the trailing ones of its first byte), a length
/// put a load and a bit count on it, about 12 cycles a value. A long
/// block counts the length of a varint at every byte first, in a pass the
/// compiler vectorizes (a popcount of each byte's trailing ones), and
/// the chain is one byte load and an add.
///
/// On AVX-512 VBMI (level 5), 32 and 64-bit values take eight varints a
/// step instead (`avx512::get_varints_avx512`), and each group holding a
/// 9-byte varint the loop below.
#[inline]
pub(super) fn get_varints_fast<T: Lane>(
    input: &[u8],
    out: &mut [MaybeUninit<T>],
) -> (usize, usize, bool) {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if super::avx512::has_varint_kernel::<T>() {
        let (mut done, mut pos, mut bad) = (0, 0, false);
        while !bad && done < out.len() {
            let (Some(rest), Some(slots)) = (input.get(pos..), out.get_mut(done..)) else {
                break;
            };
            #[allow(unsafe_code)]
            // SAFETY: `get_varints_avx512` needs AVX-512 F, BW, DQ, VL and
            // VBMI, which level 5 (`has_varint_kernel`) says the CPU has.
            let (more, used, worse) = unsafe { super::avx512::get_varints_avx512(rest, slots) };
            done += more;
            pos += used;
            bad |= worse;
            // The kernel stopped at a group with a 9-byte varint, or near
            // the end: eight values by their words.
            let Some(group) = out.get_mut(done..(done + 8).min(out.len())) else {
                break;
            };
            let (more, end, worse) = get_varints_with(input, pos, group, by_word);
            let short = more < group.len();
            done += more;
            pos = end;
            bad |= worse;
            if short {
                break;
            }
        }
        return (done, pos, bad);
    }
    get_varints_counted(input, out)
}

/// [`get_varints_fast`] without the AVX-512 kernel.
#[inline(always)]
fn get_varints_counted<T: Lane>(input: &[u8], out: &mut [MaybeUninit<T>]) -> (usize, usize, bool) {
    if out.len() < VARINTS_COUNTED {
        return get_varints_with(input, 0, out, by_word);
    }
    // Value `i` starts within the first `i` longest varints of the type,
    // and values are taken only while 16 bytes remain at their start.
    let longest = (8 * core::mem::size_of::<T::Key>()).div_ceil(7).min(9);
    let span = input
        .len()
        .saturating_sub(15)
        .min(out.len().saturating_mul(longest))
        .min(COUNTED_SPAN);
    // Most blocks are short varints: counted first as far as three bytes
    // a value reach, the rest only if the values get there (a `u64`
    // block's longest varints are nine times its small ones).
    let first = span.min(out.len().saturating_mul(3) + 16);
    // A byte not counted (yet) reads as length 0, which ends the loop:
    // every varint is 1 to 9 bytes.
    let mut lens = [0u8; COUNTED_SPAN];
    count_varints(input, &mut lens, 0, first);
    let (done, pos, bad) = get_varints_with(input, 0, out, counted(&lens));
    if first == span || done == out.len() {
        return (done, pos, bad);
    }
    count_varints(input, &mut lens, first, span);
    let rest = out.get_mut(done..).unwrap_or_default();
    let (more, end, worse) = get_varints_with(input, pos, rest, counted(&lens));
    (done + more, end, bad | worse)
}

/// The length of a varint from its first word (the trailing ones of its
/// first byte): for short blocks, and groups the AVX-512 kernel leaves.
#[inline(always)]
fn by_word(_: usize, word: u64) -> usize {
    crate::varint::extra_bytes_of_word(word) + 1
}

/// The length of the varint at each byte, from the counted `lens` (0 past
/// them).
#[inline(always)]
fn counted(lens: &[u8]) -> impl Fn(usize, u64) -> usize + '_ {
    move |pos, _| usize::from(lens.get(pos).copied().unwrap_or(0))
}

/// Counts into `lens[from..to]` the length of a varint starting at each
/// of `input`'s bytes there: 1 and the byte's trailing ones (a popcount,
/// which vectorizes).
#[inline(always)]
fn count_varints(input: &[u8], lens: &mut [u8], from: usize, to: usize) {
    let (Some(src), Some(dst)) = (input.get(from..to), lens.get_mut(from..to)) else {
        return;
    };
    for (len, &b) in dst.iter_mut().zip(src) {
        *len = (b & !b.wrapping_add(1)).count_ones() as u8 + 1;
    }
}

/// Blocks of at least this many values count their varints' lengths
/// first ([`get_varints_fast`]); shorter ones take each from its word.
const VARINTS_COUNTED: usize = 32;

/// The bytes whose varint lengths [`get_varints_fast`] counts at most: a
/// whole block's longest varints.
const COUNTED_SPAN: usize = BLOCK * 9;

/// [`get_varints_fast`]'s loop from byte `start` of `input`, each
/// varint's length from `len_at` (given its start and its first word; 0
/// stops the loop).
#[inline(always)]
fn get_varints_with<T: Lane>(
    input: &[u8],
    start: usize,
    out: &mut [MaybeUninit<T>],
    len_at: impl Fn(usize, u64) -> usize,
) -> (usize, usize, bool) {
    let key_bits = 8 * core::mem::size_of::<T::Key>() as u32;
    let mut bad = false;
    let mut pos = start;
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
        // 1 to 9 bytes.
        let len = len_at(pos, word);
        if len == 0 {
            break;
        }
        let extra = len - 1;
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

/// [`get_lengths`] value by value, each load checked: the last values of
/// a block, and `u128` blocks.
pub(super) fn get_lengths_checked<T: Lane>(
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
/// `64 / bits` values without a bounds check per value. `bytes` holds the
/// `out.len()` offsets from its start, and may go on past them (input
/// after the block, which no value takes).
#[inline]
pub(super) fn get_bits<T: Lane>(
    bytes: &[u8],
    bits: u32,
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> bool {
    // A short block (columns inside small structs) value by value: the
    // kernels' setup and their zero-padded tail cost more than its loop.
    if out.len() < SERIAL_BITS_BELOW {
        return get_bits_serial(bytes, bits, base, out);
    }
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let grouped = |bytes: &[u8], out: &mut [MaybeUninit<T>]| {
        #[cfg(not(miri))]
        if let Some(found) = super::x86::get_bits_wide(bytes, bits, base, out) {
            return Some(found);
        }
        super::x86::get_bits_grouped(bytes, bits, base, out)
    };
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let (done, mut bad) = match grouped(bytes, out) {
        Some((done, bad)) => {
            // The rest from the byte the kernel stopped at (`done` is a
            // multiple of 8): its last groups, whose vector loads would
            // pass the block's end, through the kernel again over a
            // zero-padded copy (the portable path there cost 13% of a small
            // `i32` decode's instructions). Every value's bits lie in
            // `bytes`, so no value reads padding. (Given the input past
            // the block, `unpack_bits`, no group stops short of its
            // window: what is left is less than a group, more than
            // `BITS_TAIL` bytes, read by the paths below.)
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
                    grouped(&padded, rest).unwrap_or((0, false))
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

/// Bit-packed blocks of fewer values are read by [`get_bits_serial`].
const SERIAL_BITS_BELOW: usize = 16;

/// The input past a bit-packed block's end that [`unpack_bits`] hands
/// the readers with it when there is that much: a 64-byte window (the
/// AVX-512 kernel's) from the block's last whole group, so that every
/// group is read by the kernels. They read only the slice they are given,
/// and take each value's own bits: what lies past the block is never a
/// value.
const BITS_READ_PAST: usize = 64;

/// The bytes a bit-packed block can have left when a kernel stops: less
/// than a group and its load window (at most 40 bytes for the AVX2
/// kernels, at 16-bit offsets of 4-byte keys; at most 63 for the AVX-512
/// one, which stops where its 64-byte window would pass the end).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(super) const BITS_TAIL: usize = 64;

/// [`get_bits_fast`] with AVX2 and BMI2 where the CPU has them: the
/// compiler then gathers each group's eight values with vector shifts.
#[inline]
pub(super) fn get_bits_fast_dispatch<T: Lane>(
    bytes: &[u8],
    bits: u32,
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> (usize, bool) {
    // 128-bit keys stay scalar: the compiler's AVX2 version of their
    // add with carry spilled to the stack.
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if core::mem::size_of::<T::Key>() <= 8 && super::x86::has_avx2_bmi2() {
        #[allow(unsafe_code)]
        // SAFETY: `get_bits_avx2` only needs AVX2 and BMI2, which the CPU
        // was just found to support.
        return unsafe { get_bits_avx2(bytes, bits, base, out) };
    }
    get_bits_fast(bytes, bits, base, out)
}

#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx2,bmi2")]
pub(super) fn get_bits_avx2<T: Lane>(
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
pub(super) fn get_bits_fast<T: Lane>(
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

/// [`get_bits_fast`]'s loop: each offset's key by `key` (the base plus
/// the offset), checked against the range if `CHECK`.
#[inline(always)]
pub(super) fn get_bits_groups<T: Lane, const CHECK: bool>(
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
pub(super) fn get_bits_serial<T: Lane>(
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
                    // The last partial word, once, a byte at a time (a
                    // copy of a variable length was a `memcpy` call).
                    let word = rest
                        .iter()
                        .rev()
                        .fold(0u64, |word, &b| word << 8 | u64::from(b));
                    rest = &[];
                    word
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
pub(super) fn offset<K: Key, const W: usize>(src: &[u8]) -> K {
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
pub(super) fn overflow_error<K: Key, L: crate::Layout>(
    r: &Reader<'_, L>,
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
pub(super) fn get<T: Lane, const W: usize>(
    bytes: &[u8],
    base: T::Key,
    out: &mut [MaybeUninit<T>],
) -> bool {
    // Too few bytes for every slot is a failure, so that success always
    // means every slot was written (callers pass exactly enough).
    let bad = bytes.len() / W < out.len();
    // A value leaves the range exactly when its offset passes the room
    // above the base: one check of the greatest offset after the loop
    // (a compare and an or a value took a third of a full-range decode).
    let mut widest = <T::Key as Key>::ZERO;
    for (slot, src) in out.iter_mut().zip(bytes.chunks_exact(W)) {
        let off = offset::<T::Key, W>(src);
        widest = widest.max(off);
        *slot = MaybeUninit::new(T::from_key(base.wrapping_add(off)));
    }
    let out_of_range = base > T::KEY_MAX || widest > T::KEY_MAX.wrapping_sub(base);
    bad | (!out.is_empty() && out_of_range)
}
