//! The fixed layout (format.md §26) as a full peer of the compact one:
//! graphs, trait objects, versioning, the serde bridge, `Value`, frames,
//! the codec, headers that name the layout, plain structs as one copy,
//! and hostile input.

use std::any::Any;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::sync::Arc;

use binform::{Encoding, ErrorKind, Layout, Options, Pack, Packable, Reader, Unpack, Writer};

use crate::round_trip_fixed;

fn fixed() -> Options<binform::layout::Fixed> {
    Options::new().fixed_width()
}

// ------------------------------------------------------------ headers

#[derive(Packable, Debug, PartialEq, Clone)]
struct Reading {
    sensor: u32,
    at: i64,
    values: Vec<f32>,
}

fn reading() -> Reading {
    Reading {
        sensor: 7,
        at: -1_700_000_000,
        values: vec![0.5, 1.5],
    }
}

#[test]
fn a_header_names_the_layout_and_the_other_layout_is_a_schema_mismatch() {
    for header in [
        Options::new().fingerprint(true),
        Options::new().self_describing(true),
    ] {
        let compact = header.to_vec(&reading()).unwrap();
        let fixed = header.fixed_width().to_vec(&reading()).unwrap();
        assert_ne!(compact, fixed);
        assert_eq!(header.from_slice::<Reading>(&compact).unwrap(), reading());
        assert_eq!(
            header.fixed_width().from_slice::<Reading>(&fixed).unwrap(),
            reading()
        );

        let err = header.from_slice::<Reading>(&fixed).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::SchemaMismatch);
        let text = err.to_string();
        assert!(
            text.contains("fixed layout") && text.contains("compact layout"),
            "{text}"
        );
        assert!(text.contains("fixed_width()"), "says what to do: {text}");

        let err = header
            .fixed_width()
            .from_slice::<Reading>(&compact)
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::SchemaMismatch);
        let text = err.to_string();
        assert!(
            text.contains("compact layout") && text.contains("fixed layout"),
            "{text}"
        );
    }
}

#[test]
fn values_and_typed_readers_of_documents_follow_the_header() {
    let bytes = fixed().self_describing(true).to_vec(&reading()).unwrap();
    // A document is read in the layout its header states.
    let doc = binform::value::from_slice(&bytes).unwrap();
    assert_eq!(doc.field("sensor"), Some(&binform::Value::U32(7)));
    assert_eq!(doc.field("at"), Some(&binform::Value::I64(-1_700_000_000)));
    // ... and written back in either layout: the fixed one is the same bytes.
    assert_eq!(
        binform::value::to_vec_options(&doc, &fixed()).unwrap(),
        bytes
    );
    let compact = binform::value::to_vec(&doc).unwrap();
    assert_eq!(
        Options::new()
            .self_describing(true)
            .from_slice::<Reading>(&compact)
            .unwrap(),
        reading()
    );
    // A typed read through the schema, same type or another version.
    let back: Reading = binform::value::from_slice_as(&bytes).unwrap();
    assert_eq!(back, reading());
    #[derive(Packable, Debug, PartialEq)]
    #[binform(version_tolerant)]
    struct Later {
        #[binform(tag = 0)]
        sensor: u32,
        #[binform(tag = 2)]
        values: Vec<f32>,
        #[binform(tag = 3)]
        unit: Option<String>,
    }
    let later: Later = binform::value::from_slice_as(&bytes).unwrap();
    assert_eq!(
        later,
        Later {
            sensor: 7,
            values: vec![0.5, 1.5],
            unit: None
        }
    );
    // A plain payload is read in the layout of the options given.
    let plain = fixed().to_vec(&reading()).unwrap();
    let schema = binform::schema_of::<Reading>();
    let value = binform::value::from_slice_with_options(&schema, &plain, &fixed()).unwrap();
    assert_eq!(
        binform::value::to_vec_with_options(&schema, &value, &fixed()).unwrap(),
        plain
    );
}

// ------------------------------------------------------------- graphs

