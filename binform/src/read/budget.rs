//! What a decode may build: the memory budget, the preallocation a
//! declared length may buy, the count of zero-size elements, the depth,
//! and the expansion that keys built from shared values may cost
//! (`docs/security.md`).

use alloc::format;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, Result};
use crate::plain;

use super::{Reader, Unpack, SMALL_ALLOCATION};

/// Preallocation from a declared length may reach this many bytes however
/// little input is left (and [`PREALLOC_PER_INPUT_BYTE`] per byte left,
/// where that is more); past it, vectors grow as elements actually arrive.
pub(super) const MAX_PREALLOC_BYTES: usize = 1 << 20;

/// Beyond 1 MiB, preallocation may reach this many bytes per input byte left.
pub(super) const PREALLOC_PER_INPUT_BYTE: usize = 8;

impl<'de, L: crate::Layout> Reader<'de, L> {
    /// Charges `bytes` of memory that decoding is about to build (a
    /// vector's elements, a box, a shared value) against the memory budget
    /// ([`Options::max_memory`](crate::Options::max_memory)); fails with [`ErrorKind::LimitExceeded`],
    /// before anything is allocated, once the budget is spent. binform's
    /// own impls charge what they build; a hand-written impl that allocates
    /// from a declared length should too.
    #[inline(always)]
    pub fn charge_memory(&mut self, bytes: usize) -> Result<()> {
        match self.memory_left.checked_sub(bytes) {
            Some(left) => {
                self.memory_left = left;
                Ok(())
            }
            None => Err(self.memory_error(bytes)),
        }
    }

    /// Gives back to the memory budget `bytes` charged for a vector that
    /// has been freed (a column's values, once moved into their rows), so
    /// that the budget bounds what is held at once, not what passed
    /// through. Only what was charged and is freed may be given back.
    #[inline]
    pub(crate) fn refund_memory(&mut self, bytes: usize) {
        self.memory_left = self.memory_left.saturating_add(bytes);
    }

    /// Charges a copy of `len` input bytes (a string, a byte buffer)
    /// about to be made, if it is large: copies up to
    /// [`SMALL_ALLOCATION`] bytes are left to the budget's allowance per
    /// input byte (all of them together are at most the input's length),
    /// which keeps the charge off the path of every short field.
    #[inline]
    pub(crate) fn charge_copy(&mut self, len: usize) -> Result<()> {
        if len > SMALL_ALLOCATION {
            self.charge_memory(len)?;
        }
        Ok(())
    }

    /// What the memory budget has left: for a call of several phases that
    /// shares one budget (`value::from_slice_as`).
    pub(crate) fn memory_left(&self) -> usize {
        self.memory_left
    }

    #[cold]
    #[inline(never)]
    pub(super) fn memory_error(&self, bytes: usize) -> Error {
        self.error(
            ErrorKind::LimitExceeded,
            format!(
                "building {bytes} more bytes of memory would exceed the memory budget \
                 ({} bytes left; Options::max_memory)",
                self.memory_left
            ),
        )
    }

    /// The current nesting depth.
    #[inline(always)]
    pub(super) fn depth(&self) -> u32 {
        self.max_depth - self.depth_left
    }

    /// The expansion so far (see [`charge_key`](Self::charge_key)).
    #[inline(always)]
    pub(crate) fn expansion(&self) -> u64 {
        self.expansion
    }

    /// Charges the expansion since `before` (a key just decoded) against
    /// the keys' budget: hashing and comparing a key walks all of it,
    /// shared sub-values once per reference, so keys built from a few
    /// shared values could otherwise cost exponential work.
    #[inline]
    pub(crate) fn charge_key(&mut self, before: u64, at: usize) -> Result<()> {
        // The key's own bytes, its nesting levels, and everything its
        // references stand for.
        let cost = self
            .expansion
            .saturating_sub(before)
            .saturating_add(self.pos.saturating_sub(at) as u64);
        match self.key_expansion_left.checked_sub(cost) {
            Some(left) => {
                self.key_expansion_left = left;
                Ok(())
            }
            None => Err(self.error_at(
                at,
                ErrorKind::LimitExceeded,
                format!(
                    "a key that expands to {cost} values (shared values counted at every \
                     reference) exceeds the budget for hashing and comparing keys"
                ),
            )),
        }
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn alloc_error(&self, len: usize) -> Error {
        self.error(
            ErrorKind::LimitExceeded,
            format!("could not allocate room for {len} elements"),
        )
    }

    #[cold]
    #[inline(never)]
    pub(super) fn len_error(&self, len: u64, start: usize) -> Error {
        self.error_at(
            start,
            ErrorKind::LimitExceeded,
            format!(
                "declared length {len} is above the limit of {}",
                self.max_len
            ),
        )
    }

    /// Reads the length of a sequence of `T` and checks that the remaining
    /// input can hold that many elements (`len * T::MIN_SIZE` bytes), before
    /// anything is allocated. Elements that take no input are counted
    /// against the reader-wide element budget instead.
    #[inline]
    pub fn read_len_for<T: Unpack<'de>>(&mut self) -> Result<usize> {
        let start = self.pos;
        let len = self.read_len()?;
        self.check_len::<T>(len, start)?;
        Ok(len)
    }

