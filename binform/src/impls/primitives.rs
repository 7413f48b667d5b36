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
        unsafe fn pack_reserved<L: crate::Layout>(
            &self,
            c: &mut crate::__private::Cursor<'_, '_, L>,
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

/// An integer's cursor writes, which follow the layout: `MAX_SIZE` (the
/// longer of its two encodings), `pack_cursor` and `pack_reserved`, writing
/// `$fixed` (little-endian bytes) in the fixed layout and
/// `$write`/`$put($compact)` (a varint) in the compact one; `$v` is the
/// value. Inlined always only in optimized builds (see `int`).
macro_rules! layout_writes {
    ($max:expr, |$v:ident| $fixed:expr, $write:ident / $put:ident ($compact:expr)) => {
        const MAX_SIZE: usize = $max;

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn pack_cursor<L: crate::Layout>(
            &self,
            c: &mut crate::__private::Cursor<'_, '_, L>,
        ) -> Result<()> {
            let $v = *self;
            if L::FIXED {
                c.write_array($fixed);
            } else {
                c.$write($compact);
            }
            Ok(())
        }

        #[cfg_attr(debug_assertions, inline)]
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[allow(unsafe_code)]
        unsafe fn pack_reserved<L: crate::Layout>(
            &self,
            c: &mut crate::__private::Cursor<'_, '_, L>,
        ) -> Result<crate::__private::Kept<Self>> {
            let $v = *self;
            // SAFETY: the caller made room for `MAX_SIZE` and the slack;
            // either store advances by at most `MAX_SIZE` (the longer
            // encoding) and stores at most 5 bytes past its end (see
            // `RESERVE_SLACK`), which is the word `Kept` gives.
            unsafe {
                if L::FIXED {
                    c.put_array($fixed);
                } else {
                    c.$put($compact);
                }
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
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_u8(*self);
        Ok(())
    }

    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(
        &self,
        c: &mut crate::__private::Cursor<'_, '_, L>,
    ) -> Result<()> {
        c.write_u8(*self);
        Ok(())
    }

    reserved!(1, put_u8, |v: &Self| *v);

    #[inline(always)]
    fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_keyed_bytes(gap_key | u64::from(Wire::Byte.bits()), [*self]);
        Ok(())
    }

    /// A column of bytes, reserved a chunk at a time.
    #[inline]
    fn pack_all<'a, L: crate::Layout>(
        items: impl Iterator<Item = &'a Self> + Clone,
        w: &mut Writer<'_, L>,
    ) -> Result<()> {
        crate::write::pack_scalars_of(items, |v: &u8| [*v], w);
        Ok(())
    }
}

impl<'de> Unpack<'de> for u8 {
    crate::columns::plain::plain_column_unpack!(1, |[b]: [u8; 1]| b);

    const MIN_SIZE: usize = 1;

    #[inline(always)]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        r.read_u8()
    }

    #[inline(always)]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
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
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_u8(*self as u8);
        Ok(())
    }

    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(
        &self,
        c: &mut crate::__private::Cursor<'_, '_, L>,
    ) -> Result<()> {
        c.write_u8(*self as u8);
        Ok(())
    }

    reserved!(1, put_u8, |v: &Self| *v as u8);

    #[inline(always)]
    fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_keyed_bytes(gap_key | u64::from(Wire::Byte.bits()), [*self as u8]);
        Ok(())
    }

    /// A column of bytes, reserved a chunk at a time.
    #[inline]
    fn pack_all<'a, L: crate::Layout>(
        items: impl Iterator<Item = &'a Self> + Clone,
        w: &mut Writer<'_, L>,
    ) -> Result<()> {
        crate::write::pack_scalars_of(items, |v: &i8| [*v as u8], w);
        Ok(())
    }
}

impl<'de> Unpack<'de> for i8 {
    crate::columns::plain::plain_column_unpack!(1, |[b]: [u8; 1]| b as i8);

    const MIN_SIZE: usize = 1;

    #[inline(always)]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        r.read_u8().map(|b| b as i8)
    }

    #[inline(always)]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
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
    // A column of bools is bits (§27), eight to a byte.
    const COLUMNS: bool = true;
}

