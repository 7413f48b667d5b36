//! `ArrayVec` and `ArrayString` (feature `arrayvec`): a sequence and a
//! string; more elements than the capacity is an error.

use arrayvec::{ArrayString, ArrayVec};

use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

#[cold]
#[inline(never)]
fn over_capacity<L: crate::Layout>(
    r: &Reader<'_, L>,
    at: usize,
    len: usize,
    cap: usize,
) -> crate::Error {
    r.error_at(
        at,
        ErrorKind::InvalidValue,
        alloc::format!("{len} elements do not fit an ArrayVec/ArrayString of capacity {cap}"),
    )
}

/// An `ArrayVec` is a sequence, byte for byte a `Vec` of its items; a
/// length above its capacity is an error before anything is decoded.
impl<T: Encoding, const CAP: usize> Encoding for ArrayVec<T, CAP> {
    encoding_transparent!([T]);
}

impl<T: Pack, const CAP: usize> Pack for ArrayVec<T, CAP> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_slice().pack(w)
    }

    crate::impls::seq::seq_column_pack!(ArrayVec::as_slice);
}

impl<'de, T: Unpack<'de>, const CAP: usize> Unpack<'de> for ArrayVec<T, CAP> {
    const MIN_SIZE: usize = 1;

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(ArrayVec::new())
    }

    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let at = r.position();
        let len = r.read_seq_len::<T>()?;
        if len > CAP {
            return Err(over_capacity(r, at, len, CAP));
        }
        if crate::encoding::packed_in::<T, L>() || crate::encoding::columns_in::<T, L>() {
            // Packed integers and columns read through the vector path.
            return Ok(T::unpack_vec(r, len)?.into_iter().collect());
        }
        // Anything else straight into the array: no heap vector. Integers
        // and plain data nest no level, as their encoder counts none.
        let each = |r: &mut Reader<'de, L>| {
            let mut out = ArrayVec::new();
            for i in 0..len {
                out.push(crate::error::in_element(T::unpack(r), "", i)?);
            }
            Ok(out)
        };
        if T::PACKED || T::PLAIN.in_layout::<L>() {
            return each(r);
        }
        r.nested_holding::<T, _>(each)
    }

    crate::impls::seq::seq_column_unpack!(|r: &mut Reader<'de, L>, items: alloc::vec::Vec<T>| {
        if items.len() > CAP {
            let at = r.position();
            return Err(over_capacity(r, at, items.len(), CAP));
        }
        Ok(items.into_iter().collect())
    });
}

/// An `ArrayString` is a string (format.md §5).
impl<const CAP: usize> Encoding for ArrayString<CAP> {
    encoding_transparent!(str);
}

impl<const CAP: usize> Pack for ArrayString<CAP> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_str().pack(w)
    }

    crate::impls::string::str_column_pack!(ArrayString::as_str);
}

impl<'de, const CAP: usize> Unpack<'de> for ArrayString<CAP> {
    const MIN_SIZE: usize = 1;

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(ArrayString::new())
    }

    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let at = r.position();
        let text = <&str>::unpack(r)?;
        ArrayString::from(text).map_err(|_| over_capacity(r, at, text.len(), CAP))
    }

    crate::impls::string::str_column_unpack!(|r, text| {
        let at = r.position();
        ArrayString::from(text).map_err(|_| over_capacity(r, at, text.len(), CAP))
    });
}
