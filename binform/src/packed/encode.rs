//! Writing blocks: the choice of form from the scan, then each form's
//! writer (varints, fixed-width and bit-packed offsets, byte lengths).

use crate::Writer;

use super::lane::{Key, Lane};
use super::layout::{
    bits_len, codes_len, BITS, BLOCK, LENGTHS2, LENGTHS4, MAX_BITS, SHORT, VARINTS,
};
use super::scan::{narrowest, scan, Scan};

/// Writes `items` as packed blocks.
#[inline]
pub(crate) fn pack_slice<T: Lane, L: crate::Layout>(items: &[T], w: &mut Writer<'_, L>) {
    // A short block (common inside structs) has nothing to scan: its
    // varints, without the feature checks and the call.
    if items.len() < SHORT {
        return T::write_scalars(items, w);
    }
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    match super::x86::level() {
        4.. => {
            #[allow(unsafe_code)]
            // SAFETY: `pack_slice_v4` only needs the features of level 4,
            // which `level` just found on the CPU.
            return unsafe { pack_slice_v4(items, w) };
        }
        3 => {
            #[allow(unsafe_code)]
            // SAFETY: `pack_slice_v3` only needs the features of level 3,
            // which `level` just found on the CPU.
            return unsafe { pack_slice_v3(items, w) };
        }
        _ => {}
    }
    pack_blocks(items, w)
}

/// [`pack_blocks`] compiled for x86-64-v3 (AVX2, BMI1/2, LZCNT): the
/// block writer inlines into it, so every leading-zero count is one
/// `lzcnt` (plain x86-64 has only `bsr`, which needs a branch-free fixup
/// for zero) and the scan's loops use AVX2.
#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
pub(super) fn pack_slice_v3<T: Lane, L: crate::Layout>(items: &[T], w: &mut Writer<'_, L>) {
    pack_blocks(items, w)
}

/// [`pack_blocks`] compiled for x86-64-v4 (AVX-512 F, VL, BW, CD and DQ,
/// besides v3's): the same code, which the compiler vectorizes further.
/// The scan's extrema of 64-bit keys become one unsigned minimum and
/// maximum a vector (AVX2 has no unsigned 64-bit compare: a flip of the
/// sign bit, a signed compare and a blend each), and its leading-zero
/// counts vector ones. Measured in alternating runs, 100,000 values
/// (`hot`, best of 2): `u64` full range 69 -> 40 µs, small 94 -> 60 µs,
/// mixed 200 -> 163 µs; `i128` mixed 551 -> 402 µs; `i32` small
/// 58 -> 53 µs, mixed 109 -> 103 µs.
#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(
    enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512bw,avx512cd,avx512dq"
)]
pub(super) fn pack_slice_v4<T: Lane, L: crate::Layout>(items: &[T], w: &mut Writer<'_, L>) {
    pack_blocks(items, w)
}

#[inline(always)]
pub(super) fn pack_blocks<T: Lane, L: crate::Layout>(items: &[T], w: &mut Writer<'_, L>) {
    for block in items.chunks(BLOCK) {
        pack_block(block, w);
    }
}

/// Writes the values of `items` as packed blocks, gathering each block in
/// a buffer first (for sequences that are not one slice): each block as
/// `T::pack_slice` writes them (the integers' packed blocks, or a
/// `NonZero`'s integers').
pub(crate) fn pack_iter<T: crate::Pack + Copy + Default, L: crate::Layout>(
    items: impl Iterator<Item = T>,
    w: &mut Writer<'_, L>,
) -> crate::Result<()> {
    // Fewer than a header's worth: one short block, the values' own
    // encodings, without filling a block's buffer first (a string column
    // inside a struct is often two or three lengths).
    let upper = items.size_hint().1;
    if upper.is_some_and(|upper| upper < SHORT) {
        for item in items {
            item.pack(w)?;
        }
        return Ok(());
    }
    // A known short column in a short buffer: filling a whole block's
    // first (2 KiB of `u64`s) cost a string column of ten more than its
    // strings.
    if upper.is_some_and(|upper| upper <= SMALL) {
        return gather::<SMALL, T, L>(items, w);
    }
    gather::<BLOCK, T, L>(items, w)
}

