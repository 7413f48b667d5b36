//! `binform::Value`: self-describing payloads and plain ones with a schema
//! read as documents and written back byte-exactly, printed as trees, and
//! safe on hostile input (limits, shared values kept shared, drops that do
//! not recurse).

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::Debug;
use std::num::NonZeroU16;
use std::ops::Bound;
use std::rc::Rc;

use binform::value::{self, Value};
use binform::{ErrorKind, Options, Pack, Packable, UnpackOwned};
use binform_fixtures::models::graph;
use binform_fixtures::{rsb_seed, seed};

fn opts() -> Options {
    Options::new().self_describing(true)
}

/// The document reads, writes back to the very bytes, and prints; the
/// plain payload read with the type's schema writes back to itself too.
fn exact<T: Pack + UnpackOwned + Debug>(v: &T) -> Value {
    let bytes = opts().to_vec(v).unwrap();
    let doc = value::from_slice(&bytes).unwrap();
    assert_eq!(
        value::to_vec(&doc).unwrap(),
        bytes,
        "for {}",
        std::any::type_name::<T>()
    );
    let plain = binform::to_vec(v).unwrap();
    let schema = binform::schema_of::<T>();
    let doc2 = value::from_slice_with(&schema, &plain).unwrap();
    assert_eq!(value::to_vec_with(&schema, &doc2).unwrap(), plain);
    assert_eq!(value::to_vec_with(&schema, &doc).unwrap(), plain);
    let _ = doc.to_string();
    doc
}

#[derive(Packable, Debug, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Packable, Debug)]
struct Generic<T, const N: usize> {
    items: [T; N],
    label: Option<String>,
}

#[derive(Packable, Debug, PartialEq)]
enum Tree {
    Leaf(u32),
    Node(Box<Tree>, Box<Tree>),
    Empty,
    Named { depth: u8, children: Vec<Tree> },
}

#[derive(Packable, Debug)]
enum Laughs {
    Leaf,
    Pair(Rc<Laughs>, Rc<Laughs>),
}

#[test]
fn every_std_family_round_trips_byte_exactly() {
    exact(&(
        1u8,
        -2i8,
        300u16,
        -300i16,
        70_000u32,
        -70_000i32,
        u64::MAX,
        i64::MIN,
    ));
    exact(&(u128::MAX, i128::MIN, 1.5f32, f64::NAN, true, '€', ()));
    exact(&"text".to_string());
    exact(&vec![1u8, 2, 3]);
    exact(&(0..600).map(|i| i * 7919).collect::<Vec<u32>>());
    exact(&vec![-5i128; 20]);
    exact(&[9u64; 40]);
    exact(&[1u8; 32]);
    exact(
        &(0..20)
            .map(|i| NonZeroU16::new(i + 1).unwrap())
            .collect::<Vec<_>>(),
    );
    exact(&VecDeque::from(vec![Some(1u8), None]));
    exact(&BTreeMap::from([
        ("a".to_string(), vec![1.0f64]),
        ("b".to_string(), vec![]),
    ]));
    exact(&BTreeSet::from([3i8, -3]));
    exact(&HashMap::from([
        (1u32, Ok::<u8, String>(1)),
        (2, Err("e".into())),
    ]));
    exact(&(
        Bound::Included(4u8),
        Bound::<u8>::Unbounded,
        1u16..9,
        2i64..=3,
    ));
    exact(&std::time::Duration::new(5, 6));
    exact(&std::time::UNIX_EPOCH);
    exact(&(
        std::net::IpAddr::from([1, 2, 3, 4]),
        "[::1]:80".parse::<std::net::SocketAddr>().unwrap(),
    ));
    exact(&(
        std::cmp::Ordering::Less,
        std::ffi::CString::new("c").unwrap(),
    ));
    exact(&(
        uuid::Uuid::from_u128(7),
        rust_decimal::Decimal::new(-1234, 2),
    ));
    exact(&chrono::DateTime::from_timestamp(1_700_000_000, 5).unwrap());
}

#[test]
fn derived_generic_recursive_and_graph_types_round_trip_byte_exactly() {
    exact(&Point { x: 3, y: -4 });
    exact(&Generic::<Point, 2> {
        items: [Point { x: 1, y: 2 }, Point { x: 3, y: 4 }],
        label: Some("g".into()),
    });
    exact(&Tree::Named {
        depth: 2,
        children: vec![
            Tree::Node(Box::new(Tree::Leaf(1)), Box::new(Tree::Empty)),
            Tree::Leaf(9),
        ],
    });
    exact(&seed::large_object());
    exact(&seed::kate(20));
    exact(&seed::primitives());
    exact(&rsb_seed::logs(20));
    exact(&rsb_seed::updates(5));
    exact(&graph::dag(6, 5));
    let shared = Rc::new("s".to_string());
    let doc = exact(&vec![shared.clone(), shared]);
    let Value::Seq(items) = doc.root() else {
        panic!("{doc}")
    };
    assert!(matches!(items[0], Value::Shared { id: 0, .. }));
    assert_eq!(items[1], Value::Reference(0));
}

