//! binform's benchmarks against peer serializers: the workloads come from
//! `binform-fixtures`; this crate adds where the suite leaves its output.

pub use binform_fixtures::{define_models, define_rsb_models, models, seed};

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
