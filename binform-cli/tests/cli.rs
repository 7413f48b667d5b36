//! The `binform` binary on real files: every command, and every error
//! path ends with exit code 1, one line on stderr and no output file.

use std::path::PathBuf;
use std::process::{Command, Output};

use binform::Options;
use binform_fixtures::seed::{self, ten_people, Person};

fn dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn binform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_binform"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = binform(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Exit code 1, one line on stderr (returned), nothing on stdout.
fn fails(args: &[&str]) -> String {
    let out = binform(args);
    assert_eq!(out.status.code(), Some(1), "{args:?} should fail");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(err.starts_with("binform: error: "), "{err}");
    assert!(out.stdout.is_empty());
    err
}

/// A self-describing file of the seed's people, and its lock file.
fn people_files(test: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = dir(test);
    let file = dir.join("people.binform");
    std::fs::write(
        &file,
        Options::new()
            .self_describing(true)
            .to_vec(&ten_people())
            .unwrap(),
    )
    .unwrap();
    let lock = dir.join("people.binform-schema");
    std::fs::write(&lock, binform::schema_of::<Vec<Person>>().to_string()).unwrap();
    (dir, file, lock)
}

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn inspect_shows_the_tree_and_json() {
    let (_, file, _) = people_files("inspect");
    let tree = ok(&["inspect", s(&file)]);
    assert!(tree.starts_with("[\n  Person {\n    name: \""), "{tree}");
    assert!(tree.contains("age: "), "{tree}");
    let json = ok(&["inspect", s(&file), "--json"]);
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed.as_array().unwrap().len(), 10);
    assert_eq!(parsed[0]["name"], ten_people()[0].name.as_str());
    assert_eq!(parsed[0]["age"], ten_people()[0].age);
}

#[test]
fn schema_prints_the_lock_text() {
    let (_, file, lock) = people_files("schema");
    assert_eq!(
        ok(&["schema", s(&file)]),
        std::fs::read_to_string(lock).unwrap()
    );
}

#[test]
fn json_round_trips_to_the_same_bytes() {
    let (dir, file, lock) = people_files("json");
    let json = dir.join("people.json");
    std::fs::write(&json, ok(&["to-json", s(&file)])).unwrap();
    let out = dir.join("again.binform");
    ok(&["from-json", "--schema", s(&lock), s(&json), "-o", s(&out)]);
    assert_eq!(std::fs::read(out).unwrap(), std::fs::read(file).unwrap());

    // Every kind of value: the large object (maps, floats, nested sequences).
    let big = dir.join("large.binform");
    std::fs::write(
        &big,
        Options::new()
            .self_describing(true)
            .to_vec(&seed::large_object())
            .unwrap(),
    )
    .unwrap();
    let big_lock = dir.join("large.binform-schema");
    std::fs::write(
        &big_lock,
        binform::schema_of::<seed::LargeObject>().to_string(),
    )
    .unwrap();
    let big_json = dir.join("large.json");
    std::fs::write(&big_json, ok(&["to-json", s(&big)])).unwrap();
    let again = dir.join("large-again.binform");
    ok(&[
        "from-json",
        "--schema",
        s(&big_lock),
        s(&big_json),
        "-o",
        s(&again),
    ]);
    assert_eq!(std::fs::read(again).unwrap(), std::fs::read(big).unwrap());
}

#[test]
fn plain_payloads_are_read_with_a_schema() {
    let (dir, _, lock) = people_files("plain");
    let plain = dir.join("people.bin");
    std::fs::write(&plain, binform::to_vec(&ten_people()).unwrap()).unwrap();
    let tree = ok(&["inspect", s(&plain), "--schema", s(&lock)]);
    assert!(tree.contains("Person {"), "{tree}");
    assert!(ok(&["check", s(&plain), "--schema", s(&lock)]).starts_with("ok: "));
    // Without a schema it is not readable, and the message says why.
    let err = fails(&["inspect", s(&plain)]);
    assert!(err.contains("--schema"), "{err}");
}

#[test]
fn check_says_whether_the_payload_fits() {
    let (dir, file, lock) = people_files("check");
    assert!(ok(&["check", s(&file), "--schema", s(&lock)]).starts_with("ok: "));
    let other = dir.join("cards.binform-schema");
    std::fs::write(&other, binform::schema_of::<seed::CardHolder>().to_string()).unwrap();
    let err = fails(&["check", s(&file), "--schema", s(&other)]);
    assert!(err.contains("not the lock file's"), "{err}");
}

