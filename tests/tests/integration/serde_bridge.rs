//! The serde bridge (`binform::serde`): for every std type family and the
//! seed models, the bridge and the derive write the same bytes and read
//! each other's; the documented differences are real and each path still
//! round-trips its own; what the bridge refuses is refused with
//! `Unsupported`; limits and damage are handled as the derive's.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddrV4};
use std::num::{NonZeroU32, Wrapping};
use std::rc::Rc;
use std::time::Duration;

use binform::{ErrorKind, Options, Pack, Packable, UnpackOwned};
use binform_fixtures::{rsb_seed, seed};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The derive's bytes and the bridge's are equal, and each path decodes
/// them to the value.
fn same<T>(value: &T) -> Vec<u8>
where
    T: Pack + UnpackOwned + Serialize + DeserializeOwned + PartialEq + Debug,
{
    let derived = binform::to_vec(value).expect("derive encode");
    let bridged = binform::serde::to_vec(value).expect("bridge encode");
    if bridged != derived {
        let at = bridged.iter().zip(&derived).position(|(a, b)| a != b);
        panic!(
            "the bridge's bytes differ from the derive's: lengths {} and {}, first difference at {at:?}\n\
             bridge: {:02x?}\nderive: {:02x?}",
            bridged.len(),
            derived.len(),
            &bridged[at.unwrap_or(0).saturating_sub(8)..bridged.len().min(at.unwrap_or(0) + 16)],
            &derived[at.unwrap_or(0).saturating_sub(8)..derived.len().min(at.unwrap_or(0) + 16)],
        );
    }
    let back: T = binform::serde::from_slice(&derived).expect("bridge decode");
    assert_eq!(&back, value);
    let back: T = binform::from_slice(&bridged).expect("derive decode");
    assert_eq!(&back, value);
    derived
}

/// Each path round-trips `value` on its own: a value holding a sequence
/// of strings, options or derived types, which the derive writes as
/// columns and the bridge as rows (§24, §27), so that their bytes differ
/// (but for sequences too short for it to show: one element's columns
/// are its row). Returns the derive's bytes and the bridge's.
fn each_path<T>(value: &T) -> (Vec<u8>, Vec<u8>)
where
    T: Pack + UnpackOwned + Serialize + DeserializeOwned + PartialEq + Debug,
{
    let derived = binform::to_vec(value).expect("derive encode");
    let back: T = binform::from_slice(&derived).expect("derive decode");
    assert_eq!(&back, value);
    (derived, bridge_round_trip(value))
}

/// [`each_path`], for a value whose columns show: the bytes differ.
fn columns_differ<T>(value: &T) -> Vec<u8>
where
    T: Pack + UnpackOwned + Serialize + DeserializeOwned + PartialEq + Debug,
{
    let (derived, bridged) = each_path(value);
    assert_ne!(bridged, derived, "expected the derive's columns");
    bridged
}

/// The bridge alone round-trips `value`.
fn bridge_round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) -> Vec<u8> {
    let bytes = binform::serde::to_vec(value).expect("bridge encode");
    let back: T = binform::serde::from_slice(&bytes).expect("bridge decode");
    assert_eq!(&back, value);
    bytes
}

#[derive(Packable, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Unit;

#[derive(Packable, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Newtype(u64);

#[derive(Packable, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Pair(i16, String);

#[derive(Packable, Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Shape {
    Empty,
    Circle(f64),
    Rect(u32, u32),
    Named { name: String, sides: Vec<u16> },
    Nested(Box<Shape>),
}

#[derive(Packable, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Everything {
    unit: Unit,
    newtype: Newtype,
    pair: Pair,
    shapes: (Shape, Shape, Shape, Shape, Shape),
    maybe: Option<Vec<i64>>,
    outcome: Result<u8, String>,
    map: BTreeMap<u8, bool>,
    matrix: Vec<Vec<i32>>,
    array: [u16; 4],
    tuple: (u8, i128, char, bool),
    deque: VecDeque<u64>,
    boxed: Box<[i32]>,
    ids: Vec<NonZeroU32>,
    sizes: Vec<usize>,
    text: Box<str>,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    duration: Duration,
    ip: IpAddr,
    socket: SocketAddrV4,
}

