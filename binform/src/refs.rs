//! The reference-tracking context: how `Rc`/`Arc` sharing, `Weak` links and
//! cycles survive a round trip.
//!
//! Encoding gives every shared allocation an id, in order of first sight;
//! the first occurrence writes the value, later ones write only the id.
//! Decoding assigns the same ids in the same order and hands out clones of
//! the handle it built. Both sides create their table on the first shared
//! pointer they meet, so types without `Rc`/`Arc` never pay for it.
//!
//! Wire form of every `Rc`, `Arc` and `Weak` (a varint):
//! `0` = a new shared value follows; `1` = a dangling `Weak` (never valid
//! for `Rc`/`Arc`); `n ≥ 2` = the value with id `n − 2`.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::any::Any;

/// Tag of a new shared value.
pub(crate) const TAG_NEW: u64 = 0;
/// Tag of a dangling `Weak`.
pub(crate) const TAG_NULL: u64 = 1;
/// Tags from here on are ids, offset by this much.
pub(crate) const TAG_ID_BASE: u64 = 2;

/// Encode side: the ids of the allocations seen so far, by address.
///
/// A small open-addressing hash table keyed by address: `std`'s `HashMap`
/// is not available without `std`, and a pointer needs only a multiply to
/// hash well.
pub(crate) struct EncodeRefs {
    /// Addresses; 0 marks an empty slot (no allocation is at address 0).
    /// Kept apart from the ids so that probing touches 8 bytes a slot.
    keys: Vec<usize>,
    /// The id of the address in the same slot.
    ids: Vec<u32>,
    len: usize,
}

impl EncodeRefs {
    pub(crate) fn new() -> Self {
        EncodeRefs {
            keys: alloc::vec![0; 64],
            ids: alloc::vec![0; 64],
            len: 0,
        }
    }

