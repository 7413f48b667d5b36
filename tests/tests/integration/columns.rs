//! Columns (docs/format.md §27): sequences, arrays, sets and maps of
//! strings, options and derived types are written a column at a time in
//! the compact layout. Every std family inside them round-trips, shared
//! values keep their identity (numbered in column order), tolerant types
//! evolve inside a `Vec`, `with` and serde fields and trait objects take
//! rows inside a column, `Value` reads and writes the same bytes, and a
//! hostile column is an error, never a panic or an allocation it did not
//! pay for.

use std::any::Any;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, LinkedList, VecDeque};
use std::num::NonZeroU16;
use std::rc::{Rc, Weak};

use binform::{value, ErrorKind, Options, Pack, Packable, UnpackOwned};

use crate::round_trip;

/// The typed bytes round-trip, and the self-describing document reads
/// into a `Value` and writes back to the same bytes.
fn both<T: Pack + UnpackOwned + PartialEq + std::fmt::Debug>(v: &T) -> Vec<u8> {
    let bytes = round_trip(v);
    let opts = Options::new().self_describing(true);
    let doc = opts.to_vec(v).unwrap();
    let read = value::from_slice(&doc).unwrap();
    assert_eq!(value::to_vec(&read).unwrap(), doc, "{read}");
    bytes
}

#[derive(Packable, Debug, Clone, PartialEq)]
enum Kind {
    Plain,
    Tagged(u16),
    Named { label: String, weight: Option<f32> },
}

#[derive(Packable, Debug, Clone, PartialEq)]
struct Inner {
    id: u64,
    kind: Kind,
    tags: Vec<String>,
}

/// One field of nearly every std family, so that each is a column.
#[derive(Packable, Debug, Clone, PartialEq)]
struct Every {
    flag: bool,
    small: u8,
    signed: i64,
    wide: u128,
    ratio: f64,
    letter: char,
    text: String,
    boxed: Box<str>,
    maybe: Option<u32>,
    maybe_text: Option<String>,
    nested: Option<Option<i16>>,
    list: Vec<u16>,
    deque: VecDeque<String>,
    array: [i32; 3],
    strings: [String; 2],
    pair: (u8, String),
    map: BTreeMap<String, Vec<u8>>,
    set: BTreeSet<i32>,
    nonzero: NonZeroU16,
    inner: Inner,
    inners: Vec<Inner>,
    result: Result<u8, String>,
    unit: (),
    // Bits, and sequences of each kind flattened (§27).
    bits: Vec<bool>,
    jagged: Vec<Vec<u16>>,
    blobs: Vec<Vec<u8>>,
    lists: LinkedList<Vec<String>>,
    boxed_flags: Box<[Option<bool>]>,
    cow: Cow<'static, [i32]>,
    deep: Vec<Vec<Vec<Inner>>>,
    deque_of_bits: VecDeque<[bool; 3]>,
}

