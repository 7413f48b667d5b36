//! The integer types whose sequences are packed ([`Lane`]) and their
//! ordered key spaces ([`Key`]): the arithmetic every form shares.

use crate::{Reader, Result, Writer};

use super::tables::BYTE_LEN;

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
    fn write_scalars<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>);
    /// Writes one scalar encoding (a block's base).
    fn write_scalar<L: crate::Layout>(self, w: &mut Writer<'_, L>);
    /// Reads one scalar encoding, checked against the type's range.
    fn read_scalar<L: crate::Layout>(r: &mut Reader<'_, L>) -> Result<Self>;
}

/// Whether a bit-packed block from `base` with `bits`-bit offsets can hold
/// a value out of the type's range: only when the base leaves less room
/// above it than the widest offset (or is out of range itself). The
/// decoders check each value only then.
#[inline(always)]
pub(super) fn bits_may_overflow<T: Lane>(base: T::Key, bits: u32) -> bool {
    let widest = <T::Key as Key>::from_u64((1u64 << bits) - 1);
    base > T::KEY_MAX || T::KEY_MAX.wrapping_sub(base) < widest
}

/// `Lane` for the integer types up to 64 bits, whose scalars are `u64`
/// varints (zig-zag for signed).
macro_rules! lane64 {
    (unsigned $($ty:ty => $key:ty;)*) => {$(
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
            fn write_scalars<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>) {
                w.write_varints(<$ty as crate::Pack>::MAX_SIZE, items.iter().map(|&x| x as u64));
            }
            #[inline(always)]
            fn write_scalar<L: crate::Layout>(self, w: &mut Writer<'_, L>) { w.write_varint(self as u64) }
            #[inline(always)]
            fn read_scalar<L: crate::Layout>(r: &mut Reader<'_, L>) -> Result<Self> {
                <$ty as crate::Unpack<'_>>::unpack(r)
            }
        }
    )*};
    (signed $($ty:ty => $key:ty, $wide:ty;)*) => {$(
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
                crate::varint::ZigZag::zigzag(self as $wide)
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
                let v = <$wide as crate::varint::ZigZag>::unzigzag(payload);
                (v as $ty, v as $ty as $wide == v)
            }
            #[inline]
            fn write_scalars<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>) {
                w.write_varints(<$ty as crate::Pack>::MAX_SIZE, items.iter().map(|&x| crate::varint::zigzag_i64(x as i64)));
            }
            #[inline(always)]
            fn write_scalar<L: crate::Layout>(self, w: &mut Writer<'_, L>) { w.write_varint_signed(self as i64) }
            #[inline(always)]
            fn read_scalar<L: crate::Layout>(r: &mut Reader<'_, L>) -> Result<Self> {
                <$ty as crate::Unpack<'_>>::unpack(r)
            }
        }
    )*};
}

// Each scalar's longest varint is its `Pack::MAX_SIZE` (3, 5 or 9 bytes).
lane64!(unsigned u16 => u16; u32 => u32; u64 => u64; usize => u64;);
lane64!(signed i16 => u16, i16; i32 => u32, i32; i64 => u64, i64; isize => u64, i64;);

/// The length of a `u128` varint.
#[inline(always)]
pub(super) fn u128_len(v: u128) -> u32 {
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
    fn write_scalars<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>) {
        items.iter().for_each(|&v| w.write_varint_u128(v));
    }
    #[inline(always)]
    fn write_scalar<L: crate::Layout>(self, w: &mut Writer<'_, L>) {
        w.write_varint_u128(self)
    }
    #[inline(always)]
    fn read_scalar<L: crate::Layout>(r: &mut Reader<'_, L>) -> Result<Self> {
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
        crate::varint::zigzag_i64((self >> 64) as i64) >> 56
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
    fn write_scalars<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>) {
        items
            .iter()
            .for_each(|&v| w.write_varint_u128(crate::varint::zigzag_i128(v)));
    }
    #[inline(always)]
    fn write_scalar<L: crate::Layout>(self, w: &mut Writer<'_, L>) {
        w.write_varint_u128(crate::varint::zigzag_i128(self))
    }
    #[inline(always)]
    fn read_scalar<L: crate::Layout>(r: &mut Reader<'_, L>) -> Result<Self> {
        r.read_varint_u128().map(crate::varint::unzigzag_i128)
    }
}
