//! The integer encoding: a little-endian *prefix varint*.
//!
//! The number of trailing one bits in the first byte says how many bytes
//! follow (0 to 8); the value sits above that marker, little-endian:
//!
//! | bytes | first byte  | value range        |
//! |-------|-------------|--------------------|
//! | 1     | `xxxxxxx0`  | 0 ..= 2^7 - 1      |
//! | 2     | `xxxxxx01`  | 2^7 ..= 2^14 - 1   |
//! | 3     | `xxxxx011`  | 2^14 ..= 2^21 - 1  |
//! | n ≤ 8 | n-1 ones, 0 | 2^(7(n-1)) ..= 2^(7n) - 1 |
//! | 9     | `11111111`  | 2^56 ..= 2^64 - 1 (8 raw bytes follow) |
//!
//! It is exactly as compact as LEB128 up to 56 bits and one byte shorter
//! above, but the decoder learns the length from the first byte, so it reads
//! with one load and one shift instead of a loop with a branch per byte.
//! Only the minimal form is accepted, so every value has one encoding.
//!
//! `u128` uses the same forms up to 2^56; above, `0xFF` is followed by a byte
//! `L` (8 to 16) and `L` little-endian bytes whose last is non-zero.

/// The longest encoding of a `u64`.
pub const MAX_LEN_U64: usize = 9;
/// The longest encoding of a `u128`.
pub const MAX_LEN_U128: usize = 18;

/// Why a varint failed to decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VarintError {
    /// The input ended inside the varint.
    End,
    /// A longer form than needed, or an invalid length byte.
    Invalid,
}

/// The least value of a varint with `extra` bytes after the first (a
/// smaller one has a shorter form).
pub(crate) const VARINT_MIN: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut extra = 1;
    while extra <= 8 {
        table[extra] = 1 << (7 * extra);
        extra += 1;
    }
    table
};

/// The mask of the low `len` bytes of a word (1 to 8; 0 and above 8:
/// all of it): a varint's bytes, or a lengths-form payload.
pub(crate) const LEN_MASK: [u64; 16] = {
    let mut table = [u64::MAX; 16];
    let mut len = 1;
    while len < 8 {
        table[len] = (1 << (8 * len)) - 1;
        len += 1;
    }
    table
};

/// How many bytes follow a varint's first for each position of its top
/// set bit (0 to 63; from 56 the value takes the 9-byte form, which
/// [`prefix_word`] is not for).
const EXTRA_BY_TOP_BIT: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut bit = 0;
    while bit < 64 {
        table[bit] = (bit / 7) as u8;
        bit += 1;
    }
    table
};

/// The low `n` bits set, for `n` of 0 to 7: the length marker of a varint
/// with `n` bytes after the first.
const LOW_ONES: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut n = 0;
    while n < 8 {
        table[n] = (1 << n) - 1;
        n += 1;
    }
    table
};

/// The varint of `v < 2^56` as the low bytes of one little-endian word,
/// and how many bytes it takes (1 to 8): the value shifted past its
/// length marker, the marker's ones below. Both from tables indexed by
/// the top bit: the divide by 7 and the shift that made the marker were
/// a third of the instructions of writing a varint field. The one home
/// of the varint's layout for every encoder.
#[inline(always)]
pub(crate) fn prefix_word(v: u64) -> (u64, usize) {
    let top = (63 - (v | 1).leading_zeros()) as usize;
    let n = EXTRA_BY_TOP_BIT[top & 63] as usize;
    ((v << (n + 1)) | LOW_ONES[n & 7], n + 1)
}

/// How many bytes follow the first for `v < 2^56` (0 to 7).
#[inline(always)]
pub(crate) const fn extra_bytes(v: u64) -> u32 {
    let bits = 64 - (v | 1).leading_zeros();
    (bits - 1) / 7
}

/// The 9-byte form of a value of 2^56 or more: `0xFF`, then its 8
/// little-endian bytes (`docs/format.md` §2).
#[inline(always)]
pub(crate) fn long_form(v: u64) -> [u8; MAX_LEN_U64] {
    let mut block = [0xFF; MAX_LEN_U64];
    if let Some(rest) = block.get_mut(1..) {
        rest.copy_from_slice(&v.to_le_bytes());
    }
    block
}