impl Pack for bool {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_u8(*self as u8);
        Ok(())
    }

    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(
        &self,
        c: &mut crate::__private::Cursor<'_, '_, L>,
    ) -> Result<()> {
        c.write_u8(*self as u8);
        Ok(())
    }

    reserved!(1, put_u8, |v: &Self| *v as u8);

    #[inline(always)]
    fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_keyed_bytes(gap_key | u64::from(Wire::Byte.bits()), [*self as u8]);
        Ok(())
    }

    /// Bits in the compact layout (§27); in the fixed one a byte a value,
    /// converted in one pass that vectorizes.
    #[inline]
    fn pack_slice<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>) -> Result<()> {
        if !L::FIXED {
            crate::columns::write_bits(items.iter().copied(), w);
            return Ok(());
        }
        w.extend_mapped(items, u8::from);
        Ok(())
    }

    // A column of bools: bits in the compact layout (§27).
    column_pack_all!(|items, w| {
        crate::columns::write_bits(items.copied(), w);
        Ok(())
    });

    /// Bits, eight at a time (§27).
    #[inline]
    fn pack_slices<'a, L: crate::Layout>(
        slices: impl Iterator<Item = &'a [Self]> + Clone,
        total: usize,
        w: &mut Writer<'_, L>,
    ) -> Result<()> {
        if L::FIXED {
            return slices.into_iter().try_for_each(|s| Self::pack_slice(s, w));
        }
        crate::columns::write_bit_slices(slices, total, w);
        Ok(())
    }
}

/// Out of line, so that `bool::unpack` stays small enough to inline into
/// every derived decoder (with the `format!` inside, it was a call).
#[cold]
#[inline(never)]
fn bad_bool<L: crate::Layout>(r: &Reader<'_, L>, b: u8) -> crate::Error {
    bad_bool_at(r, r.position() - 1, b)
}

#[cold]
#[inline(never)]
fn bad_bool_at<L: crate::Layout>(r: &Reader<'_, L>, at: usize, b: u8) -> crate::Error {
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
    super::seq::copied_seq_column!();

    const MIN_SIZE: usize = 1;

    /// A bit for each of 256 values.
    const COLUMN_MIN: usize = 32;

    /// Bits in the compact layout (§27). In the fixed one, the bytes
    /// checked in one pass, then converted in another (both vectorize),
    /// where a value at a time was a branch and a push each.
    #[inline]
    fn unpack_vec<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        len: usize,
    ) -> Result<alloc::vec::Vec<Self>> {
        let room = r.cautious_capacity::<Self>(len);
        if !L::FIXED {
            let bits = crate::columns::read_bits(r, len)?;
            let mut out = r.vec_with_room(len, room)?;
            // The input holds the bits, so the whole (charged) length is
            // reserved, as an error if it fails.
            if out.capacity() < len {
                r.grow_toward(&mut out, len, len)?;
            }
            bits.extend_into(len, &mut out);
            return Ok(out);
        }
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
        let mut out = r.vec_with_room(len, room)?;
        out.extend(bytes.iter().map(|&b| b != 0));
        Ok(out)
    }

    #[inline(always)]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        unpack_bool(r)
    }

    #[inline(always)]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
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
        fn pack_slice<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>) -> Result<()> {
            if L::FIXED {
                return crate::write::pack_each(items, w);
            }
            crate::packed::pack_slice(items, w);
            Ok(())
        }

        column_pack_all!(|items, w| crate::packed::pack_iter(items.copied(), w));

        /// Blocks gathered a slice at a time.
        #[inline]
        fn pack_slices<'a, L: crate::Layout>(
            slices: impl Iterator<Item = &'a [Self]> + Clone,
            total: usize,
            w: &mut Writer<'_, L>,
        ) -> Result<()> {
            if L::FIXED {
                return slices
                    .into_iter()
                    .try_for_each(|s| crate::write::pack_each(s, w));
            }
            crate::packed::pack_slices(slices, total, w)
        }
    };
}