/// [`pack_iter`] of the values of `slices`, `total` of them, gathered a
/// slice at a time (a copy each) rather than a value at a time.
pub(crate) fn pack_slices<'a, T: crate::Pack + Copy + Default + 'a, L: crate::Layout>(
    slices: impl Iterator<Item = &'a [T]>,
    total: usize,
    w: &mut Writer<'_, L>,
) -> crate::Result<()> {
    if total < SHORT {
        // One short block: the values' own encodings, slice by slice.
        return slices.into_iter().try_for_each(|s| T::pack_slice(s, w));
    }
    if total <= SMALL {
        return gather_slices::<SMALL, T, L>(slices, w);
    }
    gather_slices::<BLOCK, T, L>(slices, w)
}

/// [`pack_slices`]' gathering, in a buffer of `N` values.
#[inline(always)]
fn gather_slices<'a, const N: usize, T: crate::Pack + Copy + Default + 'a, L: crate::Layout>(
    slices: impl Iterator<Item = &'a [T]>,
    w: &mut Writer<'_, L>,
) -> crate::Result<()> {
    let mut buf = [T::default(); N];
    let mut n = 0;
    for mut slice in slices {
        while !slice.is_empty() {
            let take = (N - n).min(slice.len());
            let (head, tail) = slice.split_at(take);
            if let Some(dst) = buf.get_mut(n..n + take) {
                dst.copy_from_slice(head);
            }
            n += take;
            slice = tail;
            if n == N {
                T::pack_slice(&buf, w)?;
                w.checkpoint();
                n = 0;
            }
        }
    }
    T::pack_slice(buf.get(..n).unwrap_or_default(), w)
}

/// Columns of at most this many values gather in a buffer of their size.
const SMALL: usize = 32;

/// [`pack_iter`]'s gathering, in a buffer of `N` values (a block, or
/// fewer for a column known to be short).
#[inline(always)]
fn gather<const N: usize, T: crate::Pack + Copy + Default, L: crate::Layout>(
    items: impl Iterator<Item = T>,
    w: &mut Writer<'_, L>,
) -> crate::Result<()> {
    let mut buf = [T::default(); N];
    // One loop by `fold`, whose only branch is a full block's: the
    // slot's index needs no check (the loop with an early return on an
    // error checked it twice a value; with `columns::write_bits`' loop it
    // measured 4 to 8% more instructions on mk48's, minecraft's and log's
    // encodes). The first error stops the writes; the values after it
    // are passed over.
    let (n, done) = items.fold(
        (0, Ok(())),
        |(n, done): (usize, crate::Result<()>), item| {
            // `n % N` is below `N` whatever `n`, so the index needs no
            // check (`n` is below `N` anyway; `N` a power of two makes it
            // a mask).
            if let Some(slot) = buf.get_mut(n % N) {
                *slot = item;
            }
            if n + 1 < N {
                return (n + 1, done);
            }
            let done = done.and_then(|()| T::pack_slice(&buf, w));
            // After an error nothing more is written, nor handed over.
            if done.is_ok() {
                w.checkpoint();
            }
            (0, done)
        },
    );
    done?;
    T::pack_slice(buf.get(..n).unwrap_or_default(), w)
}