/// Encodes `v`; returns the buffer and how many of its bytes are used.
#[inline]
pub fn encode_u64(v: u64) -> ([u8; MAX_LEN_U64], usize) {
    let mut out = [0u8; MAX_LEN_U64];
    if v < 1 << 7 {
        out[0] = (v as u8) << 1;
        return (out, 1);
    }
    if v >= 1 << 56 {
        return (long_form(v), MAX_LEN_U64);
    }
    // 8..=56 significant bits: n extra bytes, n = ceil(bits / 7) - 1.
    let (word, len) = prefix_word(v);
    out[..8].copy_from_slice(&word.to_le_bytes());
    (out, len)
}

/// The encoded length of `v` without encoding it.
#[inline]
pub const fn len_u64(v: u64) -> usize {
    if v >= 1 << 56 {
        return 9;
    }
    extra_bytes(v) as usize + 1
}

/// How many bytes the varint whose first byte is `first` takes (1 to 9):
/// one plus the first byte's trailing one bits (`docs/format.md` §2).
#[inline]
pub(crate) const fn encoded_len(first: u8) -> usize {
    first.trailing_ones() as usize + 1
}

/// [`encoded_len`] less one, from the varint's first 8 bytes as a
/// little-endian word: the bytes after the first (0 to 8), with no branch.
#[inline(always)]
pub(crate) const fn extra_bytes_of_word(word: u64) -> usize {
    ((!word) | 0x100).trailing_zeros() as usize
}

/// Decodes a `u64` from the start of `input`; returns the value and the
/// number of bytes read.
#[inline]
pub(crate) fn decode_u64(input: &[u8]) -> Result<(u64, usize), VarintError> {
    let Some(&first) = input.first() else {
        return Err(VarintError::End);
    };
    if first & 1 == 0 {
        return Ok(((first >> 1) as u64, 1));
    }
    decode_u64_multi(input, first)
}

#[inline]
fn decode_u64_multi(input: &[u8], first: u8) -> Result<(u64, usize), VarintError> {
    let n = encoded_len(first) - 1; // 1..=8 extra bytes
    if n == 8 {
        let Some(bytes) = input.get(1..9) else {
            return Err(VarintError::End);
        };
        let mut raw = [0u8; 8];
        raw.copy_from_slice(bytes);
        let v = u64::from_le_bytes(raw);
        return if v >= 1 << 56 {
            Ok((v, 9))
        } else {
            Err(VarintError::Invalid)
        };
    }
    let len = n + 1;
    let word = if let Some(bytes) = input.get(..8) {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(bytes);
        // Keep only the `len` bytes of this varint.
        let w = u64::from_le_bytes(raw);
        if len == 8 {
            w
        } else {
            w & LEN_MASK[len & 15]
        }
    } else {
        let Some(bytes) = input.get(..len) else {
            return Err(VarintError::End);
        };
        let mut raw = [0u8; 8];
        raw[..len].copy_from_slice(bytes);
        u64::from_le_bytes(raw)
    };
    let v = word >> (n + 1);
    if v < VARINT_MIN[n & 15] {
        return Err(VarintError::Invalid);
    }
    Ok((v, len))
}

/// The bytes after `0xFF` and the count byte in the long form of a
/// `u128` (from 2^56): its value without leading zero bytes, 8 to 16.
#[inline(always)]
pub(crate) const fn long_u128_bytes(v: u128) -> usize {
    16 - (v.leading_zeros() / 8) as usize
}

/// Encodes a `u128`; returns the buffer and how many of its bytes are used.
#[inline]
pub fn encode_u128(v: u128) -> ([u8; MAX_LEN_U128], usize) {
    let mut out = [0u8; MAX_LEN_U128];
    if v < 1 << 56 {
        let (small, len) = encode_u64(v as u64);
        out[..len].copy_from_slice(&small[..len]);
        return (out, len);
    }
    let bytes = long_u128_bytes(v);
    out[0] = 0xFF;
    out[1] = bytes as u8;
    out[2..2 + bytes].copy_from_slice(&v.to_le_bytes()[..bytes]);
    (out, 2 + bytes)
}

/// Decodes a `u128` from the start of `input`.
#[inline]
pub(crate) fn decode_u128(input: &[u8]) -> Result<(u128, usize), VarintError> {
    match input.first() {
        None => Err(VarintError::End),
        Some(&0xFF) => {
            let Some(&count) = input.get(1) else {
                return Err(VarintError::End);
            };
            let count = count as usize;
            if !(8..=16).contains(&count) {
                return Err(VarintError::Invalid);
            }
            let Some(bytes) = input.get(2..2 + count) else {
                return Err(VarintError::End);
            };
            // Minimal: the top byte is non-zero, and with 8 bytes the value
            // must not fit the shorter forms (below 2^56).
            if bytes[count - 1] == 0 {
                return Err(VarintError::Invalid);
            }
            let mut raw = [0u8; 16];
            raw[..count].copy_from_slice(bytes);
            let v = u128::from_le_bytes(raw);
            if v < 1 << 56 {
                return Err(VarintError::Invalid);
            }
            Ok((v, 2 + count))
        }
        Some(_) => decode_u64(input).map(|(v, len)| (v as u128, len)),
    }
}

