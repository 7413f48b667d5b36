//! A byte buffer per thread, lent to encodes that build their bytes
//! before handing them on (frames, `to_vec`), so that a loop of them
//! allocates once rather than growing a fresh buffer every call.

use std::vec::Vec;

/// The largest buffer a thread keeps between calls (1 MiB).
pub(crate) const KEPT: usize = 1 << 20;

std::thread_local! {
    static SCRATCH: core::cell::RefCell<Vec<u8>> = const { core::cell::RefCell::new(Vec::new()) };
}

/// Lends `f` the thread's buffer, empty (a fresh one if it is already
/// lent: an encode from inside another's `Pack`). A buffer grown past
/// 1 MiB is freed after use rather than kept.
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buf) => {
            buf.clear();
            let out = f(&mut buf);
            buf.clear();
            if buf.capacity() > KEPT {
                *buf = Vec::new();
            }
            out
        }
        Err(_) => f(&mut Vec::new()),
    })
}
