//! `Option` and `Result`: a tag byte (0 = `None`/`Ok`, 1 = `Some`/`Err`),
//! then the payload if any.

use crate::{ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl<T: Pack> Pack for Option<T> {
    schema_builtin!("option", T);
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
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
}

#[cold]
#[inline(never)]
fn bad_tag(r: &Reader<'_>, tag: u8, ty: &str) -> crate::Error {
    r.error_at(
        r.position() - 1,
        ErrorKind::UnknownVariant,
        alloc::format!("tag {tag} is not a valid {ty} tag (0 or 1)"),
    )
}

impl<'de, T: Unpack<'de>> Unpack<'de> for Option<T> {
    unpack_shape!("option", T);
    #[inline]
    fn placeholder(_: u32) -> Option<Self> {
        Some(None)
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        match r.read_u8()? {
            0 => Ok(None),
            1 => T::unpack(r).map(Some),
            tag => Err(bad_tag(r, tag, "Option")),
        }
    }
}

impl<T: Pack, E: Pack> Pack for core::result::Result<T, E> {
    schema_builtin!("result", T, E);
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
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
    unpack_shape!("result", T, E);
    #[inline]
    fn placeholder(budget: u32) -> Option<Self> {
        T::placeholder(budget)
            .map(Ok)
            .or_else(|| E::placeholder(budget).map(Err))
    }

    const MIN_SIZE: usize = 1 + crate::__private::min_size(T::MIN_SIZE, E::MIN_SIZE);

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        match r.read_u8()? {
            0 => T::unpack(r).map(Ok),
            1 => E::unpack(r).map(Err),
            tag => Err(bad_tag(r, tag, "Result")),
        }
    }
}