#[derive(Packable, Debug)]
struct TreeNode {
    name: String,
    weight: u64,
    parent: RefCell<Weak<TreeNode>>,
    children: RefCell<Vec<Rc<TreeNode>>>,
}

#[test]
fn graphs_sharing_weak_links_and_cycles() {
    let root = Rc::new(TreeNode {
        name: "root".into(),
        weight: 1 << 40,
        parent: RefCell::new(Weak::new()),
        children: RefCell::new(Vec::new()),
    });
    for i in 0..3u64 {
        let child = Rc::new(TreeNode {
            name: format!("child {i}"),
            weight: i,
            parent: RefCell::new(Rc::downgrade(&root)),
            children: RefCell::new(Vec::new()),
        });
        root.children.borrow_mut().push(child);
    }
    let bytes = fixed().to_vec(&root).unwrap();
    let back: Rc<TreeNode> = fixed().from_slice(&bytes).unwrap();
    assert_eq!(back.weight, 1 << 40);
    let children = back.children.borrow();
    assert_eq!(children.len(), 3);
    for (i, child) in children.iter().enumerate() {
        assert_eq!(child.weight, i as u64);
        let parent = child
            .parent
            .borrow()
            .upgrade()
            .expect("the parent is alive");
        assert!(
            Rc::ptr_eq(&parent, &back),
            "the Weak points at the decoded root"
        );
    }
    drop(children);
    back.children.borrow_mut().clear();

    // A strong cycle: rejected by default, accepted on request.
    #[derive(Packable)]
    struct Ring {
        id: u32,
        next: Option<Rc<RefCell<Ring>>>,
    }
    let a = Rc::new(RefCell::new(Ring { id: 1, next: None }));
    let b = Rc::new(RefCell::new(Ring {
        id: 2,
        next: Some(a.clone()),
    }));
    a.borrow_mut().next = Some(b.clone());
    let bytes = fixed().to_vec(&a).unwrap();
    a.borrow_mut().next = None;
    assert_eq!(
        fixed()
            .from_slice::<Rc<RefCell<Ring>>>(&bytes)
            .err()
            .map(|e| e.kind()),
        Some(ErrorKind::CycleRejected)
    );
    let back: Rc<RefCell<Ring>> = fixed().reject_cycles(false).from_slice(&bytes).unwrap();
    let next = back.borrow().next.clone().unwrap();
    assert_eq!((back.borrow().id, next.borrow().id), (1, 2));
    assert!(Rc::ptr_eq(next.borrow().next.as_ref().unwrap(), &back));
    back.borrow_mut().next = None;

    let shared = Arc::new(vec![1u64, 2, 3]);
    let (x, y): (Arc<Vec<u64>>, Arc<Vec<u64>>) = fixed()
        .from_slice(&fixed().to_vec(&(shared.clone(), shared)).unwrap())
        .unwrap();
    assert!(Arc::ptr_eq(&x, &y));
}

trait Shape: Any {
    fn area(&self) -> f64;
}

#[derive(Packable, Debug, PartialEq)]
struct Rect {
    w: u32,
    h: u32,
}

#[derive(Packable, Debug, PartialEq)]
struct Disc {
    r: f64,
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        f64::from(self.w * self.h)
    }
}
impl Shape for Disc {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}

binform::polymorphic!(dyn Shape { 1 => Rect, 2 => Disc });

#[test]
fn trait_objects() {
    let shapes: Vec<Box<dyn Shape>> =
        vec![Box::new(Rect { w: 2, h: 3 }), Box::new(Disc { r: 1.0 })];
    let bytes = fixed().to_vec(&shapes).unwrap();
    // The length, the tag 1, then the rectangle's two u32s.
    assert_eq!(&bytes[..10], [0x04, 0x02, 2, 0, 0, 0, 3, 0, 0, 0]);
    let back: Vec<Box<dyn Shape>> = fixed().from_slice(&bytes).unwrap();
    assert_eq!(
        back.iter().map(|s| s.area()).collect::<Vec<_>>(),
        [6.0, 3.0]
    );
}

