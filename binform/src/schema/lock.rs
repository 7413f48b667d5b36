//! Schema lock files in a test: compare the schema locked in a file with
//! the current one and report what would break a peer. The text and the
//! rules are `binform-schema`'s ([`parse`], [`compare`]).

use alloc::format;
use alloc::string::String;

use binform_schema::{compare, parse};

use crate::encoding::{schema_of, Encoding};

/// Checks `T` against the schema locked in the file at `path`, for a test:
/// writes the file when it is missing (or when the environment variable
/// `BINFORM_UPDATE_SCHEMAS` is set), and otherwise panics with a readable
/// list of breaking changes when data written by one side could not be
/// read by the other.
///
/// ```no_run
/// #[derive(binform::Packable, Default)]
/// #[binform(version_tolerant)]
/// struct Order { id: u64, note: String }
///
/// #[test]
/// fn order_schema_is_compatible() {
///     binform::schema::assert_compatible::<Order>("schemas/Order.binform-schema");
/// }
/// ```
#[track_caller]
pub fn assert_compatible<T: Encoding + ?Sized>(path: impl AsRef<std::path::Path>) {
    if let Err(message) = check_compatible::<T>(path) {
        panic!("{message}");
    }
}

/// [`assert_compatible`] without the panic: `Err` holds the readable report.
pub fn check_compatible<T: Encoding + ?Sized>(
    path: impl AsRef<std::path::Path>,
) -> Result<(), String> {
    let path = path.as_ref();
    let current = schema_of::<T>();
    let text = current.to_string();
    let update = std::env::var_os("BINFORM_UPDATE_SCHEMAS").is_some();
    if update || !path.exists() {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        return std::fs::write(path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()));
    }
    let locked_text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let locked = parse(&locked_text).map_err(|e| format!("{}: {e}", path.display()))?;
    let problems = compare(&locked, &current);
    if problems.is_empty() {
        return Ok(());
    }
    let mut report = format!(
        "the schema of `{}` is not compatible with the one locked in {}:\n",
        core::any::type_name::<T>(),
        path.display()
    );
    for p in &problems {
        report.push_str(&format!("  - {p}\n"));
    }
    report.push_str("\nlocked:\n");
    for line in locked_text.lines() {
        report.push_str(&format!("    {line}\n"));
    }
    report.push_str("current:\n");
    for line in text.lines() {
        report.push_str(&format!("    {line}\n"));
    }
    report.push_str(
        "\nIf the change is intended and every peer upgrades at once, rerun with \
         BINFORM_UPDATE_SCHEMAS=1 to lock the new schema.\n",
    );
    Err(report)
}
