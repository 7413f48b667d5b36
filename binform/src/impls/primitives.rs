//! Integers, floats, `bool`, `char`, `()` and the `NonZero` family.

use alloc::format;
use core::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize,
};

use crate::plain::Plain;
use crate::read::cursor::Source;
use crate::read::ReadCursor;
use crate::tolerant::wire::Wire;
use crate::{Encoding, Error, ErrorKind, Pack, Reader, Result, Unpack, Writer};

/// A scalar's `Pack::MAX_SIZE` and `pack_reserved`: `$put`, the cursor's
/// unchecked write, of what `$value` makes of the value.
macro_rules! reserved {
    ($max:expr, $put:ident, $value:expr) => {
        const MAX_SIZE: usize = $max;

        #[inline(always)]
        #[allow(unsafe_code)]
        unsafe fn pack_reserved(
            &self,
            c: &mut crate::__private::Cursor<'_, '_>,
        ) -> Result<crate::__private::Kept<Self>> {
            // SAFETY: the caller made room for `MAX_SIZE` and the slack;
            // `$put` advances by at most `MAX_SIZE` and stores at most 5
            // bytes past that (see `RESERVE_SLACK`), which is the word
            // `Kept` gives.
            unsafe {
                c.$put(($value)(self));
                Ok(crate::__private::Kept::promise())
            }
        }
    };
}

// SAFETY (for every `Plain::new_unchecked(true)` in this file): `u8`, `i8`,
// `f32` and `f64` have no padding, every bit pattern is a valid value, and
// their encoding is their little-endian bytes.

impl Encoding for u8 {
    encoding_builtin!("u8");
    const WIRE: Wire = Wire::Byte;
    #[allow(unsafe_code)]
    const PLAIN: Plain<Self> = unsafe { Plain::new_unchecked(true) };
}

impl Pack for u8 {
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        w.write_u8(*self);
        Ok(())
    }

    #[inline(always)]
    fn pack_cursor(&self, c: &mut crate::__private::Cursor<'_, '_>) -> Result<()> {
        c.write_u8(*self);
        Ok(())
    }

    reserved!(1, put_u8, |v: &Self| *v);

    #[inline(always)]
    fn pack_field(&self, gap_key: u64, w: &mut Writer<'_>) -> Result<()> {
        w.write_keyed_bytes(gap_key | u64::from(Wire::Byte.bits()), [*self]);
        Ok(())
    }
}

impl<'de> Unpack<'de> for u8 {
    const MIN_SIZE: usize = 1;

    #[inline(always)]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        r.read_u8()
    }

    #[inline(always)]
    fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
        c.read_u8()
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(0)
    }
}

impl Encoding for i8 {
    encoding_builtin!("i8");
    const WIRE: Wire = Wire::Byte;
    #[allow(unsafe_code)]
    const PLAIN: Plain<Self> = unsafe { Plain::new_unchecked(true) };
}

impl Pack for i8 {
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        w.write_u8(*self as u8);
        Ok(())
    }

    #[inline(always)]
    fn pack_cursor(&self, c: &mut crate::__private::Cursor<'_, '_>) -> Result<()> {
        c.write_u8(*self as u8);
        Ok(())
    }

    reserved!(1, put_u8, |v: &Self| *v as u8);

    #[inline(always)]
    fn pack_field(&self, gap_key: u64, w: &mut Writer<'_>) -> Result<()> {
        w.write_keyed_bytes(gap_key | u64::from(Wire::Byte.bits()), [*self as u8]);
        Ok(())
    }
}

impl<'de> Unpack<'de> for i8 {
    const MIN_SIZE: usize = 1;

    #[inline(always)]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        r.read_u8().map(|b| b as i8)
    }

    #[inline(always)]
    fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
        c.read_u8().map(|b| b as i8)
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(0)
    }
}

impl Encoding for bool {
    encoding_builtin!("bool");
    const WIRE: Wire = Wire::Byte;
}