/// An `i128` as the `u128` the layout `L` writes: zig-zag (for a short
/// varint) in the compact layout, its two's-complement bits in the fixed
/// one.
#[inline(always)]
pub(crate) fn zigzag_i128_in<L: crate::Layout>(v: i128) -> u128 {
    if L::FIXED {
        v as u128
    } else {
        zigzag_i128(v)
    }
}

/// [`zigzag_i128_in`] undone.
#[inline(always)]
pub(crate) fn unzigzag_i128_in<L: crate::Layout>(v: u128) -> i128 {
    if L::FIXED {
        v as i128
    } else {
        unzigzag_i128(v)
    }
}

/// The zig-zag pair of each signed width: the one home of the formula
/// (`docs/format.md` §3), for the scalar encodings and the packed blocks'
/// payloads alike.
macro_rules! zigzag {
    ($($zig:ident, $unzig:ident: $s:ty => $u:ty;)*) => {$(
        /// Zig-zag maps signed to unsigned so that small magnitudes stay
        /// small: 0, -1, 1, -2, ... become 0, 1, 2, 3, ...
        #[inline]
        pub const fn $zig(v: $s) -> $u {
            ((v << 1) ^ (v >> (<$s>::BITS - 1))) as $u
        }

        /// The inverse of the zig-zag of the same width.
        #[inline]
        pub const fn $unzig(v: $u) -> $s {
            ((v >> 1) as $s) ^ -((v & 1) as $s)
        }

        impl ZigZag for $s {
            type Unsigned = $u;
            #[inline(always)]
            fn zigzag(self) -> $u {
                $zig(self)
            }
            #[inline(always)]
            fn unzigzag(v: $u) -> $s {
                $unzig(v)
            }
        }
    )*};
}

/// Zig-zag in a signed type's own width, for code generic over widths
/// (the packed blocks' lanes).
pub(crate) trait ZigZag: Sized {
    /// The unsigned type of the same width.
    type Unsigned;
    /// The zig-zag of `self`.
    fn zigzag(self) -> Self::Unsigned;
    /// The value whose zig-zag is `v`.
    fn unzigzag(v: Self::Unsigned) -> Self;
}

zigzag! {
    zigzag_i16, unzigzag_i16: i16 => u16;
    zigzag_i32, unzigzag_i32: i32 => u32;
    zigzag_i64, unzigzag_i64: i64 => u64;
    zigzag_i128, unzigzag_i128: i128 => u128;
}

/// The varint at `pos` and its length, when the fast paths can read it:
/// 8 bytes remain, so that one load covers every form but the 9-byte one
/// and the length comes from the first byte with no branch on it; or,
/// near the end of the input, any whole form that fits in what remains.
/// `None` for everything else (a form running past the end, the 9-byte
/// form, a non-minimal form), which the reader's slow path decodes or
/// reports. The one home of the varint fast path, for the reader and the
/// cursor alike.
#[inline(always)]
pub(crate) fn fast_at(input: &[u8], pos: usize) -> Option<(u64, usize)> {
    // Sliced to `pos + 8` with a wrapping add, the bounds check is a
    // compare and a carry (`get(pos..)` first cost two conditional moves).
    if let Some(chunk) = input.get(pos..pos.wrapping_add(8)) {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(chunk);
        return from_word(u64::from_le_bytes(raw));
    }
    near_end_at(input, pos)
}

/// The varint at the start of `word` (8 input bytes, little-endian) and
/// its length, unless it is the 9-byte form or not minimal.
#[inline(always)]
pub(crate) fn from_word(word: u64) -> Option<(u64, usize)> {
    // 0 to 8 bytes after the first; the 9-byte form (8) finds a value
    // below its least and takes the slow path.
    let extra = extra_bytes_of_word(word);
    let v = (word & LEN_MASK[(extra + 1) & 15]) >> (extra + 1);
    // Minimal form: with `extra` bytes the value is at least 2^(7 extra).
    // Both from tables: the shifts they replace cost a third of a
    // varint's instructions.
    (v >= VARINT_MIN[extra & 15]).then_some((v, extra + 1))
}

