//! Fixed-size arrays `[T; N]`: the N elements, with no length (the type
//! fixes it). Nested arrays (`[[T; N]; M]`) are elements in row order.

use crate::plain::Plain;
use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

impl<T: Encoding, const N: usize> Encoding for [T; N] {
    encoding_array!(T, N);
    // An array of elements whose sequences are columns (§27) is written
    // a column at a time in the compact layout, not as its memory.
    #[allow(unsafe_code)]
    const PLAIN: Plain<Self> =
        unsafe { Plain::in_layouts_unchecked(T::PLAIN.get() && !T::COLUMNS, T::PLAIN.fixed()) };
    // A column of arrays is the column of all their elements (§27), which
    // differs from the arrays one after another only for elements that
    // are columns or packed blocks themselves.
    const COLUMNS: bool = T::COLUMNS || T::PACKED;
}

impl<T: Pack, const N: usize> Pack for [T; N] {
    // SAFETY: an array has no padding between or around its elements, so an
    // array of plain elements is plain.

    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        T::pack_slice(self, w)
    }

    /// A column of arrays: the column of their elements, all of them.
    #[inline]
    fn pack_slice<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>) -> Result<()> {
        if crate::encoding::columns_in::<Self, L>() {
            return T::pack_slice(items.as_flattened(), w);
        }
        crate::write::pack_each(items, w)
    }

    fn pack_all<'a, L: crate::Layout>(
        items: impl Iterator<Item = &'a Self> + Clone,
        w: &mut Writer<'_, L>,
    ) -> Result<()>
    where
        Self: 'a,
    {
        if crate::encoding::columns_in::<Self, L>() {
            return T::pack_all(items.flat_map(|a| a.iter()), w);
        }
        crate::write::pack_each_of(items, w)
    }

    /// The same bytes as `pack`: plain data in one copy, and elements one
    /// by one through the cursor unless they are integers in packed blocks
    /// (8 or more: `packed::layout::SHORT`), which the writer gathers.
    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(
        &self,
        c: &mut crate::__private::Cursor<'_, '_, L>,
    ) -> Result<()> {
        if crate::encoding::columns_in::<T, L>() {
            return c.writer(|w| T::pack_slice(self, w));
        }
        if let Some(bytes) = crate::plain::bytes_of::<T, L>(self, T::PLAIN) {
            c.write_bytes(bytes);
            return Ok(());
        }
        if crate::encoding::packed_in::<T, L>() && N >= crate::packed::layout::SHORT {
            return c.writer(|w| T::pack_slice(self, w));
        }
        for item in self {
            item.pack_cursor(c)?;
        }
        Ok(())
    }
}

impl<'de, T: Unpack<'de>, const N: usize> Unpack<'de> for [T; N] {
    const MIN_SIZE: usize = if T::PACKED {
        crate::packed::layout::min_size(N)
    } else if T::COLUMNS {
        // Columns (§27) in the compact layout; rows, which take more, in
        // the fixed one. Rounded up: a column of one or more values that
        // take input takes at least a byte.
        T::COLUMN_MIN.saturating_mul(N).div_ceil(256)
    } else {
        T::MIN_SIZE.saturating_mul(N)
    };

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        T::unpack_array::<N, _>(r)
    }

    const COLUMN_MIN: usize = T::COLUMN_MIN.saturating_mul(N);

    /// A column of arrays: the column of all their elements, in arrays.
    fn unpack_vec<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        len: usize,
    ) -> Result<alloc::vec::Vec<Self>> {
        if !crate::encoding::columns_in::<Self, L>() {
            return crate::read::unpack_each(r, len);
        }
        let total = len.checked_mul(N).ok_or_else(|| r.alloc_error(len))?;
        r.check_column::<T>(total, r.position())?;
        let room = r.cautious_capacity::<Self>(len);
        let mut values = T::unpack_vec(r, total)?.into_iter();
        let mut out = r.vec_with_room(len, room)?;
        for i in 0..len {
            let slots: [Option<T>; N] = core::array::from_fn(|_| values.next());
            if slots.iter().any(Option::is_none) {
                return Err(crate::read::short_column(r));
            }
            if out.len() == out.capacity() {
                r.grow_toward(&mut out, i + 1, len)?;
            }
            out.push(slots.map(|slot| slot.unwrap_or_else(|| unreachable!("checked above"))));
        }
        Ok(out)
    }

    fn placeholder(work: &mut u32) -> Option<Self> {
        let slots: [Option<T>; N] = core::array::from_fn(|_| T::placeholder(work));
        if slots.iter().any(Option::is_none) {
            return None;
        }
        Some(slots.map(|slot| slot.unwrap_or_else(|| unreachable!("checked above"))))
    }
}
