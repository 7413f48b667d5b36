//! Stack safety that does not depend on frame sizes: every nesting level
//! of a decode runs through [`grow`], which moves to a fresh stack segment
//! when less than [`RED_ZONE`] bytes are left. A depth limit alone bounds
//! the number of frames, not their size: a struct holding `[u64; 512]`
//! nested 127 deep (within the default limit of 128) needs more than the
//! 2 MiB that `std::thread::spawn` gives, because each level's decoder
//! keeps the array (and its staging copies) in its frame.
//!
//! The `stacker` crate does the switching (rustc and `serde_stacker` use
//! it): it reads the current stack's limit once per thread and compares
//! the stack pointer with it on each call, a few instructions. Without
//! `std` (no threads to ask, and no `stacker`) and under Miri (which cannot
//! run its stack-switching assembly), `grow` only calls `f`.

/// Below this much stack left, the next levels run on a new segment:
/// room for the frames of a nesting level of any ordinary type (a
/// few arrays of a few KiB each, more in debug builds).
#[cfg(all(feature = "std", not(miri)))]
const RED_ZONE: usize = 1024 * 1024;

/// The size of each new segment (reserved, committed as it is used).
#[cfg(all(feature = "std", not(miri)))]
const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs `f`, the contents of a nesting level, on a new stack segment if
/// this one is nearly used up.
#[cfg(all(feature = "std", not(miri)))]
#[inline(always)]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    if stacker::remaining_stack().is_some_and(|left| left < RED_ZONE) {
        return on_new_segment(f);
    }
    // One call site, so that `f` inlines here as it did without the check.
    f()
}

#[cfg(all(feature = "std", not(miri)))]
#[cold]
#[inline(never)]
fn on_new_segment<R>(f: impl FnOnce() -> R) -> R {
    stacker::grow(SEGMENT, f)
}

/// Runs `f` (no stack switching without `std`, or under Miri).
#[cfg(not(all(feature = "std", not(miri))))]
#[inline(always)]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    f()
}
