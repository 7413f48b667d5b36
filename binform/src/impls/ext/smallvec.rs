//! `SmallVec` (feature `smallvec`): a sequence, as `Vec` is.

use smallvec::{Array, SmallVec};

use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

/// A `SmallVec` is a sequence, byte for byte a `Vec` of its items.
impl<A: Array> Encoding for SmallVec<A>
where
    A::Item: Encoding,
{
    encoding_transparent!([A::Item]);
}

impl<A: Array> Pack for SmallVec<A>
where
    A::Item: Pack,
{
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_slice().pack(w)
    }

    crate::impls::seq::seq_column_pack!(SmallVec::as_slice);
}

impl<'de, A: Array> Unpack<'de> for SmallVec<A>
where
    A::Item: Unpack<'de>,
{
    const MIN_SIZE: usize = 1;

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(SmallVec::new())
    }

    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        alloc::vec::Vec::<A::Item>::unpack(r).map(SmallVec::from_vec)
    }

    crate::impls::seq::seq_column_unpack!(|_, items| Ok(SmallVec::from_vec(items)));
}
