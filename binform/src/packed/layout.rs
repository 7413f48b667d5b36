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

/// Header of a block of byte-length-coded values with 2-bit codes: each
/// value's payload (its varint's value, zig-zagged for signed types) in 1
/// to 4 little-endian bytes, the lengths first, four to a byte.
pub(crate) const LENGTHS2: u8 = 8;

/// Header of a block of byte-length-coded values with 4-bit codes (1 to
/// 16 bytes a payload, two lengths to a byte).
pub(crate) const LENGTHS4: u8 = 9;

/// The bits of one length code under a lengths-form header, if it is one.
#[inline]
pub(crate) const fn code_bits(header: u8) -> Option<u32> {
    match header {
        LENGTHS2 => Some(2),
        LENGTHS4 => Some(4),
        _ => None,
    }
}

/// The control bytes of `n` length codes of `code_bits` bits.
pub(crate) const fn codes_len(n: usize, code_bits: u32) -> usize {
    (n * code_bits as usize).div_ceil(8)
}

/// The payload bytes a lengths-form block's control bytes announce: each
/// code is its value's length less one. Codes past the block's count must
/// be zero (checked by the reader), so whole bytes can be summed.
#[inline]
pub(crate) fn payload_len(codes: &[u8], n: usize, code_bits: u32) -> usize {
    // Eight control bytes at a time: fields summed pairwise within the
    // word down to bytes, then the bytes by one multiply. The scalar
    // per-byte sum vectorized badly and cost as much as decoding the
    // values.
    let mut words = codes.chunks_exact(8);
    let mut sum = 0;
    for word in &mut words {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(word);
        let w = u64::from_le_bytes(raw);
        let nibbles = if code_bits == 2 {
            (w & 0x3333_3333_3333_3333) + ((w >> 2) & 0x3333_3333_3333_3333)
        } else {
            w
        };
        let bytes = (nibbles & 0x0F0F_0F0F_0F0F_0F0F) + ((nibbles >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
        // At most 8 * 30 = 240: no byte carries into the next.
        sum += (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    }
    let rest: usize = if code_bits == 2 {
        words
            .remainder()
            .iter()
            .map(|&b| ((b & 0x55).count_ones() + 2 * (b & 0xAA).count_ones()) as usize)
            .sum()
    } else {
        words
            .remainder()
            .iter()
            .map(|&b| usize::from(b & 15) + usize::from(b >> 4))
            .sum()
    };
    n + sum + rest
}

/// The longest length a block's codes announce (padding codes are zero,
/// so whole bytes can be looked at).
pub(crate) fn codes_longest(codes: &[u8], code_bits: u32) -> usize {
    let top = codes.iter().fold(0u8, |top, &b| {
        if code_bits == 2 {
            top.max(b & 3)
                .max((b >> 2) & 3)
                .max((b >> 4) & 3)
                .max(b >> 6)
        } else {
            top.max(b & 15).max(b >> 4)
        }
    });
    usize::from(top) + 1
}

/// Whether the unused codes of a lengths-form block's last control byte
/// are zero (so that one block has one encoding).
#[inline]
pub(crate) fn padding_is_zero(codes: &[u8], n: usize, code_bits: u32) -> bool {
    let used = (n * code_bits as usize) % 8;
    match codes.last() {
        Some(&last) if used != 0 => last >> used == 0,
        _ => true,
    }
}

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

/// The offset width a fixed-form header (1 to 6) selects, if it is one.
#[inline]
pub(crate) fn width(header: u8) -> Option<usize> {
    WIDTHS.get(usize::from(header).checked_sub(1)?).copied()
}

/// The highest header: headers above it name no form.
pub(crate) const LAST_HEADER: u8 = LENGTHS4;

/// What a block's header announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// One varint a value ([`VARINTS`]).
    Varints,
    /// A base and offsets of this many bytes (headers 1 to 6).
    Fixed(usize),
    /// A bit width, a base and bit-packed offsets ([`BITS`]).
    Bits,
    /// Length codes of this many bits, then payloads ([`LENGTHS2`],
    /// [`LENGTHS4`]).
    Lengths(u32),
}

/// The form `header` announces, or what is wrong with it: the one reading
/// of a header, for the decoder and for the reader that skips blocks.
#[inline]
pub(crate) fn form(header: u8) -> Result<Form, alloc::string::String> {
    match header {
        VARINTS => Ok(Form::Varints),
        BITS => Ok(Form::Bits),
        _ => match (code_bits(header), width(header)) {
            (Some(code_bits), _) => Ok(Form::Lengths(code_bits)),
            (None, Some(width)) => Ok(Form::Fixed(width)),
            (None, None) => Err(alloc::format!(
                "packed block header {header} is not 0 to {LAST_HEADER}"
            )),
        },
    }
}

/// Checks a bit-packed block's width for integers of `key_bits` bits: 1
/// to the narrower of [`MAX_BITS`] and the key, or what is wrong.
#[inline]
pub(crate) fn check_bits(bits: u32, key_bits: u32) -> Result<(), alloc::string::String> {
    let widest = MAX_BITS.min(key_bits);
    if (1..=widest).contains(&bits) {
        return Ok(());
    }
    Err(alloc::format!(
        "packed block of {bits}-bit offsets for a {key_bits}-bit integer (1 to {widest} allowed)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every header byte reads as exactly one form, or as the error; the
    /// headers of format.md §22's table are the forms.
    #[test]
    fn every_header_reads_as_its_form() {
        for header in 0..=u8::MAX {
            let expected = match header {
                0 => Ok(Form::Varints),
                1..=6 => Ok(Form::Fixed(WIDTHS[usize::from(header) - 1])),
                7 => Ok(Form::Bits),
                8 => Ok(Form::Lengths(2)),
                9 => Ok(Form::Lengths(4)),
                _ => Err(alloc::format!("packed block header {header} is not 0 to 9")),
            };
            assert_eq!(form(header), expected, "{header}");
        }
        assert!(check_bits(0, 32).is_err());
        assert!(check_bits(1, 32).is_ok() && check_bits(32, 32).is_ok());
        assert_eq!(
            check_bits(33, 32).unwrap_err(),
            "packed block of 33-bit offsets for a 32-bit integer (1 to 32 allowed)"
        );
        assert!(check_bits(56, 64).is_ok() && check_bits(57, 128).is_err());
    }

    #[test]
    fn payload_len_sums_every_code() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for code_bits in [2, 4] {
            for len in 0..70 {
                let codes: alloc::vec::Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        state as u8
                    })
                    .collect();
                let n = len * 8 / code_bits as usize;
                let mask = (1usize << code_bits) - 1;
                let expected: usize = (0..n)
                    .map(|i| {
                        let bit = i * code_bits as usize;
                        (usize::from(codes[bit / 8]) >> (bit % 8) & mask) + 1
                    })
                    .sum();
                assert_eq!(payload_len(&codes, n, code_bits), expected, "{codes:?}");
            }
        }
    }
}
