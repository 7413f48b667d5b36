//! `#[binform(schema_lock = "...")]` with compatible changes: each of
//! these types differs from its lock file (tests/schemas/) only in ways
//! readers of either version accept, so it compiles; the breaking changes
//! are the UI tests `tests/ui/lock_*.rs`.

use binform::Packable;

/// Unchanged (compact: any change breaks).
#[derive(Packable, Debug, PartialEq)]
#[binform(schema_lock = "schemas/Point.binform-schema")]
struct Point {
    x: i32,
    y: i32,
    label: Option<String>,
}

/// `name` renamed `full_name` under its tag, `legacy` removed with its
/// tag reserved, `email` added.
#[derive(Packable, Debug, PartialEq, Default)]
#[binform(version_tolerant, reserved = [3, 9], schema_lock = "schemas/Customer.binform-schema")]
struct Customer {
    id: u64,
    #[binform(tag = 1)]
    full_name: String,
    tags: Vec<String>,
    #[binform(tag = 4)]
    address: Address,
    email: Option<String>,
}

#[derive(Packable, Debug, PartialEq, Default)]
struct Address {
    street: String,
    zip: u32,
}

/// A new variant: the locked enum has an `other` catch-all.
#[derive(Packable, Debug, PartialEq, Default)]
#[binform(version_tolerant, schema_lock = "schemas/Event.binform-schema")]
enum Event {
    #[default]
    Open,
    Paid {
        amount: u64,
    },
    #[binform(other)]
    Unknown,
    Refunded,
}

#[test]
fn compatible_changes_compile_and_work() {
    let c = Customer {
        id: 1,
        full_name: "Kate".into(),
        tags: vec!["a".into()],
        address: Address {
            street: "s".into(),
            zip: 1,
        },
        email: None,
    };
    assert_eq!(
        binform::from_slice::<Customer>(&binform::to_vec(&c).unwrap()).unwrap(),
        c
    );
    let p = Point {
        x: 1,
        y: 2,
        label: None,
    };
    assert_eq!(
        binform::from_slice::<Point>(&binform::to_vec(&p).unwrap()).unwrap(),
        p
    );
    for e in [Event::Open, Event::Paid { amount: 3 }, Event::Refunded] {
        assert_eq!(
            binform::from_slice::<Event>(&binform::to_vec(&e).unwrap()).unwrap(),
            e
        );
    }
}

/// A recursive tolerant type that gained a field: its `children` still
/// have the locked shape (`seq<Tree>`), whatever `Tree` became.
#[derive(Packable, Debug, PartialEq, Default)]
#[binform(version_tolerant, schema_lock = "schemas/Tree.binform-schema")]
struct Tree {
    value: u32,
    children: Vec<Tree>,
    label: String,
}

mod u8_codec {
    pub fn pack<L: binform::Layout>(v: &u8, w: &mut binform::Writer<'_, L>) -> binform::Result<()> {
        w.write_u8(*v);
        Ok(())
    }
    pub fn unpack<L: binform::Layout>(r: &mut binform::Reader<'_, L>) -> binform::Result<u8> {
        r.read_u8()
    }
}

/// A `with` field and a field naming `Self`, unchanged.
#[derive(Packable, Debug, PartialEq)]
#[binform(schema_lock = "schemas/Node.binform-schema")]
struct Node {
    value: u8,
    #[binform(with = "u8_codec")]
    raw: u8,
    next: Option<Box<Self>>,
}

#[test]
fn recursive_with_and_self_fields_compile_and_work() {
    let t = Tree {
        value: 1,
        children: vec![Tree::default()],
        label: "l".into(),
    };
    assert_eq!(
        binform::from_slice::<Tree>(&binform::to_vec(&t).unwrap()).unwrap(),
        t
    );
    let n = Node {
        value: 1,
        raw: 2,
        next: Some(Box::new(Node {
            value: 3,
            raw: 4,
            next: None,
        })),
    };
    assert_eq!(
        binform::from_slice::<Node>(&binform::to_vec(&n).unwrap()).unwrap(),
        n
    );
}

/// Types named in lower case: the lock file's blocks, not the case of a
/// name, say which names are derived types, in the derive's check (a
/// field of a derived type read as a built-in would not compile) and in
/// the runtime's.
#[allow(non_camel_case_types)]
#[derive(Packable, Debug, PartialEq)]
#[binform(schema_lock = "schemas/point_lower.binform-schema")]
struct point_lower {
    x: i32,
    inner: inner_lower,
}

#[allow(non_camel_case_types)]
#[derive(Packable, Debug, PartialEq)]
struct inner_lower {
    a: u8,
}

#[test]
fn lower_case_type_names_are_derived_types() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    binform::schema::assert_compatible::<point_lower>(
        manifest.join("schemas/point_lower.binform-schema"),
    );
    let text =
        std::fs::read_to_string(manifest.join("schemas/point_lower.binform-schema")).unwrap();
    let locked = binform::schema::parse(&text).unwrap();
    assert_eq!(locked.root, binform::TypeRef::Named("point_lower".into()));
    assert_eq!(locked, binform::schema_of::<point_lower>());
    let p = point_lower {
        x: -3,
        inner: inner_lower { a: 7 },
    };
    assert_eq!(
        binform::from_slice::<point_lower>(&binform::to_vec(&p).unwrap()).unwrap(),
        p
    );
}

/// Every lock file in the repository reads with the one parser, and
/// writes back as the same text.
#[test]
fn every_lock_file_in_the_repository_still_reads() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut read = 0;
    for dir in ["schemas", "ui/locks"] {
        for entry in std::fs::read_dir(manifest.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            match binform::schema::parse(&text) {
                Ok(schema) => assert_eq!(schema.to_string(), text, "{}", path.display()),
                // The one lock file made to be refused (ui/lock_nesting_too_deep.rs).
                Err(e) if path.ends_with("Deep.binform-schema") => {
                    assert!(e.contains("types nest deeper than 256 levels"), "{e}")
                }
                Err(e) => panic!("{}: {e}", path.display()),
            }
            read += 1;
        }
    }
    assert!(read >= 13, "{read} lock files");
}