impl Pack for bool {
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        w.write_u8(*self as u8);
        Ok(())
    }

    #[inline(always)]
    fn pack_cursor(&self, c: &mut crate::__private::Cursor<'_, '_>) -> Result<()> {
        c.write_u8(*self as u8);
        Ok(())
    }

    reserved!(1, put_u8, |v: &Self| *v as u8);

    #[inline(always)]
    fn pack_field(&self, gap_key: u64, w: &mut Writer<'_>) -> Result<()> {
        w.write_keyed_bytes(gap_key | u64::from(Wire::Byte.bits()), [*self as u8]);
        Ok(())
    }

    /// A byte a value, converted in one pass that vectorizes.
    #[inline]
    fn pack_slice(items: &[Self], w: &mut Writer<'_>) -> Result<()> {
        w.extend_mapped(items, u8::from);
        Ok(())
    }
}

/// Out of line, so that `bool::unpack` stays small enough to inline into
/// every derived decoder (with the `format!` inside, it was a call).
#[cold]
#[inline(never)]
fn bad_bool(r: &Reader<'_>, b: u8) -> crate::Error {
    bad_bool_at(r, r.position() - 1, b)
}

#[cold]
#[inline(never)]
fn bad_bool_at(r: &Reader<'_>, at: usize, b: u8) -> crate::Error {
    r.error_at(
        at,
        ErrorKind::InvalidBool,
        format!("byte {b:#04x} is not a bool"),
    )
}

/// A `bool`'s decoder, for the reader and the cursor alike.
#[inline(always)]
fn unpack_bool<'de>(s: &mut impl Source<'de>) -> Result<bool> {
    match s.read_u8()? {
        0 => Ok(false),
        1 => Ok(true),
        b => Err(s.fail(|r| bad_bool(r, b))),
    }
}

impl<'de> Unpack<'de> for bool {
    const MIN_SIZE: usize = 1;

    /// The bytes checked in one pass, then converted in another (both
    /// vectorize), where a value at a time was a branch and a push each.
    #[inline]
    fn unpack_vec(r: &mut Reader<'de>, len: usize) -> Result<alloc::vec::Vec<Self>> {
        let start = r.position();
        let bytes = r.read_bytes(len)?;
        if bytes.iter().fold(0, |acc, &b| acc | b) > 1 {
            let at = bytes.iter().position(|&b| b > 1).unwrap_or_default();
            return Err(bad_bool_at(
                r,
                start + at,
                bytes.get(at).copied().unwrap_or_default(),
            ));
        }
        let mut out = r.vec_with_capacity(len)?;
        out.extend(bytes.iter().map(|&b| b != 0));
        Ok(out)
    }

    #[inline(always)]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        unpack_bool(r)
    }

    #[inline(always)]
    fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
        unpack_bool(c)
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(false)
    }
}

/// The `Pack` hooks of an integer whose sequences are packed blocks
/// (`crate::packed`).
macro_rules! packed_hooks {
    () => {
        #[inline]
        fn pack_slice(items: &[Self], w: &mut Writer<'_>) -> Result<()> {
            crate::packed::pack_slice(items, w);
            Ok(())
        }

        #[inline]
        fn pack_all<'a>(items: impl Iterator<Item = &'a Self>, w: &mut Writer<'_>) -> Result<()>
        where
            Self: 'a,
        {
            crate::packed::pack_iter(items.copied(), w)
        }
    };
}

/// The `Unpack` hooks of an integer whose sequences are packed blocks.
macro_rules! unpacked_hooks {
    () => {
        #[inline]
        fn unpack_vec(r: &mut Reader<'de>, len: usize) -> Result<alloc::vec::Vec<Self>> {
            crate::packed::unpack_vec(r, len)
        }

        #[inline]
        fn unpack_array<const N: usize>(r: &mut Reader<'de>) -> Result<[Self; N]> {
            let mut out = [0; N];
            crate::packed::unpack_into(r, &mut out)?;
            Ok(out)
        }
    };
}

#[cold]
#[inline(never)]
fn overflow(r: &Reader<'_>, v: impl core::fmt::Display, ty: &str) -> Error {
    r.error(
        ErrorKind::IntegerOverflow,
        format!("{v} does not fit in {ty}"),
    )
}