// --------------------------------------------------------- versioning

mod v1 {
    #[derive(binform::Packable, Debug, PartialEq)]
    #[binform(version_tolerant)]
    pub struct Account {
        #[binform(tag = 0)]
        pub id: u64,
        #[binform(tag = 1)]
        pub small: u16,
        #[binform(tag = 2)]
        pub counts: Vec<u32>,
        #[binform(tag = 3)]
        pub wide: i128,
        #[binform(tag = 4)]
        pub name: String,
        #[binform(tag = 5)]
        pub letter: char,
    }
}

mod v2 {
    #[derive(binform::Packable, Debug, PartialEq)]
    #[binform(version_tolerant)]
    pub struct Account {
        #[binform(tag = 0)]
        pub id: u64,
        #[binform(tag = 4)]
        pub name: String,
        #[binform(tag = 6)]
        pub email: Option<String>,
    }
}

#[test]
fn version_tolerant_types_skip_and_default_fields_of_every_wire_type() {
    let old = v1::Account {
        id: 1 << 50,
        small: 300,
        counts: vec![1, 2, 1 << 30],
        wide: -5,
        name: "Kate".into(),
        letter: 'é',
    };
    round_trip_fixed(&old);
    let bytes = fixed().to_vec(&old).unwrap();
    // The id's key names `fixed8` (wire type 3): `(0 << 3 | 3) << 1`.
    assert_eq!(bytes[1], 0x06);
    let new: v2::Account = fixed().from_slice(&bytes).unwrap();
    assert_eq!(
        new,
        v2::Account {
            id: 1 << 50,
            name: "Kate".into(),
            email: None
        }
    );
    let back: v1::Account = fixed().from_slice(&fixed().to_vec(&new).unwrap()).unwrap();
    assert_eq!((back.id, back.small, back.counts.len()), (1 << 50, 0, 0));
}

// ------------------------------------------------------ serde, frames

#[test]
fn the_serde_bridge_writes_the_derives_bytes() {
    #[derive(serde::Serialize, serde::Deserialize, Packable, Debug, PartialEq)]
    struct Both {
        small: Vec<u32>,
        a: u64,
        b: u64,
        many: Vec<u16>,
        wide: Vec<i64>,
        c: Option<u16>,
    }
    let value = Both {
        // Values whose fixed bytes also look like short varints: a reader
        // of packed blocks would misread them.
        small: vec![2, 2, 2, 2],
        a: 70_000,
        b: 1,
        many: (0..300).collect(),
        wide: vec![-1, 1 << 40],
        c: Some(9),
    };
    let through_serde = binform::serde::to_vec_with(&fixed(), &value).unwrap();
    assert_eq!(through_serde, fixed().to_vec(&value).unwrap());
    let back: Both = binform::serde::from_slice_with(&fixed(), &through_serde).unwrap();
    assert_eq!(back, value);
    let zeros = vec![0u32; 8];
    let bytes = binform::serde::to_vec_with(&fixed(), &zeros).unwrap();
    assert_eq!(bytes.len(), 1 + 32);
    assert_eq!(
        binform::serde::from_slice_with::<Vec<u32>>(&fixed(), &bytes).unwrap(),
        zeros
    );
}

