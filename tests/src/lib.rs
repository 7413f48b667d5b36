//! Shared fixtures for binform's integration tests: the seed articles' data
//! types and values, and one type that uses every std impl.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{NonZeroI64, NonZeroU32, NonZeroU8, Wrapping};
use std::ops::{Range, RangeInclusive};
use std::sync::{Mutex, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use binform::Packable;

pub mod fuzz;
pub mod heap;
pub use binform_fixtures::seed::{kate, ten_people, CardHolder, CreditCard, Person};

/// An enum with every variant shape.
#[derive(Packable, Debug, Clone, PartialEq)]
pub enum Shape {
    Empty,
    Circle(f64),
    Rect { w: u32, h: u32 },
    Poly(Vec<(i16, i16)>),
}

/// One field of every std type binform supports, to test them together.
#[derive(Packable, Debug, Default)]
pub struct Everything {
    pub u8_: u8,
    pub u16_: u16,
    pub u32_: u32,
    pub u64_: u64,
    pub u128_: u128,
    pub usize_: usize,
    pub i8_: i8,
    pub i16_: i16,
    pub i32_: i32,
    pub i64_: i64,
    pub i128_: i128,
    pub isize_: isize,
    pub f32_: f32,
    pub f64_: f64,
    pub bool_: bool,
    pub char_: char,
    pub unit: (),
    pub string: String,
    pub boxed: Box<u64>,
    pub boxed_str: Box<str>,
    pub boxed_slice: Box<[u16]>,
    pub option: Option<String>,
    pub result: Option<Result<u32, String>>,
    pub tuple: (u8, i64, String, bool),
    pub array: [u32; 5],
    pub matrix: [[i16; 3]; 2],
    pub vec: Vec<i32>,
    pub jagged: Vec<Vec<u8>>,
    pub deque: VecDeque<u32>,
    pub list: LinkedList<String>,
    pub heap: BinaryHeap<u32>,
    pub hash_map: HashMap<String, u32>,
    pub hash_set: HashSet<i64>,
    pub btree_map: BTreeMap<u32, Vec<u8>>,
    pub btree_set: BTreeSet<String>,
    pub cow: Cow<'static, [u8]>,
    pub phantom: PhantomData<String>,
    pub duration: Duration,
    pub time: Option<SystemTime>,
    pub ip: Option<IpAddr>,
    pub ip4: Option<Ipv4Addr>,
    pub ip6: Option<Ipv6Addr>,
    pub sock: Option<SocketAddr>,
    pub sock4: Option<SocketAddrV4>,
    pub sock6: Option<SocketAddrV6>,
    pub nonzero: Option<NonZeroU32>,
    pub nonzero8: Option<NonZeroU8>,
    pub nonzero_i: Option<NonZeroI64>,
    pub wrapping: Wrapping<u16>,
    pub range: Range<u32>,
    pub range_inclusive: Option<RangeInclusive<i8>>,
    pub cell: Cell<u32>,
    pub ref_cell: RefCell<Vec<String>>,
    pub mutex: Mutex<String>,
    pub rw_lock: RwLock<u64>,
    pub bytes: bytes::Bytes,
    pub bytes_mut: bytes::BytesMut,
    pub shapes: Vec<Shape>,
}

/// An `Everything` with every field set to a non-default value.
pub fn everything() -> Everything {
    Everything {
        u8_: 200,
        u16_: 60_000,
        u32_: 4_000_000_000,
        u64_: u64::MAX - 7,
        u128_: u128::MAX / 3,
        usize_: 123_456,
        i8_: -100,
        i16_: -30_000,
        i32_: i32::MIN,
        i64_: -1 << 40,
        i128_: i128::MIN + 5,
        isize_: -99_999,
        f32_: -1.5e-7,
        f64_: std::f64::consts::PI,
        bool_: true,
        char_: '🦀',
        unit: (),
        string: "héllo wörld".into(),
        boxed: Box::new(77),
        boxed_str: "boxed".into(),
        boxed_slice: vec![1, 2, 65_535].into_boxed_slice(),
        option: Some("some".into()),
        result: Some(Err("bad".into())),
        tuple: (9, -9, "tuple".into(), false),
        array: [1, 10, 100, 1000, 10_000],
        matrix: [[1, -2, 3], [-4, 5, -6]],
        vec: vec![0, -1, 1, i32::MAX, i32::MIN],
        jagged: vec![vec![], vec![1], vec![2, 3, 4]],
        deque: (0..5).collect(),
        list: ["a", "bb", "ccc"].iter().map(|s| s.to_string()).collect(),
        heap: [5, 1, 9, 3].into_iter().collect(),
        hash_map: [("one".to_string(), 1), ("two".to_string(), 2)]
            .into_iter()
            .collect(),
        hash_set: [-3, 0, 3].into_iter().collect(),
        btree_map: [(1, vec![1]), (2, vec![2, 2])].into_iter().collect(),
        btree_set: ["x".to_string(), "y".to_string()].into_iter().collect(),
        cow: Cow::Owned(vec![7, 8, 9]),
        phantom: PhantomData,
        duration: Duration::new(86_400, 999_999_999),
        time: Some(UNIX_EPOCH + Duration::new(1_700_000_000, 123)),
        ip: Some(IpAddr::V6(Ipv6Addr::LOCALHOST)),
        ip4: Some(Ipv4Addr::new(192, 168, 1, 20)),
        ip6: Some(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
        sock: Some(SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 8080))),
        sock4: Some(SocketAddrV4::new(Ipv4Addr::BROADCAST, 1)),
        sock6: Some(SocketAddrV6::new(Ipv6Addr::UNSPECIFIED, 443, 7, 9)),
        nonzero: NonZeroU32::new(42),
        nonzero8: NonZeroU8::new(255),
        nonzero_i: NonZeroI64::new(-5),
        wrapping: Wrapping(65_535),
        range: 3..9,
        range_inclusive: Some(-8..=8),
        cell: Cell::new(31),
        ref_cell: RefCell::new(vec!["cell".into()]),
        mutex: Mutex::new("locked".into()),
        rw_lock: RwLock::new(1 << 50),
        bytes: bytes::Bytes::from_static(b"bytes"),
        bytes_mut: bytes::BytesMut::from(&b"mutable"[..]),
        shapes: vec![
            Shape::Empty,
            Shape::Circle(2.5),
            Shape::Rect { w: 3, h: 4 },
            Shape::Poly(vec![(0, 0), (-1, 1)]),
        ],
    }
}

