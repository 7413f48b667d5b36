//! `Rc`, `Arc` and their `Weak`s, with identity: see [`crate::refs`] for the
//! wire form. `Rc<T>` and `Arc<T>` work for sized `T`, `str`, `[T]` and
//! trait objects registered with [`polymorphic!`](crate::polymorphic).

use alloc::boxed::Box;
use alloc::format;
use alloc::rc::{Rc, Weak as RcWeak};
use alloc::sync::{Arc, Weak as ArcWeak};
use alloc::vec::Vec;

use crate::impls::string::read_str;
pub use crate::refs::Handle;
use crate::refs::{Slot, TAG_ID_BASE, TAG_NEW, TAG_NULL};
use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

/// Builds the shared value behind a new `Rc`/`Arc`: implemented for every
/// sized decodable type, for `str` and `[T]`, and by
/// [`polymorphic!`](crate::polymorphic) for trait objects.
///
/// `id` is the value's reference id; the implementation may record an
/// early handle for it (so that references from inside its own contents
/// resolve), and the caller records the finished one.
#[doc(hidden)]
pub trait SharedUnpack<'de>: Encoding {
    /// Decodes a new value behind an `Rc`.
    fn build_rc<L: crate::Layout>(r: &mut Reader<'de, L>, id: usize) -> Result<Rc<Self>>;
    /// Decodes a new value behind an `Arc`.
    fn build_arc<L: crate::Layout>(r: &mut Reader<'de, L>, id: usize) -> Result<Arc<Self>>;
    /// A placeholder behind a fresh `Rc` (see `Unpack::placeholder`).
    fn placeholder_rc(work: &mut u32) -> Option<Rc<Self>>;
    /// A placeholder behind a fresh `Arc`.
    fn placeholder_arc(work: &mut u32) -> Option<Arc<Self>>;

    /// The reference table's handle for an `Rc` of this type.
    fn rc_handle(handle: Rc<Self>) -> Handle
    where
        Self: 'static,
    {
        Handle::Boxed(Box::new(handle))
    }

    /// The `Rc` back from a table handle, if it has this type.
    fn rc_from_handle(handle: &Handle) -> Option<Rc<Self>>
    where
        Self: 'static,
    {
        match handle {
            Handle::Boxed(b) => b.downcast_ref::<Rc<Self>>().cloned(),
            Handle::Rc(_) => None,
        }
    }

    /// The reference table's handle for an `Arc` of this type.
    fn arc_handle(handle: Arc<Self>) -> Handle
    where
        Self: 'static,
    {
        Handle::Boxed(Box::new(handle))
    }

    /// The `Arc` back from a table handle, if it has this type.
    fn arc_from_handle(handle: &Handle) -> Option<Arc<Self>>
    where
        Self: 'static,
    {
        match handle {
            Handle::Boxed(b) => b.downcast_ref::<Arc<Self>>().cloned(),
            Handle::Rc(_) => None,
        }
    }
}

/// The three ways to build a sized shared value, in order of preference:
/// 1. interior-mutable with a placeholder: the handle exists before the
///    contents, so strong references from inside close the cycle;
/// 2. with a placeholder, for types that may hold a `Weak`: built in
///    `new_cyclic`, so weak references from inside resolve (the
///    placeholder stands in only if decoding fails);
/// 3. otherwise: the contents first, and references from inside fail.
macro_rules! build_sized {
    ($ptr:ident, $weak:ident, $erase:ident, $r:ident, $id:ident, $t:ty) => {{
        // The value and the two reference counts beside it.
        $r.charge_memory(core::mem::size_of::<$t>() + 2 * core::mem::size_of::<usize>())?;
        if let Some(placeholder) = <$t as Unpack<'de>>::shared_placeholder() {
            let handle = $ptr::new(placeholder);
            $r.set_ref(
                $id,
                Slot::Filling(<$t as SharedUnpack<'de>>::$erase(handle.clone())),
            );
            let for_cleanup = handle.clone();
            $r.add_cleanup(Box::new(move || {
                <$t as Unpack<'de>>::shared_clear(&for_cleanup)
            }))?;
            // Called on the pointee: `Rc`/`Arc` have their own (default) hooks.
            $r.nested_holding::<$t, _>(|r| <$t as Unpack<'de>>::shared_fill(&handle, r))?;
            Ok(handle)
        } else if let Some(placeholder) = crate::schema::facts::facts_of::<$t>()
            .holds_weak
            .then(|| <$t as Unpack<'de>>::placeholder(&mut { crate::read::PLACEHOLDER_WORK }))
            .flatten()
        {
            let mut failure = None;
            let handle = $ptr::new_cyclic(|weak: &$weak<$t>| {
                $r.set_ref($id, Slot::Building(Box::new(weak.clone())));
                match $r.nested_holding::<$t, _>(|r| <$t as Unpack<'de>>::unpack(r)) {
                    Ok(value) => value,
                    Err(e) => {
                        failure = Some(e);
                        placeholder
                    }
                }
            });
            match failure {
                Some(e) => Err(e),
                None => Ok(handle),
            }
        } else {
            let value = $r.nested_holding::<$t, _>(|r| <$t as Unpack<'de>>::unpack(r))?;
            Ok($ptr::new(value))
        }
    }};
}

impl<'de, T: Unpack<'de> + 'static> SharedUnpack<'de> for T {
    fn build_rc<L: crate::Layout>(r: &mut Reader<'de, L>, id: usize) -> Result<Rc<Self>> {
        build_sized!(Rc, RcWeak, rc_handle, r, id, T)
    }

    fn build_arc<L: crate::Layout>(r: &mut Reader<'de, L>, id: usize) -> Result<Arc<Self>> {
        build_sized!(Arc, ArcWeak, arc_handle, r, id, T)
    }

    fn placeholder_rc(work: &mut u32) -> Option<Rc<Self>> {
        T::placeholder(work).map(Rc::new)
    }

    /// No box: an `Rc<T>` is already an `Rc<dyn Any>`.
    fn rc_handle(handle: Rc<Self>) -> Handle {
        Handle::Rc(handle)
    }

    fn rc_from_handle(handle: &Handle) -> Option<Rc<Self>> {
        match handle {
            Handle::Rc(rc) => rc.clone().downcast::<T>().ok(),
            Handle::Boxed(_) => None,
        }
    }

    fn placeholder_arc(work: &mut u32) -> Option<Arc<Self>> {
        T::placeholder(work).map(Arc::new)
    }
}

impl<'de> SharedUnpack<'de> for str {
    fn build_rc<L: crate::Layout>(r: &mut Reader<'de, L>, _: usize) -> Result<Rc<Self>> {
        let s = read_str(r)?;
        r.charge_copy(s.len())?;
        Ok(Rc::from(s))
    }

    fn build_arc<L: crate::Layout>(r: &mut Reader<'de, L>, _: usize) -> Result<Arc<Self>> {
        let s = read_str(r)?;
        r.charge_copy(s.len())?;
        Ok(Arc::from(s))
    }

    fn placeholder_rc(_: &mut u32) -> Option<Rc<Self>> {
        Some(Rc::from(""))
    }

    fn placeholder_arc(_: &mut u32) -> Option<Arc<Self>> {
        Some(Arc::from(""))
    }
}

impl<'de, T: Unpack<'de>> SharedUnpack<'de> for [T] {
    fn build_rc<L: crate::Layout>(r: &mut Reader<'de, L>, _: usize) -> Result<Rc<Self>> {
        shared_slice(r).map(Rc::from)
    }

    fn build_arc<L: crate::Layout>(r: &mut Reader<'de, L>, _: usize) -> Result<Arc<Self>> {
        shared_slice(r).map(Arc::from)
    }

    fn placeholder_rc(_: &mut u32) -> Option<Rc<Self>> {
        Some(Rc::from(Vec::new()))
    }

    fn placeholder_arc(_: &mut u32) -> Option<Arc<Self>> {
        Some(Arc::from(Vec::new()))
    }
}

/// The elements of an `Rc<[T]>`/`Arc<[T]>`, decoded into a vector that is
/// then copied behind the pointer: the copy is charged to the memory
/// budget too, since both exist at once.
fn shared_slice<'de, T: Unpack<'de>, L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Vec<T>> {
    let items = Vec::<T>::unpack(r)?;
    r.charge_memory(core::mem::size_of_val(items.as_slice()))?;
    Ok(items)
}

/// A strong reference: a clone of the handle recorded for the id.
fn strong_ref<H, L: crate::Layout>(
    r: &Reader<'_, L>,
    tag: u64,
    start: usize,
    name: &str,
    from_handle: impl FnOnce(&Handle) -> Option<H>,
) -> Result<H> {
    let handle = match r.ref_slot(tag, start)? {
        Slot::Ready(handle) => handle,
        Slot::Filling(handle) => {
            if r.reject_cycles {
                return Err(r.error_at(
                    start,
                    ErrorKind::CycleRejected,
                    format!(
                        "strong reference cycle: a reference back to shared value {} while it \
                         is decoded (strong cycles are rejected by default because they are \
                         never freed; decode with Options::reject_cycles(false) to accept them)",
                        tag - TAG_ID_BASE
                    ),
                ));
            }
            handle
        }
        Slot::Building(_) | Slot::Reserved => return Err(unsupported_cycle(r, tag, start)),
    };
    from_handle(handle).ok_or_else(|| r.ref_type_error(tag, start, name))
}

/// A weak reference: to a finished value, or to one still being built.
fn weak_ref<H, W: Clone + 'static, L: crate::Layout>(
    r: &Reader<'_, L>,
    tag: u64,
    start: usize,
    name: &str,
    from_handle: impl FnOnce(&Handle) -> Option<H>,
    downgrade: impl FnOnce(&H) -> W,
) -> Result<W> {
    match r.ref_slot(tag, start)? {
        Slot::Ready(handle) | Slot::Filling(handle) => from_handle(handle).map(|h| downgrade(&h)),
        Slot::Building(weak) => weak.downcast_ref::<W>().cloned(),
        Slot::Reserved => return Err(unsupported_cycle(r, tag, start)),
    }
    .ok_or_else(|| r.ref_type_error(tag, start, name))
}

#[cold]
fn unsupported_cycle<L: crate::Layout>(r: &Reader<'_, L>, tag: u64, start: usize) -> crate::Error {
    r.error_at(
        start,
        ErrorKind::UnsupportedCycle,
        format!(
            "reference back to shared value {} while it is decoded: a value that refers to \
             itself strongly must sit in a RefCell, Mutex or RwLock of a type with a \
             placeholder (a derived type)",
            tag - TAG_ID_BASE
        ),
    )
}

macro_rules! shared_pointer {
    ($ptr:ident, $weak:ident, $build:ident, $placeholder:ident, $erase:ident, $unerase:ident, $name:literal, $weak_name:literal, $unique:expr) => {
        impl<T: Encoding + ?Sized> Encoding for $ptr<T> {
            encoding_builtin!("shared", T);
        }

        impl<T: Pack + ?Sized> Pack for $ptr<T> {
            #[inline]
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                let unique: fn(&Self) -> bool = $unique;
                if w.owns_path() && unique(self) {
                    return w.pack_unique(&**self);
                }
                w.pack_shared($ptr::as_ptr(self) as *const () as usize, &**self)
            }
        }

        impl<'de, T: SharedUnpack<'de> + ?Sized + 'static> Unpack<'de> for $ptr<T> {
            const MIN_SIZE: usize = 1;

            /// A fresh shared placeholder of the pointee's.
            fn placeholder(work: &mut u32) -> Option<Self> {
                T::$placeholder(work)
            }

            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                let (tag, start) = r.read_ref_tag()?;
                match tag {
                    TAG_NEW => {
                        let id = r.reserve_ref()?;
                        let shared = r.begin_shared();
                        let handle = T::$build(r, id)?;
                        r.end_shared(id, shared);
                        if r.has_handle(id) {
                            r.finish_ref(id);
                        } else {
                            r.set_ref(id, Slot::Ready(T::$erase(handle.clone())));
                        }
                        Ok(handle)
                    }
                    TAG_NULL => Err(r.null_strong(start, $name)),
                    _ => {
                        r.reach_shared(tag, start)?;
                        strong_ref(r, tag, start, $name, T::$unerase)
                    }
                }
            }
        }

        /// A live `Weak` is written as its target (once); a dangling one as
        /// the null tag.
        impl<T: Encoding + ?Sized> Encoding for $weak<T> {
            encoding_builtin!("weak", T);
        }

        impl<T: Pack + ?Sized> Pack for $weak<T> {
            #[inline]
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                match self.upgrade() {
                    Some(target) => target.pack(w),
                    None => {
                        w.write_varint(TAG_NULL);
                        Ok(())
                    }
                }
            }
        }

        impl<'de, T: SharedUnpack<'de> + 'static> Unpack<'de> for $weak<T> {
            const MIN_SIZE: usize = 1;

            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                let (tag, start) = r.read_ref_tag()?;
                match tag {
                    TAG_NEW => {
                        // The target is written here; the table owns it until
                        // the decode ends, so a later strong reference finds
                        // it. If nothing in the payload owns it, it is gone
                        // after the decode and this `Weak` dangles, as the
                        // original did once its owners were dropped.
                        let id = r.reserve_ref()?;
                        let shared = r.begin_shared();
                        let handle = T::$build(r, id)?;
                        r.end_shared(id, shared);
                        let weak = $ptr::downgrade(&handle);
                        if r.has_handle(id) {
                            r.finish_ref(id);
                        } else {
                            r.set_ref(id, Slot::Ready(T::$erase(handle)));
                        }
                        Ok(weak)
                    }
                    TAG_NULL => Ok($weak::new()),
                    _ => {
                        r.reach_shared(tag, start)?;
                        weak_ref(r, tag, start, $weak_name, T::$unerase, $ptr::downgrade)
                    }
                }
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some($weak::new())
            }
        }
    };
}

shared_pointer!(
    Rc,
    RcWeak,
    build_rc,
    placeholder_rc,
    rc_handle,
    rc_from_handle,
    "Rc",
    "rc::Weak",
    // The only pointer to its value, reached through owning values only
    // (`Writer::owns_path`): no other path of this encode can reach it, so
    // it needs no address lookup. (A `Weak` being written holds a second
    // strong reference while it does.)
    |rc| Rc::strong_count(rc) == 1 && Rc::weak_count(rc) == 0
);
shared_pointer!(
    Arc,
    ArcWeak,
    build_arc,
    placeholder_arc,
    arc_handle,
    arc_from_handle,
    "Arc",
    "sync::Weak",
    // Other threads may clone an `Arc` they can see while this encode
    // runs, so its counts prove nothing: always looked up.
    |_| false
);
