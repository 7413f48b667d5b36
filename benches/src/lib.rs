//! Data for binform's benchmarks and the tour example: the seed articles'
//! types, with both binform's and serde's derives so every serializer
//! encodes the same values. Generators are deterministic.

pub mod seed;
