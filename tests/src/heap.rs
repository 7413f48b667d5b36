//! A global allocator that counts the heap in use on each thread, and its
//! peak: the test binaries that hold decodes to a memory bound install it
//! (`#[global_allocator] static HEAP: Counting = Counting;`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards to the system allocator, counting per thread.
pub struct Counting;

thread_local! {
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn moved(delta: isize) {
    // `try_with`: a thread's locals may be gone while it frees its last.
    let _ = IN_USE.try_with(|n| {
        let now = n.get() + delta;
        n.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

// SAFETY: every call goes to the system allocator unchanged; the counters
// are thread-local `Cell`s that allocate nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        moved(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        moved(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        moved(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// The bytes this thread has allocated and not freed.
pub fn in_use() -> isize {
    IN_USE.with(Cell::get)
}

/// `f`'s result, and the most heap this thread held at once while it ran,
/// beyond what was in use when it started.
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = in_use();
    PEAK.with(|p| p.set(start));
    let out = f();
    (out, (PEAK.with(Cell::get) - start).max(0) as usize)
}

/// Starts measuring a peak from now (for work split across `await`s).
pub fn reset_peak() -> isize {
    let start = in_use();
    PEAK.with(|p| p.set(start));
    start
}

/// The peak since [`reset_peak`] returned `start`.
pub fn peak_since(start: isize) -> isize {
    PEAK.with(Cell::get) - start
}
