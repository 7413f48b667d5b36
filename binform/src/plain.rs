//! Plain data: types whose encoding is exactly their in-memory bytes on a
//! little-endian target (`u8`, `i8`, `f32`, `f64`, arrays of them, and
//! derived structs of them without padding). Slices of such types are
//! written and read with one copy instead of a loop: the MemoryPack trick,
//! which is what takes a mesh of `f32` vectors to memcpy speed.
//!
//! The marker is a typed token, [`Plain<T>`], that only an `unsafe`
//! constructor can set to "yes", so no safe code can claim plainness for a
//! type that is not.
#![allow(unsafe_code)]

use alloc::collections::TryReserveError;
use alloc::vec::Vec;
use core::marker::PhantomData;

use crate::layout::Layout;

/// Whether `T` is plain data (see the module docs). Only `binform`'s own
/// impls and the derive set it; the default is "no".
pub struct Plain<T: ?Sized> {
    /// Plain in the compact layout (then also in the fixed one).
    yes: bool,
    /// Plain in the fixed layout, where integers are their bytes too.
    fixed: bool,
    marker: PhantomData<fn() -> *const T>,
}

impl<T: ?Sized> Clone for Plain<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized> Copy for Plain<T> {}

impl<T: ?Sized> Plain<T> {
    /// Not plain: encoded value by value.
    pub const NO: Self = Plain {
        yes: false,
        fixed: false,
        marker: PhantomData,
    };

    /// Marks `T` as plain when `yes` holds and the target is little-endian.
    ///
    /// # Safety
    /// With `yes` true, `T` must be `Sized`, have no padding bytes, accept
    /// every bit pattern as a valid value, and its binform encoding must be
    /// exactly its in-memory bytes on a little-endian target.
    pub const unsafe fn new_unchecked(yes: bool) -> Self {
        // SAFETY: the caller's promise covers both layouts (an encoding
        // that is its memory in the compact layout has no integer wider
        // than a byte, which is all the fixed layout changes).
        unsafe { Plain::in_layouts_unchecked(yes, yes) }
    }

    /// Marks `T` as plain in the compact layout when `compact` holds, and
    /// in the fixed layout when `fixed` holds, on a little-endian target.
    ///
    /// # Safety
    /// For each flag that is true, `T` must be `Sized`, have no padding
    /// bytes, accept every bit pattern as a valid value, and its binform
    /// encoding in that layout must be exactly its in-memory bytes on a
    /// little-endian target. `compact` must imply `fixed`.
    pub const unsafe fn in_layouts_unchecked(compact: bool, fixed: bool) -> Self {
        let little = cfg!(target_endian = "little");
        Plain {
            yes: compact && fixed && little,
            fixed: fixed && little,
            marker: PhantomData,
        }
    }

    /// Whether `T` is plain in the compact layout.
    #[inline(always)]
    pub const fn get(self) -> bool {
        self.yes
    }

    /// Whether `T` is plain in the fixed layout.
    #[inline(always)]
    pub const fn fixed(self) -> bool {
        self.fixed
    }

    /// Whether `T` is plain in the layout `L`.
    #[inline(always)]
    pub const fn in_layout<L: Layout>(self) -> bool {
        if L::FIXED {
            self.fixed
        } else {
            self.yes
        }
    }
}

/// The bytes of a slice of plain values.
#[inline]
pub(crate) fn bytes_of<T, L: Layout>(items: &[T], plain: Plain<T>) -> Option<&[u8]> {
    if !plain.in_layout::<L>() {
        return None;
    }
    // SAFETY: `plain` says `T` has no padding, so every byte of the slice is
    // initialized; the pointer and length cover exactly the slice's memory,
    // and the returned borrow keeps the slice alive.
    Some(unsafe {
        core::slice::from_raw_parts(items.as_ptr().cast::<u8>(), core::mem::size_of_val(items))
    })
}

/// `len` plain values copied out of `bytes`, which holds exactly their
/// encoding (`len * size_of::<T>()` bytes); `None` if `T` is not plain or
/// the sizes disagree, `Some(Err)` if the allocation fails.
#[inline]
pub(crate) fn vec_from_bytes<T, L: Layout>(
    bytes: &[u8],
    len: usize,
    plain: Plain<T>,
) -> Option<Result<Vec<T>, TryReserveError>> {
    if !plain.in_layout::<L>() || len.checked_mul(core::mem::size_of::<T>()) != Some(bytes.len()) {
        return None;
    }
    let mut out: Vec<T> = Vec::new();
    if let Err(e) = out.try_reserve_exact(len) {
        return Some(Err(e));
    }
    // SAFETY: the vector has room for `len` values, which take exactly
    // `bytes.len()` bytes (checked above); the regions cannot overlap (one
    // is a fresh allocation). `plain` says every bit pattern is a valid `T`
    // whose encoding is its memory, so after the copy the first `len`
    // elements are initialized values and `set_len` is sound.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().cast::<u8>(), bytes.len());
        out.set_len(len);
    }
    Some(Ok(out))
}

