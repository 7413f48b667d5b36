//! What the run time needs of a type's whole layout: its fingerprint,
//! whether it may hold a `Weak`, and which variant of an enum has the
//! cheapest placeholder. Each is a walk over the type's schema
//! (`super::hash`), done on first use and kept in a small table, so that
//! no build pays for it and a call after the first costs a lookup.

use super::hash::{Walk, LEVELS};
use super::model::{Schema, TypeRef};
use crate::Encoding;

/// A type's facts, computed from its schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Facts {
    /// The fingerprint: the root's value at level 16.
    pub fingerprint: u64,
    /// Whether a value may (transitively) hold a `Weak`, so that a weak
    /// reference to a shared value can occur while it is being decoded.
    /// `false` lets shared values of the type skip `Rc::new_cyclic`.
    pub holds_weak: bool,
    /// For an enum, the position (in tag order) of the variant whose
    /// placeholder costs least; `0` otherwise.
    pub cheapest_variant: u32,
}

impl Facts {
    /// The facts of the type `schema` describes.
    pub(crate) fn of(schema: &Schema) -> Facts {
        let mut walk = Walk::new(schema);
        // A derived root's definition gives its node and, for an enum,
        // the variant its placeholder cost comes from (0 for a struct).
        let (root, cheapest_variant) = match &schema.root {
            TypeRef::Named(name) => match schema.types.get(name) {
                Some(def) => {
                    let (node, variant) = walk.definition(def, LEVELS);
                    (node, variant as u32)
                }
                None => (walk.node(&schema.root, LEVELS), 0),
            },
            TypeRef::Builtin { .. } => (walk.node(&schema.root, LEVELS), 0),
        };
        Facts {
            fingerprint: root.fingerprint,
            holds_weak: root.holds_weak,
            cheapest_variant,
        }
    }
}

/// The fingerprint of `T`: a stable 64-bit hash of its canonical layout,
/// everything reachable from it included (`docs/format.md` §14), equal to
/// [`fingerprint`](crate::schema::fingerprint) of its schema. Computed from
/// the schema on the first call for a type and kept, so a later call costs
/// a table lookup.
///
/// ```
/// use binform::schema::fingerprint_of;
///
/// #[derive(binform::Packable)]
/// struct Point { x: i32, y: i32 }
///
/// // Spellings do not matter, encodings do.
/// assert_eq!(fingerprint_of::<Vec<String>>(), fingerprint_of::<Box<[std::string::String]>>());
/// assert_ne!(fingerprint_of::<Point>(), fingerprint_of::<(i32, i32)>());
/// ```
pub fn fingerprint_of<T: Encoding + ?Sized>() -> u64 {
    facts_of::<T>().fingerprint
}

/// `T`'s facts: computed once, then looked up.
#[inline]
pub(crate) fn facts_of<T: Encoding + ?Sized>() -> Facts {
    table::get_or_compute(compute::<T>)
}

fn compute<T: Encoding + ?Sized>() -> Facts {
    Facts::of(&crate::schema_of::<T>())
}

/// The table of computed facts, keyed by the address of the function that
/// computes them (`compute::<T>`): a key that exists for every type,
/// generic and borrowed ones included, in `no_std`, without `TypeId`'s
/// `'static`. Two addresses of one function (one copy per codegen unit)
/// are two entries with equal facts; one address shared by two functions
/// (identical code folded by the linker) means the two compute the same
/// thing, so their facts are equal too. Either way a lookup returns what
/// `compute` would.
///
/// Lock-free, and safe code only: a slot is claimed by swapping its key in,
/// its facts are written, and then it is marked ready; a reader that finds
/// its key without the mark (another thread is writing it) computes the
/// facts itself rather than wait. With `std`, keys past a full table go to
/// a map behind a mutex, so every type's facts are computed once; without
/// it they are computed on each call then, and always on targets without
/// compare-and-swap (such as `thumbv6m`).
///
/// The table lives as long as the program: a library loaded, unloaded and
/// replaced by another at the same address would find the first one's
/// facts.
#[cfg(target_has_atomic = "ptr")]
mod table {
    use core::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

    use super::Facts;

    /// Enough for the types one program asks about (each root type, each
    /// enum whose placeholder is asked for, each type held in an `Rc`, once
    /// a codegen unit that asks), in about 6 KiB.
    const SLOTS: usize = 256;

    struct Slot {
        key: AtomicUsize,
        low: AtomicU32,
        high: AtomicU32,
        /// The cheapest variant, shifted left once, with `holds_weak` in
        /// bit 0.
        rest: AtomicU32,
        ready: AtomicBool,
    }

    impl Slot {
        const fn empty() -> Slot {
            Slot {
                key: AtomicUsize::new(0),
                low: AtomicU32::new(0),
                high: AtomicU32::new(0),
                rest: AtomicU32::new(0),
                ready: AtomicBool::new(false),
            }
        }

        fn read(&self) -> Facts {
            let rest = self.rest.load(Ordering::Relaxed);
            Facts {
                fingerprint: u64::from(self.low.load(Ordering::Relaxed))
                    | u64::from(self.high.load(Ordering::Relaxed)) << 32,
                holds_weak: rest & 1 == 1,
                cheapest_variant: rest >> 1,
            }
        }