fn everything() -> Everything {
    Everything {
        unit: Unit,
        newtype: Newtype(u64::MAX),
        pair: Pair(-300, "pair".into()),
        shapes: (
            Shape::Empty,
            Shape::Circle(1.5),
            Shape::Rect(3, 4),
            Shape::Named {
                name: "oct".into(),
                sides: (1..=300).collect(),
            },
            Shape::Nested(Box::new(Shape::Circle(-0.0))),
        ),
        maybe: Some((0..1000).map(|i| i * i * 7919 - 500_000).collect()),
        outcome: Err("no".into()),
        map: [(1, true)].into(),
        // One row: a column of one sequence is its row (more differ, §27).
        matrix: vec![(0..257).collect()],
        array: [1, 300, 65535, 0],
        tuple: (7, i128::MIN, '€', true),
        deque: (0..600).map(|i| i << 40).collect(),
        boxed: vec![5; 12].into_boxed_slice(),
        ids: (1..=20)
            .map(|i| NonZeroU32::new(i * 1000).unwrap())
            .collect(),
        sizes: vec![0, 1, usize::MAX, 1 << 40, 12, 13, 14, 15, 16],
        text: "boxed text".into(),
        blob: (0..=255).collect(),
        duration: Duration::new(3, 999_999_999),
        ip: IpAddr::V6(Ipv6Addr::LOCALHOST),
        socket: SocketAddrV4::new(Ipv4Addr::new(10, 0, 0, 1), 8080),
    }
}

#[test]
fn every_family_in_one_struct_has_the_derives_bytes() {
    same(&everything());
}

#[test]
fn seed_models_have_the_derives_bytes_but_for_columns() {
    // Sequences of derived types: columns in the derive only.
    columns_differ(&seed::ten_people());
    columns_differ(&seed::kate(1000));
    // One card's columns are its row.
    same(&seed::kate(1));
    // A mesh's triangles are structs of floats: rows, as the bridge's.
    same(&seed::mesh(100));
    // A person's keywords are a string column.
    for person in seed::ten_people() {
        each_path(&person);
    }
    each_path(&seed::large_object());
    same(&seed::primitives());
    same(&seed::large_struct());
    same(&seed::small_message());
}

#[test]
fn rust_serialization_benchmark_models_have_the_derives_bytes_but_for_columns() {
    columns_differ(&rsb_seed::logs(200));
    columns_differ(&rsb_seed::players(20));
    columns_differ(&rsb_seed::updates(20));
}

