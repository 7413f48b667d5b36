//! `Cow`: encoded as what it points to. `Cow<'de, str>` decodes borrowed
//! from the input; other `Cow`s decode owned.

use alloc::borrow::{Cow, ToOwned};
use alloc::vec::Vec;

use crate::impls::string::read_str;
use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

impl<T: Encoding + ToOwned + ?Sized> Encoding for Cow<'_, T> {
    encoding_transparent!(T);
}

impl<T: Pack + ToOwned + ?Sized> Pack for Cow<'_, T> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.through_reference(|w| (**self).pack(w))
    }

    forward_columns!(T, |c: &Self| &**c);
}

impl<'de: 'a, 'a> Unpack<'de> for Cow<'a, str> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Cow::Borrowed(""))
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        read_str(r).map(Cow::Borrowed)
    }

    crate::impls::string::str_column_unpack!(
        |_, s| Ok(Cow::Borrowed(s)),
        lazy = |s: &'de str| -> Option<Cow<'a, str>> { Some(Cow::Borrowed(s)) },
        charge = false,
        use<'a, 'de>
    );
}

impl<'de, 'a, T: Unpack<'de> + Clone> Unpack<'de> for Cow<'a, [T]> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Cow::Owned(Vec::new()))
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        Vec::<T>::unpack(r).map(Cow::Owned)
    }

    crate::impls::seq::seq_column_unpack!(|_, items| Ok(Cow::Owned(items)));
}

impl<'de, 'a, T: Unpack<'de> + Clone> Unpack<'de> for Cow<'a, T> {
    #[inline]
    fn placeholder(work: &mut u32) -> Option<Self> {
        T::placeholder(work).map(Cow::Owned)
    }

    const MIN_SIZE: usize = T::MIN_SIZE;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        T::unpack(r).map(Cow::Owned)
    }

    forward_unpack_columns!(Cow::Owned);
}