/// The varint at `pos` where fewer than 8 bytes remain (the last fields
/// of most values): decoded from a zero-padded copy of what remains, and
/// accepted only if it ends inside the input. (A form that runs past the
/// end finds zeros in place of the missing bytes; the reader's slow path
/// then reports it.)
#[inline(always)]
pub(crate) fn near_end_at(input: &[u8], pos: usize) -> Option<(u64, usize)> {
    let rest = input.get(pos..)?;
    let mut raw = [0u8; 8];
    for (dst, &src) in raw.iter_mut().zip(rest) {
        *dst = src;
    }
    from_word(u64::from_le_bytes(raw)).filter(|&(_, len)| len <= rest.len())
}

/// Whether the `u128` varint at `pos` is below 2^56, where its forms are
/// those of `u64` (its first byte is not `0xFF`).
#[inline(always)]
pub(crate) fn short_u128_at(input: &[u8], pos: usize) -> bool {
    input.get(pos).is_some_and(|&b| b != 0xFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(v: u64) -> alloc::vec::Vec<u8> {
        let (b, n) = encode_u64(v);
        b[..n].to_vec()
    }

    /// The fast paths (a word load, or a zero-padded copy of the last
    /// bytes) decode what the full decoder decodes, and nothing it
    /// rejects, at every distance from the input's end: each length of
    /// varint, cut at every byte and followed by 0 to 9 more.
    #[test]
    fn fast_paths_agree_with_the_full_decoder_near_the_end() {
        let mut inputs: alloc::vec::Vec<alloc::vec::Vec<u8>> = [
            0,
            1,
            127,
            128,
            300,
            (1 << 14) - 1,
            1 << 14,
            1 << 21,
            (1 << 28) + 5,
            1 << 35,
            1 << 42,
            (1 << 49) + 77,
            (1 << 56) - 1,
            1 << 56,
            u64::MAX,
        ]
        .map(enc)
        .into();
        // Longer forms than needed: 0 in two bytes, 127 in three.
        inputs.push(alloc::vec![0x01, 0x00]);
        inputs.push(alloc::vec![0xFB, 0x03, 0x00]);
        let mut decoded = 0;
        for bytes in &inputs {
            for after in 0..10 {
                let mut input = bytes.clone();
                input.extend(core::iter::repeat_n(0xA5, after));
                for cut in 0..=input.len() {
                    let input = &input[..cut];
                    let full = decode_u64(input).ok();
                    if let Some(fast) = fast_at(input, 0) {
                        assert_eq!(Some(fast), full, "{input:x?}");
                        decoded += 1;
                    }
                    // The same after bytes before it, and never past the end.
                    let mut led = alloc::vec![0xFF, 0x00, 0x03];
                    led.extend_from_slice(input);
                    assert_eq!(fast_at(&led, 3), fast_at(input, 0), "{input:x?}");
                    assert_eq!(fast_at(input, cut + 1), None);
                    // Whole forms of up to 8 bytes never need the slow path.
                    if bytes.len() <= 8 && cut >= bytes.len() && full.is_some() {
                        assert_eq!(fast_at(input, 0), full, "{input:x?}");
                    }
                }
            }
        }
        assert!(decoded > 500);
    }

    /// The table in docs/format.md, row by row.
    #[test]
    fn spec_table_u64() {
        let rows: &[(u64, &[u8])] = &[
            (0, &[0x00]),
            (1, &[0x02]),
            (127, &[0xFE]),
            (128, &[0x01, 0x02]),
            (300, &[0xB1, 0x04]),
            (16383, &[0xFD, 0xFF]),
            (16384, &[0x03, 0x00, 0x02]),
            ((1 << 21) - 1, &[0xFB, 0xFF, 0xFF]),
            (1 << 21, &[0x07, 0x00, 0x00, 0x02]),
            (
                (1 << 56) - 1,
                &[0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            ),
            (1 << 56, &[0xFF, 0, 0, 0, 0, 0, 0, 0, 0x01]),
            (
                u64::MAX,
                &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            ),
        ];
        for &(v, bytes) in rows {
            assert_eq!(enc(v), bytes, "encoding {v}");
            assert_eq!(len_u64(v), bytes.len(), "length of {v}");
            assert_eq!(decode_u64(bytes), Ok((v, bytes.len())), "decoding {v}");
        }
    }

    #[test]
    fn every_boundary_round_trips() {
        for shift in 0..64 {
            for v in [
                (1u64 << shift).wrapping_sub(1),
                1u64 << shift,
                (1u64 << shift) + 1,
            ] {
                let bytes = enc(v);
                assert_eq!(decode_u64(&bytes), Ok((v, bytes.len())));
                // Every proper prefix is too short.
                for cut in 0..bytes.len() {
                    assert_eq!(decode_u64(&bytes[..cut]), Err(VarintError::End));
                }
            }
        }
    }

    #[test]
    fn non_minimal_forms_are_rejected() {
        // 5 in two bytes, in three bytes, and 2^56 - 1 in nine bytes.
        assert_eq!(decode_u64(&[0x15, 0x00]), Err(VarintError::Invalid));
        assert_eq!(decode_u64(&[0x2B, 0x00, 0x00]), Err(VarintError::Invalid));
        assert_eq!(
            decode_u64(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]),
            Err(VarintError::Invalid)
        );
        // A zero in the long form.
        assert_eq!(
            decode_u64(&[0xFF, 0, 0, 0, 0, 0, 0, 0, 0]),
            Err(VarintError::Invalid)
        );
    }

    /// `v` written with `extra` bytes after the first, minimal or not.
    fn forced(v: u64, extra: u32) -> alloc::vec::Vec<u8> {
        if extra == 8 {
            let mut out = alloc::vec![0xFF];
            out.extend_from_slice(&v.to_le_bytes());
            return out;
        }
        let word = (v << (extra + 1)) | ((1 << extra) - 1);
        word.to_le_bytes()[..extra as usize + 1].to_vec()
    }

    #[test]
    fn the_reader_rejects_every_longer_form_and_nothing_else() {
        // Through the reader's fast path (8 bytes left) and near the end,
        // at each length: the largest value a shorter form holds is
        // rejected, the least one this length needs is read.
        for extra in 1..=8u32 {
            let least = if extra == 8 {
                1 << 56
            } else {
                1u64 << (7 * extra)
            };
            for (v, minimal) in [
                (least - 1, false),
                (least / 2, false),
                (0, false),
                (least, true),
            ] {
                for pad in [0usize, 8] {
                    let mut bytes = forced(v, extra);
                    let len = bytes.len();
                    bytes.resize(len + pad, 0);
                    let mut r = crate::Reader::new(&bytes, &crate::Options::new());
                    let got = r.read_varint();
                    if minimal {
                        assert_eq!(got.ok(), Some(v), "{v} in {len} bytes");
                        assert_eq!(r.position(), len);
                    } else {
                        let kind = got.err().map(|e| e.kind());
                        assert_eq!(
                            kind,
                            Some(crate::ErrorKind::InvalidVarint),
                            "{v} in {len} bytes"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn u128_forms() {
        for v in [
            0u128,
            1,
            127,
            128,
            (1 << 56) - 1,
            1 << 56,
            u64::MAX as u128,
            1 << 64,
            u128::MAX,
        ] {
            let (b, n) = encode_u128(v);
            assert_eq!(decode_u128(&b[..n]), Ok((v, n)), "value {v}");
        }
        let (b, n) = encode_u128(1 << 56);
        assert_eq!(&b[..n], &[0xFF, 8, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(encode_u128(u128::MAX).1, MAX_LEN_U128);
        // Length byte out of range, top byte zero, and an 8-byte value below 2^56.
        assert_eq!(decode_u128(&[0xFF, 17]), Err(VarintError::Invalid));
        assert_eq!(
            decode_u128(&[0xFF, 9, 0, 0, 0, 0, 0, 0, 0, 1, 0]),
            Err(VarintError::Invalid)
        );
        assert_eq!(
            decode_u128(&[0xFF, 8, 1, 0, 0, 0, 0, 0, 0, 0]),
            Err(VarintError::Invalid)
        );
    }

    #[test]
    fn zigzag_table() {
        for (v, z) in [
            (0i64, 0u64),
            (-1, 1),
            (1, 2),
            (-2, 3),
            (i64::MAX, u64::MAX - 1),
            (i64::MIN, u64::MAX),
        ] {
            assert_eq!(zigzag_i64(v), z);
            assert_eq!(unzigzag_i64(z), v);
        }
        for v in [0i128, -1, 1, i128::MAX, i128::MIN] {
            assert_eq!(unzigzag_i128(zigzag_i128(v)), v);
        }
    }
}
