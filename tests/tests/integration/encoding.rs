//! One home for a type's encoding facts (`binform::Encoding`): sequences
//! share one wire type, fingerprints follow encodings rather than
//! spellings and reach every level, and whether a type can hold a `Weak`
//! comes from its field types, not their names.

use std::cell::RefCell;
use std::collections::{BinaryHeap, LinkedList, VecDeque};
use std::rc::{Rc, Weak};

use binform::schema::{self, fingerprint_of};
use binform::{Encoding, ErrorKind, Options, Packable};

use crate::round_trip;

// ------------------------------------------------ tolerant sequence fields

mod seq_v1 {
    #[derive(binform::Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub struct Samples {
        pub id: u32,
        pub values: Vec<u32>,
        pub tail: String,
    }
}

mod seq_v2 {
    use std::collections::VecDeque;

    #[derive(binform::Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub struct Samples {
        pub id: u32,
        pub values: VecDeque<u32>,
        pub tail: String,
    }
}

mod seq_v3 {
    #[derive(binform::Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub struct Samples {
        pub id: u32,
        pub values: Box<[u32]>,
        pub tail: String,
    }
}

#[test]
fn tolerant_field_moves_between_sequence_types() {
    let v1 = seq_v1::Samples {
        id: 7,
        values: vec![1, 300, 70_000],
        tail: "end".into(),
    };
    let bytes1 = binform::to_vec(&v1).unwrap();

    let v2: seq_v2::Samples = binform::from_slice(&bytes1).unwrap();
    assert_eq!(v2.values, VecDeque::from(vec![1, 300, 70_000]));
    assert_eq!((v2.id, v2.tail.as_str()), (7, "end"));
    let bytes2 = binform::to_vec(&v2).unwrap();
    assert_eq!(bytes2, bytes1, "the same bytes, so the same wire type");

    let v3: seq_v3::Samples = binform::from_slice(&bytes2).unwrap();
    assert_eq!(&*v3.values, &[1, 300, 70_000]);
    let bytes3 = binform::to_vec(&v3).unwrap();
    assert_eq!(bytes3, bytes1);

    // And back: the oldest reader reads the newest writer.
    let back: seq_v1::Samples = binform::from_slice(&bytes3).unwrap();
    assert_eq!(back, v1);
    assert_eq!(
        binform::schema::fingerprint_of::<seq_v1::Samples>(),
        binform::schema::fingerprint_of::<seq_v2::Samples>(),
        "same encoding, same fingerprint"
    );
    assert_eq!(
        binform::schema::fingerprint_of::<seq_v2::Samples>(),
        binform::schema::fingerprint_of::<seq_v3::Samples>()
    );
}

#[test]
fn every_sequence_type_has_the_slice_wire_type() {
    let vec = <Vec<u32> as Encoding>::WIRE;
    assert_eq!(<[u32] as Encoding>::WIRE, vec);
    assert_eq!(<VecDeque<u32> as Encoding>::WIRE, vec);
    assert_eq!(<LinkedList<u32> as Encoding>::WIRE, vec);
    assert_eq!(<BinaryHeap<u32> as Encoding>::WIRE, vec);
    assert_eq!(<Box<[u32]> as Encoding>::WIRE, vec);
    assert_ne!(
        vec,
        binform::__private::Wire::Framed,
        "integers self-delimit"
    );
}

// ------------------------------------------------------------ spellings

mod spelled_plain {
    #[derive(binform::Packable)]
    pub struct Note {
        pub text: String,
        pub tags: Vec<String>,
        pub size: u64,
    }
}

mod spelled_path {
    #[derive(binform::Packable)]
    pub struct Note {
        pub text: std::string::String,
        pub tags: std::collections::VecDeque<::std::string::String>,
        pub size: usize,
    }
}

mod spelled_alias {
    pub type Text = String;
    pub type Tags = Box<[Text]>;

    #[derive(binform::Packable)]
    pub struct Note {
        pub text: Text,
        pub tags: Tags,
        pub size: u64,
    }
}