/// The `Unpack` hooks of an integer whose sequences are packed blocks.
macro_rules! unpacked_hooks {
    () => {
        /// A block of 256 takes its header and base at least (§22).
        const COLUMN_MIN: usize = 2;

        super::seq::copied_seq_column!();

        #[inline]
        fn unpack_vec<L: crate::Layout>(
            r: &mut Reader<'de, L>,
            len: usize,
        ) -> Result<alloc::vec::Vec<Self>> {
            if L::FIXED {
                return crate::read::unpack_each(r, len);
            }
            crate::packed::unpack_vec(r, len)
        }

        #[inline]
        fn unpack_array<const N: usize, L: crate::Layout>(
            r: &mut Reader<'de, L>,
        ) -> Result<[Self; N]> {
            if L::FIXED {
                return crate::read::unpack_each_array(r);
            }
            let mut out = [0; N];
            crate::packed::unpack_into(r, &mut out)?;
            Ok(out)
        }
    };
}

#[cold]
#[inline(never)]
fn overflow<L: crate::Layout>(r: &Reader<'_, L>, v: impl core::fmt::Display, ty: &str) -> Error {
    r.error(
        ErrorKind::IntegerOverflow,
        format!("{v} does not fit in {ty}"),
    )
}

// The layout's leaves below are always inlined in optimized builds, where
// the test of `L::FIXED` folds away; in unoptimized ones (debug builds,
// where only `inline(always)` inlines) they are plain `inline`: always
// inlined there, both arms of every test went into every derived type's
// encoder and decoder, and a crate of 100 derived types took 3-4 times as
// long in LLVM (issue 31).

/// An integer's decoder, for the reader and the cursor alike: in the
/// fixed layout `N` little-endian bytes of `F` (`u64`/`i64` for
/// `usize`/`isize`, whose values past the target's width overflow), else
/// a varint that `compact` turns into the value.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn int<'de, S, T, F, const N: usize>(
    s: &mut S,
    name: &str,
    fixed: impl FnOnce([u8; N]) -> F,
    compact: impl FnOnce(u64) -> core::result::Result<T, i128>,
) -> Result<T>
where
    S: Source<'de>,
    T: TryFrom<F>,
    F: Copy + core::fmt::Display,
{
    if <S::L as crate::Layout>::FIXED {
        let v = fixed(s.read_array::<N>()?);
        return T::try_from(v).map_err(|_| s.fail(|r| overflow(r, v, name)));
    }
    let v = s.read_varint()?;
    compact(v).map_err(|v| s.fail(|r| overflow(r, v, name)))
}

/// The integers up to 64 bits: a varint in the compact layout (zig-zag
/// for signed ones, `$zig`), `$n` little-endian bytes of `$fx` in the
/// fixed one.
macro_rules! int64 {
    ($($ty:ty => $fx:ty, $n:literal, $zig:expr, $unzig:expr, $widest:expr, $write:ident, $read:ident);* $(;)?) => {$(
        impl<L: crate::Layout> Writer<'_, L> {
            #[doc = concat!("Writes a `", stringify!($ty), "` in the writer's layout: a varint in the")]
            #[doc = concat!("compact one, ", stringify!($n), " little-endian bytes in the fixed one.")]
            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            pub fn $write(&mut self, v: $ty) {
                if L::FIXED {
                    self.write_array((v as $fx).to_le_bytes());
                } else {
                    self.write_varint(($zig)(v));
                }
            }
        }

        impl<'de, L: crate::Layout> Reader<'de, L> {
            #[doc = concat!("Reads a `", stringify!($ty), "` in the reader's layout (see")]
            #[doc = concat!("[`Writer::", stringify!($write), "`]).")]
            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            pub fn $read(&mut self) -> Result<$ty> {
                int(self, stringify!($ty), <$fx>::from_le_bytes, $unzig)
            }
        }

        impl Encoding for $ty {
            encoding_builtin!(crate::schema::hash::wire_name(stringify!($ty)));
            const WIRE: Wire = Wire::Varint;
            const FIXED_WIRE: Wire = Wire::fixed_width($n);
            const PACKED: bool = true;
            // SAFETY: in the fixed layout the encoding is the value's
            // little-endian bytes (`usize`/`isize` only where they are 8
            // bytes wide); integers have no padding and no invalid values.
            #[allow(unsafe_code)]
            const PLAIN: Plain<Self> = unsafe {
                Plain::in_layouts_unchecked(false, core::mem::size_of::<$ty>() == $n)
            };
        }

        impl Pack for $ty {
            #[inline]
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                w.$write(*self);
                Ok(())
            }

            layout_writes!(
                max(crate::varint::len_u64($widest), $n),
                |v| (v as $fx).to_le_bytes(),
                write_varint / put_varint(($zig)(v))
            );

            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
                if !L::FIXED {
                    w.write_keyed_varint(gap_key | u64::from(Wire::Varint.bits()), ($zig)(*self));
                } else if <Self as Encoding>::FIXED_WIRE == Wire::Framed {
                    w.write_field_plain(self, gap_key)?;
                } else {
                    w.write_keyed_bytes(gap_key | u64::from(<Self as Encoding>::FIXED_WIRE.bits()), (*self as $fx).to_le_bytes());
                }
                Ok(())
            }

            packed_hooks!();
        }

        impl<'de> Unpack<'de> for $ty {
            const MIN_SIZE: usize = 1;
            unpacked_hooks!();

            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                r.$read()
            }

            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
                int(c, stringify!($ty), <$fx>::from_le_bytes, $unzig)
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some(0)
            }
        }
    )*};
}

