//! The block layout of packed integer sequences (`docs/format.md` §22):
//! the facts a reader needs to check lengths and skip blocks without the
//! codec.

/// Values per block. Every block but a sequence's last holds exactly this
/// many, so a decoder knows each block's count from the sequence length.
pub(crate) const BLOCK: usize = 256;

/// A block of fewer values (a short sequence, or a long one's last block)
/// has no header and is always varints: too few values for fixed offsets
/// to pay for a base, and short sequences stay exactly as compact as one
/// varint per value.
pub(crate) const SHORT: usize = 8;

/// Header of a block written as varints.
pub(crate) const VARINTS: u8 = 0;

/// The fixed widths in bytes; header `1 + i` selects `WIDTHS[i]` (width 0:
/// every value equals the base).
pub(crate) const WIDTHS: [usize; 6] = [0, 1, 2, 4, 8, 16];

/// Header of a block of bit-packed offsets: a byte with the width in bits
/// (1 to [`MAX_BITS`]) follows, then the base, then the offsets.
pub(crate) const BITS: u8 = 7;

/// The widest bit-packed offset: one 8-byte load at any byte holds it
/// whatever its bit position. Wider ranges take 8 or 16-byte offsets.
pub(crate) const MAX_BITS: u32 = 56;

/// The bytes `n` offsets of `bits` bits take, packed.
pub(crate) const fn bits_len(n: usize, bits: u32) -> usize {
    (n * bits as usize).div_ceil(8)
}

/// The least input a sequence of `len` packed values takes: every block
/// with a header has at least one byte more (a base, or a varint per
/// value); a short block one byte per value.
pub(crate) const fn min_size(len: usize) -> usize {
    let tail = len % BLOCK;
    let tail = if tail < SHORT { tail } else { 2 };
    (len / BLOCK).saturating_mul(2).saturating_add(tail)
}

/// The offset width a fixed-form header selects, if it is one (`0` is
/// the varint form, above 6 is invalid).
#[inline]
pub(crate) fn width(header: u8) -> Option<usize> {
    WIDTHS.get(usize::from(header).checked_sub(1)?).copied()
}