        fn write(&self, facts: Facts) {
            self.low.store(facts.fingerprint as u32, Ordering::Relaxed);
            self.high
                .store((facts.fingerprint >> 32) as u32, Ordering::Relaxed);
            self.rest.store(
                (facts.cheapest_variant << 1) | u32::from(facts.holds_weak),
                Ordering::Relaxed,
            );
            // Publishes the three stores above to whoever reads `ready`.
            self.ready.store(true, Ordering::Release);
        }
    }

    static TABLE: [Slot; SLOTS] = [const { Slot::empty() }; SLOTS];

    #[inline]
    pub(super) fn get_or_compute(compute: fn() -> Facts) -> Facts {
        // A function's address is never 0, the empty key.
        let key = compute as usize;
        // Fibonacci hashing of the address without its alignment bits.
        let home = ((key >> 4).wrapping_mul(0x9E37_79B9) >> 8) % SLOTS;
        for probe in 0..SLOTS {
            let slot = &TABLE[(home + probe) % SLOTS];
            match slot.key.load(Ordering::Acquire) {
                k if k == key => {
                    return if slot.ready.load(Ordering::Acquire) {
                        slot.read()
                    } else {
                        compute()
                    };
                }
                0 => {
                    let facts = compute();
                    if slot
                        .key
                        .compare_exchange(0, key, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                    {
                        slot.write(facts);
                    }
                    return facts;
                }
                _ => {}
            }
        }
        overflow(key, compute)
    }

    /// A key that found the table full: kept in a map with `std`.
    #[cfg(feature = "std")]
    #[cold]
    fn overflow(key: usize, compute: fn() -> Facts) -> Facts {
        use std::collections::BTreeMap;
        use std::sync::Mutex;
        static MAP: Mutex<BTreeMap<usize, Facts>> = Mutex::new(BTreeMap::new());
        if let Some(facts) = MAP.lock().ok().and_then(|map| map.get(&key).copied()) {
            return facts;
        }
        // Computed without the lock: the computation may ask for other
        // types' facts.
        let facts = compute();
        if let Ok(mut map) = MAP.lock() {
            map.insert(key, facts);
        }
        facts
    }

    #[cfg(not(feature = "std"))]
    #[cold]
    fn overflow(_: usize, compute: fn() -> Facts) -> Facts {
        compute()
    }

    #[cfg(all(test, feature = "std"))]
    #[test]
    fn keys_past_a_full_table_are_kept_too() {
        use core::sync::atomic::AtomicU32;
        static CALLS: AtomicU32 = AtomicU32::new(0);
        fn counted() -> Facts {
            CALLS.fetch_add(1, Ordering::SeqCst);
            Facts {
                fingerprint: 7,
                holds_weak: false,
                cheapest_variant: 0,
            }
        }
        // A key no function has (functions are aligned): only `overflow`
        // sees it.
        let key = counted as fn() -> Facts as usize + 1;
        assert_eq!(overflow(key, counted), overflow(key, counted));
        assert_eq!(CALLS.load(Ordering::SeqCst), 1);
    }
}

/// Without compare-and-swap, nothing is kept: facts are computed on each
/// call.
#[cfg(not(target_has_atomic = "ptr"))]
mod table {
    use super::Facts;

    pub(super) fn get_or_compute(compute: fn() -> Facts) -> Facts {
        compute()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::hash::fingerprint;

    #[derive(binform_derive::Packable)]
    #[binform(crate = "crate")]
    enum Choice {
        Deep(Option<u8>, u32, u64),
        Cheap(u8),
    }

    #[test]
    fn facts_are_computed_once() {
        use core::sync::atomic::{AtomicU32, Ordering};
        static CALLS: AtomicU32 = AtomicU32::new(0);
        fn counted() -> Facts {
            CALLS.fetch_add(1, Ordering::SeqCst);
            Facts {
                fingerprint: 0x0123_4567_89ab_cdef,
                holds_weak: true,
                cheapest_variant: 7,
            }
        }
        let first = table::get_or_compute(counted);
        assert_eq!(first, table::get_or_compute(counted));
        assert_eq!(first.cheapest_variant, 7);
        #[cfg(target_has_atomic = "ptr")]
        assert_eq!(CALLS.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn facts_equal_the_walk() {
        let facts = facts_of::<alloc::vec::Vec<Choice>>();
        assert_eq!(facts, facts_of::<alloc::vec::Vec<Choice>>());
        let schema = crate::schema_of::<alloc::vec::Vec<Choice>>();
        assert_eq!(facts.fingerprint, fingerprint(&schema));
        assert!(!facts.holds_weak);
    }

    #[test]
    fn the_cheapest_variant_is_found_by_cost() {
        // `Cheap` costs 1 (its byte), `Deep` 3: `Cheap`, second in tag order.
        assert_eq!(facts_of::<Choice>().cheapest_variant, 1);
    }

    #[test]
    fn weak_and_opaque_contents_may_hold_a_weak() {
        use alloc::rc::Weak;
        assert!(facts_of::<Option<Weak<u8>>>().holds_weak);
        assert!(!facts_of::<Option<alloc::rc::Rc<u8>>>().holds_weak);
        struct Hand;
        impl Encoding for Hand {}
        assert!(facts_of::<Hand>().holds_weak);
    }

    #[test]
    fn many_types_each_get_their_own_facts() {
        macro_rules! many {
            ($($n:literal)*) => {$(
                assert_eq!(
                    facts_of::<[u8; $n]>().fingerprint,
                    fingerprint(&crate::schema_of::<[u8; $n]>())
                );
            )*};
        }
        many!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33);
    }
}