#[test]
fn golden_bytes_of_the_format_tables() {
    // A few rows of docs/format.md, through the bridge.
    assert_eq!(binform::serde::to_vec(&-1i32).unwrap(), [0x02]);
    assert_eq!(binform::serde::to_vec("hi").unwrap(), [0x04, b'h', b'i']);
    assert_eq!(binform::serde::to_vec(&Some(5u8)).unwrap(), [0x01, 0x05]);
    assert_eq!(
        binform::serde::to_vec(&vec![300u16]).unwrap(),
        [0x02, 0xB1, 0x04]
    );
    assert_eq!(binform::serde::to_vec(&'€').unwrap(), [0xB1, 0x82]);
    assert_eq!(
        binform::serde::to_vec(&Shape::Rect(1, 2)).unwrap(),
        [0x04, 0x02, 0x04]
    );
    assert_eq!(
        binform::serde::to_vec(&Err::<u8, u8>(3)).unwrap(),
        [0x01, 0x03]
    );
    assert_eq!(
        binform::serde::to_vec(&IpAddr::V6(Ipv6Addr::LOCALHOST)).unwrap()[0],
        0x01
    );
    assert_eq!(
        binform::serde::to_vec(&Duration::new(1, 5)).unwrap(),
        [0x02, 0x0A]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every integer width, alone and in sequences long enough for several
    /// packed blocks, at every spread (so every block form is taken).
    #[test]
    fn integer_sequences(values in prop::collection::vec(any::<i64>(), 0..700), shift in 0u32..64) {
        let values: Vec<i64> = values.iter().map(|v| v >> shift).collect();
        same(&values);
        same(&values.iter().map(|&v| v as i16).collect::<Vec<_>>());
        same(&values.iter().map(|&v| v as u16).collect::<Vec<_>>());
        same(&values.iter().map(|&v| v as i32).collect::<Vec<_>>());
        same(&values.iter().map(|&v| v as u32).collect::<Vec<_>>());
        same(&values.iter().map(|&v| v as u64).collect::<VecDeque<_>>());
        same(&values.iter().map(|&v| (v as i128) << 40).collect::<Vec<_>>());
        same(&values.iter().map(|&v| (v as u128).wrapping_mul(3)).collect::<Vec<_>>());
        same(&values.iter().map(|&v| v as isize).collect::<Vec<_>>());
        same(&values.iter().map(|&v| v as u8).collect::<Vec<_>>());
        same(&values.iter().map(|&v| v as i8).collect::<Vec<_>>());
    }

    #[test]
    fn scalars(v in any::<(bool, u8, i8, u16, i16, u32, i32, u64)>(), w in any::<(i64, u128, i128, char, f32, f64)>()) {
        same(&v);
        // NaN payloads survive as bits; compare bits through the derive.
        let bits = |w: &(i64, u128, i128, char, f32, f64)| (w.0, w.1, w.2, w.3, w.4.to_bits(), w.5.to_bits());
        let bridged = binform::serde::to_vec(&w).unwrap();
        prop_assert_eq!(&bridged, &binform::to_vec(&w).unwrap());
        let back: (i64, u128, i128, char, f32, f64) = binform::serde::from_slice(&bridged).unwrap();
        prop_assert_eq!(bits(&back), bits(&w));
    }

    #[test]
    fn strings_options_results(s in ".{0,40}", o in any::<Option<Vec<String>>>(), r in any::<Result<u32, (u8, String)>>()) {
        same(&s);
        // A sequence of strings is a column in the derive (§27).
        each_path(&o);
        same(&r);
        for text in o.iter().flatten() {
            same(&Some(text.clone()));
        }
    }

    #[test]
    fn maps_and_nested_sequences(
        m in prop::collection::btree_map(".{0,8}", prop::collection::vec(any::<i32>(), 0..20), 0..20),
        h in prop::collection::hash_map(any::<u8>(), any::<Option<i64>>(), 0..30),
        v in prop::collection::vec(prop::collection::vec(any::<u16>(), 0..40), 0..10),
    ) {
        // Maps are a key column then a value column in the derive, and
        // nested sequences a column of lengths then one of all the
        // elements (§27).
        each_path(&m);
        each_path(&h);
        each_path(&v);
    }

    #[test]
    fn derived_enums(tags in prop::collection::vec(0u8..5, 0..30), n in any::<u32>()) {
        let shapes: Vec<Shape> = tags.iter().map(|t| match t {
            0 => Shape::Empty,
            1 => Shape::Circle(f64::from(n)),
            2 => Shape::Rect(n, n / 3),
            3 => Shape::Named { name: n.to_string(), sides: vec![n as u16; (n % 20) as usize] },
            _ => Shape::Nested(Box::new(Shape::Rect(n, 1))),
        }).collect();
        for shape in &shapes {
            same(shape);
        }
        each_path(&shapes);
    }

    /// Small sets and arrays, where the two paths agree (see the
    /// documented differences below for the large ones).
    #[test]
    fn small_sets_and_arrays(s in prop::collection::btree_set(any::<i32>(), 0..8), a in any::<[u64; 7]>(), b in any::<[u8; 32]>()) {
        same(&s);
        same(&a);
        same(&b);
    }

    /// A damaged payload decodes to a value or an error, never a panic.
    #[test]
    fn damaged_payloads_fail_cleanly(at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = binform::to_vec(&everything()).unwrap();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        let _ = binform::serde::from_slice::<Everything>(&bytes);
    }
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = binform::to_vec(&everything()).unwrap();
    for end in 0..bytes.len() {
        let err = binform::serde::from_slice::<Everything>(&bytes[..end]).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::UnexpectedEnd,
            "truncated at {end}: {err}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    let err = binform::serde::from_slice::<Everything>(&longer).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TrailingBytes);
}

#[test]
fn strings_borrow_from_the_input() {
    #[derive(Deserialize)]
    struct Borrowed<'a> {
        #[serde(borrow)]
        name: &'a str,
        #[serde(borrow)]
        raw: &'a [u8],
    }
    let bytes = binform::to_vec(&("ada".to_string(), vec![1u8, 2, 3])).unwrap();
    let b: Borrowed = binform::serde::from_slice(&bytes).unwrap();
    assert_eq!((b.name, b.raw), ("ada", &[1u8, 2, 3][..]));
    assert!(bytes.as_ptr_range().contains(&b.name.as_ptr()));
}

#[test]
fn writer_reader_and_buffer_entry_points() {
    let value = seed::kate(50);
    let mut out = Vec::new();
    binform::serde::to_writer(&mut out, &value).unwrap();
    assert_eq!(out, binform::serde::to_vec(&value).unwrap());
    let back: seed::CardHolder = binform::serde::from_reader(&out[..]).unwrap();
    assert_eq!(back, value);

    let mut buf = vec![0xAA];
    binform::serde::to_vec_into(&mut buf, &value).unwrap();
    assert_eq!(&buf[1..], &out[..]);
    // A failed encode leaves the buffer as it was.
    let err = binform::serde::to_vec_into(&mut buf, &Skips { a: 1, b: None }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert_eq!(&buf[1..], &out[..]);

    let limited = Options::new().max_bytes(10);
    let err = binform::serde::from_reader_with::<seed::CardHolder>(&limited, &out[..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

// --- the documented differences ---

#[test]
fn shared_references_lose_their_identity() {
    let shared = Rc::new("shared".to_string());
    let value = vec![shared.clone(), shared];
    let derived = binform::to_vec(&value).unwrap();
    let bridged = bridge_round_trip(&value);
    assert_ne!(derived, bridged);
    assert!(
        bridged.len() > derived.len(),
        "serde writes the string twice"
    );
    let back: Vec<Rc<String>> = binform::serde::from_slice(&bridged).unwrap();
    assert!(!Rc::ptr_eq(&back[0], &back[1]));
    let back: Vec<Rc<String>> = binform::from_slice(&derived).unwrap();
    assert!(Rc::ptr_eq(&back[0], &back[1]));
}

#[derive(Packable, Serialize, Deserialize, Debug, PartialEq)]
#[binform(version_tolerant)]
struct Tolerant {
    a: u32,
    b: String,
}

#[test]
fn version_tolerant_types_differ() {
    let value = Tolerant {
        a: 7,
        b: "x".into(),
    };
    let bridged = bridge_round_trip(&value);
    assert_ne!(bridged, binform::to_vec(&value).unwrap());
    assert_eq!(
        binform::from_slice::<Tolerant>(&binform::to_vec(&value).unwrap()).unwrap(),
        value
    );
}

#[test]
fn large_integer_sets_and_arrays_differ_small_ones_agree() {
    // Sets of integers are packed both ways (a column, §27).
    let set: BTreeSet<u64> = (0..100).map(|i| i * 1000).collect();
    same(&set);
    let hashed: HashSet<i32> = (0..7).collect();
    same(&hashed);

    let array: [u32; 16] = core::array::from_fn(|i| i as u32 * 100_000);
    assert_ne!(bridge_round_trip(&array), binform::to_vec(&array).unwrap());
    let small: [u32; 7] = core::array::from_fn(|i| i as u32 * 100_000);
    same(&small);
}

#[test]
fn wrapped_integers_pack_both_ways() {
    let values: Vec<Wrapping<u32>> = (0..50).map(|i| Wrapping(i * 3)).collect();
    same(&values);
    let values: Vec<Reverse<u64>> = (0..50).map(Reverse).collect();
    same(&values);
}

#[test]
fn sequences_of_strings_options_and_derived_types_are_columns_in_the_derive_only() {
    let names: Vec<String> = ["ada", "grace", "edsger"].map(String::from).into();
    let bridged = columns_differ(&names);
    // The bridge: each string's length and bytes; the derive: the lengths
    // as a packed block (three short varints), then the bytes.
    assert_eq!(&bridged[..5], b"\x06\x06ada");
    assert_eq!(&binform::to_vec(&names).unwrap()[..5], b"\x06\x06\x0A\x0Ca");
    columns_differ(&vec![Some(1u8), None, Some(3)]);
    // Bools are bits, and nested sequences their lengths (a packed
    // block) then all their elements, in the derive.
    assert_eq!(binform::to_vec(&vec![true, true]).unwrap(), [4, 0b11]);
    columns_differ(&vec![true, false, true]);
    columns_differ(&vec![(1u8, 300u16), (2, 5)]);
    let nested = vec![vec![0u8, 1], vec![2, 3]];
    assert_eq!(binform::to_vec(&nested).unwrap(), [4, 4, 4, 0, 1, 2, 3]);
    assert_eq!(bridge_round_trip(&nested), [4, 4, 0, 1, 4, 2, 3]);
    columns_differ(&vec![Pair(1, "a".into()), Pair(2, "b".into())]);
    // A bridge payload is not read as columns, nor the reverse.
    assert!(binform::from_slice::<Vec<Pair>>(&bridge_round_trip(&vec![
        Pair(1, "a".into()),
        Pair(2, "b".into())
    ]))
    .is_err_and(|e| e.kind() == ErrorKind::UnexpectedEnd));
}

#[test]
fn os_strings_take_serdes_form() {
    let s = std::ffi::OsString::from("hi");
    assert_ne!(bridge_round_trip(&s), binform::to_vec(&s).unwrap());
    // Paths are strings both ways.
    let p = std::path::PathBuf::from("/tmp/x");
    same(&p);
}

#[test]
fn field_aliases_decode() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct S {
        #[serde(alias = "old")]
        a: u8,
        b: u8,
    }
    bridge_round_trip(&S { a: 1, b: 2 });
}

#[test]
fn enums_named_like_the_byte_tagged_std_ones_round_trip() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename = "Result")]
    enum Outcome {
        Ok(u8),
        Err(u8),
        Pending,
    }
    for value in [Outcome::Ok(1), Outcome::Err(5), Outcome::Pending] {
        bridge_round_trip(&value);
    }
    assert_eq!(
        binform::serde::to_vec(&Outcome::Err(5)).unwrap(),
        [0x01, 0x05]
    );
    assert_eq!(binform::serde::to_vec(&Outcome::Pending).unwrap(), [0x04]);
}

#[test]
fn a_visitors_error_on_a_scalar_has_an_offset() {
    let err = binform::serde::from_slice::<NonZeroU32>(&[0]).unwrap_err();
    assert_eq!(err.offset(), Some(0), "{err}");
}

// --- what the bridge refuses ---

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Number(u32),
    Text(String),
}

