//! Fixed-size arrays `[T; N]`: the N elements, with no length (the type
//! fixes it). Nested arrays (`[[T; N]; M]`) are elements in row order.

use crate::{Encoding, Error, Pack, Plain, Reader, Result, Unpack, Writer};

impl<T: Encoding, const N: usize> Encoding for [T; N] {
    encoding_array!(T, N);
    #[allow(unsafe_code)]
    const PLAIN: Plain<Self> = unsafe { Plain::new_unchecked(T::PLAIN.get()) };
}

impl<T: Pack, const N: usize> Pack for [T; N] {
    // SAFETY: an array has no padding between or around its elements, so an
    // array of plain elements is plain.

    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        T::pack_slice(self, w)
    }
}

impl<'de, T: Unpack<'de>, const N: usize> Unpack<'de> for [T; N] {
    const MIN_SIZE: usize = T::MIN_SIZE.saturating_mul(N);

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        // Decode into `Option`s so that the first error can stop the array
        // without a value to fill the rest; every slot is `Some` after.
        let mut failure: Option<Error> = None;
        let slots: [Option<T>; N] = core::array::from_fn(|_| {
            if failure.is_some() {
                return None;
            }
            match T::unpack(r) {
                Ok(v) => Some(v),
                Err(e) => {
                    failure = Some(e);
                    None
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        // Without a failure, `from_fn` filled every slot.
        Ok(slots.map(|slot| slot.unwrap_or_else(|| unreachable!("every slot is filled"))))
    }

    fn placeholder(work: &mut u32) -> Option<Self> {
        let slots: [Option<T>; N] = core::array::from_fn(|_| T::placeholder(work));
        if slots.iter().any(Option::is_none) {
            return None;
        }
        Some(slots.map(|slot| slot.unwrap_or_else(|| unreachable!("checked above"))))
    }
}