#[test]
fn spellings_and_aliases_share_a_fingerprint() {
    let fp = fingerprint_of::<spelled_plain::Note>();
    assert_eq!(fingerprint_of::<spelled_path::Note>(), fp);
    assert_eq!(fingerprint_of::<spelled_alias::Note>(), fp);
    assert_eq!(
        fingerprint_of::<String>(),
        fingerprint_of::<spelled_alias::Text>()
    );
    assert_eq!(
        fingerprint_of::<Vec<u8>>(),
        fingerprint_of::<LinkedList<u8>>()
    );
    assert_eq!(
        fingerprint_of::<Vec<u8>>(),
        fingerprint_of::<BinaryHeap<u8>>()
    );
    assert_eq!(fingerprint_of::<Box<u8>>(), fingerprint_of::<u8>());
    assert_ne!(fingerprint_of::<Vec<u8>>(), fingerprint_of::<Vec<u16>>());
    // A header written by one spelling is read by the other.
    let opts = Options::new().fingerprint(true);
    let bytes = opts
        .to_vec(&spelled_plain::Note {
            text: "a".into(),
            tags: vec!["b".into()],
            size: 3,
        })
        .unwrap();
    let note: spelled_alias::Note = opts.from_slice(&bytes).unwrap();
    assert_eq!((note.text.as_str(), note.size), ("a", 3));
}

// -------------------------------------------------------- three levels down

/// Four types, each the field of the one before: `Root` -> `Mid` ->
/// `Leaf` -> `Deep`, with `Deep::count` of the given type.
macro_rules! deep_types {
    ($count:ty) => {
        #[derive(binform::Packable, Debug, PartialEq)]
        pub struct Root {
            pub mid: Mid,
        }
        #[derive(binform::Packable, Debug, PartialEq)]
        pub struct Mid {
            pub leaf: Vec<Leaf>,
        }
        #[derive(binform::Packable, Debug, PartialEq)]
        pub struct Leaf {
            pub deep: Option<Deep>,
        }
        #[derive(binform::Packable, Debug, PartialEq)]
        pub struct Deep {
            pub count: $count,
        }
    };
}

mod deep_v1 {
    deep_types!(u32);
}

/// `deep_v1` with `Deep::count` widened: a change three levels below `Root`.
mod deep_v2 {
    deep_types!(u64);
}

/// `deep_v1` again, unchanged.
mod deep_same {
    deep_types!(u32);
}

#[test]
fn a_change_three_levels_down_changes_the_root() {
    assert_ne!(
        binform::schema::fingerprint_of::<deep_v1::Root>(),
        binform::schema::fingerprint_of::<deep_v2::Root>()
    );
    assert_eq!(
        binform::schema::fingerprint_of::<deep_v1::Root>(),
        fingerprint_of::<deep_same::Root>()
    );

    let old = deep_v1::Root {
        mid: deep_v1::Mid {
            leaf: vec![deep_v1::Leaf {
                deep: Some(deep_v1::Deep { count: 5 }),
            }],
        },
    };
    let opts = Options::new().fingerprint(true);
    let bytes = opts.to_vec(&old).unwrap();
    // Without the header, u32 and u64 varints are the same bytes and the
    // change would pass unnoticed; with it, the reader refuses at once.
    let err = opts.from_slice::<deep_v2::Root>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SchemaMismatch);
    assert_eq!(err.offset(), Some(4));
    let same: deep_same::Root = opts.from_slice(&bytes).unwrap();
    assert_eq!(same.mid.leaf.len(), 1);
}

// ------------------------------------------------------ mutual recursion

/// `A` holds `Option<Box<B>>`, `B` holds `Vec<A>`.
#[derive(Packable, Debug, PartialEq, Clone)]
struct A {
    name: String,
    b: Option<Box<B>>,
}

#[derive(Packable, Debug, PartialEq, Clone)]
struct B {
    items: Vec<A>,
}

mod mutual_changed {
    /// `A` and `B` as above, with a field added to `B`.
    #[derive(binform::Packable)]
    pub struct A {
        pub name: String,
        pub b: Option<Box<B>>,
    }
    #[derive(binform::Packable)]
    pub struct B {
        pub items: Vec<A>,
        pub extra: bool,
    }
}

#[test]
fn mutually_recursive_types_derive_round_trip_and_fingerprint() {
    let value = A {
        name: "root".into(),
        b: Some(Box::new(B {
            items: vec![
                A {
                    name: "x".into(),
                    b: None,
                },
                A {
                    name: "y".into(),
                    b: Some(Box::new(B { items: vec![] })),
                },
            ],
        })),
    };
    round_trip(&value);
    round_trip(&B {
        items: vec![value.clone(), value],
    });

    // Stable: the constant, the run-time computation from the schema and
    // the independent implementation of the spec agree.
    assert_eq!(
        fingerprint_of::<A>(),
        schema::fingerprint(&binform::schema_of::<A>())
    );
    assert_eq!(
        fingerprint_of::<B>(),
        schema::fingerprint(&binform::schema_of::<B>())
    );
    assert_eq!(fingerprint_of::<A>(), 0x370c_4b90_26bf_1944);
    assert_eq!(fingerprint_of::<B>(), 0xdf86_7ebc_8906_d1a4);
    assert_ne!(fingerprint_of::<A>(), fingerprint_of::<B>());
    // A change in B shows in A, which reaches it.
    assert_ne!(fingerprint_of::<A>(), fingerprint_of::<mutual_changed::A>());
}

