//! Fixed-size arrays `[T; N]`: the N elements, with no length (the type
//! fixes it). Nested arrays (`[[T; N]; M]`) are elements in row order.

use crate::plain::Plain;
use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

impl<T: Encoding, const N: usize> Encoding for [T; N] {
    encoding_array!(T, N);
    #[allow(unsafe_code)]
    const PLAIN: Plain<Self> =
        unsafe { Plain::in_layouts_unchecked(T::PLAIN.get(), T::PLAIN.fixed()) };
}

impl<T: Pack, const N: usize> Pack for [T; N] {
    // SAFETY: an array has no padding between or around its elements, so an
    // array of plain elements is plain.

    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        T::pack_slice(self, w)
    }

    /// The same bytes as `pack`: plain data in one copy, and elements one
    /// by one through the cursor unless they are integers in packed blocks
    /// (8 or more: `packed::layout::SHORT`), which the writer gathers.
    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(
        &self,
        c: &mut crate::__private::Cursor<'_, '_, L>,
    ) -> Result<()> {
        if let Some(bytes) = crate::plain::bytes_of::<T, L>(self, T::PLAIN) {
            c.write_bytes(bytes);
            return Ok(());
        }
        if crate::encoding::packed_in::<T, L>() && N >= crate::packed::layout::SHORT
            || crate::encoding::columns_in::<T, L>()
        {
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
        // the fixed one.
        T::COLUMN_MIN.saturating_mul(N) / 256
    } else {
        T::MIN_SIZE.saturating_mul(N)
    };

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        T::unpack_array::<N, _>(r)
    }

    fn placeholder(work: &mut u32) -> Option<Self> {
        let slots: [Option<T>; N] = core::array::from_fn(|_| T::placeholder(work));
        if slots.iter().any(Option::is_none) {
            return None;
        }
        Some(slots.map(|slot| slot.unwrap_or_else(|| unreachable!("checked above"))))
    }
}
