//! Lookup tables shared by the scan, the encoders and the decoders:
//! lengths by bit count, and the lengths form's minimum and mask by code.

use crate::varint::LEN_MASK;

/// The varint length of a `u64` by its leading zeros (index 64 is zero).
pub(super) const VARINT_LEN: [u8; 65] = {
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
pub(super) const LENGTHS_64: [u32; 65] = {
    let mut table = [0u32; 65];
    let mut lz = 0;
    while lz <= 64 {
        table[lz] = VARINT_LEN[lz] as u32 | (BYTE_LEN[lz] as u32) << 16;
        lz += 1;
    }
    table
};

/// The byte length (at least 1) of a `u64` by its leading zeros.
pub(super) const BYTE_LEN: [u8; 65] = {
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
pub(super) const VARINT_LEN_128: [u8; 129] = {
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
pub(super) const BYTE_LEN_128: [u8; 129] = {
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

/// The least payload that needs `len` bytes (a shorter one has a zero top
/// byte: not minimal).
pub(super) const LEN_MIN: [u64; 16] = {
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
pub(super) const LEN_MASK_128: [(u64, u64); 32] = {
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
