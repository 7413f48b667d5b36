//! Damage tests: every truncation of every benchmark workload's payload is
//! an error, every single-byte change is an error or a value that
//! re-encodes without panicking, and strict decoding makes every value that
//! decodes re-encode to the very same bytes (maps aside).
//!
//! The workloads are the benchmark types at reduced sizes (a few hundred
//! bytes to a few KB each), so that the quadratic damage loops stay fast in
//! a debug build.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use binform::{Layout, Options, Pack, Packable, UnpackOwned};
use binform_fixtures::models::{graph, plain, tolerant};
use binform_fixtures::seed::{
    self, CardHolder, LargeObject, LargeStruct, Mesh, Person, Primitives, SmallMessage,
};

/// Every prefix fails; every byte changed to each of `variants` values
/// (derived from the original) decodes to an error or to a value that
/// re-encodes without a panic.
fn damage<T: UnpackOwned + Pack>(bytes: &[u8], every_value: bool) {
    damage_in::<T, _>(Options::new(), bytes, every_value);
}

/// [`damage`] in the layout of `o`.
fn damage_in<T: UnpackOwned + Pack, L: Layout>(o: Options<L>, bytes: &[u8], every_value: bool) {
    assert!(
        o.from_slice::<T>(bytes).is_ok(),
        "the undamaged payload decodes"
    );
    for cut in 0..bytes.len() {
        assert!(
            o.from_slice::<T>(&bytes[..cut]).is_err(),
            "prefix of {cut} bytes decoded"
        );
    }
    let mut copy = bytes.to_vec();
    for i in 0..bytes.len() {
        let original = bytes[i];
        let replacements: Vec<u8> = if every_value {
            (0..=255u8).filter(|&b| b != original).collect()
        } else {
            vec![
                original ^ 0x01,
                original ^ 0x80,
                original.wrapping_add(1) | 1,
                0x00,
                0xFF,
            ]
        };
        for b in replacements {
            if b == original {
                continue;
            }
            copy[i] = b;
            if let Ok(value) = o.from_slice::<T>(&copy) {
                let _ = o.to_vec(&value);
            }
        }
        copy[i] = original;
    }
}

/// A value that decodes re-encodes to exactly the bytes it came from.
fn canonical<T: UnpackOwned + Pack>(bytes: &[u8]) {
    canonical_in::<T, _>(Options::new(), bytes);
}

/// [`canonical`] in the layout of `o`.
fn canonical_in<T: UnpackOwned + Pack, L: Layout>(o: Options<L>, bytes: &[u8]) {
    let value: T = o.from_slice(bytes).unwrap();
    assert_eq!(o.to_vec(&value).unwrap(), bytes);
}

/// Damages and checks the fixed layout's payload of `value`.
fn fixed<T: UnpackOwned + Pack>(value: &T, every_value: bool) {
    let o = Options::new().fixed_width();
    let bytes = o.to_vec(value).unwrap();
    damage_in::<T, _>(o, &bytes, every_value);
    canonical_in::<T, _>(o, &bytes);
}

#[test]
fn fixed_layout_payloads_truncated_and_damaged() {
    use binform_fixtures::models::plain::{int_values, IntDist};
    use binform_fixtures::rsb_seed::{logs, players, updates};
    fixed(&seed::ten_people(), true);
    fixed(&seed::kate(3), true);
    fixed(&seed::primitives(), true);
    fixed(&seed::large_struct(), false);
    fixed(&seed::small_message(), true);
    fixed(&seed::mesh(20), false);
    fixed(&logs(6), false);
    fixed(&players(2), false);
    fixed(&updates(1), false);
    let ints: Vec<i32> = int_values(IntDist::Mixed, 32, true, 300)
        .into_iter()
        .map(|v| v as i32)
        .collect();
    fixed(&ints, false);
    fixed(&int_values(IntDist::Full, 128, true, 40), false);
    fixed(&tolerant::ten_people(), false);
    fixed(&tolerant::large_struct(), false);
    fixed(&graph::dag(4, 6), false);
}

fn payload<T: Pack + ?Sized>(value: &T) -> Vec<u8> {
    binform::to_vec(value).unwrap()
}

#[test]
fn benchmark_payloads_truncated_and_damaged() {
    let people = payload(&seed::ten_people());
    damage::<Vec<Person>>(&people, true);
    canonical::<Vec<Person>>(&people);

    let kate = payload(&seed::kate(3));
    damage::<CardHolder>(&kate, true);
    canonical::<CardHolder>(&kate);

    let prims = payload(&seed::primitives());
    damage::<Primitives>(&prims, true);
    canonical::<Primitives>(&prims);

    let large = payload(&seed::large_struct());
    damage::<LargeStruct>(&large, true);
    canonical::<LargeStruct>(&large);

    let small = payload(&seed::small_message());
    damage::<SmallMessage>(&small, true);
    canonical::<SmallMessage>(&small);

    let mesh = payload(&seed::mesh(20));
    damage::<Mesh>(&mesh, false);
    canonical::<Mesh>(&mesh);
}

