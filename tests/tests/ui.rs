//! The derive's compile errors, pinned: each file in `ui/` must fail to
//! compile with exactly the message in its `.stderr`.
//! Regenerate after a deliberate change with `TRYBUILD=overwrite`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