// ------------------------------------------------------------- golden

#[derive(Packable)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Packable)]
struct Chain {
    value: u8,
    next: Option<Box<Chain>>,
}

#[derive(Packable, Default)]
#[binform(version_tolerant, reserved = [7, 1])]
enum Shape {
    Circle {
        r: f64,
    },
    #[binform(tag = 2)]
    Square {
        side: f64,
        #[binform(tag = 5)]
        label: Option<String>,
    },
    #[default]
    #[binform(tag = 9, other)]
    Unknown,
}

/// Values computed by `scripts/fingerprint.py`, an implementation of
/// `docs/format.md` §14 that shares no code with the crate.
#[test]
fn fingerprints_match_the_specification() {
    assert_eq!(fingerprint_of::<u32>(), 0x4d2b_df19_3e85_26d1);
    assert_eq!(fingerprint_of::<Vec<String>>(), 0xd380_78b4_d752_4e72);
    assert_eq!(fingerprint_of::<[u8; 4]>(), 0x8553_f13a_c5d1_3b5e);
    assert_eq!(fingerprint_of::<Point>(), 0x6c04_7d66_091c_46ab);
    assert_eq!(fingerprint_of::<Chain>(), 0x9bd0_6e0c_1e09_c654);
    assert_eq!(fingerprint_of::<Shape>(), 0x2733_939c_031d_d741);
}

/// Each type's kept fingerprint is its own: over every std type family
/// (the `Everything` fixture), the seed models and graphs, the value the
/// table returns, on a first and a later call, is the one computed from
/// that type's schema, and no two of these types share one (a table that
/// handed one type's facts to another fails here).
#[test]
fn kept_fingerprints_are_each_types_own() {
    fn check<T: Encoding + ?Sized>() -> u64 {
        let first = fingerprint_of::<T>();
        assert_eq!(
            first,
            fingerprint_of::<T>(),
            "{}",
            std::any::type_name::<T>()
        );
        assert_eq!(
            first,
            schema::fingerprint(&binform::schema_of::<T>()),
            "{}",
            std::any::type_name::<T>()
        );
        first
    }
    let all = [
        check::<binform_tests::Everything>(),
        check::<binform_tests::Shape>(),
        check::<Vec<binform_tests::Person>>(),
        check::<binform_tests::CardHolder>(),
        check::<(A, Option<Rc<B>>, Weak<Chain>)>(),
        check::<seq_v1::Samples>(),
    ];
    let distinct: std::collections::HashSet<u64> = all.iter().copied().collect();
    assert_eq!(distinct.len(), all.len(), "{all:x?}");
}

// ------------------------------------------------------- Weak by type

/// A user type named like a std type that never holds a `Weak`
/// (`Duration`), holding a `Weak` to its parent.
#[derive(Packable, Debug)]
struct Duration {
    seconds: u64,
    parent: Weak<Session>,
}

#[derive(Packable, Debug)]
struct Session {
    name: String,
    steps: RefCell<Vec<Rc<Duration>>>,
}

#[test]
fn a_user_type_named_duration_holding_a_weak_round_trips() {
    fn may_hold_weak<T: Encoding>() -> bool {
        binform::__private::may_hold_weak::<T>()
    }
    assert!(may_hold_weak::<Duration>());
    assert!(may_hold_weak::<Session>(), "through Duration");
    assert!(!may_hold_weak::<std::time::Duration>());

    let session = Rc::new_cyclic(|me: &Weak<Session>| Session {
        name: "s".into(),
        steps: RefCell::new(
            (1..=3)
                .map(|seconds| {
                    Rc::new(Duration {
                        seconds,
                        parent: me.clone(),
                    })
                })
                .collect(),
        ),
    });
    let bytes = binform::to_vec(&session).unwrap();
    let back: Rc<Session> = binform::from_slice(&bytes).unwrap();
    assert_eq!(back.name, "s");
    let steps = back.steps.borrow();
    assert_eq!(steps.len(), 3);
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step.seconds, i as u64 + 1);
        let parent = step.parent.upgrade().expect("the parent is alive");
        assert!(Rc::ptr_eq(&parent, &back), "the same allocation");
    }
}

// ------------------------------------------------------ review follow-ups

