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
    grow_for(0, f)
}

/// [`grow`] for a level whose frames hold a value of `frame` bytes: the
/// red zone is at least 32 times that (in debug builds each function of a
/// level's decode keeps its own copy of the value, its `Result` and the
/// field it is moved into; measured: a level of a 256 KiB struct took more
/// than 4 MiB), and a new segment twice the red zone. A type of 256 KiB inline arrays nested six
/// deep overflowed an 8 MiB thread under the fixed 1 MiB red zone.
#[cfg(all(feature = "std", not(miri)))]
#[inline(always)]
pub(crate) fn grow_for<R>(frame: usize, f: impl FnOnce() -> R) -> R {
    let red_zone = RED_ZONE.max(frame.saturating_mul(32));
    if stacker::remaining_stack().is_some_and(|left| left < red_zone) {
        return on_new_segment(SEGMENT.max(red_zone.saturating_mul(2)), f);
    }
    // One call site, so that `f` inlines here as it did without the check.
    f()
}

#[cfg(all(feature = "std", not(miri)))]
#[cold]
#[inline(never)]
fn on_new_segment<R>(size: usize, f: impl FnOnce() -> R) -> R {
    stacker::grow(size, f)
}

/// Runs `f` (no stack switching without `std`, or under Miri).
#[cfg(not(all(feature = "std", not(miri))))]
#[inline(always)]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs `f` (no stack switching without `std`, or under Miri).
#[cfg(not(all(feature = "std", not(miri))))]
#[inline(always)]
pub(crate) fn grow_for<R>(_frame: usize, f: impl FnOnce() -> R) -> R {
    f()
}
