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
    assert!(err.contains("in `.programming_keywords"), "{err}");
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

/// Every type with a text form, as a field, a map key, an `IpAddr` and a
/// socket address: `to-json` prints the text and `from-json` writes the
/// same bytes back.
#[test]
fn well_known_types_print_as_text_and_read_back_byte_exact() {
    use std::collections::BTreeMap;
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV6};

    use chrono::TimeZone;

    #[derive(binform::Packable)]
    struct Everything {
        id: uuid::Uuid,
        by_id: BTreeMap<uuid::Uuid, u8>,
        counts: BTreeMap<String, u64>,
        price: rust_decimal::Decimal,
        ips: Vec<IpAddr>,
        v4: Ipv4Addr,
        v6: Ipv6Addr,
        socket: SocketAddr,
        scoped: SocketAddrV6,
        flow: SocketAddrV6,
        utc: chrono::DateTime<chrono::Utc>,
        local: chrono::DateTime<chrono::FixedOffset>,
        naive: chrono::NaiveDateTime,
        day: chrono::NaiveDate,
        clock: chrono::NaiveTime,
        leap: chrono::DateTime<chrono::Utc>,
        delta: chrono::TimeDelta,
        t_offset: time::OffsetDateTime,
        t_naive: time::PrimitiveDateTime,
        t_day: time::Date,
        t_clock: time::Time,
    }

    let id = uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8);
    let at = chrono::Utc
        .timestamp_opt(1_700_000_000, 125_000_000)
        .unwrap();
    let t_at = time::OffsetDateTime::from_unix_timestamp(1_700_000_000)
        .unwrap()
        .to_offset(time::UtcOffset::from_hms(-3, 0, 0).unwrap());
    let v6: Ipv6Addr = "fe80::1".parse().unwrap();
    let value = Everything {
        id,
        by_id: [(id, 1), (uuid::Uuid::nil(), 2)].into_iter().collect(),
        counts: [("alpha".to_string(), 3), ("beta".to_string(), 4)]
            .into_iter()
            .collect(),
        price: rust_decimal::Decimal::new(-1999, 2),
        ips: vec![IpAddr::V4(Ipv4Addr::LOCALHOST), IpAddr::V6(v6)],
        v4: Ipv4Addr::new(10, 1, 2, 3),
        v6,
        socket: "127.0.0.1:8080".parse().unwrap(),
        scoped: SocketAddrV6::new(v6, 443, 0, 2),
        flow: SocketAddrV6::new(v6, 443, 9, 0),
        utc: at,
        local: at.with_timezone(&chrono::FixedOffset::east_opt(3600).unwrap()),
        naive: at.naive_utc(),
        day: at.date_naive(),
        clock: at.time(),
        leap: chrono::Utc
            .timestamp_opt(1_700_000_039, 1_250_000_000)
            .unwrap(),
        delta: chrono::TimeDelta::milliseconds(-1500),
        t_offset: t_at,
        t_naive: time::PrimitiveDateTime::new(t_at.date(), t_at.time()),
        t_day: t_at.date(),
        t_clock: t_at.time(),
    };

    let dir = dir("well-known");
    let file = dir.join("everything.binform");
    let bytes = Options::new().self_describing(true).to_vec(&value).unwrap();
    std::fs::write(&file, &bytes).unwrap();
    let lock = dir.join("everything.lock");
    std::fs::write(&lock, binform::schema_of::<Everything>().to_string()).unwrap();

    let text = ok(&["to-json", s(&file)]);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let expect = |field: &str, want: serde_json::Value| {
        assert_eq!(json[field], want, "{field} in {text}");
    };
    use serde_json::json;
    expect("id", json!("67e55044-10b1-426f-9247-bb680e5fe0c8"));
    expect(
        "by_id",
        json!({"00000000-0000-0000-0000-000000000000": 2, "67e55044-10b1-426f-9247-bb680e5fe0c8": 1}),
    );
    expect("counts", json!({"alpha": 3, "beta": 4}));
    expect("price", json!("-19.99"));
    expect("ips", json!(["127.0.0.1", "fe80::1"]));
    expect("v4", json!("10.1.2.3"));
    expect("v6", json!("fe80::1"));
    expect("socket", json!("127.0.0.1:8080"));
    expect("scoped", json!("[fe80::1%2]:443"));
    expect("utc", json!("2023-11-14T22:13:20.125Z"));
    expect("local", json!("2023-11-14T23:13:20.125+01:00"));
    expect("naive", json!("2023-11-14T22:13:20.125"));
    expect("day", json!("2023-11-14"));
    expect("clock", json!("22:13:20.125"));
    expect("t_offset", json!("2023-11-14T19:13:20-03:00"));
    expect("t_naive", json!("2023-11-14T19:13:20"));
    expect("t_day", json!("2023-11-14"));
    expect("t_clock", json!("19:13:20"));
    // No faithful text: a flow label, a leap second, a span of time.
    assert!(json["flow"].is_object(), "{text}");
    assert!(json["leap"].is_object(), "{text}");
    assert!(json["delta"].is_object(), "{text}");

    let json_file = dir.join("everything.json");
    std::fs::write(&json_file, &text).unwrap();
    let again = dir.join("again.binform");
    ok(&[
        "from-json",
        "--schema",
        s(&lock),
        s(&json_file),
        "-o",
        s(&again),
    ]);
    assert_eq!(std::fs::read(&again).unwrap(), bytes);

    // A text that is not one of the type's is an error naming the field.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, text.replace("10.1.2.3", "10.1.2.300")).unwrap();
    let err = fails(&[
        "from-json",
        "--schema",
        s(&lock),
        s(&bad),
        "-o",
        s(&dir.join("bad.binform")),
    ]);
    assert!(err.contains("ipv4") && err.contains(".v4"), "{err}");
}