/// A payload from before `VecDeque` shared `Vec`'s wire type: its field
/// was framed. Any framed field holds the plain encoding, so it still
/// reads, and so does a framed `Option` of it.
#[test]
fn framed_sequence_fields_from_older_writers_still_read() {
    use binform::{Pack, Writer};

    #[derive(Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    struct Later {
        id: u32,
        values: VecDeque<u32>,
        maybe: Option<VecDeque<u32>>,
    }

    let mut old = Vec::new();
    let mut w = Writer::new(&mut old);
    w.write_len(3);
    w.write_field(0, &7u32).unwrap();
    w.write_field_with(0, |w| vec![1u32, 300].pack(w)).unwrap();
    w.write_field_with(0, |w| Some(vec![9u32]).pack(w)).unwrap();
    let back: Later = binform::from_slice(&old).unwrap();
    assert_eq!(
        back,
        Later {
            id: 7,
            values: VecDeque::from(vec![1, 300]),
            maybe: Some(VecDeque::from(vec![9])),
        }
    );
}

/// What a `with` module writes is unknown, so it may hold a `Weak`.
#[test]
fn with_fields_may_hold_a_weak() {
    mod as_u32 {
        use binform::{Pack, Reader, Result, Unpack, Writer};
        pub fn pack<L: binform::Layout>(v: &u64, w: &mut Writer<'_, L>) -> Result<()> {
            (*v as u32).pack(w)
        }
        pub fn unpack<L: binform::Layout>(r: &mut Reader<'_, L>) -> Result<u64> {
            u32::unpack(r).map(u64::from)
        }
    }
    #[derive(Packable)]
    struct Opaque {
        #[binform(with = "as_u32")]
        value: u64,
    }
    fn may_hold_weak<T: Encoding>() -> bool {
        binform::__private::may_hold_weak::<T>()
    }
    assert!(may_hold_weak::<Opaque>());
    assert!(!may_hold_weak::<Point>());
}

mod first {
    #[derive(binform::Packable)]
    pub struct Node {
        pub value: u32,
    }
}

mod second {
    #[derive(binform::Packable)]
    pub struct Node {
        pub label: String,
    }
}

/// Two types of one name from different modules are two entries of one
/// schema, and the run-time fingerprint still equals the constant.
#[test]
fn same_short_name_from_two_modules() {
    #[derive(Packable)]
    struct Both {
        a: first::Node,
        b: second::Node,
    }
    let schema = binform::schema_of::<Both>();
    let text = schema.to_string();
    assert!(
        text.contains("struct Node compact\n  field 0 value u32"),
        "{text}"
    );
    assert!(
        text.contains("struct Node#2 compact\n  field 0 label string"),
        "{text}"
    );
    assert_eq!(schema::fingerprint(&schema), fingerprint_of::<Both>());
    // The lock-file text reads back as the same schema.
    assert_eq!(schema::parse(&text).unwrap(), schema);
}

/// A hand-written impl names its encoding once, for schemas and
/// fingerprints alike.
#[test]
fn hand_written_impls_name_their_encoding() {
    struct Celsius;
    impl Encoding for Celsius {
        const NAME: &'static str = "celsius_tenths";
    }
    struct Unnamed;
    impl Encoding for Unnamed {}
    assert_eq!(
        binform::schema_of::<Celsius>().root.to_string(),
        "celsius_tenths"
    );
    assert_eq!(
        fingerprint_of::<Celsius>(),
        schema::hash_str("celsius_tenths")
    );
    assert_eq!(fingerprint_of::<Unnamed>(), schema::hash_str("opaque"));
    assert_eq!(
        fingerprint_of::<Vec<Celsius>>(),
        schema::fingerprint(&binform::schema_of::<Vec<Celsius>>())
    );
}

/// Tags of registered trait objects enter schemas and fingerprints as
/// numbers, however the registration spells them.
#[test]
fn trait_object_tags_are_numbers() {
    trait Animal: std::any::Any {}
    #[derive(Packable)]
    struct Cat {
        lives: u8,
    }
    impl Animal for Cat {}
    #[derive(Packable)]
    struct Dog;
    impl Animal for Dog {}
    binform::polymorphic!(dyn Animal { 0x10 => Cat, 1_000 => Dog });

    let schema = binform::schema_of::<Box<dyn Animal>>();
    assert!(schema
        .root
        .to_string()
        .starts_with("dyn<16, Cat, 1000, Dog>"));
    assert_eq!(
        schema::fingerprint(&schema),
        fingerprint_of::<Box<dyn Animal>>()
    );
}