#[test]
fn rust_serialization_benchmark_payloads_truncated_and_damaged() {
    use binform_fixtures::rsb_seed::{logs, players, updates, Logs, Players, Updates};
    let log = payload(&logs(6));
    damage::<Logs>(&log, false);
    canonical::<Logs>(&log);
    let save = payload(&players(2));
    damage::<Players>(&save, false);
    canonical::<Players>(&save);
    let game = payload(&updates(1));
    damage::<Updates>(&game, false);
    canonical::<Updates>(&game);
}

#[test]
fn integer_columns_truncated_and_damaged() {
    use binform_fixtures::models::plain::{int_values, sorted_ids, IntDist};
    for dist in [IntDist::Full, IntDist::Small, IntDist::Mixed] {
        let ints: Vec<i32> = int_values(dist, 32, true, 300)
            .into_iter()
            .map(|v| v as i32)
            .collect();
        let bytes = payload(&ints);
        damage::<Vec<i32>>(&bytes, false);
        canonical::<Vec<i32>>(&bytes);
        let wide: Vec<i128> = int_values(dist, 128, true, 40);
        let bytes = payload(&wide);
        damage::<Vec<i128>>(&bytes, false);
        canonical::<Vec<i128>>(&bytes);
    }
    let ids = payload(&sorted_ids(600));
    damage::<Vec<u64>>(&ids, false);
    canonical::<Vec<u64>>(&ids);
}

#[test]
fn plain_payloads_truncated_and_damaged() {
    let ints = payload(&plain::ints(300));
    damage::<Vec<i32>>(&ints, false);
    canonical::<Vec<i32>>(&ints);

    let floats = payload(&plain::floats(100));
    damage::<Vec<f64>>(&floats, false);
    canonical::<Vec<f64>>(&floats);

    let decimals = payload(&plain::decimals(200));
    damage::<Vec<i128>>(&decimals, false);
    canonical::<Vec<i128>>(&decimals);

    let text = payload(&plain::text(300));
    damage::<String>(&text, false);
    canonical::<String>(&text);

    let bytes = payload(&plain::bytes(300));
    damage::<Vec<u8>>(&bytes, false);
    canonical::<Vec<u8>>(&bytes);

    // Maps: damage, but no byte-exact re-encoding (iteration order).
    damage::<HashMap<i32, i32>>(&payload(&plain::int_map(60)), false);
    damage::<HashMap<String, i32>>(&payload(&plain::string_map(40)), false);
}

#[test]
fn large_object_truncated_and_damaged() {
    // The large object is ~20 KB: truncations everywhere, byte changes in
    // its first and last 2 KB (the map payloads and the arrays).
    let bytes = payload(&seed::large_object());
    for cut in (0..bytes.len()).step_by(7) {
        assert!(binform::from_slice::<LargeObject>(&bytes[..cut]).is_err());
    }
    let mut copy = bytes.clone();
    for i in (0..2048).chain(bytes.len() - 2048..bytes.len()) {
        let original = copy[i];
        for b in [original ^ 0x01, original ^ 0x80, 0x00, 0xFF] {
            copy[i] = b;
            if let Ok(v) = binform::from_slice::<LargeObject>(&copy) {
                let _ = binform::to_vec(&v);
            }
        }
        copy[i] = original;
    }
}

#[test]
fn tolerant_and_graph_payloads_truncated_and_damaged() {
    let people = payload(&tolerant::ten_people());
    damage::<Vec<tolerant::Person>>(&people, true);
    canonical::<Vec<tolerant::Person>>(&people);
    let wide = payload(&tolerant::large_struct());
    damage::<tolerant::LargeStruct>(&wide, true);
    canonical::<tolerant::LargeStruct>(&wide);

    let layered = payload(&graph::layered_tree(4, 6));
    damage::<Vec<Box<graph::LayeredNode>>>(&layered, true);
    canonical::<Vec<Box<graph::LayeredNode>>>(&layered);

    let dag = payload(&graph::dag(4, 6));
    damage::<Vec<Rc<graph::DagNode>>>(&dag, true);
    canonical::<Vec<Rc<graph::DagNode>>>(&dag);

    let tree = payload(&graph::tree(40));
    damage::<graph::TreeNode>(&tree, true);
    canonical::<graph::TreeNode>(&tree);
}

#[derive(Packable, Debug)]
struct Cyclic {
    id: u8,
    links: Vec<Rc<RefCell<Cyclic>>>,
}