/// The larger of two sizes, in a constant.
const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

int64! {
    u16 => u16, 2, |v: u16| v as u64, unsigned::<u16>, u16::MAX as u64, write_u16, read_u16;
    u32 => u32, 4, |v: u32| v as u64, unsigned::<u32>, u32::MAX as u64, write_u32, read_u32;
    u64 => u64, 8, |v: u64| v, unsigned::<u64>, u64::MAX, write_u64, read_u64;
    usize => u64, 8, |v: usize| v as u64, unsigned::<usize>, usize::MAX as u64, write_usize, read_usize;
    i16 => i16, 2, |v: i16| crate::varint::zigzag_i64(v as i64), signed::<i16>, crate::varint::zigzag_i64(i16::MIN as i64), write_i16, read_i16;
    i32 => i32, 4, |v: i32| crate::varint::zigzag_i64(v as i64), signed::<i32>, crate::varint::zigzag_i64(i32::MIN as i64), write_i32, read_i32;
    i64 => i64, 8, crate::varint::zigzag_i64, signed::<i64>, crate::varint::zigzag_i64(i64::MIN), write_i64, read_i64;
    isize => i64, 8, |v: isize| crate::varint::zigzag_i64(v as i64), signed::<isize>, crate::varint::zigzag_i64(isize::MIN as i64), write_isize, read_isize;
}

/// A varint as an unsigned value; failing, the value (for the error).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn unsigned<T: TryFrom<u64>>(v: u64) -> core::result::Result<T, i128> {
    T::try_from(v).map_err(|_| i128::from(v))
}

/// A zig-zag varint as a signed value; failing, the value (for the
/// error).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn signed<T: TryFrom<i64>>(v: u64) -> core::result::Result<T, i128> {
    let v = crate::varint::unzigzag_i64(v);
    T::try_from(v).map_err(|_| i128::from(v))
}

impl<L: crate::Layout> Writer<'_, L> {
    /// Writes a `u128` in the writer's layout: a varint in the compact
    /// one, 16 little-endian bytes in the fixed one.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn write_u128(&mut self, v: u128) {
        if L::FIXED {
            self.write_array(v.to_le_bytes());
        } else {
            self.write_varint_u128(v);
        }
    }

    /// Writes an `i128` in the writer's layout: a zig-zag varint in the
    /// compact one, 16 little-endian bytes in the fixed one.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn write_i128(&mut self, v: i128) {
        self.write_u128(crate::varint::zigzag_i128_in::<L>(v));
    }
}

