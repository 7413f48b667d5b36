//! Interior mutability: `Cell`, `RefCell`, `Mutex`, `RwLock`, encoded as the
//! value inside. Encoding never panics: a `RefCell` that is mutably borrowed
//! is an [`ErrorKind::AlreadyBorrowed`] error and a poisoned lock an
//! [`ErrorKind::Poisoned`] error.

use core::cell::{Cell, RefCell};

use crate::{Encoding, Error, ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl<T: Encoding> Encoding for Cell<T> {
    encoding_transparent!(T);
}

impl<T: Pack + Copy> Pack for Cell<T> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.get().pack(w)
    }

    /// The contents' sequence (§22, §27), from a copy of the values.
    fn pack_all<'a, L: crate::Layout>(
        items: impl Iterator<Item = &'a Self> + Clone,
        w: &mut Writer<'_, L>,
    ) -> Result<()>
    where
        Self: 'a,
    {
        let values: alloc::vec::Vec<T> = items.map(Cell::get).collect();
        crate::write::pack_column(values.iter(), w)
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for Cell<T> {
    #[inline]
    fn placeholder(work: &mut u32) -> Option<Self> {
        T::placeholder(work).map(Cell::new)
    }

    const MIN_SIZE: usize = T::MIN_SIZE;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        T::unpack(r).map(Cell::new)
    }

    forward_unpack_columns!(Cell::new);
}

impl<T: Encoding + ?Sized> Encoding for RefCell<T> {
    encoding_transparent!(T);
}

impl<T: Pack + ?Sized> Pack for RefCell<T> {
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        match self.try_borrow() {
            Ok(value) => value.pack(w),
            Err(_) => Err(already_borrowed()),
        }
    }

    /// The contents' sequence (§22, §27), every cell borrowed at once.
    fn pack_all<'a, L: crate::Layout>(
        items: impl Iterator<Item = &'a Self> + Clone,
        w: &mut Writer<'_, L>,
    ) -> Result<()>
    where
        Self: 'a,
    {
        let guards = items
            .map(|c| c.try_borrow().map_err(|_| already_borrowed()))
            .collect::<Result<alloc::vec::Vec<_>>>()?;
        crate::write::pack_column(guards.iter().map(|g| &**g), w)
    }
}

#[cold]
fn already_borrowed() -> Error {
    Error::new(
        ErrorKind::AlreadyBorrowed,
        "a RefCell was mutably borrowed while being encoded",
    )
}

impl<'de, T: Unpack<'de>> Unpack<'de> for RefCell<T> {
    const MIN_SIZE: usize = T::MIN_SIZE;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        T::unpack(r).map(RefCell::new)
    }

    forward_unpack_columns!(RefCell::new);

    #[inline]
    fn placeholder(work: &mut u32) -> Option<Self> {
        T::placeholder(work).map(RefCell::new)
    }

    #[inline]
    fn shared_placeholder() -> Option<Self> {
        Self::placeholder(&mut { crate::read::PLACEHOLDER_WORK })
    }

    fn shared_fill<L: crate::Layout>(&self, r: &mut Reader<'de, L>) -> Result<()> {
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
            T::placeholder(&mut { crate::read::PLACEHOLDER_WORK }),
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
    use std::vec::Vec;

    use crate::{Encoding, Error, ErrorKind, Pack, Reader, Result, Unpack, Writer};

    /// `Mutex` and `RwLock` differ only in how they are locked: `$read`
    /// for encoding (held while the value is written), `$write` for filling
    /// and clearing a shared placeholder. A poisoned lock is an error.
    macro_rules! lock_impls {
        ($lock:ident, $read:ident, $write:ident) => {
            impl<T: Encoding + ?Sized> Encoding for $lock<T> {
                encoding_transparent!(T);
            }

            impl<T: Pack + ?Sized> Pack for $lock<T> {
                fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                    match self.$read() {
                        Ok(guard) => guard.pack(w),
                        Err(_) => Err(poisoned(stringify!($lock))),
                    }
                }

                /// The contents' sequence (§22, §27), every lock held at
                /// once; a lock reached twice (through references) is an
                /// error, where locking it again would deadlock.
                fn pack_all<'a, L: crate::Layout>(
                    items: impl Iterator<Item = &'a Self> + Clone,
                    w: &mut Writer<'_, L>,
                ) -> Result<()>
                where
                    Self: 'a,
                {
                    let mut at: Vec<*const u8> = items
                        .clone()
                        .map(|l| (l as *const Self).cast::<u8>())
                        .collect();
                    at.sort_unstable();
                    if at.windows(2).any(|p| p[0] == p[1]) {
                        return Err(Error::new(
                            ErrorKind::Custom,
                            concat!("the same ", stringify!($lock), " twice in one sequence"),
                        ));
                    }
                    let guards = items
                        .map(|l| l.$read().map_err(|_| poisoned(stringify!($lock))))
                        .collect::<Result<Vec<_>>>()?;
                    crate::write::pack_column(guards.iter().map(|g| &**g), w)
                }
            }

            impl<'de, T: Unpack<'de>> Unpack<'de> for $lock<T> {
                const MIN_SIZE: usize = T::MIN_SIZE;

                fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                    T::unpack(r).map($lock::new)
                }

                forward_unpack_columns!($lock::new);

                #[inline]
                fn placeholder(work: &mut u32) -> Option<Self> {
                    T::placeholder(work).map($lock::new)
                }

                #[inline]
                fn shared_placeholder() -> Option<Self> {
                    Self::placeholder(&mut { crate::read::PLACEHOLDER_WORK })
                }

                fn shared_fill<L: crate::Layout>(&self, r: &mut Reader<'de, L>) -> Result<()> {
                    let value = T::unpack(r)?;
                    let old = match self.$write() {
                        Ok(mut guard) => core::mem::replace(&mut *guard, value),
                        Err(_) => {
                            return Err(
                                r.error(ErrorKind::Poisoned, poisoned_message(stringify!($lock)))
                            )
                        }
                    };
                    drop(old);
                    Ok(())
                }

                fn shared_clear(&self) {
                    if let (Ok(mut guard), Some(placeholder)) = (
                        self.$write(),
                        T::placeholder(&mut { crate::read::PLACEHOLDER_WORK }),
                    ) {
                        // Take the contents out first: dropping them may reach this lock.
                        let contents = core::mem::replace(&mut *guard, placeholder);
                        drop(guard);
                        drop(contents);
                    }
                }
            }
        };
    }

    fn poisoned_message(what: &str) -> alloc::string::String {
        alloc::format!("a {what} was poisoned")
    }

    #[cold]
    fn poisoned(what: &str) -> Error {
        Error::new(ErrorKind::Poisoned, poisoned_message(what))
    }

    lock_impls!(Mutex, lock, lock);
    lock_impls!(RwLock, read, write);
}