/// An unsigned integer's decoder, for the reader and the cursor alike.
#[inline(always)]
fn unsigned<'de, T: TryFrom<u64>>(s: &mut impl Source<'de>, name: &str) -> Result<T> {
    let v = s.read_varint()?;
    T::try_from(v).map_err(|_| s.fail(|r| overflow(r, v, name)))
}

/// A signed integer's decoder (zig-zag), for the reader and the cursor
/// alike.
#[inline(always)]
fn signed<'de, T: TryFrom<i64>>(s: &mut impl Source<'de>, name: &str) -> Result<T> {
    let v = crate::varint::unzigzag_i64(s.read_varint()?);
    T::try_from(v).map_err(|_| s.fail(|r| overflow(r, v, name)))
}

macro_rules! unsigned_varint {
    ($($ty:ty),*) => {$(
        impl Encoding for $ty {
            encoding_builtin!(crate::schema::hash::wire_name(stringify!($ty)));
            const WIRE: Wire = Wire::Varint;
            const PACKED: bool = true;
        }

        impl Pack for $ty {
            #[inline]
            fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
                w.write_varint(*self as u64);
                Ok(())
            }

            #[inline(always)]
            fn pack_cursor(&self, c: &mut crate::__private::Cursor<'_, '_>) -> Result<()> {
                c.write_varint(*self as u64);
                Ok(())
            }

            reserved!(crate::varint::len_u64(<$ty>::MAX as u64), put_varint, |v: &Self| *v as u64);

            #[inline(always)]
            fn pack_field(&self, gap_key: u64, w: &mut Writer<'_>) -> Result<()> {
                w.write_keyed_varint(gap_key | u64::from(Wire::Varint.bits()), *self as u64);
                Ok(())
            }

            packed_hooks!();
        }

        impl<'de> Unpack<'de> for $ty {
            const MIN_SIZE: usize = 1;
            unpacked_hooks!();

            #[inline(always)]
            fn unpack(r: &mut Reader<'de>) -> Result<Self> {
                unsigned(r, stringify!($ty))
            }

            #[inline(always)]
            fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
                unsigned(c, stringify!($ty))
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some(0)
            }
        }
    )*};
}

unsigned_varint!(u16, u32, u64, usize);

macro_rules! signed_varint {
    ($($ty:ty),*) => {$(
        impl Encoding for $ty {
            encoding_builtin!(crate::schema::hash::wire_name(stringify!($ty)));
            const WIRE: Wire = Wire::Varint;
            const PACKED: bool = true;
        }

        impl Pack for $ty {
            #[inline]
            fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
                w.write_varint_signed(*self as i64);
                Ok(())
            }

            #[inline(always)]
            fn pack_cursor(&self, c: &mut crate::__private::Cursor<'_, '_>) -> Result<()> {
                c.write_varint(crate::varint::zigzag_i64(*self as i64));
                Ok(())
            }

            reserved!(crate::varint::len_u64(crate::varint::zigzag_i64(<$ty>::MIN as i64)), put_varint, |v: &Self| crate::varint::zigzag_i64(*v as i64));

            #[inline(always)]
            fn pack_field(&self, gap_key: u64, w: &mut Writer<'_>) -> Result<()> {
                w.write_keyed_varint(gap_key | u64::from(Wire::Varint.bits()), crate::varint::zigzag_i64(*self as i64));
                Ok(())
            }

            packed_hooks!();
        }

        impl<'de> Unpack<'de> for $ty {
            const MIN_SIZE: usize = 1;
            unpacked_hooks!();

            #[inline(always)]
            fn unpack(r: &mut Reader<'de>) -> Result<Self> {
                signed(r, stringify!($ty))
            }

            #[inline(always)]
            fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
                signed(c, stringify!($ty))
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some(0)
            }
        }
    )*};
}

signed_varint!(i16, i32, i64, isize);

impl Encoding for u128 {
    encoding_builtin!("u128");
    const PACKED: bool = true;
}

