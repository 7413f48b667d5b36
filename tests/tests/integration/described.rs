//! Self-describing payloads (`Options::self_describing`, format.md §25):
//! the embedded schema equals `schema_of` of the writer's type for every
//! type family, the body is the plain payload's bytes, a reader with the
//! type pays one fingerprint comparison, and a damaged header is an error.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::Debug;
use std::rc::Rc;

use binform::schema::read_schema;
use binform::{ErrorKind, Options, Pack, Packable, UnpackOwned};
use binform_fixtures::models::graph;
use binform_fixtures::seed;

fn opts() -> Options {
    Options::new().self_describing(true)
}

/// The schema read back is `schema_of::<T>()`, the body after the header
/// is the plain encoding, and the value decodes.
fn described<T: Pack + UnpackOwned + Debug>(value: &T) -> Vec<u8> {
    let bytes = opts().to_vec(value).unwrap();
    assert_eq!(read_schema(&bytes).unwrap(), binform::schema_of::<T>());
    let plain = binform::to_vec(value).unwrap();
    assert!(bytes.ends_with(&plain), "the body is the plain payload");
    let back: T = opts().from_slice(&bytes).unwrap();
    // (Hash maps re-encode in their own order, and their packed columns
    // take a size that depends on it: the copy must round-trip.)
    let again = binform::to_vec(&back).unwrap();
    let _: T = binform::from_slice(&again).unwrap();
    bytes
}

#[derive(Packable, Debug, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Packable, Debug, PartialEq)]
struct Generic<T, const N: usize> {
    items: [T; N],
    label: Option<String>,
}

#[derive(Packable, Debug, PartialEq)]
enum Tree {
    Leaf(u32),
    Node(Box<Tree>, Box<Tree>),
}

#[derive(Packable, Debug, PartialEq, Default)]
#[binform(version_tolerant, reserved = [4])]
struct Tolerant {
    a: u64,
    #[binform(tag = 7)]
    b: Vec<String>,
}

#[derive(Packable, Debug, Default)]
struct Cyclic {
    next: Option<Rc<RefCell<Cyclic>>>,
}

#[test]
fn every_type_family_carries_its_schema() {
    described(&(
        1u8,
        -2i16,
        3u32,
        -4i64,
        5u128,
        6isize,
        1.5f32,
        -2.5f64,
        true,
        'x',
        (),
    ));
    described(&"text".to_string());
    described(&vec![1u16, 2, 3]);
    described(&vec![vec![1i32; 300]; 3]);
    described(&[7u64; 12]);
    described(&VecDeque::from(vec![Some(1u8), None]));
    described(&BTreeMap::from([("a".to_string(), vec![1.0f64])]));
    described(&BTreeSet::from([3i8, -3]));
    described(&HashMap::from([(1u32, Ok::<u8, String>(1))]));
    described(&Box::new([Point { x: 1, y: -1 }]));
    described(&std::time::Duration::new(5, 6));
    described(&std::net::Ipv4Addr::LOCALHOST);
}

#[test]
fn derived_generic_recursive_and_graph_types_carry_their_schema() {
    described(&Point { x: 3, y: 4 });
    described(&Generic::<Point, 2> {
        items: [Point { x: 1, y: 2 }, Point { x: 3, y: 4 }],
        label: None,
    });
    described(&Tree::Node(
        Box::new(Tree::Leaf(1)),
        Box::new(Tree::Leaf(2)),
    ));
    described(&Tolerant {
        a: 9,
        b: vec!["x".into()],
    });
    described(&seed::large_object());
    described(&graph::dag(5, 4));
    let shared = Rc::new("shared".to_string());
    described(&vec![shared.clone(), shared]);
    // A cycle: the schema names `Cyclic` once, the body keeps the cycle.
    let a = Rc::new(RefCell::new(Cyclic::default()));
    a.borrow_mut().next = Some(a.clone());
    let bytes = Options::new()
        .self_describing(true)
        .reject_cycles(false)
        .to_vec(&a)
        .unwrap();
    a.borrow_mut().next = None;
    assert_eq!(
        read_schema(&bytes).unwrap(),
        binform::schema_of::<Rc<RefCell<Cyclic>>>()
    );
}