#[test]
fn deserialize_any_is_refused_with_its_reason() {
    let bytes = binform::serde::to_vec(&Untagged::Number(3)).unwrap();
    let err = binform::serde::from_slice::<Untagged>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.message().contains("deserialize_any"), "{err}");
    assert!(err.message().contains("do not say their type"), "{err}");
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Skips {
    a: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<u32>,
}

#[test]
fn a_skipped_field_is_refused() {
    let err = binform::serde::to_vec(&Skips { a: 1, b: None }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.message().contains("`b`"), "{err}");
    // Present, it is written by position as usual.
    bridge_round_trip(&Skips { a: 1, b: Some(2) });
}

#[test]
fn the_fingerprint_header_needs_a_binform_schema() {
    let opts = Options::new().fingerprint(true);
    let err = binform::serde::to_vec_with(&opts, &5u32).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    let err = binform::serde::from_slice_with::<u32>(&opts, &[0; 20]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
}

struct Mixed;

impl Serialize for Mixed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(2))?;
        seq.serialize_element(&1u32)?;
        seq.serialize_element("two")?;
        seq.end()
    }
}

#[test]
fn a_sequence_mixing_packed_integers_with_other_elements_is_refused() {
    let err = binform::serde::to_vec(&Mixed).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.message().contains("u32"), "{err}");
}

