//! Types from other crates, one file each, each behind a feature named
//! after its crate (the default build depends on none of them).

#[cfg(any(feature = "chrono", feature = "time"))]
#[macro_use]
mod date_time;

#[cfg(feature = "arrayvec")]
mod arrayvec;
#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "half")]
mod half;
#[cfg(feature = "hashbrown")]
mod hashbrown;
#[cfg(feature = "indexmap")]
mod indexmap;
#[cfg(feature = "rust_decimal")]
mod rust_decimal;
#[cfg(feature = "smallvec")]
mod smallvec;
#[cfg(feature = "time")]
mod time;
#[cfg(feature = "uuid")]
mod uuid;