    /// [`read_len_for`](Self::read_len_for) for a sequence (`Vec<T>` and
    /// everything decoded through it): packed integers (format.md §22)
    /// need two bytes a block of 256 values, not one a value.
    #[doc(hidden)]
    #[inline]
    pub fn read_seq_len<T: Unpack<'de>>(&mut self) -> Result<usize> {
        if !crate::encoding::packed_in::<T, L>() && !crate::encoding::columns_in::<T, L>() {
            return self.read_len_for::<T>();
        }
        let start = self.pos;
        let len = self.read_len()?;
        self.check_column::<T>(len, start)?;
        Ok(len)
    }

    /// Checks that the remaining input can hold a column (§22, §27) of
    /// `len` values of `T`, before anything is allocated for it: the
    /// length a sequence declares, the values an option column says are
    /// present, a variant's share of an enum column. `start` is where the
    /// count was read, for the error.
    #[doc(hidden)]
    #[inline]
    pub fn check_column<T: Unpack<'de>>(&mut self, len: usize, start: usize) -> Result<()> {
        if L::FIXED {
            return self.check_len::<T>(len, start);
        }
        let least = if T::PACKED {
            crate::packed::layout::min_size(len)
        } else if T::COLUMN_MIN == 0 {
            if len > self.empty_budget {
                return Err(self.empty_budget_error(len, start));
            }
            self.empty_budget -= len;
            return Ok(());
        } else {
            // `len` and the minimum are each below `usize::MAX`: the
            // product fits in 128 bits.
            let least = (len as u128) * (T::COLUMN_MIN as u128) / 256;
            usize::try_from(least).unwrap_or(usize::MAX)
        };
        if least > self.remaining() {
            return Err(self.short_input_bytes(len, least, start));
        }
        Ok(())
    }

    #[inline(always)]
    pub(super) fn check_len<T: Unpack<'de>>(&mut self, len: usize, start: usize) -> Result<()> {
        if T::MIN_SIZE == 0 {
            if len > self.empty_budget {
                return Err(self.empty_budget_error(len, start));
            }
            self.empty_budget -= len;
        } else if len > self.remaining() / T::MIN_SIZE {
            return Err(self.short_input_error(len, T::MIN_SIZE, start));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    pub(super) fn empty_budget_error(&self, len: usize, start: usize) -> Error {
        self.error_at(
            start,
            ErrorKind::LimitExceeded,
            format!(
                "{len} elements that take no input exceed the remaining budget of {}",
                self.empty_budget
            ),
        )
    }

    /// A declared length that needs `least` bytes, more than remain.
    #[cold]
    #[inline(never)]
    pub(crate) fn short_input_bytes(&self, len: usize, least: usize, start: usize) -> Error {
        self.error_at(
            start,
            ErrorKind::UnexpectedEnd,
            format!(
                "declared length {len} needs at least {least} bytes, {} remain",
                self.remaining()
            ),
        )
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn short_input_error(&self, len: usize, min_size: usize, start: usize) -> Error {
        self.error_at(
            start,
            ErrorKind::UnexpectedEnd,
            format!(
                "declared length {len} needs at least {} bytes, {} remain",
                (len as u128) * (min_size as u128),
                self.remaining()
            ),
        )
    }

    /// How many `T` to preallocate for a checked length: at most 1 MiB or
    /// eight times the remaining input, whichever is more. A lying length
    /// thus costs memory in proportion to the input it came with, while
    /// honest large collections are allocated once instead of regrown.
    #[inline]
    pub fn cautious_capacity<T>(&self, len: usize) -> usize {
        let size = core::mem::size_of::<T>().max(1);
        let budget =
            MAX_PREALLOC_BYTES.max(self.remaining().saturating_mul(PREALLOC_PER_INPUT_BYTE));
        len.min(budget / size)
    }

    /// An empty vector with room for [`cautious_capacity`](Self::cautious_capacity)
    /// of a checked `len`. Small allocations take the infallible fast path;
    /// large ones report failure as an error instead of aborting.
    /// The whole length is charged to the memory budget first, elements
    /// that take no memory as one byte each (building them still costs a
    /// step each).
    #[inline]
    pub fn vec_with_capacity<T>(&mut self, len: usize) -> Result<Vec<T>> {
        let room = self.cautious_capacity::<T>(len);
        self.vec_with_room(len, room)
    }

    /// [`vec_with_capacity`](Self::vec_with_capacity) of a vector made
    /// after the input its elements come from was read (a column's), with
    /// `room` the [`cautious_capacity`](Self::cautious_capacity) taken
    /// before that read: the input the column took counts toward it, as it
    /// does for a vector made before its elements are read. (Taken after,
    /// a large column at the end of its input had room for 1 MiB only, and
    /// its vector grew once more: a copy of it, and both at once in
    /// memory.)
    #[inline]
    pub(crate) fn vec_with_room<T>(&mut self, len: usize, room: usize) -> Result<Vec<T>> {
        self.charge_memory(len.saturating_mul(core::mem::size_of::<T>().max(1)))?;
        self.vec_of(room.min(len), len)
    }

    /// An empty vector with room for `len` values, charged to the budget
    /// by the caller: small allocations take the infallible fast path,
    /// large ones report failure as an error instead of aborting.
    #[inline]
    pub(crate) fn vec_for<T>(&self, len: usize) -> Result<Vec<T>> {
        self.vec_of(len, len)
    }

    /// An empty vector with room for `cap` values, of a declared `len`
    /// (the error names it).
    #[inline]
    fn vec_of<T>(&self, cap: usize, len: usize) -> Result<Vec<T>> {
        crate::read::vec_room(cap).ok_or_else(|| self.alloc_error(len))
    }

    /// Room for one more element in `v`, which is being filled toward
    /// `len` without having been charged for it: each growth (doubling,
    /// at least 4, never past `len`) is charged for its new capacity
    /// before it is allocated. For vectors built from elements that take
    /// no input (a `Value`'s), where charging the declared length up
    /// front would refuse honest data the budget cannot see yet.
    #[inline]
    pub(crate) fn room_for_one<T>(&mut self, v: &mut Vec<T>, len: usize) -> Result<()> {
        if v.len() < v.capacity() {
            return Ok(());
        }
        let cap = v.capacity();
        let want = cap.saturating_mul(2).max(4).min(len).max(cap + 1);
        self.charge_memory((want - cap).saturating_mul(core::mem::size_of::<T>().max(1)))?;
        self.grow_toward(v, want, want)
    }

    /// Grows `v`, which is being filled toward a declared (and charged)
    /// length `len`, to hold at least `need` elements: by doubling, as
    /// `push` would, but never past `len`, so that its capacity stays
    /// within what the memory budget was charged; a failed allocation is
    /// an error, not an abort.
    #[cold]
    #[inline(never)]
    pub(crate) fn grow_toward<T>(&self, v: &mut Vec<T>, need: usize, len: usize) -> Result<()> {
        let want = v.capacity().saturating_mul(2).clamp(need, len.max(need));
        v.try_reserve_exact(want - v.len())
            .map_err(|_| self.alloc_error(len))
    }

    /// Runs `f` one nesting level deeper; fails with
    /// [`ErrorKind::LimitExceeded`] past [`Options::max_depth`](crate::Options::max_depth). Every
    /// container that can hold itself (boxes, collections) decodes its
    /// contents inside this, which bounds recursion for any type.
    #[inline]
    pub fn nested<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        self.nested_holding::<(), R>(f)
    }

    /// [`nested`](Self::nested) for a level whose decoder holds a `T` in
    /// its frame: the stack it is given grows with `T`'s size.
    #[doc(hidden)]
    #[inline]
    pub fn nested_holding<T, R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        if self.depth_left == 0 {
            return Err(self.error(ErrorKind::LimitExceeded, "nesting depth limit reached"));
        }
        self.depth_left -= 1;
        let depth = self.depth();
        self.high_water = self.high_water.max(depth);
        self.expansion = self.expansion.saturating_add(1);
        let out = crate::stack::grow_for(core::mem::size_of::<T>(), || f(self));
        self.depth_left += 1;
        out
    }

    /// Runs `f`, whose frames hold `T`s, on a stack grown as for a level
    /// holding `T` ([`nested_holding`](Self::nested_holding)) but counting
    /// no level: a derived type's column decoder, which builds its
    /// elements in its own frame.
    #[doc(hidden)]
    #[inline]
    pub fn growing_for<T, R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        crate::stack::grow_for(core::mem::size_of::<T>(), || f(self))
    }

    /// Decodes `len` plain values (`T::PLAIN`) with one copy.
    #[inline]
    pub(super) fn read_plain_vec<T: Unpack<'de>>(&mut self, len: usize) -> Result<Vec<T>> {
        let total = len
            .checked_mul(core::mem::size_of::<T>())
            .ok_or_else(|| self.alloc_error(len))?;
        let bytes = self.read_bytes(total)?;
        // Zero-size plain values (`[u8; 0]`, a derived struct without
        // fields) take no input: charged a byte each, as
        // `vec_with_capacity` charges them, or a few bytes would build a
        // vector of any length.
        self.charge_memory(total.max(len))?;
        match plain::vec_from_bytes::<T, L>(bytes, len, T::PLAIN) {
            Some(Ok(out)) => Ok(out),
            _ => Err(self.alloc_error(len)),
        }
    }

    // ------------------------------------------------------ shared values
}