#[test]
fn sequences_of_unknown_length_are_counted() {
    struct Unsized(Vec<i32>, BTreeMap<u8, u8>);
    impl Serialize for Unsized {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeMap, SerializeSeq, SerializeTuple};
            let mut t = s.serialize_tuple(2)?;
            struct Seq<'a>(&'a [i32]);
            impl Serialize for Seq<'_> {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let mut seq = s.serialize_seq(None)?;
                    self.0.iter().try_for_each(|v| seq.serialize_element(v))?;
                    seq.end()
                }
            }
            struct Map<'a>(&'a BTreeMap<u8, u8>);
            impl Serialize for Map<'_> {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let mut map = s.serialize_map(None)?;
                    self.0
                        .iter()
                        .try_for_each(|(k, v)| map.serialize_entry(k, v))?;
                    map.end()
                }
            }
            t.serialize_element(&Seq(&self.0))?;
            t.serialize_element(&Map(&self.1))?;
            t.end()
        }
    }
    let ints: Vec<i32> = (0..1000).map(|i| i * 37 - 9000).collect();
    let map: BTreeMap<u8, u8> = [(1, 2), (3, 4)].into();
    let bytes = binform::serde::to_vec(&Unsized(ints.clone(), map.clone())).unwrap();
    assert_eq!(bytes, binform::serde::to_vec(&(ints, map)).unwrap());
}