#[test]
fn cyclic_graph_payload_truncated_and_damaged() {
    let a = Rc::new(RefCell::new(Cyclic {
        id: 1,
        links: vec![],
    }));
    let b = Rc::new(RefCell::new(Cyclic {
        id: 2,
        links: vec![a.clone()],
    }));
    a.borrow_mut().links = vec![b.clone(), a.clone()];
    let bytes = payload(&a);
    a.borrow_mut().links.clear();
    b.borrow_mut().links.clear();
    // Every damaged value that decodes may hold cycles: break them after.
    assert!(crate::cycles()
        .from_slice::<Rc<RefCell<Cyclic>>>(&bytes)
        .is_ok());
    for cut in 0..bytes.len() {
        assert!(crate::cycles()
            .from_slice::<Rc<RefCell<Cyclic>>>(&bytes[..cut])
            .is_err());
    }
    let mut copy = bytes.clone();
    for i in 0..bytes.len() {
        let original = copy[i];
        for v in 0..=255u8 {
            copy[i] = v;
            if let Ok(root) = crate::cycles().from_slice::<Rc<RefCell<Cyclic>>>(&copy) {
                let _ = binform::to_vec(&root);
                clear(&root, 0);
            }
        }
        copy[i] = original;
    }
}

/// Breaks every cycle reachable from `node` (depth-bounded like decoding).
fn clear(node: &Rc<RefCell<Cyclic>>, depth: u32) {
    let links = std::mem::take(&mut node.borrow_mut().links);
    if depth < 128 {
        for link in &links {
            if !Rc::ptr_eq(link, node) {
                clear(link, depth + 1);
            }
        }
    }
}

/// Values whose Debug print must not overflow the stack: nesting is bounded
/// by the depth limit, so printing and dropping what decodes is safe.
#[derive(Packable, Debug)]
enum Nested {
    Leaf,
    Node(Vec<Nested>),
}

#[test]
fn deepest_accepted_value_prints_drops_and_re_encodes() {
    // 64 levels of Node([ ... ]) with Leaf at the bottom: tag 1, length 1.
    let mut bytes: Vec<u8> = std::iter::repeat_n([0x02u8, 0x02u8], 64)
        .flatten()
        .collect();
    bytes.push(0x00);
    let value: Nested = binform::from_slice(&bytes).unwrap();
    assert!(!format!("{value:?}").is_empty());
    assert_eq!(binform::to_vec(&value).unwrap(), bytes);
    drop(value);
}

bitflags::bitflags! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Flags: u16 {
        const A = 1;
        const B = 1 << 9;
    }
}

/// Every type from another crate, in one value.
#[derive(Packable, Debug)]
struct Foreign {
    id: uuid::Uuid,
    half: (half::f16, half::bf16),
    index: indexmap::IndexMap<String, u32>,
    set: indexmap::IndexSet<i64>,
    brown: hashbrown::HashMap<u16, String>,
    small: smallvec::SmallVec<[u32; 4]>,
    array: arrayvec::ArrayVec<i16, 12>,
    text: arrayvec::ArrayString<8>,
    utc: chrono::DateTime<chrono::Utc>,
    fixed: chrono::DateTime<chrono::FixedOffset>,
    date: chrono::NaiveDate,
    clock: chrono::NaiveTime,
    delta: chrono::TimeDelta,
    offset: time::OffsetDateTime,
    day: time::Date,
    span: time::Duration,
    money: rust_decimal::Decimal,
    #[binform(with = "binform::bitflags")]
    flags: Flags,
}

#[test]
fn foreign_types_truncated_and_damaged() {
    use chrono::TimeZone;
    let value = Foreign {
        id: uuid::Uuid::from_u128(0xfeed_beef),
        half: (half::f16::from_f32(1.5), half::bf16::from_f32(-3.0)),
        index: [("a".to_string(), 1), ("b".to_string(), 300)]
            .into_iter()
            .collect(),
        set: [5i64, -7, 1 << 40].into_iter().collect(),
        brown: [(7u16, "x".to_string())].into_iter().collect(),
        small: (0..10).collect(),
        array: (0..12).map(|i| i * -100).collect(),
        text: arrayvec::ArrayString::from("12345678").unwrap(),
        utc: chrono::Utc.timestamp_opt(1_700_000_000, 5).unwrap(),
        fixed: chrono::FixedOffset::east_opt(3600)
            .unwrap()
            .timestamp_opt(-86_400, 0)
            .unwrap(),
        date: chrono::NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
        clock: chrono::NaiveTime::from_hms_nano_opt(23, 59, 59, 1_999_999_999).unwrap(),
        delta: chrono::TimeDelta::milliseconds(-1500),
        offset: time::OffsetDateTime::from_unix_timestamp(1_000_000_000).unwrap(),
        day: time::Date::from_calendar_date(1999, time::Month::December, 31).unwrap(),
        span: time::Duration::new(-5, -300),
        money: rust_decimal::Decimal::new(-12345, 2),
        flags: Flags::A | Flags::B,
    };
    let bytes = payload(&value);
    damage::<Foreign>(&bytes, true);
}
