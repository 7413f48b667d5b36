//! Schemas, fingerprints, the fingerprint header and schema lock files.

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use binform::schema::{self, fingerprint_of};
use binform::{ErrorKind, Options, Packable};

mod a {
    #[derive(binform::Packable, Debug, PartialEq)]
    pub struct Item {
        pub id: u32,
        pub name: String,
    }
}
mod added {
    #[derive(binform::Packable)]
    pub struct Item {
        pub id: u32,
        pub name: String,
        pub extra: u8,
    }
}
mod reordered {
    #[derive(binform::Packable)]
    pub struct Item {
        pub name: String,
        pub id: u32,
    }
}
mod retyped {
    #[derive(binform::Packable)]
    pub struct Item {
        pub id: u64,
        pub name: String,
    }
}
mod removed {
    #[derive(binform::Packable)]
    pub struct Item {
        pub id: u32,
    }
}
mod same {
    /// The same definition in another module: the same fingerprint.
    #[derive(binform::Packable)]
    pub struct Item {
        pub id: u32,
        pub name: String,
    }
}

#[test]
fn fingerprint_tracks_layout() {
    let fp = fingerprint_of::<a::Item>();
    assert_eq!(fp, fingerprint_of::<same::Item>());
    for other in [
        fingerprint_of::<added::Item>(),
        fingerprint_of::<reordered::Item>(),
        fingerprint_of::<retyped::Item>(),
        fingerprint_of::<removed::Item>(),
    ] {
        assert_ne!(fp, other);
    }
    // Computed once, then looked up: the same value on every call.
    assert_eq!(fingerprint_of::<a::Item>(), fp);
}

#[derive(Packable)]
struct Inner {
    x: i32,
}
mod inner_changed {
    #[derive(binform::Packable)]
    pub struct Inner {
        pub x: i64,
    }
}
#[derive(Packable)]
struct Outer {
    inner: Inner,
    list: Vec<Inner>,
}
mod outer_with_changed_inner {
    #[derive(binform::Packable)]
    pub struct Outer {
        pub inner: super::inner_changed::Inner,
        pub list: Vec<super::inner_changed::Inner>,
    }
}

#[test]
fn a_nested_change_changes_the_outer_fingerprint() {
    assert_ne!(
        fingerprint_of::<Outer>(),
        fingerprint_of::<outer_with_changed_inner::Outer>()
    );
    // Container types count: Vec<Outer> and Option<Outer> differ from Outer.
    assert_ne!(fingerprint_of::<Vec<Outer>>(), fingerprint_of::<Outer>());
    assert_ne!(fingerprint_of::<Vec<u32>>(), fingerprint_of::<Vec<u64>>());
    // Same wire form, same fingerprint.
    assert_eq!(
        fingerprint_of::<Vec<u8>>(),
        fingerprint_of::<std::collections::VecDeque<u8>>()
    );
    assert_eq!(fingerprint_of::<usize>(), fingerprint_of::<u64>());
}

/// A recursive type still has a finite, compile-time fingerprint.
#[derive(Packable)]
struct Tree {
    value: u32,
    children: Vec<Tree>,
    link: Option<Rc<Tree>>,
}

#[test]
fn recursive_types_have_fingerprints_and_schemas() {
    assert_ne!(fingerprint_of::<Tree>(), 0);
    let text = binform::schema_of::<Tree>().to_string();
    assert!(text.contains("field 1 children seq<Tree>"), "{text}");
    assert!(text.contains("field 2 link option<shared<Tree>>"), "{text}");
}

#[test]
fn fingerprint_header_rejects_another_definition() {
    let opts = Options::new().fingerprint(true);
    let item = a::Item {
        id: 1,
        name: "one".into(),
    };
    let bytes = opts.to_vec(&item).unwrap();
    assert_eq!(&bytes[..4], b"BFM\x03");
    assert_eq!(bytes[4..12], fingerprint_of::<a::Item>().to_le_bytes());
    assert_eq!(opts.from_slice::<a::Item>(&bytes).unwrap(), item);
    // Any other definition fails before a field is read.
    let err = opts
        .from_slice::<added::Item>(&bytes)
        .err()
        .expect("mismatch");
    assert_eq!(err.kind(), ErrorKind::SchemaMismatch);
    assert_eq!(err.offset(), Some(4));
    assert_eq!(
        opts.from_slice::<retyped::Item>(&bytes)
            .err()
            .map(|e| e.kind()),
        Some(ErrorKind::SchemaMismatch)
    );
    // Without the header the payload is compact, as always.
    assert_eq!(binform::to_vec(&item).unwrap(), bytes[12..]);
    // A missing or foreign header.
    assert_eq!(
        opts.from_slice::<a::Item>(&bytes[..5])
            .err()
            .map(|e| e.kind()),
        Some(ErrorKind::UnexpectedEnd)
    );
    let compact = binform::to_vec(&a::Item {
        id: 1,
        name: "a longer name".into(),
    })
    .unwrap();
    assert_eq!(
        opts.from_slice::<a::Item>(&compact).err().map(|e| e.kind()),
        Some(ErrorKind::InvalidValue)
    );
}