impl Pack for u128 {
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        w.write_varint_u128(*self);
        Ok(())
    }

    #[inline(always)]
    fn pack_cursor(&self, c: &mut crate::__private::Cursor<'_, '_>) -> Result<()> {
        c.write_varint_u128(*self);
        Ok(())
    }

    reserved!(crate::varint::MAX_LEN_U128, put_varint_u128, |v: &Self| *v);

    packed_hooks!();
}

impl<'de> Unpack<'de> for u128 {
    const MIN_SIZE: usize = 1;
    unpacked_hooks!();

    #[inline(always)]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        r.read_varint_u128()
    }

    #[inline(always)]
    fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
        c.read_varint_u128()
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(0)
    }
}

impl Encoding for i128 {
    encoding_builtin!("i128");
    const PACKED: bool = true;
}

impl Pack for i128 {
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        w.write_varint_u128(crate::varint::zigzag_i128(*self));
        Ok(())
    }

    #[inline(always)]
    fn pack_cursor(&self, c: &mut crate::__private::Cursor<'_, '_>) -> Result<()> {
        c.write_varint_u128(crate::varint::zigzag_i128(*self));
        Ok(())
    }

    reserved!(crate::varint::MAX_LEN_U128, put_varint_u128, |v: &Self| {
        crate::varint::zigzag_i128(*v)
    });

    packed_hooks!();
}

impl<'de> Unpack<'de> for i128 {
    const MIN_SIZE: usize = 1;
    unpacked_hooks!();

    #[inline(always)]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        r.read_varint_u128().map(crate::varint::unzigzag_i128)
    }

    #[inline(always)]
    fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
        c.read_varint_u128().map(crate::varint::unzigzag_i128)
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(0)
    }
}

macro_rules! float {
    ($($ty:ty => $bits:ty => $wire:ident),*) => {$(
        impl Encoding for $ty {
            encoding_builtin!(crate::schema::hash::wire_name(stringify!($ty)));
            const WIRE: Wire = Wire::$wire;
            #[allow(unsafe_code)]
            const PLAIN: Plain<Self> = unsafe { Plain::new_unchecked(true) };
        }

        impl Pack for $ty {

            #[inline]
            fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
                w.write_bytes(&self.to_bits().to_le_bytes());
                Ok(())
            }

            #[inline(always)]
            fn pack_cursor(&self, c: &mut crate::__private::Cursor<'_, '_>) -> Result<()> {
                c.write_array(self.to_bits().to_le_bytes());
                Ok(())
            }

            reserved!(core::mem::size_of::<$ty>(), put_array, |v: &Self| v.to_bits().to_le_bytes());

            #[inline(always)]
            fn pack_field(&self, gap_key: u64, w: &mut Writer<'_>) -> Result<()> {
                w.write_keyed_bytes(gap_key | u64::from(Wire::$wire.bits()), self.to_bits().to_le_bytes());
                Ok(())
            }
        }

        impl<'de> Unpack<'de> for $ty {
            const MIN_SIZE: usize = core::mem::size_of::<$ty>();

            #[inline(always)]
            fn unpack(r: &mut Reader<'de>) -> Result<Self> {
                r.read_array().map(|b| <$ty>::from_bits(<$bits>::from_le_bytes(b)))
            }

            #[inline(always)]
            fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
                // Bits, not value: NaN payloads and signed zeros survive.
                c.read_array().map(|b| <$ty>::from_bits(<$bits>::from_le_bytes(b)))
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some(0.0)
            }
        }
    )*};
}

float!(f32 => u32 => Fixed4, f64 => u64 => Fixed8);

impl Encoding for char {
    encoding_builtin!("char");
    const WIRE: Wire = Wire::Varint;
}

impl Pack for char {
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        w.write_varint(*self as u64);
        Ok(())
    }

    #[inline(always)]
    fn pack_cursor(&self, c: &mut crate::__private::Cursor<'_, '_>) -> Result<()> {
        c.write_varint(*self as u64);
        Ok(())
    }

    reserved!(
        crate::varint::len_u64(char::MAX as u64),
        put_varint,
        |v: &Self| *v as u64
    );
}

