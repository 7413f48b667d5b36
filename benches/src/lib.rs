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

/// The workspace's `target` directory (or `CARGO_TARGET_DIR`).
pub fn target_dir() -> std::path::PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => dir.into(),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
    }
}

/// Where the suite leaves what the report needs besides criterion's output.
pub fn report_dir() -> std::path::PathBuf {
    target_dir().join("binform-bench")
}