impl<'de, L: crate::Layout> Reader<'de, L> {
    /// Reads a `u128` in the reader's layout (see [`Writer::write_u128`]).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn read_u128(&mut self) -> Result<u128> {
        if L::FIXED {
            return self.read_array().map(u128::from_le_bytes);
        }
        self.read_varint_u128()
    }

    /// Reads an `i128` in the reader's layout (see [`Writer::write_i128`]).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn read_i128(&mut self) -> Result<i128> {
        self.read_u128().map(crate::varint::unzigzag_i128_in::<L>)
    }
}

impl Encoding for u128 {
    encoding_builtin!("u128");
    const PACKED: bool = true;
    // SAFETY: in the fixed layout a `u128` is its 16 little-endian bytes.
    #[allow(unsafe_code)]
    const PLAIN: Plain<Self> = unsafe { Plain::in_layouts_unchecked(false, true) };
}

impl Pack for u128 {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_u128(*self);
        Ok(())
    }

    layout_writes!(
        max(crate::varint::MAX_LEN_U128, 16),
        |v| v.to_le_bytes(),
        write_varint_u128 / put_varint_u128(v)
    );

    packed_hooks!();
}

impl<'de> Unpack<'de> for u128 {
    const MIN_SIZE: usize = 1;
    unpacked_hooks!();

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        r.read_u128()
    }

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
        if L::FIXED {
            return c.read_array().map(u128::from_le_bytes);
        }
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
    // SAFETY: in the fixed layout an `i128` is its 16 little-endian bytes.
    #[allow(unsafe_code)]
    const PLAIN: Plain<Self> = unsafe { Plain::in_layouts_unchecked(false, true) };
}

impl Pack for i128 {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_i128(*self);
        Ok(())
    }

    layout_writes!(
        <u128 as Pack>::MAX_SIZE,
        |v| v.to_le_bytes(),
        write_varint_u128 / put_varint_u128(crate::varint::zigzag_i128(v))
    );

    packed_hooks!();
}

impl<'de> Unpack<'de> for i128 {
    const MIN_SIZE: usize = 1;
    unpacked_hooks!();

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        r.read_i128()
    }

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
        u128::unpack_cursor(c).map(crate::varint::unzigzag_i128_in::<L>)
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(0)
    }
}

macro_rules! float {
    ($($ty:ty => $bits:ty => $n:literal => $wire:ident),*) => {$(
        impl Encoding for $ty {
            encoding_builtin!(crate::schema::hash::wire_name(stringify!($ty)));
            const WIRE: Wire = Wire::$wire;
            #[allow(unsafe_code)]
            const PLAIN: Plain<Self> = unsafe { Plain::new_unchecked(true) };
        }

        impl Pack for $ty {

            #[inline]
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                w.write_bytes(&self.to_bits().to_le_bytes());
                Ok(())
            }

            #[inline(always)]
            fn pack_cursor<L: crate::Layout>(&self, c: &mut crate::__private::Cursor<'_, '_, L>) -> Result<()> {
                c.write_array(self.to_bits().to_le_bytes());
                Ok(())
            }

            reserved!(core::mem::size_of::<$ty>(), put_array, |v: &Self| v.to_bits().to_le_bytes());

            #[inline(always)]
            fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
                w.write_keyed_bytes(gap_key | u64::from(Wire::$wire.bits()), self.to_bits().to_le_bytes());
                Ok(())
            }

            /// A column of floats, reserved a chunk at a time.
            #[inline]
            fn pack_all<'a, L: crate::Layout>(
                items: impl Iterator<Item = &'a Self> + Clone,
                w: &mut Writer<'_, L>,
            ) -> Result<()> {
                crate::write::pack_scalars_of(items, |v: &$ty| v.to_bits().to_le_bytes(), w);
                Ok(())
            }
        }

        impl<'de> Unpack<'de> for $ty {
            // Bits, not value: NaN payloads and signed zeros survive.
            crate::columns::plain::plain_column_unpack!($n, |b| <$ty>::from_bits(<$bits>::from_le_bytes(b)));

            const MIN_SIZE: usize = core::mem::size_of::<$ty>();

            #[inline(always)]
            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                r.read_array().map(|b| <$ty>::from_bits(<$bits>::from_le_bytes(b)))
            }

            #[inline(always)]
            fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
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