/// Writes one block (1 to [`BLOCK`] values) in its smallest form; ties go
/// to whole-byte offsets, then to bits, then to lengths, in the order they
/// decode fastest (`docs/format.md` §22).
#[inline(always)]
pub(super) fn pack_block<T: Lane, L: crate::Layout>(block: &[T], w: &mut Writer<'_, L>) {
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
    // On AVX-512, 32-bit values in one vector pass (`avx512::scan`): less
    // than the portable pass' compares a length threshold.
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    let fast = super::avx512::scan(block);
    #[cfg(not(all(feature = "std", target_arch = "x86_64", not(miri))))]
    let fast = None;
    let Scan {
        lo,
        hi,
        varints,
        bytes,
        any,
    } = fast.unwrap_or_else(|| {
        // Varints and lengths take a byte a value at least, so when an
        // offset form takes no more, they need not be counted (ties go to
        // offsets): a third of the scan's work for 32-bit values.
        scan(block, |lo, hi| {
            let (_, _, _, fixed, packed) = offset_forms(lo, hi);
            fixed.min(packed)
        })
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
        VARINTS => put_varints(block, varints as usize, w),
        BITS => {
            w.write_u8(bits as u8);
            base.write_scalar(w);
            // Slack for the grouped writers' whole stores (16 bytes at a
            // group of at most 16 bytes, 32 at one of 17 to 32).
            let out = w.extend_zeroed(bits_len(n, bits) + BITS_SLACK);
            put_bits(block, lo, bits, out);
            w.unextend(BITS_SLACK);
        }
        LENGTHS2 | LENGTHS4 => put_lengths(block, len_bits, lengths, w),
        _ => {
            base.write_scalar(w);
            match width {
                0 => {}
                1 => put::<T, 1, _>(block, lo, w),
                2 => put::<T, 2, _>(block, lo, w),
                4 => put::<T, 4, _>(block, lo, w),
                8 => put::<T, 8, _>(block, lo, w),
                _ => put::<T, 16, _>(block, lo, w),
            }
        }
    }
}

/// Writes a block in the varint form: `total` bytes, each value's scalar
/// encoding. On AVX-512 eight varints a step, stored whole into slack.
#[inline(always)]
pub(super) fn put_varints<T: Lane, L: crate::Layout>(
    block: &[T],
    total: usize,
    w: &mut Writer<'_, L>,
) {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if super::avx512::has_varint_kernel::<T>() {
        let room = total + super::avx512::SLACK;
        let out = w.extend_zeroed(room);
        let written = super::avx512::put_varints(block, out);
        // `total` is exact (the scan's count); the kernel's own count
        // decides what stays regardless.
        debug_assert_eq!(written, total, "the scan's varint bytes");
        w.unextend(room.saturating_sub(written));
        return;
    }
    let _ = total;
    T::write_scalars(block, w)
}

/// Writes a block in the lengths form: `total` bytes, the codes of
/// `code_bits` bits (each value's byte length less one), then each value's
/// payload in that many little-endian bytes. Every payload is stored as a
/// whole word into slack past the end, then the cursor moves by its
/// length: no branch on the length.
#[inline(always)]
pub(super) fn put_lengths<T: Lane, L: crate::Layout>(
    block: &[T],
    code_bits: u32,
    total: usize,
    w: &mut Writer<'_, L>,
) {
    if code_bits == 2 {
        put_lengths_coded::<T, 2, _>(block, total, w)
    } else {
        put_lengths_coded::<T, 4, _>(block, total, w)
    }
}

#[inline(always)]
pub(super) fn put_lengths_coded<T: Lane, const CB: usize, L: crate::Layout>(
    block: &[T],
    total: usize,
    w: &mut Writer<'_, L>,
) {
    const SLACK: usize = 16;
    let per_byte = 8 / CB;
    let n_codes = codes_len(block.len(), CB as u32);
    let out = w.extend_zeroed(total + SLACK);
    let (codes, payloads) = out.split_at_mut(n_codes);
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let (done, mut pos) = super::x86::put_lengths(block, CB as u32, codes, payloads);
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
/// order: offset `i` starts at bit `i * bits` of `out`. Up to 32 bits,
/// eight offsets fill exactly `bits` bytes, and whole groups of eight are
/// written independently ([`put_bits_grouped`], [`put_bits_wide`]) while
/// `out` has room for their whole stores. The rest, and wider offsets,
/// are joined `K` at a time into one word of up to 64 bits, so the
/// accumulator that carries bits across words takes a step per group, not
/// per value.
#[inline(always)]
pub(super) fn put_bits<T: Lane>(block: &[T], lo: T::Key, bits: u32, out: &mut [u8]) {
    if bits > 16 {
        if bits > 32 {
            return put_bits_joined::<T, 1>(block, lo, bits, out);
        }
        // Eight offsets fill exactly `bits` bytes here too: groups first,
        // as below, and the rest joined in pairs.
        let done = put_bits_wide(block, lo, bits, out);
        if let (Some(block), Some(out)) =
            (block.get(done..), out.get_mut(done / 8 * bits as usize..))
        {
            put_bits_joined::<T, 2>(block, lo, bits, out);
        }
        return;
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

/// Bytes past a bit-packed block's end that [`put_bits_grouped`] and
/// [`put_bits_wide`] may store into (zeros, dropped after): at most
/// `16 - bits` and `32 - bits` (15) bytes.
pub(super) const BITS_SLACK: usize = 16;

/// [`put_bits_grouped`], by the AVX2 kernel where the CPU and `T` have
/// one (it shifts a group's offsets in vector lanes).
#[inline]
pub(super) fn put_bits_grouped_dispatch<T: Lane>(
    block: &[T],
    lo: T::Key,
    bits: u32,
    out: &mut [u8],
) -> usize {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if let Some(done) = super::x86::put_bits_grouped(block, lo, bits, out) {
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
pub(super) fn put_bits_grouped<T: Lane>(
    block: &[T],
    lo: T::Key,
    bits: u32,
    out: &mut [u8],
) -> usize {
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

/// Offsets of 17 to 32 bits, eight at a time while 32 bytes of `out`
/// remain: pairs joined in 64-bit words, pairs of pairs in two words, and
/// the group's `bits` bytes (at most 32) stored as four words at its first
/// byte; the bytes past them are zero, and the next group's stores
/// overwrite them. As [`put_bits_grouped`], no accumulator carries from
/// one group to the next (the joined writer's shifts through one register
/// took two thirds of a sorted-ids encode, `perf`). Every shift is of a
/// 64-bit word by 0 to 63 (one by 1 to 64 in two steps): `u128` shifts by
/// a variable compiled to tests and conditional moves. The values done.
#[inline(always)]
pub(super) fn put_bits_wide<T: Lane>(block: &[T], lo: T::Key, bits: u32, out: &mut [u8]) -> usize {
    let b = bits as usize;
    let offset = |x: T| x.key().wrapping_sub(lo).low64();
    // `x << n` for 1 <= n <= 64.
    let up = |x: u64, n: u32| (x << (n - 1)) << 1;
    // Two offsets in one word (2b <= 64), two such in two words: 4b bits,
    // the second word's 4b - 64 (4 to 64) of them in its low bits.
    let pair = |two: &[T]| match two {
        [x, y] => offset(*x) | offset(*y) << bits,
        _ => 0,
    };
    let quad = |four: &[T]| {
        let (p, q) = four.split_at(2);
        let (p, q) = (pair(p), pair(q));
        (p | up(q, 2 * bits), q >> (64 - 2 * bits))
    };
    // Where the second quad starts in the second word.
    let s = 4 * bits - 64;
    let mut done = 0;
    for (g, group) in block.chunks_exact(8).enumerate() {
        let Some(dst) = out.get_mut(g * b..g * b + 32) else {
            break;
        };
        let (low, high) = group.split_at(4);
        let ((a0, a1), (b0, b1)) = (quad(low), quad(high));
        let words = [
            a0,
            a1 | up(b0, s),
            b0 >> (64 - s) | up(b1, s),
            b1 >> (64 - s),
        ];
        for (dst, word) in dst.chunks_exact_mut(8).zip(words) {
            dst.copy_from_slice(&word.to_le_bytes());
        }
        done += 8;
    }
    done
}

#[inline(always)]
pub(super) fn put_bits_joined<T: Lane, const K: usize>(
    block: &[T],
    lo: T::Key,
    bits: u32,
    out: &mut [u8],
) {
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
pub(super) fn put<T: Lane, const W: usize, L: crate::Layout>(
    block: &[T],
    lo: T::Key,
    w: &mut Writer<'_, L>,
) {
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
