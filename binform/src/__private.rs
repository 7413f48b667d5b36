//! Helpers that derived code calls. Not a public API: anything here may
//! change in any release.

pub use alloc::boxed::Box;
pub use alloc::format;
pub use alloc::rc::Rc;
pub use alloc::string::String;
pub use alloc::sync::Arc;
pub use alloc::vec;
pub use core;

pub use crate::impls::SharedUnpack;
pub use crate::schema::hash::Unrolled;

/// The smaller of two sizes, usable in `const` context (an enum's `MIN_SIZE`
/// is its tag plus the smallest variant).
pub const fn min_size(a: usize, b: usize) -> usize {
    if a < b {
        a
    } else {
        b
    }
}

/// The error for encoding a trait object whose type was not registered.
#[cold]
pub fn unregistered_type(trait_name: &str) -> crate::Error {
    crate::Error::new(
        crate::ErrorKind::UnregisteredType,
        alloc::format!(
            "the concrete type behind this {trait_name} is not registered with polymorphic!"
        ),
    )
}