float!(f32 => u32 => 4 => Fixed4, f64 => u64 => 8 => Fixed8);

impl Encoding for char {
    encoding_builtin!("char");
    const WIRE: Wire = Wire::Varint;
    const FIXED_WIRE: Wire = Wire::Fixed4;
}

impl Pack for char {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        (*self as u32).pack(w)
    }

    // A scalar value's varint takes at most 3 bytes (below 0x110000), its
    // fixed form 4.
    layout_writes!(
        max(crate::varint::len_u64(char::MAX as u64), 4),
        |v| (v as u32).to_le_bytes(),
        write_varint / put_varint(v as u64)
    );

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
        (*self as u32).pack_field(gap_key, w)
    }
}

#[cold]
#[inline(never)]
fn bad_char<L: crate::Layout>(r: &Reader<'_, L>, start: usize, v: u64) -> crate::Error {
    r.error_at(
        start,
        ErrorKind::InvalidChar,
        format!("{v:#x} is not a Unicode scalar value"),
    )
}

/// A `char`'s decoder, for the reader and the cursor alike: a varint, or
/// 4 little-endian bytes in the fixed layout, that must be a Unicode
/// scalar value.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn unpack_char<'de, S: Source<'de>>(s: &mut S) -> Result<char> {
    let start = s.position();
    let v = if <S::L as crate::Layout>::FIXED {
        u64::from(u32::from_le_bytes(s.read_array()?))
    } else {
        s.read_varint()?
    };
    match u32::try_from(v).ok().and_then(char::from_u32) {
        Some(ch) => Ok(ch),
        None => Err(s.fail(|r| bad_char(r, start, v))),
    }
}

impl<'de> Unpack<'de> for char {
    super::seq::copied_seq_column!();

    const MIN_SIZE: usize = 1;

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        unpack_char(r)
    }

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
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
    fn pack<L: crate::Layout>(&self, _: &mut Writer<'_, L>) -> Result<()> {
        Ok(())
    }
}

impl<'de> Unpack<'de> for () {
    #[inline]
    fn unpack<L: crate::Layout>(_: &mut Reader<'de, L>) -> Result<Self> {
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
            const FIXED_WIRE: Wire = <$ty as Encoding>::FIXED_WIRE;
            const PACKED: bool = <$ty as Encoding>::PACKED;
        }

        impl Pack for $nz {
            #[inline]
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                self.get().pack(w)
            }

            /// As the integers, in blocks gathered from the values.
            #[inline]
            fn pack_slice<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>) -> Result<()> {
                Self::pack_all(items.iter(), w)
            }

            column_pack_all!(|items, w| {
                crate::packed::pack_iter(items.map(|x| x.get()), w)
            });
        }

        impl<'de> Unpack<'de> for $nz {
            const MIN_SIZE: usize = <$ty as Unpack<'de>>::MIN_SIZE;
            const COLUMN_MIN: usize = <$ty as Unpack<'de>>::COLUMN_MIN;

            #[inline]
            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                let start = r.position();
                <$nz>::new(<$ty>::unpack(r)?).ok_or_else(|| {
                    r.error_at(start, ErrorKind::InvalidValue, concat!("zero for ", stringify!($nz)))
                })
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some(<$nz>::MIN)
            }

            fn unpack_vec<L: crate::Layout>(r: &mut Reader<'de, L>, len: usize) -> Result<alloc::vec::Vec<Self>> {
                let start = r.position();
                let values = <$ty>::unpack_vec(r, len)?;
                // In place: the two types have one layout.
                values
                    .into_iter()
                    .map(<$nz>::new)
                    .collect::<Option<alloc::vec::Vec<_>>>()
                    .ok_or_else(|| r.error_at(start, ErrorKind::InvalidValue, concat!("zero in a sequence of ", stringify!($nz))))
            }

            fn unpack_array<const N: usize, L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<[Self; N]> {
                let start = r.position();
                let values = <$ty>::unpack_array::<N, _>(r)?;
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
