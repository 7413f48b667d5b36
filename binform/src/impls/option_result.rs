//! `Option` and `Result`: a tag byte (0 = `None`/`Ok`, 1 = `Some`/`Err`),
//! then the payload if any.

use crate::read::ReadCursor;
use crate::tolerant::wire::Wire;
use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl<T: Encoding> Encoding for Option<T> {
    encoding_builtin!("option", T);
    const COLUMNS: bool = true;
}

impl<T: Pack> Pack for Option<T> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        match self {
            None => {
                w.write_u8(0);
                Ok(())
            }
            Some(v) => {
                w.write_u8(1);
                v.pack(w)
            }
        }
    }

    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(
        &self,
        c: &mut crate::__private::Cursor<'_, '_, L>,
    ) -> Result<()> {
        match self {
            None => {
                c.write_u8(0);
                Ok(())
            }
            Some(v) => {
                c.write_u8(1);
                v.pack_cursor(c)
            }
        }
    }

    const MAX_SIZE: usize = if crate::__private::is_bounded(T::MAX_SIZE) {
        1 + T::MAX_SIZE
    } else {
        usize::MAX
    };

    #[inline(always)]
    #[allow(unsafe_code)]
    unsafe fn pack_reserved<L: crate::Layout>(
        &self,
        c: &mut crate::__private::Cursor<'_, '_, L>,
    ) -> Result<crate::__private::Kept<Self>> {
        // SAFETY: the caller made room for `1 + T::MAX_SIZE` and the
        // slack; the tag byte takes 1 of it, and `T` the rest, which its
        // own `Kept` says it kept: so the option kept its room too.
        match self {
            None => unsafe { c.put_u8(0) },
            Some(v) => unsafe {
                c.put_u8(1);
                v.pack_reserved(c)?;
            },
        }
        Ok(unsafe { crate::__private::Kept::promise() })
    }

    /// In a tolerant type, an option whose contents delimit themselves is
    /// its contents' field, or the `Null` wire type for `None`: no presence
    /// byte and no frame. (Options of framed types, such as options of
    /// options, keep their plain encoding, so `Some(None)` stays apart
    /// from `None`.)
    #[inline(always)]
    fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
        if crate::encoding::wire_in::<T, L>() == Wire::Framed {
            return w.write_field_plain(self, gap_key);
        }
        match self {
            None => {
                w.write_varint(gap_key | u64::from(Wire::Null.bits()));
                Ok(())
            }
            Some(v) => v.pack_field(gap_key, w),
        }
    }

    // A column of options (§27): a presence bit each, then the present
    // values as a column of their own.
    column_pack_all!(|items, w| {
        crate::columns::write_bits(items.clone().map(Option::is_some), w);
        // A level for rows, as `T::unpack_vec` counts one for them.
        crate::write::pack_column(items.filter_map(Option::as_ref), w)
    });
}

#[cold]
#[inline(never)]
fn bad_tag<L: crate::Layout>(r: &Reader<'_, L>, tag: u8, ty: &str) -> crate::Error {
    r.error_at(
        r.position() - 1,
        ErrorKind::UnknownVariant,
        alloc::format!("tag {tag} is not a valid {ty} tag (0 or 1)"),
    )
}

impl<'de, T: Unpack<'de>> Unpack<'de> for Option<T> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(None)
    }

    const MIN_SIZE: usize = 1;

    #[inline(always)]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        match r.read_u8()? {
            0 => Ok(None),
            1 => T::unpack(r).map(Some),
            tag => Err(bad_tag(r, tag, "Option")),
        }
    }

    /// The reader's decoder, with the contents through the cursor too.
    #[inline(always)]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
        match c.read_u8()? {
            0 => Ok(None),
            1 => T::unpack_cursor(c).map(Some),
            tag => Err(c.fail(|r| bad_tag(r, tag, "Option"))),
        }
    }

    #[inline(always)]
    fn unpack_field<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        tag: u32,
        wire: Wire,
    ) -> Result<Self> {
        // A framed option (the contents frame themselves, or an older
        // writer framed it) holds the option's plain encoding.
        if crate::encoding::wire_in::<T, L>() == Wire::Framed || wire == Wire::Framed {
            return r.read_field_plain(tag, wire);
        }
        match wire {
            Wire::Null => Ok(None),
            _ => T::unpack_field(r, tag, wire).map(Some),
        }
    }

    /// A presence bit for each of 256 options.
    const COLUMN_MIN: usize = 32;
    const LAZY_COLUMN: bool = true;

    #[inline(always)]
    fn read_column<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        n: usize,
    ) -> Result<impl Iterator<Item = Self> + use<'de, T, L>> {
        crate::columns::lazy::option_column(r, n)
    }
}

impl<T: Encoding, E: Encoding> Encoding for core::result::Result<T, E> {
    encoding_builtin!("result", T, E);
}

impl<T: Pack, E: Pack> Pack for core::result::Result<T, E> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        match self {
            Ok(v) => {
                w.write_u8(0);
                v.pack(w)
            }
            Err(e) => {
                w.write_u8(1);
                e.pack(w)
            }
        }
    }
}

impl<'de, T: Unpack<'de>, E: Unpack<'de>> Unpack<'de> for core::result::Result<T, E> {
    #[inline]
    fn placeholder(work: &mut u32) -> Option<Self> {
        T::placeholder(work)
            .map(Ok)
            .or_else(|| E::placeholder(work).map(Err))
    }

    const MIN_SIZE: usize = crate::__private::min_size_enum(&[T::MIN_SIZE, E::MIN_SIZE]);

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        match r.read_u8()? {
            0 => T::unpack(r).map(Ok),
            1 => E::unpack(r).map(Err),
            tag => Err(bad_tag(r, tag, "Result")),
        }
    }
}
