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

/// Below this much stack left, the next level runs on a new segment. Large
/// enough for the frames between two nesting levels of any ordinary type
/// (a few arrays of a few KiB each).
#[cfg(all(feature = "std", not(miri)))]
const RED_ZONE: usize = 256 * 1024;

/// The size of each new segment.
#[cfg(all(feature = "std", not(miri)))]
const SEGMENT: usize = 2 * 1024 * 1024;

/// Runs `f`, on a new stack segment if this one is nearly used up.
#[cfg(all(feature = "std", not(miri)))]
#[inline(always)]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// Runs `f` (no stack switching without `std`, or under Miri).
#[cfg(not(all(feature = "std", not(miri))))]
#[inline(always)]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    f()
}
