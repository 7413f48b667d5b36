//! Data generators for binform's benchmarks and the tour example.