    #[inline]
    fn index(addr: usize, mask: usize) -> usize {
        // Fibonacci hashing: spreads the low, aligned bits of an address.
        (addr as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(32) as usize
            & mask
    }

    /// The id of `addr` if it was seen, else registers it with id `next`
    /// and returns `None`.
    #[inline]
    pub(crate) fn lookup_or_insert(&mut self, addr: usize, next: u32) -> Option<u32> {
        if (self.len + 1) * 8 > self.keys.len() * 7 {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = Self::index(addr, mask);
        loop {
            match self.keys.get(i).copied() {
                Some(0) => {
                    self.keys[i] = addr;
                    self.ids[i] = next;
                    self.len += 1;
                    return None;
                }
                Some(a) if a == addr => return self.ids.get(i).copied(),
                _ => i = (i + 1) & mask,
            }
        }
    }

    #[cold]
    fn grow(&mut self) {
        let size = self.keys.len() * 2;
        let old_keys = core::mem::replace(&mut self.keys, alloc::vec![0; size]);
        let old_ids = core::mem::replace(&mut self.ids, alloc::vec![0; size]);
        let mask = size - 1;
        for (addr, id) in old_keys.into_iter().zip(old_ids).filter(|&(a, _)| a != 0) {
            let mut i = Self::index(addr, mask);
            while self.keys[i] != 0 {
                i = (i + 1) & mask;
            }
            self.keys[i] = addr;
            self.ids[i] = id;
        }
    }
}

/// A type-erased shared handle. `Rc`s of sized values are kept as
/// `Rc<dyn Any>` (the same pointer, no allocation); others in a box.
pub enum Handle {
    /// An `Rc<T>` seen as `Rc<dyn Any>`.
    Rc(alloc::rc::Rc<dyn Any>),
    /// Any other handle (`Arc`s, `Rc<str>`, `Rc<dyn Trait>`), boxed.
    Boxed(Box<dyn Any>),
}

/// The state of one id while decoding.
pub(crate) enum Slot {
    /// Being decoded, and no handle exists yet: any reference to it fails.
    Reserved,
    /// Being decoded inside `Rc::new_cyclic`: holds the `Weak` handle, so
    /// weak references work, strong ones cannot.
    Building(Box<dyn Any>),
    /// Its shared handle exists (an interior-mutable placeholder) and its
    /// contents are being decoded: strong references form a cycle.
    Filling(Handle),
    /// Complete: holds the `Rc`/`Arc` handle.
    Ready(Handle),
}

/// What one shared value's table entry costs the memory budget: the
/// entry, twice (the table grows by doubling), and a boxed handle.
pub(crate) const ENTRY_COST: usize =
    2 * core::mem::size_of::<Entry>() + 4 * core::mem::size_of::<usize>();

/// One id: what it refers to and, once finished, how many levels deep the
/// value is and how many values it expands to (shared values inside
/// counted at every reference, saturating at `u32::MAX`). Unfinished ids
/// (references back into a value being decoded) count as 0: a cycle does
/// not deepen what owns it.
struct Entry {
    slot: Slot,
    height: u32,
    expansion: u32,
}

/// Decode side: what each id refers to, and how to break the strong cycles
/// formed so far if the decode fails.
#[derive(Default)]
pub(crate) struct DecodeRefs {
    slots: Vec<Entry>,

    /// One per interior-mutable shared value: resets it to its placeholder,
    /// which drops whatever cycle runs through it.
    cleanups: Vec<Box<dyn Fn()>>,
}

impl DecodeRefs {
    /// Runs every cleanup: after a failed decode, no strong cycle survives
    /// to leak the partly built graph.
    pub(crate) fn break_cycles(&mut self) {
        for cleanup in self.cleanups.drain(..) {
            cleanup();
        }
        self.slots.clear();
    }
}

impl DecodeRefs {
    /// Reserves the next id for a new shared value.
    pub(crate) fn reserve(&mut self) -> usize {
        self.slots.push(Entry {
            slot: Slot::Reserved,
            height: 0,
            expansion: 0,
        });
        self.slots.len() - 1
    }

    /// Marks a value that was `Filling` as complete, keeping its handle.
    pub(crate) fn finish(&mut self, id: usize) {
        if let Some(Entry { slot, .. }) = self.slots.get_mut(id) {
            if let Slot::Filling(_) = slot {
                if let Slot::Filling(handle) = core::mem::replace(slot, Slot::Reserved) {
                    *slot = Slot::Ready(handle);
                }
            }
        }
    }

    /// Whether `id` already holds a handle (it was `Filling`).
    pub(crate) fn has_handle(&self, id: usize) -> bool {
        matches!(
            self.slots.get(id),
            Some(Entry {
                slot: Slot::Filling(_) | Slot::Ready(_),
                ..
            })
        )
    }

    /// Sets what `id` refers to.
    pub(crate) fn set(&mut self, id: usize, slot: Slot) {
        if let Some(e) = self.slots.get_mut(id) {
            e.slot = slot;
        }
    }

    /// Registers a cleanup that breaks cycles through a shared value.
    pub(crate) fn add_cleanup(&mut self, cleanup: Box<dyn Fn()>) {
        self.cleanups.push(cleanup);
    }

    /// The slot of an id, if it is defined.
    pub(crate) fn slot(&self, id: u64) -> Option<&Slot> {
        self.slots.get(usize::try_from(id).ok()?).map(|e| &e.slot)
    }

    /// How many ids are defined so far.
    pub(crate) fn defined(&self) -> usize {
        self.slots.len()
    }

    /// Records the depth and expansion of a finished value.
    pub(crate) fn set_extent(&mut self, id: usize, height: u32, expansion: u64) {
        if let Some(e) = self.slots.get_mut(id) {
            e.height = height;
            e.expansion = u32::try_from(expansion).unwrap_or(u32::MAX);
        }
    }

    /// The depth and expansion of a finished value; `(0, 0)` for one still
    /// being decoded or not defined.
    pub(crate) fn extent(&self, id: u64) -> (u32, u64) {
        usize::try_from(id)
            .ok()
            .and_then(|id| self.slots.get(id))
            .map_or((0, 0), |e| (e.height, u64::from(e.expansion)))
    }
}