fn every(i: u32) -> Every {
    let s = |t: &str| format!("{t}{i}");
    Every {
        flag: i.is_multiple_of(3),
        small: i as u8,
        signed: -(i as i64) * 1_000_003,
        wide: (i as u128) << 100,
        ratio: f64::from(i) / 7.0,
        letter: char::from_u32(0x41 + i % 26).unwrap(),
        text: s("text"),
        boxed: s("é").into_boxed_str(),
        maybe: i.is_multiple_of(2).then_some(i * 1000),
        maybe_text: (i % 3 == 1).then(|| s("m")),
        nested: match i % 3 {
            0 => None,
            1 => Some(None),
            _ => Some(Some(-(i as i16))),
        },
        list: (0..i as u16 % 5).collect(),
        deque: (0..i % 3).map(|k| s(&k.to_string())).collect(),
        array: [i as i32, -(i as i32), 7],
        strings: [s("a"), s("ü")],
        pair: (i as u8, s("p")),
        map: (0..i % 4)
            .map(|k| (s(&k.to_string()), vec![k as u8; k as usize]))
            .collect(),
        set: (0..i as i32 % 6).map(|k| k * 1000).collect(),
        nonzero: NonZeroU16::new(i as u16 + 1).unwrap(),
        inner: Inner {
            id: u64::from(i) << 33,
            kind: Kind::Tagged(i as u16),
            tags: vec![s("t")],
        },
        inners: (0..i % 4)
            .map(|k| Inner {
                id: u64::from(k),
                kind: match k % 3 {
                    0 => Kind::Plain,
                    1 => Kind::Tagged(k as u16),
                    _ => Kind::Named {
                        label: s("n"),
                        weight: k.is_multiple_of(2).then_some(0.5),
                    },
                },
                tags: vec![],
            })
            .collect(),
        result: if i.is_multiple_of(2) {
            Ok(1)
        } else {
            Err(s("e"))
        },
        unit: (),
        bits: (0..i % 11).map(|k| (k * i).is_multiple_of(3)).collect(),
        jagged: (0..i % 4).map(|k| (0..k as u16 * 3).collect()).collect(),
        blobs: (0..i % 3)
            .map(|k| vec![k as u8; (i % 5) as usize])
            .collect(),
        lists: (0..i % 3)
            .map(|k| vec![s(&k.to_string()); k as usize])
            .collect(),
        boxed_flags: (0..i % 5)
            .map(|k| (k % 3 != 0).then_some(k % 2 == 0))
            .collect(),
        cow: Cow::Owned((0..i as i32 % 4).map(|k| -k * 99).collect()),
        deep: (0..i % 3)
            .map(|k| {
                (0..k)
                    .map(|j| {
                        (0..j)
                            .map(|m| Inner {
                                id: u64::from(m),
                                kind: Kind::Tagged(m as u16),
                                tags: vec![s("d")],
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect(),
        deque_of_bits: (0..i % 4)
            .map(|k| [k == 0, k == 1, i.is_multiple_of(2)])
            .collect(),
    }
}

#[test]
fn every_std_family_round_trips_as_a_column() {
    let rows: Vec<Every> = (0..300).map(every).collect();
    both(&rows);
    // The same elements in the other sequence types, arrays and sets.
    both(&rows.iter().cloned().collect::<VecDeque<_>>());
    both(&rows.clone().into_boxed_slice());
    let array: [Every; 3] = [every(1), every(2), every(3)];
    both(&array);
    both(
        &rows
            .iter()
            .take(40)
            .cloned()
            .collect::<std::collections::LinkedList<_>>(),
    );
    // One element and none.
    both(&vec![every(7)]);
    both(&Vec::<Every>::new());
    // Maps keyed and valued by derived types and strings.
    let map: BTreeMap<String, Inner> = (0..50).map(|i| (format!("k{i}"), every(i).inner)).collect();
    both(&map);
    // (A hash map re-encodes in another order: compare values.)
    let hashed: HashMap<u32, Option<String>> = (0..50).map(|i| (i, every(i).maybe_text)).collect();
    let back: HashMap<u32, Option<String>> =
        binform::from_slice(&binform::to_vec(&hashed).unwrap()).unwrap();
    assert_eq!(back, hashed);
}

#[test]
fn columns_are_smaller_than_rows_where_values_repeat() {
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Reading {
        sensor: u32,
        at: u64,
        value: i32,
        label: Option<String>,
    }
    let readings: Vec<Reading> = (0..10_000)
        .map(|i| Reading {
            sensor: 1_000_000 + i % 8,
            at: 1_700_000_000_000 + u64::from(i) * 10,
            value: (i % 100) as i32 - 50,
            label: None,
        })
        .collect();
    let bytes = binform::to_vec(&readings).unwrap();
    // Rows: a 4-byte sensor id, a 6-byte time, a value, a presence byte:
    // over 12 bytes each. Columns: 3 bits of sensor, 7 of time offset,
    // 7 of value and 1 presence bit, about 2.3 bytes.
    assert!(bytes.len() < 10_000 * 3, "{} bytes", bytes.len());
    // The default budget holds what the typed decoder builds from it (its
    // transient columns included).
    assert_eq!(
        binform::from_slice::<Vec<Reading>>(&bytes).unwrap(),
        readings
    );
}

/// Shared values inside columns keep their identity; they are numbered
/// in the order written, which is column order.
#[test]
fn shared_values_inside_columns_keep_their_identity() {
    #[derive(Packable, Debug)]
    struct Node {
        name: String,
        shared: Rc<String>,
        parent: Option<Weak<String>>,
    }
    let a = Rc::new("a".to_string());
    let b = Rc::new("b".to_string());
    let nodes = vec![
        Node {
            name: "x".into(),
            shared: a.clone(),
            parent: Some(Rc::downgrade(&b)),
        },
        Node {
            name: "y".into(),
            shared: b.clone(),
            parent: Some(Rc::downgrade(&a)),
        },
        Node {
            name: "z".into(),
            shared: a.clone(),
            parent: None,
        },
    ];
    let value = (nodes, b.clone());
    let bytes = binform::to_vec(&value).unwrap();
    let (back, b2): (Vec<Node>, Rc<String>) = binform::from_slice(&bytes).unwrap();
    assert!(Rc::ptr_eq(&back[0].shared, &back[2].shared));
    assert!(Rc::ptr_eq(&back[1].shared, &b2));
    let parent0 = back[0].parent.as_ref().unwrap().upgrade().unwrap();
    assert!(Rc::ptr_eq(&parent0, &back[1].shared));
    let parent1 = back[1].parent.as_ref().unwrap().upgrade().unwrap();
    assert!(Rc::ptr_eq(&parent1, &back[0].shared));
    // Column order: the `shared` column (a, b, a) is numbered before the
    // `parent` column's references to b and a; `Value` numbers them alike.
    let doc = Options::new().self_describing(true).to_vec(&value).unwrap();
    let read = value::from_slice(&doc).unwrap();
    assert_eq!(value::to_vec(&read).unwrap(), doc);
}

/// A tolerant type inside a `Vec` stays rows, each value its own record:
/// a newer reader of an older `Vec` (and the reverse) works as for one.
#[test]
fn a_tolerant_type_evolves_inside_a_vec() {
    mod old {
        #[derive(binform::Packable, Debug, Clone, PartialEq)]
        #[binform(version_tolerant)]
        pub struct Item {
            #[binform(tag = 0)]
            pub name: String,
            #[binform(tag = 1)]
            pub count: u32,
        }
    }
    mod new {
        #[derive(binform::Packable, Debug, Clone, PartialEq)]
        #[binform(version_tolerant)]
        pub struct Item {
            #[binform(tag = 0)]
            pub name: String,
            #[binform(tag = 2)]
            pub note: Option<String>,
            #[binform(tag = 1)]
            pub count: u32,
        }
    }
    #[derive(binform::Packable, Debug, PartialEq)]
    struct OldBasket {
        items: Vec<old::Item>,
        owner: String,
    }
    #[derive(binform::Packable, Debug, PartialEq)]
    struct NewBasket {
        items: Vec<new::Item>,
        owner: String,
    }
    let old_basket = OldBasket {
        items: (0..20)
            .map(|i| old::Item {
                name: format!("item {i}"),
                count: i,
            })
            .collect(),
        owner: "ada".into(),
    };
    let read: NewBasket = binform::from_slice(&binform::to_vec(&old_basket).unwrap()).unwrap();
    assert_eq!(read.items.len(), 20);
    assert_eq!(read.items[7].name, "item 7");
    assert_eq!(read.items[7].count, 7);
    assert_eq!(read.items[7].note, None);
    assert_eq!(read.owner, "ada");
    let mut newer = read;
    newer.items[3].note = Some("fragile".into());
    let back: OldBasket = binform::from_slice(&binform::to_vec(&newer).unwrap()).unwrap();
    assert_eq!(back, old_basket);
}

mod as_text {
    use binform::{Pack, Reader, Result, Unpack, Writer};
    pub fn pack<L: binform::Layout>(v: &u64, w: &mut Writer<'_, L>) -> Result<()> {
        v.to_string().pack(w)
    }
    pub fn unpack<L: binform::Layout>(r: &mut Reader<'_, L>) -> Result<u64> {
        let at = r.position();
        String::unpack(r)?
            .parse()
            .map_err(|_| r.error_at(at, binform::ErrorKind::InvalidValue, "not a number"))
    }
}

pub trait Animal: Any {
    fn legs(&self) -> u8;
}

#[derive(Packable, Debug, PartialEq)]
pub struct Cat {
    lives: u8,
}
impl Animal for Cat {
    fn legs(&self) -> u8 {
        4
    }
}

#[derive(Packable, Debug, PartialEq)]
pub struct Bird;
impl Animal for Bird {
    fn legs(&self) -> u8 {
        2
    }
}

binform::polymorphic!(dyn Animal { 1 => Cat, 2 => Bird });

/// `with` fields, serde fields and trait objects have no columns of
/// their own: their column is their values one after another.
#[test]
fn with_serde_and_trait_object_fields_are_rows_in_a_column() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
    struct Celsius(f32);

    #[derive(Packable)]
    struct Pet {
        name: String,
        #[binform(with = "as_text")]
        chip: u64,
        #[binform(serde)]
        temperature: Celsius,
        animal: Box<dyn Animal>,
    }
    let pets: Vec<Pet> = (0..10)
        .map(|i| Pet {
            name: format!("pet {i}"),
            chip: 1000 + i,
            temperature: Celsius(38.0 + i as f32 / 10.0),
            animal: if i.is_multiple_of(2) {
                Box::new(Cat { lives: i as u8 })
            } else {
                Box::new(Bird)
            },
        })
        .collect();
    let bytes = binform::to_vec(&pets).unwrap();
    let back: Vec<Pet> = binform::from_slice(&bytes).unwrap();
    for (a, b) in pets.iter().zip(&back) {
        assert_eq!(
            (&a.name, a.chip, &a.temperature),
            (&b.name, b.chip, &b.temperature)
        );
        assert_eq!(a.animal.legs(), b.animal.legs());
    }
    let any: &dyn Any = &*back[4].animal;
    assert_eq!(any.downcast_ref::<Cat>(), Some(&Cat { lives: 4 }));
    // The chips' column is their text, one value after another.
    assert!(bytes.windows(10).any(|w| w == b"\x081000\x081001"));
}

/// A recursive type's columns: a tree of columns through boxes, options
/// and vectors, with the depth limit counted as for rows.
#[test]
fn recursive_types_nest_their_columns() {
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Tree {
        label: String,
        left: Option<Box<Tree>>,
        kids: Vec<Tree>,
    }
    fn grow(depth: u32) -> Tree {
        Tree {
            label: format!("d{depth}"),
            left: (depth > 0).then(|| Box::new(grow(depth - 1))),
            kids: if depth > 0 && depth.is_multiple_of(2) {
                vec![grow(depth - 2), grow(depth / 2)]
            } else {
                vec![]
            },
        }
    }
    both(&vec![grow(10), grow(3), grow(0)]);
    // A chain deeper than the limit is refused when written, not read.
    let deep = (0..200).fold(grow(0), |t, i| Tree {
        label: format!("c{i}"),
        left: Some(Box::new(t)),
        kids: vec![],
    });
    let err = binform::to_vec(&vec![deep]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

/// A column's elements are made by a fn item that names the type, or by
/// a closure where a fn item nested in the impl could not name or build
/// it (a field type or a `default` path saying `Self`, generic
/// parameters, a `remote` path with generic arguments): each form
/// round-trips, skipped fields at their defaults, for types local to a
/// function.
#[test]
fn column_elements_are_made_whatever_names_the_type() {
    fn seven() -> u16 {
        7
    }
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Named {
        a: u32,
        #[binform(skip)]
        b: String,
        #[binform(skip, default = "seven")]
        c: u16,
        d: Vec<String>,
    }
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct DefaultSaysSelf {
        a: u8,
        #[binform(skip, default = "Self::nine")]
        b: u16,
    }
    impl DefaultSaysSelf {
        fn nine() -> u16 {
            9
        }
    }
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct SaysSelf {
        a: u8,
        next: Option<Box<Self>>,
    }
    #[derive(Packable, Debug, Clone, PartialEq)]
    enum Plain {
        Dot,
        Line(u32, u32),
        Named {
            name: String,
            #[binform(skip, default = "seven")]
            weight: u16,
            tags: Vec<u8>,
        },
        One(i64),
    }
    #[derive(Packable, Debug, Clone, PartialEq)]
    enum Shape {
        Dot,
        Group { name: String, parts: Vec<Shape> },
        Nested(Box<Self>, bool),
    }
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Pair<T> {
        left: T,
        right: Option<T>,
    }
    let named: Vec<Named> = (0..5)
        .map(|i| Named {
            a: i,
            b: String::new(),
            c: 7,
            d: vec![format!("{i}"); i as usize],
        })
        .collect();
    both(&named);
    let skipped = Named {
        b: "not written".into(),
        c: 1,
        ..named[1].clone()
    };
    let back: Vec<Named> = binform::from_slice(&binform::to_vec(&vec![skipped]).unwrap()).unwrap();
    assert_eq!(back, [named[1].clone()]);
    let written = vec![
        DefaultSaysSelf { a: 1, b: 2 },
        DefaultSaysSelf { a: 3, b: 4 },
    ];
    let back: Vec<DefaultSaysSelf> =
        binform::from_slice(&binform::to_vec(&written).unwrap()).unwrap();
    assert_eq!(
        back,
        [
            DefaultSaysSelf { a: 1, b: 9 },
            DefaultSaysSelf { a: 3, b: 9 }
        ]
    );
    let chain = SaysSelf {
        a: 1,
        next: Some(Box::new(SaysSelf { a: 2, next: None })),
    };
    both(&vec![chain.clone(), SaysSelf { a: 3, next: None }, chain]);
    both(&vec![
        Plain::Dot,
        Plain::Line(1, 2),
        Plain::Named {
            name: "n".into(),
            weight: 7,
            tags: vec![1, 2],
        },
        Plain::One(-5),
        Plain::Line(3, 4),
    ]);
    let shapes = vec![
        Shape::Dot,
        Shape::Group {
            name: "g".into(),
            parts: vec![Shape::Dot],
        },
        Shape::Nested(Box::new(Shape::Dot), true),
    ];
    both(&shapes);
    both(&vec![
        Pair {
            left: "l".to_string(),
            right: None,
        },
        Pair {
            left: "m".to_string(),
            right: Some("r".to_string()),
        },
    ]);
    both(&vec![
        elsewhere::Thing {
            a: 1,
            b: "x".into(),
        },
        elsewhere::Thing {
            a: 2,
            b: "y".into(),
        },
    ]);
}

mod elsewhere {
    #[derive(Debug, Clone, PartialEq)]
    pub struct Thing<T> {
        pub a: T,
        pub b: String,
    }
}

/// A `remote` path with generic arguments: its element is made by a
/// closure (`elsewhere::Thing<u8> { .. }` is no expression).
#[derive(Packable)]
#[binform(remote = "elsewhere::Thing<u8>")]
#[allow(dead_code)]
struct ThingDef {
    a: u8,
    b: String,
}

/// Hostile columns: each is an error of the right kind, and a count a
/// column declares is checked before anything is built for it.
#[test]
fn hostile_columns_are_errors() {
    fn kind<T: UnpackOwned>(bytes: &[u8]) -> ErrorKind {
        match binform::from_slice::<T>(bytes) {
            Ok(_) => panic!("{bytes:02x?} decoded"),
            Err(e) => e.kind(),
        }
    }
    // A presence bit past the last option.
    assert_eq!(
        kind::<Vec<Option<u8>>>(&[0x04, 0b101, 1]),
        ErrorKind::InvalidValue
    );
    // More present values than the input holds.
    assert_eq!(
        kind::<Vec<Option<String>>>(&[0x10, 0xFF]),
        ErrorKind::UnexpectedEnd
    );
    // String lengths that add up past the input, or past u64.
    assert_eq!(
        kind::<Vec<String>>(&[0x04, 0x02, 0xFE, b'a']),
        ErrorKind::UnexpectedEnd
    );
    let mut huge = vec![0x04];
    huge.extend([0xFF; 9]);
    huge.extend([0xFF; 9]);
    assert!(matches!(
        kind::<Vec<String>>(&huge),
        ErrorKind::UnexpectedEnd | ErrorKind::IntegerOverflow
    ));
    // A string split inside a character: "é" is C3 A9; lengths 1 and 1.
    assert_eq!(
        kind::<Vec<String>>(&[0x04, 0x02, 0x02, 0xC3, 0xA9]),
        ErrorKind::InvalidUtf8
    );
    // The same through a string field's column, which is read lazily
    // (each string made when its value is): its lengths, UTF-8 and every
    // string's end are checked before any string is made. A tuple's second
    // element: the `u8`s 1 and 2, then lengths 2 and 1 of "aé" (the
    // first ends inside "é"), or 1 and 127 (past the input).
    let err =
        binform::from_slice::<Vec<(u8, String)>>(&[4, 1, 2, 4, 2, b'a', 0xC3, 0xA9]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
    assert_eq!(err.path(), ".1");
    assert_eq!(
        kind::<Vec<(u8, String)>>(&[4, 1, 2, 2, 0xFE, b'a']),
        ErrorKind::UnexpectedEnd
    );
    assert_eq!(
        kind::<Vec<Option<String>>>(&[4, 0b11, 4, 2, b'a', 0xC3, 0xA9]),
        ErrorKind::InvalidUtf8
    );
    // A variant index past the enum's last.
    let err = binform::from_slice::<Vec<Kind>>(&[0x04, 0x00, 0x06]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownVariant);
    assert_eq!(err.path(), "[1]");
    // A million elements declared by four bytes of input: refused before
    // allocating (each needs at least a packed block's share).
    let mut lying = binform::to_vec(&1_000_000usize).unwrap();
    lying.extend([0u8; 4]);
    assert_eq!(kind::<Vec<Inner>>(&lying), ErrorKind::UnexpectedEnd);
    // Unit variants take no bytes but their indexes; a lying count of
    // them is charged to the budget of elements that take none, or to
    // the memory budget, before it is built.
    let mut units = binform::to_vec(&(1usize << 40)).unwrap();
    units.extend([0u8; 64]);
    assert!(matches!(
        kind::<Vec<Kind>>(&units),
        ErrorKind::UnexpectedEnd | ErrorKind::LimitExceeded
    ));
}

/// Found by review: a contiguous `VecDeque` of more than 1,024 elements
/// wrote its columns in chunks, read as one column.
#[test]
fn a_long_deque_is_one_column() {
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct P {
        x: u8,
        y: u8,
        name: String,
    }
    let deque: VecDeque<P> = (0..2048)
        .map(|i| P {
            x: i as u8,
            y: (i / 3) as u8,
            name: format!("p{i}"),
        })
        .collect();
    let bytes = both(&deque);
    // The same bytes as the vector of the same elements.
    let vec: Vec<P> = deque.iter().cloned().collect();
    assert_eq!(bytes, binform::to_vec(&vec).unwrap());
}

/// Found by review: an option of a sequence counted no level when
/// written and one when read, so a deep chain wrote past the limit (and
/// overflowed the stack deeper still) and then failed to read.
#[test]
fn options_of_sequences_count_their_levels_both_ways() {
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Dir {
        name: String,
        children: Option<Vec<Dir>>,
    }
    let chain = |depth: usize| {
        (0..depth).fold(
            Dir {
                name: "leaf".into(),
                children: None,
            },
            |d, i| Dir {
                name: format!("d{i}"),
                children: Some(vec![d]),
            },
        )
    };
    for depth in [10, 100, 126, 127, 128, 129, 130, 200] {
        if let Ok(bytes) = binform::to_vec(&chain(depth)) {
            let back: Dir = binform::from_slice(&bytes).unwrap();
            assert_eq!(back, chain(depth), "depth {depth}");
        }
    }
    let err = binform::to_vec(&chain(1_000)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

/// Found by review: `Value`'s columns counted no level, so a schema's
/// recursion through boxes or arrays ran until the stack overflowed.
#[test]
fn value_columns_are_bounded_by_the_depth_limit() {
    #[derive(Packable, Debug)]
    enum E {
        Leaf,
        Node(Box<E>),
    }
    let schema = binform::schema_of::<Vec<E>>();
    let mut bytes = vec![0x02];
    bytes.extend(std::iter::repeat_n(0x02u8, 100_000));
    bytes.push(0x00);
    let err = value::from_slice_with(&schema, &bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // A schema that holds itself in an array of one: zero bytes a level.
    let text = "root seq<S>\nstruct S compact\n  field 0 a array<S, 1>\n";
    let schema = binform::schema::parse(text).unwrap();
    let err = value::from_slice_with(&schema, &[0x02]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

/// Found by review: `from_slice_as` built values numbered in tree order,
/// which the writer refused for shared values written in column order.
#[test]
fn shared_values_in_columns_survive_another_version() {
    mod v1 {
        #[derive(binform::Packable, Debug)]
        pub struct S {
            pub a: std::rc::Rc<String>,
            pub b: std::rc::Rc<String>,
        }
    }
    mod v2 {
        #[derive(binform::Packable, Debug)]
        pub struct S {
            pub a: std::rc::Rc<String>,
            pub b: std::rc::Rc<String>,
            pub note: Option<String>,
        }
    }
    let x = Rc::new("x".to_string());
    let y = Rc::new("y".to_string());
    let old = vec![
        v1::S {
            a: x.clone(),
            b: y.clone(),
        },
        v1::S {
            a: y.clone(),
            b: x.clone(),
        },
    ];
    let bytes = Options::new().self_describing(true).to_vec(&old).unwrap();
    let new: Vec<v2::S> = value::from_slice_as(&bytes).unwrap();
    assert!(Rc::ptr_eq(&new[0].a, &new[1].b));
    assert!(Rc::ptr_eq(&new[0].b, &new[1].a));
    assert_eq!((new[0].a.as_str(), new[0].b.as_str()), ("x", "y"));
}

/// Found by review: a zero-size field's column was charged to the budget
/// of elements that take no input again for each column it was in, so
/// honest payloads failed a small `max_len`.
#[test]
fn zero_size_fields_are_not_charged_per_column() {
    #[derive(Packable, Debug, PartialEq)]
    struct S {
        name: String,
        marker: std::marker::PhantomData<u8>,
    }
    let make = |n: usize| -> Vec<S> {
        (0..n)
            .map(|i| S {
                name: format!("{i}"),
                marker: std::marker::PhantomData,
            })
            .collect()
    };
    let value = (make(600), make(600));
    let opts = Options::new().max_len(1000);
    let bytes = opts.to_vec(&value).unwrap();
    let back: (Vec<S>, Vec<S>) = opts.from_slice(&bytes).unwrap();
    assert_eq!(back, value);
    // A vector of nothing but zero-size fields still charges its length.
    #[derive(Packable, Debug, PartialEq)]
    struct Empty {
        marker: std::marker::PhantomData<u8>,
    }
    let lying = binform::to_vec(&2000usize).unwrap();
    assert_eq!(
        opts.from_slice::<Vec<Empty>>(&lying).unwrap_err().kind(),
        ErrorKind::LimitExceeded
    );
}

/// Sequences inside a column flatten (§27): each kind of sequence writes
/// its counts then one column of all the elements, the same bytes as a
/// `Vec` of the same elements, and reads back into its own kind.
#[test]
fn sequences_in_a_column_flatten_in_every_kind() {
    let jagged: Vec<Vec<u32>> = (0..50).map(|i| (0..i % 7).collect()).collect();
    let bytes = both(&jagged);
    // The counts, then every element in one packed column: no inner
    // sequence writes a count of its own.
    let mut expected = binform::to_vec(&jagged.len()).unwrap();
    let counts: Vec<u64> = jagged.iter().map(|v| v.len() as u64).collect();
    expected.extend(&binform::to_vec(&counts).unwrap()[1..]);
    let all: Vec<u32> = jagged.iter().flatten().copied().collect();
    let packed = binform::to_vec(&all).unwrap();
    let length = binform::to_vec(&all.len()).unwrap().len();
    expected.extend(&packed[length..]);
    assert_eq!(bytes, expected);

    let same = |other: Vec<u8>| assert_eq!(other, bytes);
    same(both(
        &jagged
            .iter()
            .map(|v| v.iter().copied().collect::<VecDeque<_>>())
            .collect::<Vec<_>>(),
    ));
    same(both(
        &jagged
            .iter()
            .map(|v| v.iter().copied().collect::<LinkedList<_>>())
            .collect::<Vec<_>>(),
    ));
    same(both(
        &jagged
            .iter()
            .map(|v| v.clone().into_boxed_slice())
            .collect::<Vec<_>>(),
    ));
    same(both(
        &jagged
            .iter()
            .map(|v| Cow::Owned(v.clone()))
            .collect::<Vec<Cow<'static, [u32]>>>(),
    ));
    same(both(
        &jagged
            .iter()
            .map(|v| smallvec::SmallVec::<[u32; 2]>::from_vec(v.clone()))
            .collect::<Vec<_>>(),
    ));
    same(both(
        &jagged
            .iter()
            .map(|v| v.iter().copied().collect::<arrayvec::ArrayVec<u32, 8>>())
            .collect::<Vec<_>>(),
    ));
    // A heap in its own order, checked when read.
    let heaps: Vec<BinaryHeap<u32>> = jagged.iter().map(|v| v.iter().copied().collect()).collect();
    let as_vecs: Vec<Vec<u32>> = heaps.iter().map(|h| h.as_slice().to_vec()).collect();
    let heap_bytes = binform::to_vec(&heaps).unwrap();
    assert_eq!(heap_bytes, binform::to_vec(&as_vecs).unwrap());
    let back: Vec<BinaryHeap<u32>> = binform::from_slice(&heap_bytes).unwrap();
    assert_eq!(
        back.iter()
            .map(|h| h.as_slice().to_vec())
            .collect::<Vec<_>>(),
        as_vecs
    );
    let unordered = binform::to_vec(&vec![vec![1u32, 2]]).unwrap();
    let err = binform::from_slice::<Vec<BinaryHeap<u32>>>(&unordered).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    // An `ArrayVec` longer than its capacity, inside a column.
    let long = binform::to_vec(&vec![vec![0u32; 9]]).unwrap();
    let err = binform::from_slice::<Vec<arrayvec::ArrayVec<u32, 8>>>(&long).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);

    // Byte strings: the counts, then all the bytes, whatever holds them.
    let blobs: Vec<Vec<u8>> = (0..20).map(|i| vec![i as u8; i % 4]).collect();
    let bytes = both(&blobs);
    let borrowed: Vec<&[u8]> = binform::from_slice(&bytes).unwrap();
    assert_eq!(
        borrowed,
        blobs.iter().map(Vec::as_slice).collect::<Vec<_>>()
    );
    assert!(bytes.as_ptr_range().contains(&borrowed[3].as_ptr()));
    let shared: Vec<bytes::Bytes> = binform::from_slice(&bytes).unwrap();
    assert_eq!(binform::to_vec(&shared).unwrap(), bytes);
    let owned: Vec<bytes::BytesMut> = binform::from_slice(&bytes).unwrap();
    assert_eq!(binform::to_vec(&owned).unwrap(), bytes);
    // Three levels: counts, counts, then the strings' column.
    let deep: Vec<Vec<Vec<String>>> = (0..5)
        .map(|i| {
            (0..i)
                .map(|j| (0..j).map(|k| format!("{i}{j}{k}")).collect())
                .collect()
        })
        .collect();
    both(&deep);
}

/// Bools are bits in a column (§27): eight to a byte, a set bit past the
/// last one an error; in the fixed layout a byte each.
#[test]
fn bools_are_bits() {
    // Every count of a last, partial byte (the whole bytes are spread
    // eight at a time, the last one's used bits apart).
    for n in 0..=25 {
        let flags: Vec<bool> = (0..n).map(|i| i % 3 != 1).collect();
        both(&flags);
    }
    let flags: Vec<bool> = (0..1000).map(|i| i % 7 < 3).collect();
    let bytes = both(&flags);
    assert_eq!(
        bytes.len(),
        binform::to_vec(&1000usize).unwrap().len() + 125
    );
    let fixed = Options::new().fixed_width();
    let wide = fixed.to_vec(&flags).unwrap();
    assert_eq!(fixed.from_slice::<Vec<bool>>(&wide).unwrap(), flags);
    assert!(wide.len() > 1000);
    // Options of bools: presence bits, then the present ones' bits.
    both(
        &(0..100)
            .map(|i| (i % 3 != 0).then_some(i % 2 == 0))
            .collect::<Vec<_>>(),
    );
    // A struct's bool fields, each a column of bits.
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Flags {
        a: bool,
        b: bool,
        n: u8,
    }
    let rows: Vec<Flags> = (0..17)
        .map(|i| Flags {
            a: i % 2 == 0,
            b: i % 5 == 0,
            n: i,
        })
        .collect();
    let bytes = both(&rows);
    // The length, 3 + 3 bytes of bits, then 17 bytes.
    assert_eq!(bytes.len(), 1 + 3 + 3 + 17);
    // A bit past the last value of a column.
    let err = binform::from_slice::<Vec<bool>>(&[0x06, 0b1000]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    // A million bools declared by two bytes: refused before allocating.
    let mut lying = binform::to_vec(&1_000_000usize).unwrap();
    lying.extend([0xFF; 2]);
    let err = binform::from_slice::<Vec<bool>>(&lying).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
}

/// Hostile columns of sequences: counts that add up past the input or past
/// `u64` are errors before the elements are built, and the count is
/// checked against the elements' least size.
#[test]
fn hostile_columns_of_sequences_are_errors() {
    // Two sequences whose counts add up to 2^64: an overflow, not a
    // wrapped small total.
    let mut bytes = binform::to_vec(&2usize).unwrap();
    let counts = binform::to_vec(&vec![u64::MAX, 1]).unwrap();
    bytes.extend(&counts[1..]);
    bytes.extend([0u8; 16]);
    let err = binform::from_slice::<Vec<Vec<u32>>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    let err = binform::from_slice::<Vec<&[u8]>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    // A million elements of 8-byte floats declared in a few bytes.
    let mut bytes = binform::to_vec(&1usize).unwrap();
    let counts = binform::to_vec(&vec![1_000_000u64]).unwrap();
    bytes.extend(&counts[1..]);
    bytes.extend([0u8; 64]);
    let err = binform::from_slice::<Vec<Vec<f64>>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    let err = binform::from_slice::<Vec<Vec<u8>>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    let err = value::from_slice_with(&binform::schema_of::<Vec<Vec<f64>>>(), &bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
}

/// A type that holds itself through `Vec` recurses through its flattened
/// columns: each level of the tree is one nesting level, counted alike
/// when written and read, and a chain past the limit is refused when
/// written.
#[test]
fn trees_through_vec_count_a_level_a_generation() {
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Dir {
        name: String,
        children: Vec<Dir>,
    }
    let chain = |depth: usize| {
        (0..depth).fold(
            Dir {
                name: "leaf".into(),
                children: vec![],
            },
            |d, i| Dir {
                name: format!("d{i}"),
                children: vec![
                    d.clone(),
                    Dir {
                        name: "x".into(),
                        children: vec![],
                    },
                ],
            },
        )
    };
    let mut written = 0;
    for depth in [10, 100, 126, 127, 128, 129, 130, 200] {
        for limit in [64, 128] {
            let opts = Options::new().max_depth(limit);
            if let Ok(bytes) = opts.to_vec(&chain(depth)) {
                written += 1;
                let back: Dir = opts.from_slice(&bytes).unwrap();
                assert_eq!(back, chain(depth), "depth {depth}");
            }
        }
    }
    assert!(written > 2);
    let err = binform::to_vec(&chain(1_000)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    both(&vec![chain(20), chain(3)]);
}

/// Found by review: a plain derived type (its memory is its encoding)
/// inside a column of sequences was copied as memory, then read as its
/// fields' columns.
#[test]
fn plain_derived_elements_of_nested_sequences_are_columns() {
    #[derive(Packable, Debug, Clone, Copy, PartialEq)]
    #[repr(C)]
    struct P {
        x: u8,
        y: u8,
    }
    let nested = vec![
        vec![P { x: 1, y: 2 }, P { x: 3, y: 4 }],
        vec![P { x: 5, y: 6 }],
    ];
    let bytes = both(&nested);
    // The counts (2, 1), then the elements: a struct of bytes is rows (its
    // fields' columns would be the same bytes), copied whole.
    assert_eq!(bytes[1..], [0x04, 0x02, 1, 2, 3, 4, 5, 6]);
    let boxed: Vec<Box<[P]>> = nested
        .iter()
        .map(|v| v.clone().into_boxed_slice())
        .collect();
    assert_eq!(both(&boxed), bytes);
    let deques: Vec<VecDeque<P>> = nested.iter().map(|v| v.iter().copied().collect()).collect();
    assert_eq!(both(&deques), bytes);

    // Plain in memory, but a bool makes it columns (bits).
    #[derive(Packable, Debug, Clone, Copy, PartialEq)]
    #[repr(C)]
    struct Q {
        x: u8,
        on: bool,
    }
    let nested = vec![
        vec![Q { x: 1, on: true }, Q { x: 3, on: false }],
        vec![Q { x: 5, on: true }],
    ];
    let bytes = both(&nested);
    // The counts (2, 1), then x's column, then on's bits (0b101).
    assert_eq!(bytes[1..], [0x04, 0x02, 1, 3, 5, 0b101]);
    let deques: Vec<VecDeque<Q>> = nested.iter().map(|v| v.iter().copied().collect()).collect();
    assert_eq!(both(&deques), bytes);
}

/// A struct whose fields' columns would all be rows (floats, bytes,
/// structs of them, `Result`s, `char`s) is written as rows in the compact
/// layout, the same size as its columns; plain ones are one copy. Inside
/// other columns, options, tuples and `Value` alike.
#[test]
fn structs_of_rows_are_rows() {
    #[derive(Packable, Debug, Clone, Copy, PartialEq)]
    struct V3 {
        x: f32,
        y: f32,
        z: f32,
    }
    #[derive(Packable, Debug, Clone, Copy, PartialEq)]
    struct Tri {
        a: V3,
        b: V3,
        c: char,
        d: i8,
    }
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Holder {
        id: u32,
        tri: Tri,
        maybe: Option<V3>,
        pair: (V3, u16),
        many: Vec<Tri>,
    }
    let v = |i: u8| V3 {
        x: f32::from(i),
        y: -1.5,
        z: f32::from(i) * 2.0,
    };
    let tri = |i: u8| Tri {
        a: v(i),
        b: v(i + 1),
        c: char::from(b'a' + i),
        d: -(i as i8),
    };
    let vs: Vec<V3> = (0..3).map(v).collect();
    let bytes = both(&vs);
    // The length, then each vector's 12 bytes in order.
    assert_eq!(bytes.len(), 1 + 36);
    assert_eq!(bytes[1..5], 0f32.to_le_bytes());
    assert_eq!(bytes[5..9], (-1.5f32).to_le_bytes());
    let holders: Vec<Holder> = (0..4)
        .map(|i| Holder {
            id: u32::from(i) * 1000,
            tri: tri(i),
            maybe: (i % 2 == 0).then(|| v(i)),
            pair: (v(i), u16::from(i)),
            many: (0..i).map(tri).collect(),
        })
        .collect();
    both(&holders);
    both(&vec![vec![tri(1), tri(2)], vec![], vec![tri(3)]]);
    both(&vec![Some(tri(1)), None, Some(tri(2))]);
}

/// `Bytes` in a column share the input's buffer as a `Bytes` field does
/// (`SHARE_BYTES_FROM` and longer), and shorter ones are copied.
#[test]
fn bytes_in_a_column_share_the_input() {
    let blobs: Vec<Vec<u8>> = vec![vec![7; 100], vec![8; 3], vec![9; 64]];
    let input = bytes::Bytes::from(binform::to_vec(&blobs).unwrap());
    let read: Vec<bytes::Bytes> = binform::from_bytes(input.clone()).unwrap();
    assert_eq!(read, blobs);
    let inside = |b: &bytes::Bytes| input.as_ptr_range().contains(&b.as_ptr());
    assert!(inside(&read[0]) && inside(&read[2]));
    assert!(!inside(&read[1]));
}

/// Found by review: an array of a few column values took `0` as its least
/// size, so its elements counted against the budget of elements that
/// take no input.
#[test]
fn short_arrays_of_columns_take_input() {
    let fixed = Options::new().fixed_width().max_len(1000);
    let rows = vec![[true, false, true, false]; 600];
    let bytes = fixed.to_vec(&(rows.clone(), rows.clone())).unwrap();
    let back: (Vec<[bool; 4]>, Vec<[bool; 4]>) = fixed.from_slice(&bytes).unwrap();
    assert_eq!(back, (rows.clone(), rows));
    let opts = Options::new().max_len(1000);
    let rows = vec![[Some(1u8), None]; 600];
    let bytes = opts.to_vec(&(rows.clone(), rows.clone())).unwrap();
    type Pair = [Option<u8>; 2];
    let back: (Vec<Pair>, Vec<Pair>) = opts.from_slice(&bytes).unwrap();
    assert_eq!(back.0, rows);
}

proptest::proptest! {
    /// Columns of sequences of bools and integers are written a slice at
    /// a time (bits eight at a time, blocks gathered by copies): any split
    /// into sequences round-trips, and `Value` reads and writes the same
    /// bytes.
    #[test]
    fn sequences_of_bools_and_integers_split_anyhow(
        bools in proptest::collection::vec(proptest::collection::vec(proptest::bool::ANY, 0..41), 0..40),
        ints in proptest::collection::vec(proptest::collection::vec(proptest::num::u16::ANY, 0..300), 0..5),
    ) {
        let bytes = both(&bools);
        // The bits are the flags in order, whatever the split.
        let flat: Vec<bool> = bools.iter().flatten().copied().collect();
        let bits = binform::to_vec(&flat).unwrap();
        let length = binform::to_vec(&flat.len()).unwrap().len();
        proptest::prop_assert!(bytes.ends_with(&bits[length..]));
        both(&ints);
        both(&vec![(bools.clone(), ints.clone())]);
    }
}

/// Found by review: a column of large tuples was built in a frame of its
/// own with no room made for them on the stack (a derived type's column
/// grows the stack for its elements); its element errors name the
/// element.
#[test]
fn large_tuples_in_a_column_grow_the_stack() {
    let rows: Vec<(u8, Box<[u8; 16]>, [u8; 1 << 16])> = vec![(1, Box::new([2; 16]), [3; 1 << 16])];
    let bytes = binform::to_vec(&rows).unwrap();
    let back = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let back: Vec<(u8, Box<[u8; 16]>, [u8; 1 << 16])> =
                binform::from_slice(&bytes).unwrap();
            (back[0].0, back[0].1[0], back[0].2[1 << 15])
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(back, (1, 2, 3));
    let err = binform::from_slice::<Vec<(u8, bool)>>(&[0x04, 1, 2, 0b100]).unwrap_err();
    assert_eq!((err.kind(), err.path()), (ErrorKind::InvalidValue, ".1"));
}

/// A column of many empty byte strings (a few bytes of counts) grows its
/// vector toward the charged length, not by doubling past it.
#[test]
fn byte_string_columns_grow_toward_their_charge() {
    let n = 100_000;
    let bytes = binform::to_vec(&vec![Vec::<u8>::new(); n]).unwrap();
    assert!(bytes.len() < 1_000, "{}", bytes.len());
    let opts = Options::new().max_memory(16 << 20);
    let borrowed: Vec<&[u8]> = opts.from_slice(&bytes).unwrap();
    assert_eq!(borrowed.len(), n);
    assert!(borrowed.capacity() <= n, "{}", borrowed.capacity());
    let owned: Vec<bytes::Bytes> = opts.from_slice(&bytes).unwrap();
    assert!(owned.capacity() <= n, "{}", owned.capacity());
}

/// Found by review: a derived type's lazy column reads its fields'
/// columns even when it has no elements (a variant nobody took), where
/// the eager one stopped; a box's empty column must then count no level,
/// on either side, or a payload the depth limit allowed would fail.
#[test]
fn empty_columns_of_boxes_count_no_level() {
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Boxed {
        b: Box<u8>,
        s: Box<[u16]>,
    }
    #[derive(Packable, Debug, Clone, PartialEq)]
    enum E {
        A(Boxed),
        B,
    }
    let only_b = vec![E::B, E::B];
    // The least depth that writes it is the least that reads it back.
    let least = (0..8)
        .find(|&d| Options::new().max_depth(d).to_vec(&only_b).is_ok())
        .unwrap();
    let bytes = Options::new().max_depth(least).to_vec(&only_b).unwrap();
    let back: Vec<E> = Options::new().max_depth(least).from_slice(&bytes).unwrap();
    assert_eq!(back, only_b);
    // With a boxed variant, one more level is needed both ways.
    let with_a = vec![
        E::B,
        E::A(Boxed {
            b: Box::new(7),
            s: vec![1, 2].into(),
        }),
    ];
    let err = Options::new().max_depth(least).to_vec(&with_a).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    let bytes = binform::to_vec(&with_a).unwrap();
    let err = Options::new()
        .max_depth(least)
        .from_slice::<Vec<E>>(&bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    both(&with_a);
    both(&only_b);
}

/// Found by review: the derive's generated column code calls methods; a
/// user's trait in scope with a method of the same name, implemented for
/// every type, must not change what it calls.
mod a_user_trait_in_scope {
    use binform::Packable;

    #[allow(dead_code)]
    trait Everything {
        fn read(&self) {}
        fn next(&mut self) {}
        fn __binform(&self) {}
    }
    impl<T: ?Sized> Everything for T {}

    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Point {
        x: u32,
        tag: Option<String>,
        pair: (u8, bool),
        kind: super::Kind,
    }

    #[test]
    fn does_not_change_the_generated_code() {
        let points = vec![
            Point {
                x: 1,
                tag: None,
                pair: (2, true),
                kind: super::Kind::Plain,
            },
            Point {
                x: 300,
                tag: Some("p".into()),
                pair: (9, false),
                kind: super::Kind::Tagged(4),
            },
        ];
        crate::round_trip(&points);
    }
}

/// Found by review: `Value` bounded how deep it looks for structs of rows
/// (now 256 levels), where the derive has none: a deep chain of nested
/// structs of rows is rows to both.
#[test]
fn deep_structs_of_rows_agree_with_value() {
    macro_rules! chain {
        ($first:ident $(, $name:ident)*) => {
            #[derive(Packable, Debug, Clone, Copy, PartialEq, Default)]
            struct $first(f32);
            chain!(@next $first $(, $name)*);
        };
        (@next $prev:ident, $name:ident $(, $rest:ident)*) => {
            #[derive(Packable, Debug, Clone, Copy, PartialEq, Default)]
            struct $name($prev, u8);
            chain!(@next $name $(, $rest)*);
        };
        (@next $last:ident) => {
            type Deepest = $last;
        };
    }
    // 36 levels: the lazy columns' iterator types nest with the structs,
    // and past about 40 levels by value rustc's default recursion limit
    // (128) ends the trait solving (`#![recursion_limit]` raises it).
    chain!(
        C00, C01, C02, C03, C04, C05, C06, C07, C08, C09, C10, C11, C12, C13, C14, C15, C16, C17,
        C18, C19, C20, C21, C22, C23, C24, C25, C26, C27, C28, C29, C30, C31, C32, C33, C34, C35
    );
    let values = vec![Deepest::default(); 3];
    let bytes = both(&values);
    // Rows: each value's 4 + 35 bytes in turn.
    assert_eq!(bytes.len(), 1 + 3 * 39);
}

/// A chain of enums, each holding the one before in a variant of one
/// field, 22 levels deep by value: their lazy columns' iterator types nest
/// with the enums, and each opaque iterator type on the way counts toward
/// rustc's default `recursion_limit` (128). An enum's column is the
/// runtime's generic code given a recipe a variant
/// (`columns::variants`), which rustc checks once rather than in every
/// enum, at the price of depth: 25 such levels build, where the columns
/// written out in each enum built 40 (`CHANGELOG.md`). A variant
/// of one field reads its field's own column, with no tuple around it.
#[test]
fn deep_chains_of_enums_of_one_field_build_and_round_trip() {
    macro_rules! chain {
        ($first:ident $(, $name:ident)*) => {
            #[derive(Packable, Debug, Clone, PartialEq)]
            enum $first {
                A(u8),
                B,
            }
            chain!(@next $first $(, $name)*);
        };
        (@next $prev:ident, $name:ident $(, $rest:ident)*) => {
            #[derive(Packable, Debug, Clone, PartialEq)]
            enum $name {
                A($prev),
                B,
            }
            impl $name {
                fn deepest() -> Self {
                    $name::A($prev::deepest())
                }
            }
            chain!(@next $name $(, $rest)*);
        };
        (@next $last:ident) => {
            type Deepest = $last;
        };
    }
    impl E00 {
        fn deepest() -> Self {
            E00::A(7)
        }
    }
    chain!(
        E00, E01, E02, E03, E04, E05, E06, E07, E08, E09, E10, E11, E12, E13, E14, E15, E16, E17,
        E18, E19, E20, E21
    );
    both(&vec![Deepest::deepest(), Deepest::B, Deepest::deepest()]);
}

/// The same chain with a second field in each variant: 22 levels deep by
/// value (25 build; each level's column is a column of tuples).
#[test]
fn deep_chains_of_enums_of_several_fields_build_and_round_trip() {
    macro_rules! chain {
        ($first:ident $(, $name:ident)*) => {
            #[derive(Packable, Debug, Clone, PartialEq)]
            enum $first {
                A(u8, u8),
                B,
            }
            impl $first {
                fn deepest() -> Self {
                    $first::A(7, 8)
                }
            }
            chain!(@next $first $(, $name)*);
        };
        (@next $prev:ident, $name:ident $(, $rest:ident)*) => {
            #[derive(Packable, Debug, Clone, PartialEq)]
            enum $name {
                A($prev, u8),
                B,
            }
            impl $name {
                fn deepest() -> Self {
                    $name::A($prev::deepest(), 1)
                }
            }
            chain!(@next $name $(, $rest)*);
        };
        (@next $last:ident) => {
            type Deepest = $last;
        };
    }
    chain!(
        E00, E01, E02, E03, E04, E05, E06, E07, E08, E09, E10, E11, E12, E13, E14, E15, E16, E17,
        E18, E19, E20, E21
    );
    both(&vec![Deepest::deepest(), Deepest::B, Deepest::deepest()]);
}

/// Found by review: a column of bytes or floats was reserved from its
/// iterator's size hint when it claimed to be exact, and filled by a
/// `zip`: an iterator whose hint lies (a hand-written caller of the
/// doc-hidden `Pack::pack_all`) lost values or wrote zeros. Every value
/// yielded is written, once.
#[test]
fn scalar_columns_write_every_value_whatever_the_hint() {
    struct Lying<I>(I, usize);
    impl<I: Iterator + Clone> Iterator for Lying<I> {
        type Item = I::Item;
        fn next(&mut self) -> Option<I::Item> {
            self.0.next()
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (self.1, Some(self.1))
        }
    }
    impl<I: Iterator + Clone> Clone for Lying<I> {
        fn clone(&self) -> Self {
            Lying(self.0.clone(), self.1)
        }
    }
    let values: Vec<f32> = (0..300).map(|i| i as f32 * 0.5).collect();
    let expected: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    for hint in [0, 1, 299, 301, 1000] {
        let mut out = Vec::new();
        let mut w = binform::Writer::new(&mut out);
        <f32 as Pack>::pack_all(Lying(values.iter(), hint), &mut w).unwrap();
        drop(w);
        assert_eq!(out, expected, "hint {hint}");
    }
    let bytes: Vec<u8> = (0..=255).collect();
    let mut out = Vec::new();
    let mut w = binform::Writer::new(&mut out);
    <u8 as Pack>::pack_all(Lying(bytes.iter(), 3), &mut w).unwrap();
    drop(w);
    assert_eq!(out, bytes);
}

/// A struct of more than 16 encoded fields (its columns are read and
/// written in runs of up to 16), a `with` field between them and a
/// skipped one.
#[derive(Packable, Debug, Clone, PartialEq, Default)]
struct Wide {
    f0: u8,
    f1: u16,
    f2: u32,
    f3: u64,
    f4: i8,
    f5: i16,
    f6: i32,
    f7: i64,
    f8: String,
    f9: Option<u8>,
    f10: Vec<u16>,
    f11: f32,
    f12: f64,
    f13: char,
    #[binform(with = "as_text")]
    chip: u64,
    f14: (u8, String),
    #[binform(skip)]
    skipped: u32,
    f15: u8,
    f16: String,
    f17: bool,
}

fn wide(i: u8) -> Wide {
    Wide {
        f0: i,
        f1: 300 + i as u16,
        f2: 70_000,
        f3: u64::MAX - i as u64,
        f4: -(i as i8),
        f5: -300,
        f6: -70_000,
        f7: i64::MIN,
        f8: format!("e{i}"),
        f9: i.is_multiple_of(2).then_some(i),
        f10: vec![i as u16; i as usize % 3],
        f11: 0.5,
        f12: -1.0,
        f13: 'x',
        chip: 1000 + i as u64,
        f14: (i, "ab".into()),
        skipped: 0,
        f15: 15,
        f16: "s".into(),
        f17: i.is_multiple_of(3),
    }
}

/// Variants of a lone field, of several, of more than 16 and with a
/// `with` field.
#[derive(Packable, Debug, Clone, PartialEq)]
enum Holder {
    A,
    B(u8),
    C {
        x: String,
        #[binform(with = "as_text")]
        y: u64,
        z: Option<i16>,
    },
    D(u8, Wide),
    E(
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        String,
    ),
}

/// Structs and variants of more than 16 fields read their columns 16 at
/// a time (the longest tuple with column impls): every field round trips
/// in wire order, and an error still names its field.
#[test]
fn wide_structs_and_variants_keep_their_columns() {
    let rows: Vec<Wide> = (0..20).map(wide).collect();
    let back: Vec<Wide> = binform::from_slice(&binform::to_vec(&rows).unwrap()).unwrap();
    assert_eq!(back, rows);
    let holders: Vec<Holder> = (0..10u8)
        .map(|i| match i % 5 {
            0 => Holder::A,
            1 => Holder::B(i),
            2 => Holder::C {
                x: format!("{i}"),
                y: i as u64,
                z: Some(-(i as i16)),
            },
            3 => Holder::D(i, wide(i)),
            _ => Holder::E(
                i,
                1,
                2,
                3,
                4,
                5,
                6,
                7,
                8,
                9,
                10,
                11,
                12,
                13,
                14,
                15,
                format!("e{i}"),
            ),
        })
        .collect();
    let back: Vec<Holder> = binform::from_slice(&binform::to_vec(&holders).unwrap()).unwrap();
    assert_eq!(back, holders);
    // The last byte is the bits of `f17`, the last field's column: a bit
    // past its one value is an error that names it.
    let mut bytes = binform::to_vec(&vec![wide(1)]).unwrap();
    *bytes.last_mut().unwrap() = 0b100;
    let err = binform::from_slice::<Vec<Wide>>(&bytes).unwrap_err();
    assert_eq!((err.kind(), err.path()), (ErrorKind::InvalidValue, ".f17"));
}

/// The bytes of columns of more than 16 fields, `with` and skipped
/// fields, in structs and enum variants: as the per-field generator wrote
/// them (commit 73acfce, before fields went in runs of up to 16), so that
/// the runs change nothing on the wire.
#[test]
fn runs_of_fields_write_the_per_field_bytes() {
    // More than 16 fields that are all rows: the struct is rows (§27),
    // read by the derive's own loop over its runs.
    #[derive(Packable, Debug, Clone, PartialEq)]
    struct Floats17 {
        a0: f32,
        a1: f32,
        a2: f32,
        a3: f32,
        a4: f32,
        a5: f32,
        a6: f32,
        a7: f32,
        a8: f32,
        a9: f32,
        a10: f32,
        a11: f32,
        a12: f32,
        a13: f32,
        a14: f32,
        a15: f32,
        a16: f64,
    }
    let rows: Vec<Wide> = (0..3).map(wide).collect();
    let holders = vec![
        Holder::A,
        Holder::B(7),
        Holder::C {
            x: "q".into(),
            y: 42,
            z: Some(-3),
        },
        Holder::D(9, wide(5)),
        Holder::C {
            x: "".into(),
            y: 1,
            z: None,
        },
        Holder::E(
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            8,
            9,
            10,
            11,
            12,
            13,
            14,
            15,
            16,
            "e".into(),
        ),
    ];
    let floats: Vec<Floats17> = (0..2)
        .map(|i| {
            let x = i as f32;
            Floats17 {
                a0: x,
                a1: x + 1.0,
                a2: x + 2.0,
                a3: x + 3.0,
                a4: x + 4.0,
                a5: x + 5.0,
                a6: x + 6.0,
                a7: x + 7.0,
                a8: x + 8.0,
                a9: x + 9.0,
                a10: x + 10.0,
                a11: x + 11.0,
                a12: x + 12.0,
                a13: x + 13.0,
                a14: x + 14.0,
                a15: x + 15.0,
                a16: -(i as f64),
            }
        })
        .collect();
    let value = (rows, holders, floats);
    let bytes = binform::to_vec(&value).unwrap();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, "06000102b104b504b904838b08838b08838b08fffffffffffffffffffffefffffffffffffffffdffffffffffffff00fffe5d095d095d09fb1611fb1611fb1611ffffffffffffffffffffffffffffffffffffffffffffffffffffff0404046530653165320500020002040204040000003f0000003f0000003f000000000000f0bf000000000000f0bf000000000000f0bff0f0f00831303030083130303108313030320001020404046162616261620f0f0f020202737373010c000204060408070200710434320231010a0905c504838b08fffafffffffffffffffb5d09fb1611ffffffffffffffffff04653500040a0a0000003f000000000000f0bff00831303035050461620f0273000102030405060708090a0b0c0d0e0f10026504000000000000803f0000004000004040000080400000a0400000c0400000e040000000410000104100002041000030410000404100005041000060410000704100000000000000800000803f0000004000004040000080400000a0400000c0400000e040000000410000104100002041000030410000404100005041000060410000704100008041000000000000f0bf");
    let back: (Vec<Wide>, Vec<Holder>, Vec<Floats17>) = binform::from_slice(&bytes).unwrap();
    assert_eq!(back, value);
}

/// An enum's columns are the runtime's generic code for up to 16
/// variants (a tuple of recipes, `columns::variants`) and written out by
/// the derive past that: an enum of each side of the line, with variants
/// of every kind (none, one field, a tuple, a `with` field, a skipped
/// one), round-trips and writes the same columns for the same variants.
#[test]
fn enums_of_16_variants_and_of_17_write_the_same_columns() {
    macro_rules! kinds {
        ($name:ident $(, $extra:ident)*) => {
            // Generic: its elements are made by closures, not fn items.
            #[derive(Packable, Debug, Clone, PartialEq)]
            enum $name<T> {
                Unit,
                One(String),
                Pair(u16, Option<i32>),
                Named { a: Vec<u8>, b: bool },
                With(#[binform(with = "as_u16")] u8, u64),
                Skipped(#[binform(skip)] u32),
                Gen(T, T),
                V7, V8, V9, V10, V11, V12, V13, V14,
                Last(i8),
                $($extra(u8),)*
            }
            impl $name<u32> {
                fn samples() -> Vec<Self> {
                    vec![
                        $name::Pair(1, None),
                        $name::Unit,
                        $name::One("one".into()),
                        $name::Named { a: vec![1, 2, 3], b: true },
                        $name::With(200, 1 << 40),
                        $name::Skipped(0),
                        $name::Pair(9, Some(-9)),
                        $name::V9,
                        $name::Last(-1),
                        $name::Gen(7, 1 << 30),
                        $name::One(String::new()),
                    ]
                }
            }
        };
    }
    mod as_u16 {
        pub fn pack<L: binform::Layout>(
            v: &u8,
            w: &mut binform::Writer<'_, L>,
        ) -> binform::Result<()> {
            binform::Pack::pack(&u16::from(*v), w)
        }
        pub fn unpack<L: binform::Layout>(r: &mut binform::Reader<'_, L>) -> binform::Result<u8> {
            let at = r.position();
            let v: u16 = binform::Unpack::unpack(r)?;
            u8::try_from(v)
                .map_err(|_| r.error_at(at, binform::ErrorKind::InvalidValue, "not a u8"))
        }
    }
    kinds!(Sixteen);
    kinds!(Seventeen, Extra);
    let sixteen = Sixteen::samples();
    let seventeen = Seventeen::samples();
    // (A `with` field has no schema for `Value`: the typed round trip.)
    assert_eq!(round_trip(&sixteen), round_trip(&seventeen));
    // An index past the last variant is an error (a short block's
    // varints, as the test of `Kind` above writes them).
    let mut bytes = binform::to_vec(&vec![Sixteen::<u32>::V14]).unwrap();
    assert_eq!(bytes, [0x02, 14 << 1]);
    *bytes.last_mut().unwrap() = 16 << 1;
    let err = binform::from_slice::<Vec<Sixteen<u32>>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownVariant);
}