#[cold]
#[inline(never)]
fn bad_char(r: &Reader<'_>, start: usize, v: u64) -> crate::Error {
    r.error_at(
        start,
        ErrorKind::InvalidChar,
        format!("{v:#x} is not a Unicode scalar value"),
    )
}

/// A `char`'s decoder, for the reader and the cursor alike.
#[inline(always)]
fn unpack_char<'de>(s: &mut impl Source<'de>) -> Result<char> {
    let start = s.position();
    let v = s.read_varint()?;
    match u32::try_from(v).ok().and_then(char::from_u32) {
        Some(ch) => Ok(ch),
        None => Err(s.fail(|r| bad_char(r, start, v))),
    }
}

impl<'de> Unpack<'de> for char {
    const MIN_SIZE: usize = 1;

    #[inline(always)]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        unpack_char(r)
    }

    #[inline(always)]
    fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
        unpack_char(c)
    }
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some('\0')
    }
}

impl Encoding for () {
    encoding_builtin!("unit");
}

impl Pack for () {
    #[inline]
    fn pack(&self, _: &mut Writer<'_>) -> Result<()> {
        Ok(())
    }
}

impl<'de> Unpack<'de> for () {
    #[inline]
    fn unpack(_: &mut Reader<'de>) -> Result<Self> {
        Ok(())
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(())
    }
}

macro_rules! nonzero {
    ($($nz:ty => $ty:ty),*) => {$(
        impl Encoding for $nz {
            encoding_builtin!("nonzero", $ty);
            const WIRE: Wire = <$ty as Encoding>::WIRE;
            const PACKED: bool = <$ty as Encoding>::PACKED;
        }

        impl Pack for $nz {
            #[inline]
            fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
                self.get().pack(w)
            }

            /// As the integers, in blocks gathered from the values.
            #[inline]
            fn pack_slice(items: &[Self], w: &mut Writer<'_>) -> Result<()> {
                Self::pack_all(items.iter(), w)
            }

            fn pack_all<'a>(items: impl Iterator<Item = &'a Self>, w: &mut Writer<'_>) -> Result<()>
            where
                Self: 'a,
            {
                crate::packed::pack_iter(items.map(|x| x.get()), w)
            }
        }

        impl<'de> Unpack<'de> for $nz {
            const MIN_SIZE: usize = <$ty as Unpack<'de>>::MIN_SIZE;

            #[inline]
            fn unpack(r: &mut Reader<'de>) -> Result<Self> {
                let start = r.position();
                <$nz>::new(<$ty>::unpack(r)?).ok_or_else(|| {
                    r.error_at(start, ErrorKind::InvalidValue, concat!("zero for ", stringify!($nz)))
                })
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some(<$nz>::MIN)
            }

            fn unpack_vec(r: &mut Reader<'de>, len: usize) -> Result<alloc::vec::Vec<Self>> {
                let start = r.position();
                let values = <$ty>::unpack_vec(r, len)?;
                // In place: the two types have one layout.
                values
                    .into_iter()
                    .map(<$nz>::new)
                    .collect::<Option<alloc::vec::Vec<_>>>()
                    .ok_or_else(|| r.error_at(start, ErrorKind::InvalidValue, concat!("zero in a sequence of ", stringify!($nz))))
            }

            fn unpack_array<const N: usize>(r: &mut Reader<'de>) -> Result<[Self; N]> {
                let start = r.position();
                let values = <$ty>::unpack_array::<N>(r)?;
                if values.contains(&0) {
                    return Err(r.error_at(start, ErrorKind::InvalidValue, concat!("zero in an array of ", stringify!($nz))));
                }
                Ok(values.map(|v| <$nz>::new(v).unwrap_or(<$nz>::MIN)))
            }
        }
    )*};
}

nonzero!(
    NonZeroU8 => u8, NonZeroU16 => u16, NonZeroU32 => u32, NonZeroU64 => u64,
    NonZeroU128 => u128, NonZeroUsize => usize,
    NonZeroI8 => i8, NonZeroI16 => i16, NonZeroI32 => i32, NonZeroI64 => i64,
    NonZeroI128 => i128, NonZeroIsize => isize
);