#[test]
fn error_paths_are_one_line_and_exit_1() {
    let (dir, file, lock) = people_files("errors");
    // Truncated: the offset and the field path are named.
    let bytes = std::fs::read(&file).unwrap();
    let cut = dir.join("cut.binform");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let err = fails(&["inspect", s(&cut)]);
    assert!(err.contains("at byte"), "{err}");
    assert!(err.contains("in `["), "{err}");
    // Not a binform file at all.
    let text = dir.join("notes.txt");
    std::fs::write(&text, "hello, world").unwrap();
    fails(&["inspect", s(&text)]);
    fails(&["schema", s(&text)]);
    fails(&["check", s(&text), "--schema", s(&lock)]);
    // A lock file that is not one.
    fails(&["check", s(&file), "--schema", s(&text)]);
    // A missing file.
    fails(&["inspect", s(&dir.join("missing"))]);
    // JSON that does not fit: nothing is written.
    let json = dir.join("bad.json");
    std::fs::write(
        &json,
        r#"[{"name": "x", "age": "old", "programming_keywords": []}]"#,
    )
    .unwrap();
    let out = dir.join("out.binform");
    let err = fails(&["from-json", "--schema", s(&lock), s(&json), "-o", s(&out)]);
    assert!(err.contains("[0].age"), "{err}");
    assert!(!out.exists());
    std::fs::write(&json, "{ not json").unwrap();
    fails(&["from-json", "--schema", s(&lock), s(&json), "-o", s(&out)]);
    assert!(!out.exists());
}

#[test]
fn usage_errors_are_one_line_and_help_works() {
    let err = fails(&["inspect"]);
    assert!(err.contains("--help"), "{err}");
    fails(&["no-such-command"]);
    let help = ok(&["--help"]);
    assert!(help.contains("inspect"), "{help}");
}

#[test]
fn nan_payloads_survive_json() {
    let dir = dir("nan");
    let value = (
        f64::from_bits(0xfff8_0000_0000_0001),
        -f32::NAN,
        f64::NAN,
        1.5f32,
    );
    let file = dir.join("nan.binform");
    std::fs::write(
        &file,
        Options::new().self_describing(true).to_vec(&value).unwrap(),
    )
    .unwrap();
    let lock = dir.join("nan.lock");
    std::fs::write(
        &lock,
        binform::schema_of::<(f64, f32, f64, f32)>().to_string(),
    )
    .unwrap();
    let json = dir.join("nan.json");
    std::fs::write(&json, ok(&["to-json", s(&file)])).unwrap();
    let again = dir.join("again.binform");
    ok(&["from-json", "--schema", s(&lock), s(&json), "-o", s(&again)]);
    assert_eq!(std::fs::read(again).unwrap(), std::fs::read(file).unwrap());
}

#[test]
fn a_plain_payload_that_starts_like_a_header_is_read_as_plain() {
    let dir = dir("bfs");
    // A string of 33 bytes starting "FS": its length varint is `B` (0x42).
    let text = format!("FS{}", "x".repeat(31));
    let plain = dir.join("text.bin");
    std::fs::write(&plain, binform::to_vec(&text).unwrap()).unwrap();
    let lock = dir.join("text.lock");
    std::fs::write(&lock, binform::schema_of::<String>().to_string()).unwrap();
    let tree = ok(&["inspect", s(&plain), "--schema", s(&lock)]);
    assert!(tree.contains("FSxxx"), "{tree}");
}

#[test]
fn both_layouts_inspect_convert_and_check() {
    let (dir, compact_file, lock) = people_files("layouts");
    let fixed = Options::new().fixed_width();
    // A self-describing fixed payload: its header says the layout.
    let file = dir.join("people-fixed.binform");
    std::fs::write(
        &file,
        fixed.self_describing(true).to_vec(&ten_people()).unwrap(),
    )
    .unwrap();
    assert_eq!(
        ok(&["inspect", s(&file)]),
        ok(&["inspect", s(&compact_file)])
    );
    let json = dir.join("people.json");
    std::fs::write(&json, ok(&["to-json", s(&file)])).unwrap();
    // Back to the fixed layout's very bytes, or to the compact layout's.
    let out = dir.join("again-fixed.binform");
    ok(&[
        "from-json",
        "--schema",
        s(&lock),
        s(&json),
        "-o",
        s(&out),
        "--fixed",
    ]);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&file).unwrap());
    let out = dir.join("again-compact.binform");
    ok(&["from-json", "--schema", s(&lock), s(&json), "-o", s(&out)]);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&compact_file).unwrap()
    );
    // A plain fixed payload, read with its schema and --fixed.
    let plain = dir.join("people-fixed.bin");
    std::fs::write(&plain, fixed.to_vec(&ten_people()).unwrap()).unwrap();
    let tree = ok(&["inspect", s(&plain), "--schema", s(&lock), "--fixed"]);
    assert_eq!(tree, ok(&["inspect", s(&compact_file)]));
    assert!(ok(&["check", s(&plain), "--schema", s(&lock), "--fixed"]).starts_with("ok: "));
    // Read as compact, it does not fit.
    fails(&["check", s(&plain), "--schema", s(&lock)]);
}
