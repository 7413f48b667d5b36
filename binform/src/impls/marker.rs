//! Small std wrappers: `PhantomData`, `Wrapping`, `Saturating`, `Reverse`,
//! `Range`, `RangeInclusive`, `Bound`.

use core::cmp::Reverse;
use core::marker::PhantomData;
use core::num::{Saturating, Wrapping};
use core::ops::{Bound, Range, RangeInclusive};

use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl<T: ?Sized> Encoding for PhantomData<T> {
    encoding_builtin!("unit");
}

impl<T: ?Sized> Pack for PhantomData<T> {
    #[inline]
    fn pack<L: crate::Layout>(&self, _: &mut Writer<'_, L>) -> Result<()> {
        Ok(())
    }
}

impl<'de, T: ?Sized> Unpack<'de> for PhantomData<T> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(PhantomData)
    }

    #[inline]
    fn unpack<L: crate::Layout>(_: &mut Reader<'de, L>) -> Result<Self> {
        Ok(PhantomData)
    }
}

/// Wrappers encoded exactly as the value they wrap.
macro_rules! transparent {
    ($($wrapper:ident),*) => {$(
        impl<T: Encoding> Encoding for $wrapper<T> {
            encoding_transparent!(T);
        }

        impl<T: Pack> Pack for $wrapper<T> {
            #[inline]
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                self.0.pack(w)
            }

            forward_columns!(T, |x: &Self| &x.0);
        }

        impl<'de, T: Unpack<'de>> Unpack<'de> for $wrapper<T> {
            const MIN_SIZE: usize = T::MIN_SIZE;

            #[inline]
            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                T::unpack(r).map($wrapper)
            }

            #[inline]
            fn placeholder(work: &mut u32) -> Option<Self> {
                T::placeholder(work).map($wrapper)
            }

            forward_unpack_columns!($wrapper);
        }
    )*};
}

transparent!(Wrapping, Saturating, Reverse);

impl<T: Encoding> Encoding for Range<T> {
    encoding_builtin!("range", T);
}

impl<T: Pack> Pack for Range<T> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.start.pack(w)?;
        self.end.pack(w)
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for Range<T> {
    #[inline]
    fn placeholder(work: &mut u32) -> Option<Self> {
        Some(T::placeholder(work)?..T::placeholder(work)?)
    }

    const MIN_SIZE: usize = 2 * T::MIN_SIZE;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        Ok(T::unpack(r)?..T::unpack(r)?)
    }
}

/// Start and end; whether iteration already exhausted the range is not
/// part of its value and is not kept.
impl<T: Encoding> Encoding for RangeInclusive<T> {
    encoding_builtin!("range_inclusive", T);
}

impl<T: Pack> Pack for RangeInclusive<T> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.start().pack(w)?;
        self.end().pack(w)
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for RangeInclusive<T> {
    #[inline]
    fn placeholder(work: &mut u32) -> Option<Self> {
        Some(T::placeholder(work)?..=T::placeholder(work)?)
    }

    const MIN_SIZE: usize = 2 * T::MIN_SIZE;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        Ok(T::unpack(r)?..=T::unpack(r)?)
    }
}

/// Tag 0 `Included`, 1 `Excluded`, 2 `Unbounded`.
impl<T: Encoding> Encoding for Bound<T> {
    encoding_builtin!("bound", T);
}

impl<T: Pack> Pack for Bound<T> {
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        match self {
            Bound::Included(v) => {
                w.write_u8(0);
                v.pack(w)
            }
            Bound::Excluded(v) => {
                w.write_u8(1);
                v.pack(w)
            }
            Bound::Unbounded => {
                w.write_u8(2);
                Ok(())
            }
        }
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for Bound<T> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Bound::Unbounded)
    }

    const MIN_SIZE: usize = 1;

    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        match r.read_u8()? {
            0 => T::unpack(r).map(Bound::Included),
            1 => T::unpack(r).map(Bound::Excluded),
            2 => Ok(Bound::Unbounded),
            tag => Err(r.error_at(
                r.position() - 1,
                ErrorKind::UnknownVariant,
                alloc::format!("tag {tag} is not a Bound tag (0, 1 or 2)"),
            )),
        }
    }
}