#[derive(Packable)]
#[allow(dead_code)]
enum Event {
    Start,
    Data(Vec<u8>),
    Stop { code: i32 },
}

#[test]
fn schema_text_is_readable() {
    let described = binform::schema_of::<HashMap<String, Event>>();
    let text = described.to_string();
    assert_eq!(
        text,
        "root map<string, Event>\n\
         enum Event compact\n\
         \x20 variant 0 Start\n\
         \x20 variant 1 Data\n\
         \x20   field 0 0 seq<u8>\n\
         \x20 variant 2 Stop\n\
         \x20   field 0 code i32\n"
    );
    // The text parses back to the same description.
    assert_eq!(schema::parse(&text).unwrap(), described);
}

// ---------------------------------------------------------------- lock files

mod lock_v1 {
    #[derive(binform::Packable, Default)]
    #[binform(version_tolerant)]
    pub struct Order {
        pub id: u64,
        pub amount: i64,
        pub note: String,
    }
}
mod lock_v2_added {
    /// A field added with a default: compatible both ways.
    #[derive(binform::Packable, Default)]
    #[binform(version_tolerant)]
    pub struct Order {
        pub id: u64,
        pub amount: i64,
        pub note: String,
        pub currency: String,
    }
}
mod lock_v2_renamed_and_removed {
    /// `note` renamed, `amount` removed with its tag reserved: compatible.
    #[derive(binform::Packable, Default)]
    #[binform(version_tolerant, reserved = [1])]
    pub struct Order {
        #[binform(tag = 0)]
        pub id: u64,
        #[binform(tag = 2)]
        pub comment: String,
    }
}
mod lock_v2_retyped {
    /// Tag 1 retyped from i64 to a string: readers of either side break.
    #[derive(binform::Packable, Default)]
    #[binform(version_tolerant)]
    pub struct Order {
        pub id: u64,
        pub amount: String,
        pub note: String,
    }
}
mod lock_v2_removed_unreserved {
    #[derive(binform::Packable, Default)]
    #[binform(version_tolerant)]
    pub struct Order {
        pub id: u64,
    }
}

/// A fresh lock file's path in cargo's scratch directory for integration
/// tests (under the target directory, which `cargo clean` empties), not
/// the system's temporary directory, where each run left a directory.
fn lock_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("binform-schema-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn lock_file_accepts_compatible_changes() {
    let path = lock_path("accepted.binform-schema");
    // The first run writes the lock file.
    schema::assert_compatible::<lock_v1::Order>(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("struct Order tolerant"), "{text}");
    schema::assert_compatible::<lock_v1::Order>(&path);
    schema::assert_compatible::<lock_v2_added::Order>(&path);
    schema::assert_compatible::<lock_v2_renamed_and_removed::Order>(&path);
}

#[test]
fn lock_file_rejects_breaking_changes_with_a_readable_report() {
    let path = lock_path("rejected.binform-schema");
    schema::assert_compatible::<lock_v1::Order>(&path);

    let report = schema::check_compatible::<lock_v2_retyped::Order>(&path).unwrap_err();
    assert!(
        report.contains("field 1 `amount` changed type from `i64` to `string`"),
        "{report}"
    );
    assert!(report.contains("BINFORM_UPDATE_SCHEMAS"), "{report}");

    let report = schema::check_compatible::<lock_v2_removed_unreserved::Order>(&path).unwrap_err();
    assert!(
        report.contains("field 2 `note` was removed without reserving its tag"),
        "{report}"
    );

    // Compact types are positional: any change breaks.
    let path = lock_path("compact.binform-schema");
    schema::assert_compatible::<a::Item>(&path);
    let report = schema::check_compatible::<added::Item>(&path).unwrap_err();
    assert!(report.contains("compact type's layout changed"), "{report}");
    let panicked = std::panic::catch_unwind(|| schema::assert_compatible::<retyped::Item>(&path));
    assert!(panicked.is_err());
}
