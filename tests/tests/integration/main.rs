//! binform's integration tests, in one binary to keep CI's link time down.
// Derived code must compile in crates that forbid unsafe code.
#![forbid(unsafe_code)]

mod borrowed;
mod budget;
mod codec;
mod columns;
mod damage;
mod derive;
mod described;
mod encoding;
mod errors;
mod fixed;
mod foreign;
mod frames;
mod golden;
mod graphs;
mod hygiene;
mod io;
mod lock_attr;
mod module_tree;
mod package;
mod packed;
mod plain;
mod props;
mod regressions;
mod reserved;
mod resolve;
mod schema;
mod seed;
mod serde_bridge;
mod std_types;
mod truncation;
mod value;
mod versioning;

use std::fmt::Debug;

use binform::{Pack, UnpackOwned};

/// Options that accept strong reference cycles (rejected by default).
pub fn cycles() -> binform::Options {
    binform::Options::new().reject_cycles(false)
}

/// Encodes, decodes, compares, and checks that re-encoding gives the same
/// bytes, in both layouts; returns the compact bytes.
pub fn round_trip<T: Pack + UnpackOwned + PartialEq + Debug>(value: &T) -> Vec<u8> {
    round_trip_fixed(value);
    let bytes = binform::to_vec(value).expect("encode");
    let back: T = binform::from_slice(&bytes).expect("decode");
    assert_eq!(&back, value);
    assert_eq!(
        binform::to_vec(&back).expect("re-encode"),
        bytes,
        "re-encoding differs"
    );
    bytes
}

/// [`round_trip`] in the fixed layout only; returns its bytes.
pub fn round_trip_fixed<T: Pack + UnpackOwned + PartialEq + Debug>(value: &T) -> Vec<u8> {
    let bytes = binform::fixed::to_vec(value).expect("encode (fixed)");
    let back: T = binform::fixed::from_slice(&bytes).expect("decode (fixed)");
    assert_eq!(&back, value, "fixed layout");
    assert_eq!(
        binform::fixed::to_vec(&back).expect("re-encode (fixed)"),
        bytes,
        "re-encoding differs (fixed)"
    );
    bytes
}