#[test]
fn integer_sequences_nest_alike_on_both_sides() {
    // At the depth limit: what encodes, decodes (integers count no level).
    let tight = fixed().max_depth(1);
    let nz: Vec<std::num::NonZeroU32> = (1..20).filter_map(std::num::NonZeroU32::new).collect();
    let bytes = tight.to_vec(&vec![nz.clone()]).unwrap();
    assert_eq!(
        tight
            .from_slice::<Vec<Vec<std::num::NonZeroU32>>>(&bytes)
            .unwrap(),
        vec![nz]
    );
    let deque: std::collections::VecDeque<u64> = (0..10).collect();
    let bytes = tight.to_vec(&vec![deque.clone()]).unwrap();
    assert_eq!(
        tight
            .from_slice::<Vec<std::collections::VecDeque<u64>>>(&bytes)
            .unwrap(),
        vec![deque]
    );
    // Plain data in a deque counts no level either, in both layouts.
    let floats: std::collections::VecDeque<f32> = [0.5, 1.5].into_iter().collect();
    let bytes = tight.to_vec(&vec![floats.clone()]).unwrap();
    let back: Vec<std::collections::VecDeque<f32>> = tight.from_slice(&bytes).unwrap();
    assert_eq!(back, vec![floats.clone()]);
    let compact = Options::new().max_depth(1);
    {
        let bytes = compact.to_vec(&vec![floats.clone()]).unwrap();
        let back: Vec<std::collections::VecDeque<f32>> = compact.from_slice(&bytes).unwrap();
        assert_eq!(back, vec![floats.clone()]);
    }
}

