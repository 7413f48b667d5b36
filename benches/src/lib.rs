//! Data for binform's benchmarks, tests and the tour example: the seed
//! articles' types and the benchmark workloads, all generated
//! deterministically.

pub mod models;

/// The workload types with binform's and serde's derives.
pub mod seed {
    crate::define_models!(
        #[derive(binform::Packable, serde::Serialize, serde::Deserialize)]
    );
}
