//! Interior mutability: `Cell`, `RefCell`, `Mutex`, `RwLock`, encoded as the
//! value inside. Encoding never panics: a `RefCell` that is mutably borrowed
//! is an [`ErrorKind::AlreadyBorrowed`] error and a poisoned lock an
//! [`ErrorKind::Poisoned`] error.

use core::cell::{Cell, RefCell};

use crate::{Error, ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl<T: Pack + Copy> Pack for Cell<T> {
    schema_transparent!(T);
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        self.get().pack(w)
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for Cell<T> {
    unpack_shape_transparent!(T);
    #[inline]
    fn placeholder(budget: u32) -> Option<Self> {
        T::placeholder(budget).map(Cell::new)
    }

    const MIN_SIZE: usize = T::MIN_SIZE;

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        T::unpack(r).map(Cell::new)
    }
}

impl<T: Pack + ?Sized> Pack for RefCell<T> {
    schema_transparent!(T);
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        match self.try_borrow() {
            Ok(value) => value.pack(w),
            Err(_) => Err(Error::new(
                ErrorKind::AlreadyBorrowed,
                "a RefCell was mutably borrowed while being encoded",
            )),
        }
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for RefCell<T> {
    unpack_shape_transparent!(T);
    const MIN_SIZE: usize = T::MIN_SIZE;

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        T::unpack(r).map(RefCell::new)
    }

    #[inline]
    fn placeholder(budget: u32) -> Option<Self> {
        T::placeholder(budget).map(RefCell::new)
    }

    #[inline]
    fn shared_placeholder() -> Option<Self> {
        Self::placeholder(crate::read::PLACEHOLDER_BUDGET)
    }

    fn shared_fill(&self, r: &mut Reader<'de>) -> Result<()> {
        let value = T::unpack(r)?;
        match self.try_borrow_mut() {
            Ok(mut slot) => {
                let placeholder = core::mem::replace(&mut *slot, value);
                drop(slot);
                drop(placeholder);
                Ok(())
            }
            Err(_) => Err(r.error(
                ErrorKind::AlreadyBorrowed,
                "shared RefCell borrowed during decode",
            )),
        }
    }

    fn shared_clear(&self) {
        if let (Ok(mut slot), Some(placeholder)) = (
            self.try_borrow_mut(),
            T::placeholder(crate::read::PLACEHOLDER_BUDGET),
        ) {
            // Take the contents out first: dropping them may reach this cell.
            let contents = core::mem::replace(&mut *slot, placeholder);
            drop(slot);
            drop(contents);
        }
    }
}

#[cfg(feature = "std")]
mod locks {
    use std::sync::{Mutex, RwLock};

    use crate::{Error, ErrorKind, Pack, Reader, Result, Unpack, Writer};

    #[cold]
    fn poisoned(what: &str) -> Error {
        Error::new(ErrorKind::Poisoned, alloc::format!("a {what} was poisoned"))
    }

    /// Encoding holds the lock while the value is written.
    impl<T: Pack + ?Sized> Pack for Mutex<T> {
        schema_transparent!(T);
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            match self.lock() {
                Ok(guard) => guard.pack(w),
                Err(_) => Err(poisoned("Mutex")),
            }
        }
    }

    impl<'de, T: Unpack<'de>> Unpack<'de> for Mutex<T> {
        unpack_shape_transparent!(T);
        const MIN_SIZE: usize = T::MIN_SIZE;

        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            T::unpack(r).map(Mutex::new)
        }

        #[inline]
        fn placeholder(budget: u32) -> Option<Self> {
            T::placeholder(budget).map(Mutex::new)
        }

        #[inline]
        fn shared_placeholder() -> Option<Self> {
            Self::placeholder(crate::read::PLACEHOLDER_BUDGET)
        }

        fn shared_fill(&self, r: &mut Reader<'de>) -> Result<()> {
            let value = T::unpack(r)?;
            let old = match self.lock() {
                Ok(mut guard) => core::mem::replace(&mut *guard, value),
                Err(_) => {
                    return Err(r.error(ErrorKind::Poisoned, "shared Mutex poisoned during decode"))
                }
            };
            drop(old);
            Ok(())
        }

        fn shared_clear(&self) {
            if let (Ok(mut guard), Some(placeholder)) =
                (self.lock(), T::placeholder(crate::read::PLACEHOLDER_BUDGET))
            {
                let contents = core::mem::replace(&mut *guard, placeholder);
                drop(guard);
                drop(contents);
            }
        }
    }

    /// Encoding holds a read lock while the value is written.
    impl<T: Pack + ?Sized> Pack for RwLock<T> {
        schema_transparent!(T);
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            match self.read() {
                Ok(guard) => guard.pack(w),
                Err(_) => Err(poisoned("RwLock")),
            }
        }
    }

    impl<'de, T: Unpack<'de>> Unpack<'de> for RwLock<T> {
        unpack_shape_transparent!(T);
        const MIN_SIZE: usize = T::MIN_SIZE;

        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            T::unpack(r).map(RwLock::new)
        }

        #[inline]
        fn placeholder(budget: u32) -> Option<Self> {
            T::placeholder(budget).map(RwLock::new)
        }

        #[inline]
        fn shared_placeholder() -> Option<Self> {
            Self::placeholder(crate::read::PLACEHOLDER_BUDGET)
        }

        fn shared_fill(&self, r: &mut Reader<'de>) -> Result<()> {
            let value = T::unpack(r)?;
            let old = match self.write() {
                Ok(mut guard) => core::mem::replace(&mut *guard, value),
                Err(_) => {
                    return Err(r.error(ErrorKind::Poisoned, "shared RwLock poisoned during decode"))
                }
            };
            drop(old);
            Ok(())
        }

        fn shared_clear(&self) {
            if let (Ok(mut guard), Some(placeholder)) = (
                self.write(),
                T::placeholder(crate::read::PLACEHOLDER_BUDGET),
            ) {
                let contents = core::mem::replace(&mut *guard, placeholder);
                drop(guard);
                drop(contents);
            }
        }
    }
}