#[test]
fn every_entry_point_of_the_fixed_layout() {
    let value = reading();
    let bytes = binform::fixed::to_vec(&value).unwrap();
    assert_eq!(bytes, fixed().to_vec(&value).unwrap());
    assert_eq!(
        bytes,
        Options::default().fixed_width().to_vec(&value).unwrap()
    );
    let mut buf = vec![0xAA];
    binform::fixed::to_vec_into(&mut buf, &value).unwrap();
    assert_eq!(&buf[1..], &bytes[..]);
    let mut out = Vec::new();
    binform::fixed::to_writer(&mut out, &value).unwrap();
    assert_eq!(out, bytes);
    assert_eq!(
        binform::fixed::from_reader::<Reading>(&out[..]).unwrap(),
        value
    );
    assert_eq!(fixed().from_reader::<Reading>(&out[..]).unwrap(), value);
    let shared = bytes::Bytes::from(bytes.clone());
    assert_eq!(
        binform::fixed::from_bytes::<Reading>(shared.clone()).unwrap(),
        value
    );
    assert_eq!(fixed().from_bytes::<Reading>(shared).unwrap(), value);
    let mut put = bytes::BytesMut::new();
    binform::fixed::to_buf_mut(&mut put, &value).unwrap();
    assert_eq!(&put[..], &bytes[..]);
    // Limits apply as in the compact layout.
    let err = fixed()
        .max_bytes(4)
        .from_slice::<Reading>(&bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    let err = fixed()
        .max_len(1)
        .from_slice::<Reading>(&bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // A compact payload read in the fixed layout without a header fails
    // here (its integers take fewer bytes): the reader must know the layout.
    assert!(binform::fixed::from_slice::<Reading>(&binform::to_vec(&value).unwrap()).is_err());
}

#[test]
fn frames_and_the_codec() {
    let mut stream = Vec::new();
    for i in 0..3u32 {
        fixed()
            .write_frame(
                &mut stream,
                &Reading {
                    sensor: i,
                    ..reading()
                },
            )
            .unwrap();
    }
    let mut input = &stream[..];
    for i in 0..3u32 {
        let r: Reading = fixed().read_frame(&mut input).unwrap().unwrap();
        assert_eq!(r.sensor, i);
    }
    assert!(fixed().read_frame::<Reading>(&mut input).unwrap().is_none());

    use tokio_util::codec::{Decoder, Encoder};
    let mut codec = binform::codec::PackCodec::<Reading>::with_options(fixed());
    let mut buf = bytes::BytesMut::new();
    codec.encode(&reading(), &mut buf).unwrap();
    assert_eq!(&buf[1..], &fixed().to_vec(&reading()).unwrap()[..]);
    assert_eq!(codec.decode(&mut buf).unwrap(), Some(reading()));
}

// ------------------------------------------------------- plain structs

#[derive(Packable, Debug, PartialEq, Clone, Copy)]
struct Vector3 {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Packable, Debug, PartialEq, Clone, Copy)]
struct Triangle {
    v1: Vector3,
    v2: Vector3,
    v3: Vector3,
    normal: Vector3,
}

#[derive(Packable, Debug, PartialEq, Clone, Copy)]
struct Placed {
    id: u64,
    x: i32,
    y: i32,
}

/// Padding between `a` and `b`: never plain, still correct.
#[derive(Packable, Debug, PartialEq, Clone, Copy)]
struct Padded {
    a: u8,
    b: u32,
}

/// The bytes of a slice of `T` as they lie in memory.
fn memory_of<T: Copy>(items: &[T], to_bytes: impl Fn(&T) -> Vec<u8>) -> Vec<u8> {
    items.iter().flat_map(to_bytes).collect()
}

#[test]
fn plain_structs_are_one_copy_in_the_fixed_layout() {
    assert!(<Triangle as Encoding>::PLAIN.fixed() == cfg!(target_endian = "little"));
    assert!(<Placed as Encoding>::PLAIN.fixed() == cfg!(target_endian = "little"));
    assert!(
        !<Placed as Encoding>::PLAIN.get(),
        "integers are varints in the compact layout"
    );
    assert!(<Vector3 as Encoding>::PLAIN.get() == cfg!(target_endian = "little"));
    assert!(!<Padded as Encoding>::PLAIN.fixed());
    assert!(<u64 as Encoding>::PLAIN.fixed() && !<char as Encoding>::PLAIN.fixed());
    assert!(!<bool as Encoding>::PLAIN.fixed());

    let placed: Vec<Placed> = (0..100)
        .map(|i| Placed {
            id: i * 1_000_003,
            x: -(i as i32),
            y: i as i32 * 7,
        })
        .collect();
    let bytes = round_trip_fixed(&placed);
    let mut expected = binform::to_vec(&100usize).unwrap();
    expected.extend(memory_of(&placed, |p| {
        [
            &p.id.to_le_bytes()[..],
            &p.x.to_le_bytes(),
            &p.y.to_le_bytes(),
        ]
        .concat()
    }));
    assert_eq!(bytes, expected);

    let v = |x: f32| Vector3 { x, y: -x, z: 0.5 };
    let mesh: Vec<Triangle> = (0..50)
        .map(|i| Triangle {
            v1: v(i as f32),
            v2: v(1.0),
            v3: v(2.0),
            normal: v(-1.0),
        })
        .collect();
    let bytes = round_trip_fixed(&mesh);
    assert_eq!(bytes.len(), 1 + 50 * 48);
    // The same bytes in the compact layout, where floats are floats too,
    // and a struct of them is rows (§27).
    let compact = binform::to_vec(&mesh).unwrap();
    assert_eq!(compact, bytes);

    let padded = vec![Padded { a: 1, b: 2 }; 3];
    assert_eq!(
        round_trip_fixed(&padded),
        [0x06, 1, 2, 0, 0, 0, 1, 2, 0, 0, 0, 1, 2, 0, 0, 0]
    );
}

// ---------------------------------------------------- hand-written impls

/// Written against the writer's and reader's integer methods: follows
/// whichever layout it is given.
#[derive(Debug, PartialEq)]
struct Celsius(f64);

impl Encoding for Celsius {}

impl Pack for Celsius {
    fn pack<L: Layout>(&self, w: &mut Writer<'_, L>) -> binform::Result<()> {
        w.write_i32((self.0 * 10.0).round() as i32);
        Ok(())
    }
}

impl<'de> Unpack<'de> for Celsius {
    fn unpack<L: Layout>(r: &mut Reader<'de, L>) -> binform::Result<Self> {
        Ok(Celsius(f64::from(r.read_i32()?) / 10.0))
    }
}

#[test]
fn hand_written_impls_follow_the_layout() {
    assert_eq!(binform::to_vec(&Celsius(-0.5)).unwrap(), [0x12]);
    assert_eq!(
        binform::fixed::to_vec(&Celsius(-0.5)).unwrap(),
        [0xFB, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(
        binform::fixed::from_slice::<Celsius>(&[0xFB, 0xFF, 0xFF, 0xFF]).unwrap(),
        Celsius(-0.5)
    );
}

// ------------------------------------------------------------- hostile

#[test]
fn hostile_fixed_payloads_are_errors() {
    fn kind<T: binform::UnpackOwned>(bytes: &[u8]) -> Option<ErrorKind> {
        binform::fixed::from_slice::<T>(bytes)
            .err()
            .map(|e| e.kind())
    }
    // A length of 2^60 elements with nothing behind it: refused before
    // anything is allocated.
    let (prefix, n) = binform::varint::encode_u64(1 << 60);
    let huge = prefix[..n].to_vec();
    assert_eq!(kind::<Vec<u64>>(&huge), Some(ErrorKind::UnexpectedEnd));
    assert_eq!(kind::<Vec<Placed>>(&huge), Some(ErrorKind::UnexpectedEnd));
    assert_eq!(kind::<Vec<char>>(&huge), Some(ErrorKind::UnexpectedEnd));
    assert_eq!(kind::<Vec<String>>(&huge), Some(ErrorKind::UnexpectedEnd));
    // Short values.
    assert_eq!(kind::<u32>(&[1, 2, 3]), Some(ErrorKind::UnexpectedEnd));
    assert_eq!(
        kind::<Vec<u32>>(&[0x04, 1, 0, 0, 0, 2]),
        Some(ErrorKind::UnexpectedEnd)
    );
    // Values that are no value of the type.
    assert_eq!(
        kind::<char>(&[0x00, 0xD8, 0, 0]),
        Some(ErrorKind::InvalidChar)
    );
    assert_eq!(
        kind::<char>(&[0x00, 0x00, 0x11, 0]),
        Some(ErrorKind::InvalidChar)
    );
    assert_eq!(kind::<bool>(&[2]), Some(ErrorKind::InvalidBool));
    assert_eq!(
        kind::<std::num::NonZeroU32>(&[0, 0, 0, 0]),
        Some(ErrorKind::InvalidValue)
    );
    assert_eq!(
        kind::<u32>(&[1, 0, 0, 0, 0]),
        Some(ErrorKind::TrailingBytes)
    );
    // A compact payload read as fixed fails rather than misreads, where
    // its length does not fit.
    assert!(binform::fixed::from_slice::<u64>(&binform::to_vec(&5u64).unwrap()).is_err());
}

// -------------------------------------------------- the models, both ways

/// The seed and rust_serialization_benchmark models round-trip in the
/// fixed layout (value and bytes), and each is no larger there than the
/// 4- and 8-byte integers it holds allow over the compact layout.
#[test]
fn seed_and_benchmark_models_round_trip() {
    use binform_fixtures::rsb_seed::{logs, players, updates};
    use binform_fixtures::seed;
    round_trip_fixed(&seed::ten_people());
    round_trip_fixed(&seed::kate(3));
    round_trip_fixed(&seed::primitives());
    round_trip_fixed(&seed::large_struct());
    // Maps: equal values (their re-encoding may take another order).
    let large = seed::large_object();
    let back: seed::LargeObject =
        binform::fixed::from_slice(&binform::fixed::to_vec(&large).unwrap()).unwrap();
    assert_eq!(back, large);
    round_trip_fixed(&seed::small_message());
    round_trip_fixed(&seed::mesh(10));
    round_trip_fixed(&logs(20));
    round_trip_fixed(&players(3));
    round_trip_fixed(&updates(2));
    // Kate with one card: a 36-character card number, two dates as i64
    // seconds, her name: the fixed layout adds the dates' width.
    let compact = binform::to_vec(&seed::kate(1)).unwrap().len();
    let fixed = binform::fixed::to_vec(&seed::kate(1)).unwrap().len();
    assert!(
        fixed > compact && fixed <= compact + 2 * 8,
        "{compact} -> {fixed}"
    );
}