/// Compares two `Everything`s field by field (some fields have no
/// `PartialEq`, such as `Mutex`).
pub fn assert_everything_eq(a: &Everything, b: &Everything) {
    macro_rules! same {
        ($($f:ident),*) => {$( assert_eq!(a.$f, b.$f, stringify!($f)); )*};
    }
    same!(
        u8_,
        u16_,
        u32_,
        u64_,
        u128_,
        usize_,
        i8_,
        i16_,
        i32_,
        i64_,
        i128_,
        isize_,
        bool_,
        char_,
        unit,
        string,
        boxed,
        boxed_str,
        boxed_slice,
        option,
        result,
        tuple,
        array,
        matrix,
        vec,
        jagged,
        deque,
        list,
        hash_map,
        hash_set,
        btree_map,
        btree_set,
        cow,
        phantom,
        duration,
        time,
        ip,
        ip4,
        ip6,
        sock,
        sock4,
        sock6,
        nonzero,
        nonzero8,
        nonzero_i,
        wrapping,
        range,
        range_inclusive,
        cell,
        ref_cell,
        bytes,
        bytes_mut,
        shapes
    );
    assert_eq!(a.f32_.to_bits(), b.f32_.to_bits());
    assert_eq!(a.f64_.to_bits(), b.f64_.to_bits());
    assert_eq!(
        a.heap.clone().into_sorted_vec(),
        b.heap.clone().into_sorted_vec()
    );
    assert_eq!(*a.mutex.lock().unwrap(), *b.mutex.lock().unwrap());
    assert_eq!(*a.rw_lock.read().unwrap(), *b.rw_lock.read().unwrap());
}