// --- limits and hostile input ---

#[test]
fn the_depth_limit_applies_both_ways() {
    let deep = vec![vec![vec![vec![1u8]]]];
    let opts = Options::new().max_depth(3);
    let err = binform::serde::to_vec_with(&opts, &deep).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    let bytes = binform::serde::to_vec(&deep).unwrap();
    let err = binform::serde::from_slice_with::<Vec<Vec<Vec<Vec<u8>>>>>(&opts, &bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    assert_eq!(
        binform::serde::from_slice_with::<Vec<Vec<Vec<Vec<u8>>>>>(
            &Options::new().max_depth(4),
            &bytes
        )
        .unwrap(),
        deep
    );
}

#[test]
fn a_recursive_value_deeper_than_the_limit_fails_without_overflowing_the_stack() {
    let mut shape = Shape::Empty;
    for _ in 0..100_000 {
        shape = Shape::Nested(Box::new(shape));
    }
    let err = binform::serde::to_vec(&shape).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // A hostile payload claiming the same: tag 4 (Nested) a million times.
    let bytes = vec![0x08u8; 1_000_000];
    let err = binform::serde::from_slice::<Shape>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // Dropping `shape` recursively would overflow: unwind it by hand.
    while let Shape::Nested(inner) = shape {
        shape = *inner;
    }
}

#[test]
fn a_lying_length_of_empty_elements_hits_the_memory_budget() {
    // 2^62 units claimed in 9 bytes: each costs a byte of budget.
    let (buf, n) = binform::varint::encode_u64(1 << 62);
    let bytes = &buf[..n];
    let err = binform::serde::from_slice::<Vec<()>>(bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

#[test]
fn packed_blocks_are_checked_as_the_derives() {
    // 4096 i32 in constant blocks: 2 bytes a block of 256, 16 KiB decoded.
    let values = vec![7i32; 4096];
    let bytes = same(&values);
    assert!(bytes.len() < 64, "{} bytes", bytes.len());
    let err = binform::serde::from_slice_with::<Vec<i32>>(&Options::new().max_memory(1000), &bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // A bad block header.
    let mut bad = binform::to_vec(&(0..300).collect::<Vec<u32>>()).unwrap();
    bad[2] = 0x7F;
    let derive = binform::from_slice::<Vec<u32>>(&bad).unwrap_err();
    let bridge = binform::serde::from_slice::<Vec<u32>>(&bad).unwrap_err();
    assert_eq!(bridge.kind(), derive.kind());
    // Values too wide for the type read.
    let wide = binform::to_vec(&vec![70_000u32; 20]).unwrap();
    let err = binform::serde::from_slice::<Vec<u16>>(&wide).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::IntegerOverflow);
}

#[test]
fn unknown_variants_and_tags_are_named() {
    let err = binform::serde::from_slice::<Shape>(&[0x20]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownVariant);
    assert_eq!(err.offset(), Some(0));
    let err = binform::serde::from_slice::<Option<u8>>(&[2, 0]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownVariant);
    let err = binform::serde::from_slice::<bool>(&[2]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidBool);
}

// --- #[binform(serde)] on a field ---

/// A type from "another crate": serde impls only.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, Default)]
struct Foreign {
    id: u128,
    labels: Vec<String>,
}

#[derive(Packable, Debug, PartialEq)]
struct Holder {
    name: String,
    #[binform(serde)]
    foreign: Foreign,
    #[binform(serde)]
    many: Vec<Foreign>,
    count: u32,
}

#[derive(Packable, Debug, PartialEq)]
#[binform(version_tolerant)]
struct TolerantHolder {
    #[binform(serde)]
    foreign: Foreign,
    count: u32,
}

#[derive(Packable, Debug, PartialEq)]
enum EnumHolder {
    Plain(u8),
    Foreign(#[binform(serde)] Foreign),
}

#[test]
fn a_serde_field_round_trips_inside_a_derived_type() {
    let foreign = Foreign {
        id: 1 << 100,
        labels: vec!["a".into(), "b".into()],
    };
    let holder = Holder {
        name: "h".into(),
        foreign: foreign.clone(),
        many: vec![foreign.clone(); 3],
        count: 9,
    };
    let bytes = binform::to_vec(&holder).unwrap();
    assert_eq!(binform::from_slice::<Holder>(&bytes).unwrap(), holder);
    // The field's bytes are the bridge's, in place.
    let mut expected = binform::to_vec("h").unwrap();
    expected.extend(binform::serde::to_vec(&foreign).unwrap());
    expected.extend(binform::serde::to_vec(&holder.many).unwrap());
    expected.extend(binform::to_vec(&9u32).unwrap());
    assert_eq!(bytes, expected);

    let tolerant = TolerantHolder {
        foreign: foreign.clone(),
        count: 2,
    };
    let bytes = binform::to_vec(&tolerant).unwrap();
    assert_eq!(
        binform::from_slice::<TolerantHolder>(&bytes).unwrap(),
        tolerant
    );

    for value in [EnumHolder::Plain(1), EnumHolder::Foreign(foreign)] {
        let bytes = binform::to_vec(&value).unwrap();
        assert_eq!(binform::from_slice::<EnumHolder>(&bytes).unwrap(), value);
    }
}

#[test]
fn a_serde_field_is_named_in_the_schema() {
    let schema = binform::schema_of::<Holder>().to_string();
    assert!(schema.contains("serde"), "{schema}");
}

#[test]
fn maps_are_columns_in_the_derive_only() {
    let map: HashMap<String, i32> = (0..50).map(|i| (format!("k{i}"), i * 1000)).collect();
    columns_differ(&map);
    // Keys and values that are rows either way agree.
    let bytes: BTreeMap<u8, bool> = [(1, true)].into();
    same(&bytes);
}
