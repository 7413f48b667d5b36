//! Atomics, encoded as the value they hold (read with `Ordering::SeqCst`:
//! an encode sees one consistent value of each), and `cmp::Ordering` as one
//! signed byte, −1, 0 or 1.

use core::cmp::Ordering;
use core::sync::atomic;

use crate::tolerant::wire::Wire;
use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

macro_rules! atomic {
    ($($cfg:literal: $atomic:ident => $ty:ty),* $(,)?) => {$(
        #[cfg(target_has_atomic = $cfg)]
        impl Encoding for atomic::$atomic {
            encoding_transparent!($ty);
        }

        #[cfg(target_has_atomic = $cfg)]
        impl Pack for atomic::$atomic {
            #[inline]
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                self.load(atomic::Ordering::SeqCst).pack(w)
            }

            /// The integers' sequence (§22), from the values loaded.
            fn pack_all<'a, L: crate::Layout>(
                items: impl Iterator<Item = &'a Self> + Clone,
                w: &mut Writer<'_, L>,
            ) -> Result<()>
            where
                Self: 'a,
            {
                let values: alloc::vec::Vec<$ty> =
                    items.map(|a| a.load(atomic::Ordering::SeqCst)).collect();
                <$ty>::pack_all(values.iter(), w)
            }
        }

        #[cfg(target_has_atomic = $cfg)]
        impl<'de> Unpack<'de> for atomic::$atomic {
            const MIN_SIZE: usize = <$ty as Unpack<'de>>::MIN_SIZE;

            #[inline]
            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                <$ty>::unpack(r).map(Self::new)
            }

            #[inline]
            fn placeholder(work: &mut u32) -> Option<Self> {
                <$ty>::placeholder(work).map(Self::new)
            }

            const COLUMN_MIN: usize = <$ty as Unpack<'de>>::COLUMN_MIN;

            #[inline]
            fn unpack_vec<L: crate::Layout>(
                r: &mut Reader<'de, L>,
                len: usize,
            ) -> Result<alloc::vec::Vec<Self>> {
                let values = <$ty>::unpack_vec(r, len)?;
                crate::columns::map_column(r, values, Self::new)
            }
        }
    )*};
}

atomic!(
    "8": AtomicBool => bool, "8": AtomicU8 => u8, "8": AtomicI8 => i8,
    "16": AtomicU16 => u16, "16": AtomicI16 => i16,
    "32": AtomicU32 => u32, "32": AtomicI32 => i32,
    "64": AtomicU64 => u64, "64": AtomicI64 => i64,
    "ptr": AtomicUsize => usize, "ptr": AtomicIsize => isize,
);

impl Encoding for Ordering {
    encoding_builtin!("ordering");
    const WIRE: Wire = Wire::Byte;
}

impl Pack for Ordering {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_u8(*self as i8 as u8);
        Ok(())
    }
}

impl<'de> Unpack<'de> for Ordering {
    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        match r.read_u8()? as i8 {
            -1 => Ok(Ordering::Less),
            0 => Ok(Ordering::Equal),
            1 => Ok(Ordering::Greater),
            b => Err(r.error_at(
                r.position() - 1,
                ErrorKind::InvalidValue,
                alloc::format!("byte {:#04x} is not an Ordering (-1, 0 or 1)", b as u8),
            )),
        }
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Ordering::Equal)
    }
}
