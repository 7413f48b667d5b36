//! Shared fixtures for binform's integration tests: the seed articles' data
//! types and values.