#[test]
fn golden_header_of_a_small_struct() {
    let bytes = opts().to_vec(&Point { x: 1, y: -1 }).unwrap();
    let fp = binform::schema::fingerprint_of::<Point>().to_le_bytes();
    assert_eq!(&bytes[..4], b"BFS\x03");
    assert_eq!(&bytes[4..12], &fp);
    // The schema: a length, then the model (format.md §25), then the body.
    let schema = binform::to_vec(&binform::schema_of::<Point>()).unwrap();
    assert_eq!(&bytes[13..13 + schema.len()], &schema[..]);
    assert_eq!(
        bytes[12] as usize,
        schema.len() << 1,
        "a one-byte varint length"
    );
    assert_eq!(&bytes[13 + schema.len()..], [0x04, 0x02]);
    assert_eq!(
        schema,
        [
            0x02, 0x0A, b'P', b'o', b'i', b'n', b't', // root: Named("Point"), variant 1
            0x02, // one type
            0x0A, b'P', b'o', b'i', b'n', b't', // its key
            0x0A, b'P', b'o', b'i', b'n', b't', 0x00, // name, compact
            0x00, 0x04, // a struct of 2 fields, in columns (§27):
            0x00, 0x02, // the tags 0, 1
            0x02, 0x02, b'x', b'y', // the names' lengths, then their bytes
            0x00, 0x00, // the types: both `Builtin`
            0x06, 0x06, b'i', b'3', b'2', b'i', b'3', b'2', // their names
            0x00, 0x00, // and no arguments
            0x00, // no reserved tags
        ]
    );
}

#[test]
fn a_reader_with_another_type_is_told_so() {
    let bytes = opts().to_vec(&Point { x: 1, y: 2 }).unwrap();
    let err = opts().from_slice::<(i32, i32, i32)>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SchemaMismatch);
    // Without the option, the header is not the value.
    assert!(binform::from_slice::<Point>(&bytes).is_err());
    // With it, a plain payload is not a self-describing one.
    let err = opts()
        .from_slice::<Point>(&binform::to_vec(&Point { x: 1, y: 2 }).unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
}

#[test]
fn a_damaged_header_is_an_error() {
    let bytes = opts().to_vec(&seed::kate(3)).unwrap();
    for end in 0..bytes.len() {
        assert!(
            opts()
                .from_slice::<seed::CardHolder>(&bytes[..end])
                .is_err(),
            "cut at {end}"
        );
        let _ = read_schema(&bytes[..end]);
    }
    // Every changed byte of the header and schema: an error or the same schema.
    let header_len = bytes.len() - binform::to_vec(&seed::kate(3)).unwrap().len();
    let mut copy = bytes.clone();
    for i in 0..header_len {
        for b in [0x00, 0xFF, bytes[i] ^ 1, bytes[i] ^ 0x80] {
            copy[i] = b;
            if let Ok(schema) = read_schema(&copy) {
                assert_eq!(
                    schema,
                    binform::schema_of::<seed::CardHolder>(),
                    "byte {i} = {b:#x}"
                );
            }
        }
        copy[i] = bytes[i];
    }
    // A fingerprint that is not its schema's.
    copy[5] ^= 0x40;
    let err = read_schema(&copy).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert_eq!(err.offset(), Some(4));
}

#[test]
fn types_known_only_through_serde_cannot_describe_themselves() {
    let err = binform::serde::to_vec_with(&opts(), &5u32).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
}

#[test]
fn writer_and_reader_entry_points_carry_the_header() {
    let value = seed::ten_people();
    let mut out = Vec::new();
    opts().to_writer(&mut out, &value).unwrap();
    assert_eq!(out, opts().to_vec(&value).unwrap());
    let back: Vec<seed::Person> = opts().from_reader(&out[..]).unwrap();
    assert_eq!(back, value);
}