#[test]
fn a_decode_error_names_its_field_path_and_offset() {
    let mut bytes = opts().to_vec(&seed::kate(3)).unwrap();
    // Cut the last card's expiry short.
    bytes.pop();
    let last = bytes.len();
    let err = value::from_slice(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "{err}");
    // The expiry dates are a column (§27): the error names its field.
    assert_eq!(err.path(), ".cards.expires", "{err}");
    assert!(err.offset().is_some_and(|o| o <= last && o > 12), "{err}");
    assert!(err.to_string().contains("in `.cards.expires`"), "{err}");
}

#[test]
fn it_prints_as_an_indented_tree() {
    let bytes = opts()
        .to_vec(&(Point { x: 1, y: -1 }, vec![Some("a".to_string()), None]))
        .unwrap();
    let text = value::from_slice(&bytes).unwrap().to_string();
    assert_eq!(
        text,
        "[\n  Point {\n    x: 1i32\n    y: -1i32\n  }\n  [\n    Some(\"a\")\n    None\n  ]\n]"
    );
}

#[test]
fn a_billion_laughs_stays_small() {
    // 60 levels, each a pair of references to the level below: 2^60 leaves
    // as a tree, a few hundred bytes as a graph.
    let mut node = Rc::new(Laughs::Leaf);
    for _ in 0..60 {
        node = Rc::new(Laughs::Pair(node.clone(), node));
    }
    let bytes = opts().to_vec(&node).unwrap();
    assert!(bytes.len() < 1024, "{} bytes", bytes.len());
    let doc = value::from_slice(&bytes).unwrap();
    // Count the tree's nodes without following references.
    let mut count = 0;
    let mut stack = vec![doc.root()];
    while let Some(v) = stack.pop() {
        count += 1;
        match v {
            Value::Shared { value, .. } | Value::Optional(Some(value)) => stack.push(value),
            Value::Variant { fields, .. } | Value::Struct { fields, .. } => {
                stack.extend(fields.iter().map(|(_, v)| v))
            }
            Value::Seq(items) => stack.extend(items),
            _ => {}
        }
    }
    assert!(count < 400, "{count} nodes");
    assert_eq!(value::to_vec(&doc).unwrap(), bytes);
}

