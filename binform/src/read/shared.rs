//! Shared values while decoding (`docs/format.md` §11, `docs/graphs.md`):
//! the reference table, ids checked against those defined so far, and the
//! depth and expansion a shared value counts at each reference.

use alloc::boxed::Box;
use alloc::format;

use crate::error::{Error, ErrorKind, Result};

use super::Reader;

use crate::refs::{DecodeRefs, Slot, TAG_ID_BASE};

/// Where a shared value began: what [`Reader::end_shared`] needs to measure
/// it.
pub(crate) struct SharedStart {
    pub(super) depth: u32,
    pub(super) high_water: u32,
    pub(super) expansion: u64,
    pub(super) pos: usize,
}

impl<'de, L: crate::Layout> Reader<'de, L> {
    #[cold]
    #[inline(never)]
    pub(super) fn drop_refs(&mut self) {
        // Taken out, `None` is left: nothing in the `ManuallyDrop` to leak.
        drop(core::mem::take(&mut *self.refs));
    }

    /// After a failed decode: resets every interior-mutable shared value
    /// built so far, so no strong cycle among them outlives the error and
    /// leaks the partial graph.
    pub(crate) fn break_cycles(&mut self) {
        if let Some(refs) = self.refs.as_mut() {
            refs.break_cycles();
        }
    }

    /// Starts measuring a new shared value, about to be decoded at the
    /// current depth.
    #[inline]
    pub(crate) fn begin_shared(&mut self) -> SharedStart {
        let start = SharedStart {
            depth: self.depth(),
            high_water: self.high_water,
            expansion: self.expansion,
            pos: self.pos,
        };
        self.high_water = start.depth;
        start
    }

    /// Records how deep the shared value `id` begun at `start` is and how
    /// far it expands, for the references to it that follow.
    #[inline]
    pub(crate) fn end_shared(&mut self, id: usize, start: SharedStart) {
        let height = self.high_water - start.depth;
        // Its nesting levels and its bytes: hashing or comparing it walks both.
        let expansion =
            (self.expansion - start.expansion).saturating_add((self.pos - start.pos) as u64);
        self.refs_mut().set_extent(id, height, expansion);
        self.high_water = self.high_water.max(start.high_water);
    }

    /// A reference to the shared value with reference `tag`, read at
    /// `start`: the value is as deep here as where it was decoded, so a
    /// chain of references cannot build a value deeper than
    /// [`Options::max_depth`](crate::Options::max_depth) (which dropping or printing it would recurse
    /// through), and it expands by its whole size.
    #[inline]
    pub(crate) fn reach_shared(&mut self, tag: u64, start: usize) -> Result<()> {
        let (height, expansion) = self
            .refs
            .as_ref()
            .map_or((0, 0), |r| r.extent(tag - TAG_ID_BASE));
        let reach = self.depth().saturating_add(height);
        if reach > self.max_depth {
            return Err(self.error_at(
                start,
                ErrorKind::LimitExceeded,
                format!(
                    "a reference to shared value {} makes the value {reach} levels deep, \
                     deeper than the depth limit (Options::max_depth)",
                    tag - TAG_ID_BASE
                ),
            ));
        }
        self.high_water = self.high_water.max(reach);
        self.expansion = self.expansion.saturating_add(expansion);
        Ok(())
    }

    /// The reference table, created on first use.
    pub(crate) fn refs_mut(&mut self) -> &mut DecodeRefs {
        (*self.refs).get_or_insert_with(Box::default)
    }

    /// Reserves the next id for a new shared value, charging the memory
    /// budget for its table entry (in a table grown by doubling) and the
    /// box its handle may take.
    pub(crate) fn reserve_ref(&mut self) -> Result<usize> {
        self.charge_memory(crate::refs::ENTRY_COST)?;
        Ok(self.refs_mut().reserve())
    }

    /// Marks a value that was `Filling` as complete, keeping its handle.
    pub(crate) fn finish_ref(&mut self, id: usize) {
        self.refs_mut().finish(id);
    }

    /// Whether `id` already holds a handle (it was `Filling`).
    pub(crate) fn has_handle(&self, id: usize) -> bool {
        self.refs.as_ref().is_some_and(|r| r.has_handle(id))
    }

    /// Sets what `id` refers to.
    pub(crate) fn set_ref(&mut self, id: usize, slot: Slot) {
        self.refs_mut().set(id, slot);
    }

    /// Registers a cleanup that breaks cycles through a shared value,
    /// charging its slot (in a list grown by doubling) and its box.
    pub(crate) fn add_cleanup(&mut self, cleanup: Box<dyn Fn()>) -> Result<()> {
        self.charge_memory(4 * core::mem::size_of::<usize>())?;
        self.refs_mut().add_cleanup(cleanup);
        Ok(())
    }

    /// Reads a reference tag; returns it with its offset. Ids are checked
    /// against the table by [`ref_slot`](Self::ref_slot).
    pub(crate) fn read_ref_tag(&mut self) -> Result<(u64, usize)> {
        let start = self.position();
        let tag = self.read_varint()?;
        Ok((tag, start))
    }

    /// The slot of the id in `tag`, or an error naming the offending tag.
    pub(crate) fn ref_slot(&self, tag: u64, start: usize) -> Result<&Slot> {
        let id = tag - TAG_ID_BASE;
        match self.refs.as_ref().and_then(|r| r.slot(id)) {
            Some(slot) => Ok(slot),
            None => {
                let defined = self.refs.as_ref().map_or(0, |r| r.defined());
                Err(self.error_at(
                    start,
                    ErrorKind::InvalidReference,
                    format!(
                        "reference to id {id}, but only {defined} shared values are defined so far"
                    ),
                ))
            }
        }
    }

    /// The error for a reference whose target has another type.
    #[cold]
    pub(crate) fn ref_type_error(&self, tag: u64, start: usize, expected: &str) -> Error {
        self.error_at(
            start,
            ErrorKind::InvalidReference,
            format!("shared value {} is not a {expected}", tag - TAG_ID_BASE),
        )
    }

    // ------------------------------------------- version-tolerant fields

    /// The error for a dangling reference (`TAG_NULL`, a dead `Weak`) at
    /// `start` where a strong pointer (`name`) is expected: typed decoding
    /// and `Value` alike.
    #[cold]
    pub(crate) fn null_strong(&self, start: usize, name: &str) -> Error {
        self.error_at(
            start,
            ErrorKind::InvalidReference,
            format!("a dangling reference (a dead Weak) where {name} is expected"),
        )
    }
}