/// A self-describing document of a struct whose field is `depth` tuples
/// around `Option<Self>`, nested `levels` times, with `bools` booleans at
/// the bottom.
fn deep_file(dir: &std::path::Path, depth: usize, levels: usize, bools: usize) -> PathBuf {
    let field = format!("{}option<S>{}", "tuple<".repeat(depth), ">".repeat(depth));
    let text = format!("root S\nstruct S compact\n  field 0 a {field}\n  field 1 b seq<bool>\n");
    let schema = binform::schema::parse(&text).unwrap();
    let mut body = vec![1u8; levels]; // Some, at each level
    body.push(0); // None
    for level in 0..=levels {
        let n = if level == 0 { bools } else { 0 };
        // `n` trues: a length, then bits (§27).
        body.extend(binform::to_vec(&vec![true; n]).unwrap());
    }
    let doc = binform::value::from_slice_with(&schema, &body).unwrap();
    let file = dir.join(format!("deep-{depth}-{levels}-{bools}.binform"));
    std::fs::write(&file, binform::value::to_vec(&doc).unwrap()).unwrap();
    file
}

/// Issue 32: a deep document converts without overflowing the stack, and
/// a deep one with many values prints JSON and trees in proportion to its
/// size (indentation stops growing): 11 KB wrote 269 MB of JSON before.
#[test]
fn deep_documents_convert_in_bounded_output() {
    let dir = dir("deep");
    let file = deep_file(&dir, 125, 30, 0);
    // Deeper than serde_json reads by default: its brackets balance.
    let json = ok(&["to-json", s(&file)]);
    assert_eq!(json.matches('[').count(), json.matches(']').count());
    assert_eq!(json.matches('{').count(), json.matches('}').count());
    assert!(json.matches('[').count() > 30 * 125);
    ok(&["inspect", s(&file), "--json"]);
    ok(&["inspect", s(&file)]);

    let file = deep_file(&dir, 125, 30, 10_000);
    let size = std::fs::metadata(&file).unwrap().len() as usize;
    assert!(size < 16_000, "{size}");
    let json = ok(&["to-json", s(&file)]);
    // Bools are bits (§27): eight indented lines a byte.
    assert!(
        json.len() < 512 * size,
        "{} bytes of JSON from {size}",
        json.len()
    );
    assert_eq!(json.matches("true").count(), 10_000);
    // The tree prints `…` past 512 levels: its bools must sit above that
    // (3 levels of 127 here) for the bound to mean anything.
    let shallower = deep_file(&dir, 125, 3, 10_000);
    let size = std::fs::metadata(&shallower).unwrap().len() as usize;
    let tree = ok(&["inspect", s(&shallower)]);
    assert_eq!(tree.matches("true").count(), 10_000);
    assert!(
        tree.len() < 512 * size,
        "{} bytes of tree from {size}",
        tree.len()
    );
}