#[test]
fn a_million_levels_are_a_limit_error() {
    let header = opts().to_vec(&Tree::Empty).unwrap();
    let body_len = binform::to_vec(&Tree::Empty).unwrap().len();
    let mut bytes = header[..header.len() - body_len].to_vec();
    // Tree::Node(Box<Tree>, …) a million times: tag 1 then the first child.
    bytes.extend(std::iter::repeat_n(0x02, 1_000_000));
    let err = value::from_slice(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

#[test]
fn dropping_a_million_levels_does_not_recurse() {
    let mut v = Value::Unit;
    for _ in 0..1_000_000 {
        v = Value::Optional(Some(Box::new(v)));
    }
    // On a thread with a small stack, to be sure.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || drop(v))
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn every_limit_of_options_applies() {
    // Three levels: the outer sequence's column of sequences counts none
    // (§27), each nested one a level.
    let bytes = opts().to_vec(&vec![vec![vec![vec![1u8]]]]).unwrap();
    let err = value::from_slice_options(&bytes, &Options::new().max_depth(2)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    let err = value::from_slice_options(&bytes, &Options::new().max_bytes(8)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    let big = opts().to_vec(&vec![7u64; 100_000]).unwrap();
    let err = value::from_slice_options(&big, &Options::new().max_memory(100_000)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

#[test]
fn damaged_documents_are_errors_or_documents() {
    let bytes = opts().to_vec(&seed::kate(2)).unwrap();
    for end in 0..bytes.len() {
        assert!(value::from_slice(&bytes[..end]).is_err(), "cut at {end}");
    }
    let mut copy = bytes.clone();
    for i in 0..bytes.len() {
        for b in [0x00, 0xFF, bytes[i] ^ 1, bytes[i] ^ 0x80] {
            copy[i] = b;
            binform_tests::fuzz::decode_value(&copy);
        }
        copy[i] = bytes[i];
    }
}

#[test]
fn a_value_that_does_not_fit_its_schema_names_where() {
    let bytes = opts().to_vec(&seed::kate(2)).unwrap();
    let mut doc = value::from_slice(&bytes).unwrap();
    // (Value implements Drop, so it is edited in place, not destructured.)
    if let Value::Document { value, .. } = &mut doc {
        if let Value::Struct { fields, .. } = &mut **value {
            fields[0].1 = Value::U8(1);
        }
    }
    let err = value::to_vec(&doc).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert_eq!(err.path(), ".name", "{err}");
    // A bare value has no schema to write a header with.
    let err = value::to_vec(&Value::U8(1)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
}

#[derive(Packable, Debug, Default)]
#[binform(version_tolerant, reserved = [3])]
struct Tolerant {
    a: u32,
    b: Option<u64>,
    c: Option<u64>,
    #[binform(tag = 5)]
    d: Option<Option<u8>>,
    e: Vec<i32>,
    f: Vec<String>,
    g: Vec<f64>,
    h: (u8, String),
    i: Option<String>,
    j: u128,
    k: Kind,
    l: Vec<Kind>,
    #[binform(tag = 40)]
    m: bool,
}

#[derive(Packable, Debug, Default)]
#[binform(version_tolerant)]
enum Kind {
    #[default]
    Empty,
    Data(u8, String),
    #[binform(tag = 9)]
    Named {
        x: Option<i64>,
    },
}

#[test]
fn tolerant_types_round_trip_byte_exactly() {
    let value = Tolerant {
        a: 300,
        b: Some(7),
        c: None,
        d: Some(None),
        e: (0..40).collect(),
        f: vec!["x".into(), "yz".into()],
        g: vec![1.5, -0.0],
        h: (1, "h".into()),
        i: Some("i".into()),
        j: u128::MAX,
        k: Kind::Named { x: Some(-1) },
        l: vec![
            Kind::Empty,
            Kind::Data(3, "d".into()),
            Kind::Named { x: None },
        ],
        m: true,
    };
    let doc = exact(&value);
    assert_eq!(doc.field("a"), Some(&Value::U32(300)));
    exact(&binform_fixtures::models::tolerant::large_struct());
    exact(&binform_fixtures::models::tolerant::ten_people());
}

/// Writes the fuzz target's seed corpus (tests/fuzz_regressions/decode_value)
/// when it is missing: a few documents of different shapes.
#[test]
fn the_value_fuzz_corpus_has_seeds() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz_regressions/decode_value");
    let seeds: Vec<(&str, Vec<u8>)> = vec![
        ("point", opts().to_vec(&Point { x: 1, y: 2 }).unwrap()),
        ("kate", opts().to_vec(&seed::kate(2)).unwrap()),
        (
            "tree",
            opts()
                .to_vec(&Tree::Node(Box::new(Tree::Leaf(1)), Box::new(Tree::Empty)))
                .unwrap(),
        ),
        (
            "packed",
            opts().to_vec(&(0..300).collect::<Vec<i32>>()).unwrap(),
        ),
        ("shared", opts().to_vec(&graph::dag(3, 3)).unwrap()),
    ];
    for (name, bytes) in seeds {
        let path = dir.join(name);
        if !path.exists() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        binform_tests::fuzz::decode_value(&std::fs::read(&path).unwrap());
    }
}

/// A self-describing payload with a schema of our choosing.
fn with_schema(schema: &binform::Schema, body: &[u8]) -> Vec<u8> {
    let encoded = binform::to_vec(schema).unwrap();
    let mut bytes = b"BFS\x03".to_vec();
    bytes.extend(binform::schema::fingerprint(schema).to_le_bytes());
    bytes.extend(binform::to_vec(&(encoded.len() as u64)).unwrap());
    bytes.extend(encoded);
    bytes.extend(body);
    bytes
}

#[test]
fn a_schema_that_doubles_at_each_level_hits_the_memory_budget() {
    // range<range<…<unit>>>: 2^40 units from no body bytes at all.
    let mut t = binform::TypeRef::builtin("unit");
    for _ in 0..40 {
        t = binform::TypeRef::builtin_of("range", vec![t]);
    }
    let schema = binform::Schema {
        root: t,
        types: Default::default(),
    };
    let start = std::time::Instant::now();
    let err = value::from_slice(&with_schema(&schema, &[])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    assert!(start.elapsed().as_secs() < 10);
}

#[test]
fn a_schema_with_two_fields_of_one_name_is_refused() {
    use binform::schema::{Body, FieldDef, TypeDef};
    let field = |tag, name: &str| FieldDef {
        tag,
        name: name.into(),
        schema: binform::TypeRef::builtin("u8"),
    };
    let def = TypeDef {
        name: "S".into(),
        tolerant: false,
        body: Body::Struct(vec![field(0, "a"), field(1, "a")]),
        reserved: vec![],
    };
    let schema = binform::Schema {
        root: binform::TypeRef::Named("S".into()),
        types: [("S".to_string(), def)].into(),
    };
    let err = binform::schema::read_schema(&with_schema(&schema, &[1, 2])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert!(binform::schema::parse(&schema.to_string()).is_err());
}

#[derive(Packable, Debug)]
struct Link {
    v: u8,
    next: Option<Box<Link>>,
}

#[test]
fn a_value_nests_as_deep_as_its_typed_decoder_allows() {
    let mut list = Link { v: 0, next: None };
    for i in 1..100 {
        list = Link {
            v: i,
            next: Some(Box::new(list)),
        };
    }
    exact(&list);
    // Unwind by hand: the derived Drop of a 100-deep list is fine, but be tidy.
    let mut next = list.next.take();
    while let Some(mut node) = next {
        next = node.next.take();
    }
}

#[test]
fn printing_a_deep_hand_built_value_does_not_overflow() {
    let mut v = Value::Unit;
    for _ in 0..100_000 {
        v = Value::Optional(Some(Box::new(v)));
    }
    let text = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || v.to_string())
        .unwrap()
        .join()
        .unwrap();
    assert!(text.ends_with('…') || text.contains('…'));
}

#[derive(Packable, Debug)]
#[binform(version_tolerant)]
struct Mixed {
    ints: Vec<i64>,
    small: Vec<u16>,
    text: Vec<String>,
    map: BTreeMap<u32, Option<String>>,
    nested: Vec<Tree>,
    maybe: Option<(u8, i128)>,
    floats: Vec<f32>,
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Random documents of every family, compact and tolerant, write back
    /// to their very bytes (through the plain form with a schema too).
    #[test]
    fn random_documents_round_trip_byte_exactly(
        ints in proptest::collection::vec(proptest::prelude::any::<i64>(), 0..600),
        shift in 0u32..64,
        text in proptest::collection::vec(".{0,12}", 0..10),
        map in proptest::collection::btree_map(proptest::prelude::any::<u32>(), proptest::option::of(".{0,6}"), 0..12),
        leaves in proptest::collection::vec(proptest::prelude::any::<u32>(), 0..20),
        maybe in proptest::option::of(proptest::prelude::any::<(u8, i128)>()),
        floats in proptest::collection::vec(proptest::prelude::any::<f32>(), 0..20),
    ) {
        let value = Mixed {
            ints: ints.iter().map(|v| v >> shift).collect(),
            small: ints.iter().map(|v| (v >> shift) as u16).collect(),
            text,
            map,
            nested: leaves.iter().map(|&l| match l % 3 {
                0 => Tree::Leaf(l),
                1 => Tree::Node(Box::new(Tree::Leaf(l)), Box::new(Tree::Empty)),
                _ => Tree::Named { depth: l as u8, children: vec![Tree::Empty] },
            }).collect(),
            maybe,
            floats,
        };
        exact(&value);
    }
}

/// Found by review: string contents were not charged to the memory budget
/// (bytes and byte arrays were), so `max_memory` undercounted documents of
/// strings.
#[test]
fn strings_are_charged_to_the_memory_budget() {
    let texts: Vec<String> = (0..100).map(|i| "x".repeat(10_000 + i)).collect();
    let bytes = opts().to_vec(&texts).unwrap();
    let err =
        value::from_slice_options(&bytes, &Options::new().max_memory(256 * 1024)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    let doc = value::from_slice_options(&bytes, &Options::new().max_memory(4 << 20)).unwrap();
    assert_eq!(value::to_vec(&doc).unwrap(), bytes);
}

/// A derived enum named and shaped as `IpAddr` prints as the address's
/// text, as the std type does: reading that text back gives its bytes.
#[test]
fn a_derived_type_shaped_as_a_builtin_reads_its_text_back() {
    #[derive(Packable, Debug)]
    #[allow(dead_code)]
    enum IpAddr {
        V4(std::net::Ipv4Addr),
        V6(std::net::Ipv6Addr),
        Other,
    }
    let schema = binform::schema_of::<Vec<IpAddr>>();
    let list = vec![
        IpAddr::V4(std::net::Ipv4Addr::new(1, 2, 3, 4)),
        IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
        IpAddr::Other,
    ];
    let bytes = binform::to_vec(&list).unwrap();
    let doc = value::from_slice_with(&schema, &bytes).unwrap();
    let Value::Seq(items) = doc.root() else {
        panic!("{doc}")
    };
    let texts: Vec<_> = items.iter().map(Value::text).collect();
    assert_eq!(
        texts,
        [Some("1.2.3.4".to_string()), Some("::1".to_string()), None]
    );
    let loose = Value::Seq(vec![
        Value::String("1.2.3.4".into()),
        Value::String("::1".into()),
        Value::String("Other".into()),
    ]);
    let back = value::conform(&schema, &loose).unwrap();
    assert_eq!(value::to_vec_with(&schema, &back).unwrap(), bytes);
}