#[cfg(test)]
mod tests {
    //! These run under Miri (`cargo +nightly miri test -p binform`), which
    //! checks the two unsafe blocks above.
    use alloc::vec;
    use alloc::vec::Vec;

    use crate::{from_slice, to_vec, Encoding, ErrorKind};

    #[test]
    fn which_types_are_plain() {
        assert!(<u8 as Encoding>::PLAIN.get() == cfg!(target_endian = "little"));
        assert!(<[f32; 3] as Encoding>::PLAIN.get() == cfg!(target_endian = "little"));
        assert!(!<u32 as Encoding>::PLAIN.get(), "u32 is a varint");
        assert!(!<bool as Encoding>::PLAIN.get(), "not every byte is a bool");
        assert!(!<[u16; 2] as Encoding>::PLAIN.get());
    }

    #[test]
    fn plain_slices_round_trip_in_one_copy() {
        let floats: Vec<f64> = vec![1.5, -0.0, f64::NAN, f64::MAX];
        let bytes = to_vec(&floats).unwrap();
        let expected: Vec<u8> = core::iter::once(8u8)
            .chain(floats.iter().flat_map(|f| f.to_le_bytes()))
            .collect();
        assert_eq!(bytes, expected);
        let back: Vec<f64> = from_slice(&bytes).unwrap();
        assert_eq!(
            back.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
            floats.iter().map(|f| f.to_bits()).collect::<Vec<_>>()
        );

        let grid: Vec<[f32; 3]> = (0..50).map(|i| [i as f32, -(i as f32), 0.5]).collect();
        let back: Vec<[f32; 3]> = from_slice(&to_vec(&grid).unwrap()).unwrap();
        assert_eq!(back, grid);

        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(
            from_slice::<Vec<u8>>(&to_vec(&bytes).unwrap()).unwrap(),
            bytes
        );
        let signed: Vec<i8> = (-128..=127).collect();
        assert_eq!(
            from_slice::<Vec<i8>>(&to_vec(&signed).unwrap()).unwrap(),
            signed
        );
    }

    #[test]
    fn short_plain_input_is_an_error() {
        // Two f32 declared, one and a half given.
        let err = from_slice::<Vec<f32>>(&[4, 0, 0, 128, 63, 0, 0]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
        let empty: Vec<f32> = from_slice(&[0]).unwrap();
        assert!(empty.is_empty());
    }

    /// The fixed layout's integers are plain: vectors of every width are
    /// one copy each way (the unsafe copies above; under Miri), arrays of
    /// them one copy on the way out.
    #[test]
    fn fixed_layout_integer_slices_are_one_copy() {
        use crate::fixed;
        fn each_way<T>(values: Vec<T>, width: usize)
        where
            T: crate::Pack + for<'de> crate::Unpack<'de> + PartialEq + core::fmt::Debug,
        {
            assert!(T::PLAIN.fixed() == cfg!(target_endian = "little"));
            let bytes = fixed::to_vec(&values).unwrap();
            assert_eq!(bytes.len(), 1 + values.len() * width);
            assert_eq!(fixed::from_slice::<Vec<T>>(&bytes).unwrap(), values);
        }
        assert!(!<u32 as Encoding>::PLAIN.get());
        let words: Vec<u32> = vec![0, 1, 0xDEAD_BEEF, u32::MAX];
        let bytes = fixed::to_vec(&words).unwrap();
        let expected: Vec<u8> = core::iter::once(8u8)
            .chain(words.iter().flat_map(|w| w.to_le_bytes()))
            .collect();
        assert_eq!(bytes, expected);
        each_way(words, 4);
        each_way(vec![1u16, u16::MAX, 300], 2);
        each_way(vec![-1i16, i16::MIN], 2);
        each_way(vec![u64::MAX, 1 << 40], 8);
        each_way(vec![i64::MIN, -2], 8);
        each_way(vec![i128::MIN, -1, 0, 1 << 100], 16);
        each_way(vec![u128::MAX, 5], 16);
        if cfg!(target_pointer_width = "64") {
            each_way(vec![usize::MAX, 3], 8);
            each_way(vec![isize::MIN, 3], 8);
        }
        each_way(vec![[1i16, -1], [i16::MIN, i16::MAX], [0, 7]], 4);
        let pairs: [[i16; 2]; 3] = [[1, -1], [i16::MIN, i16::MAX], [0, 7]];
        assert_eq!(
            fixed::from_slice::<[[i16; 2]; 3]>(&fixed::to_vec(&pairs).unwrap()).unwrap(),
            pairs
        );
        // A length that the input cannot hold fails before the copy.
        let err = fixed::from_slice::<Vec<u64>>(&[0x06, 1, 2, 3]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    }
}
