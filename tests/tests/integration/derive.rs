//! What `#[derive(Packable)]` generates: every struct and enum shape,
//! generics, lifetimes, and the field and container attributes.

use std::collections::HashMap;
use std::fmt::Debug;
use std::marker::PhantomData;

use binform::{ErrorKind, Pack, Packable, Unpack};

use crate::round_trip;

#[derive(Packable, Debug, PartialEq)]
struct Unit;

#[derive(Packable, Debug, PartialEq)]
struct Tuple(u8, String, i64);

#[derive(Packable, Debug, PartialEq)]
struct Named {
    a: u32,
    b: Vec<String>,
}

#[derive(Packable, Debug, PartialEq)]
struct EmptyBraces {}

#[test]
fn struct_shapes() {
    assert!(round_trip(&Unit).is_empty());
    assert!(round_trip(&EmptyBraces {}).is_empty());
    assert_eq!(round_trip(&Tuple(1, "x".into(), -1)), [1, 2, b'x', 2]);
    round_trip(&Named {
        a: 300,
        b: vec!["p".into(), "q".into()],
    });
}

#[derive(Packable, Debug, PartialEq)]
enum Message {
    Ping,
    Text(String),
    Move { x: i32, y: i32 },
    Pair(u8, u8),
}

#[test]
fn enum_shapes_and_tags() {
    assert_eq!(round_trip(&Message::Ping), [0]);
    assert_eq!(round_trip(&Message::Text("hi".into())), [2, 4, b'h', b'i']);
    assert_eq!(round_trip(&Message::Move { x: -1, y: 1 }), [4, 2, 4]);
    assert_eq!(round_trip(&Message::Pair(7, 8)), [6, 7, 8]);
    let err = binform::from_slice::<Message>(&[8]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownVariant);
    assert!(err.to_string().contains("Message"), "{err}");
    assert_eq!(err.offset(), Some(0));
}

#[derive(Packable, Debug, PartialEq)]
enum Never {}

#[test]
fn an_empty_enum_never_decodes() {
    assert_eq!(
        binform::from_slice::<Never>(&[0]).unwrap_err().kind(),
        ErrorKind::UnknownVariant
    );
}

/// A type that holds itself through a box: the classic cons list.
#[derive(Packable, Debug, PartialEq)]
enum List {
    Cons(i32, Box<List>),
    Nil,
}

/// A tree through a vector.
#[derive(Packable, Debug, PartialEq)]
struct Tree<T> {
    value: T,
    children: Vec<Tree<T>>,
}

#[test]
fn recursive_types() {
    let list = List::Cons(1, Box::new(List::Cons(2, Box::new(List::Nil))));
    round_trip(&list);
    let tree = Tree {
        value: "root".to_string(),
        children: vec![Tree {
            value: "leaf".into(),
            children: vec![],
        }],
    };
    round_trip(&tree);
}

/// Types that hold each other through a box, a struct through an enum
/// and a struct through a struct, and through an array of boxes and a
/// boxed `Result`: each one's constants (`MAX_SIZE`, `MIN_SIZE`,
/// `COLUMN_MIN`, `COLUMNS`) must end at the boxes without needing
/// another of its own, or rustc finds a cycle and the types do not
/// compile. (A const of the bounds together, tried for the derive's
/// compile time, made cycles of all three pairs.)
#[derive(Packable, Debug, PartialEq, Clone)]
struct Expr {
    span: u32,
    kind: ExprKind,
}

#[derive(Packable, Debug, PartialEq, Clone)]
enum ExprKind {
    Lit(u64),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
}

#[derive(Packable, Debug, PartialEq, Clone)]
struct Ping {
    x: u32,
    pong: Box<Pong>,
}

#[derive(Packable, Debug, PartialEq, Clone)]
struct Pong {
    y: u32,
    ping: Option<Ping>,
}

#[derive(Packable, Debug, PartialEq, Clone)]
struct Knot {
    val: u32,
    kids: Option<Loop>,
    alt: Box<Result<Knot, String>>,
}

#[derive(Packable, Debug, PartialEq, Clone)]
struct Loop {
    both: [Box<Knot>; 2],
}

#[test]
fn types_that_hold_each_other_through_boxes() {
    let lit = |v, span| Expr {
        span,
        kind: ExprKind::Lit(v),
    };
    let expr = Expr {
        span: 0,
        kind: ExprKind::Add(
            Box::new(lit(1, 1)),
            Box::new(Expr {
                span: 2,
                kind: ExprKind::Neg(Box::new(lit(u64::MAX, 3))),
            }),
        ),
    };
    round_trip(&expr);
    round_trip(&vec![expr.clone(), lit(7, 9), expr]);
    let ping = Ping {
        x: 1,
        pong: Box::new(Pong {
            y: 2,
            ping: Some(Ping {
                x: 3,
                pong: Box::new(Pong { y: 4, ping: None }),
            }),
        }),
    };
    round_trip(&ping);
    round_trip(&vec![ping.clone(), ping]);
    let leaf = |val| Knot {
        val,
        kids: None,
        alt: Box::new(Err(format!("leaf {val}"))),
    };
    let knot = Knot {
        val: 1,
        kids: Some(Loop {
            both: [Box::new(leaf(2)), Box::new(leaf(3))],
        }),
        alt: Box::new(Ok(leaf(4))),
    };
    round_trip(&knot);
    round_trip(&vec![knot.clone(), leaf(5), knot]);
}

/// Structs of 2 to 16 encoded fields are written and read by the
/// runtime in one call (`row`); one field, 17 fields and `with` fields by
/// the derive's statements: each round-trips to its own bytes, and an
/// error names the field it happened in.
#[test]
fn rows_of_every_length_and_their_errors() {
    #[derive(Packable, Debug, PartialEq, Clone)]
    struct One(u64);
    #[derive(Packable, Debug, PartialEq, Clone)]
    struct Sixteen(
        u8,
        u16,
        u32,
        u64,
        i8,
        i16,
        i32,
        i64,
        String,
        bool,
        f32,
        f64,
        char,
        Vec<u8>,
        Option<u8>,
        i128,
    );
    #[derive(Packable, Debug, PartialEq, Clone)]
    struct Seventeen(
        u8,
        u16,
        u32,
        u64,
        i8,
        i16,
        i32,
        i64,
        String,
        bool,
        f32,
        f64,
        char,
        Vec<u8>,
        Option<u8>,
        i128,
        u8,
    );
    let sixteen = Sixteen(
        1,
        2,
        3,
        4,
        -5,
        -6,
        -7,
        -8,
        "nine".into(),
        true,
        1.5,
        -2.5,
        'z',
        vec![14],
        Some(15),
        -16,
    );
    let seventeen = Seventeen(
        1,
        2,
        3,
        4,
        -5,
        -6,
        -7,
        -8,
        "nine".into(),
        true,
        1.5,
        -2.5,
        'z',
        vec![14],
        Some(15),
        -16,
        17,
    );
    round_trip(&One(u64::MAX));
    let bytes = round_trip(&sixteen);
    // The 17-field struct writes the same 16 fields, then its 17th.
    let mut longer = bytes.clone();
    longer.push(17);
    assert_eq!(round_trip(&seventeen), longer);
    round_trip(&vec![sixteen.clone(), sixteen]);

    // A string cut short in the ninth field: the error says `.8`.
    let cut = &bytes[..bytes.len() - 20];
    let err = binform::from_slice::<Sixteen>(cut).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    assert!(err.to_string().contains(".8"), "{err}");

    #[derive(Packable, Debug, PartialEq, Clone)]
    enum Shape {
        Point,
        Circle { x: i32, y: i32, r: u32 },
    }
    // `y` and `r` take a byte each: cut both, and the error says `y`.
    let bytes = round_trip(&Shape::Circle { x: -1, y: 2, r: 3 });
    let err = binform::from_slice::<Shape>(&bytes[..bytes.len() - 2]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    assert!(err.to_string().contains("::Circle.y"), "{err}");
}

#[derive(Packable, Debug, PartialEq)]
struct Generic<K, V, const N: usize>
where
    K: std::hash::Hash + Eq,
{
    map: HashMap<K, V>,
    fixed: [V; N],
    marker: PhantomData<fn() -> K>,
}

#[test]
fn generics_and_const_generics() {
    let g: Generic<String, u16, 2> = Generic {
        map: [("a".to_string(), 1)].into_iter().collect(),
        fixed: [5, 6],
        marker: PhantomData,
    };
    round_trip(&g);
}

/// Only `PhantomData` uses `T`, so `T` needs no bound: this compiles with
/// a `T` that implements nothing.
#[derive(Packable, Debug, PartialEq)]
struct Tagged<T> {
    id: u64,
    kind: PhantomData<T>,
}

#[derive(Debug, PartialEq)]
struct NotPackable;

#[test]
fn phantom_parameters_need_no_bound() {
    round_trip(&Tagged::<NotPackable> {
        id: 3,
        kind: PhantomData,
    });
}

#[derive(Packable, Debug, PartialEq)]
struct WithSkip {
    kept: u32,
    #[binform(skip)]
    cache: Vec<u8>,
    #[binform(skip, default = "forty_two")]
    answer: u32,
    also_kept: String,
}

fn forty_two() -> u32 {
    42
}

#[test]
fn skip_and_default() {
    let value = WithSkip {
        kept: 1,
        cache: vec![1, 2, 3],
        answer: 7,
        also_kept: "k".into(),
    };
    let bytes = binform::to_vec(&value).unwrap();
    assert_eq!(bytes, [2, 2, b'k']);
    let back: WithSkip = binform::from_slice(&bytes).unwrap();
    assert_eq!(
        back,
        WithSkip {
            kept: 1,
            cache: vec![],
            answer: 42,
            also_kept: "k".into()
        }
    );
}

/// A `default` on a field that is encoded changes nothing in compact mode.
#[derive(Packable, Debug, PartialEq)]
struct DefaultOnly {
    #[binform(default = "forty_two")]
    value: u32,
}

#[test]
fn default_without_skip_keeps_the_field() {
    round_trip(&DefaultOnly { value: 5 });
}

/// A foreign type with no impls, encoded through a `with` module.
#[derive(Debug, PartialEq)]
struct Rgb(u8, u8, u8);

mod rgb_hex {
    use super::Rgb;
    use binform::{Reader, Result, Writer};

    pub fn pack<L: binform::Layout>(c: &Rgb, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_bytes(&[c.0, c.1, c.2]);
        Ok(())
    }

    pub fn unpack<L: binform::Layout>(r: &mut Reader<'_, L>) -> Result<Rgb> {
        let [a, b, c] = r.read_array::<3>()?;
        Ok(Rgb(a, b, c))
    }
}

#[derive(Packable, Debug, PartialEq)]
struct Palette {
    name: String,
    #[binform(with = "rgb_hex")]
    primary: Rgb,
    #[binform(with = "self::rgb_hex")]
    secondary: Rgb,
}

#[test]
fn with_module() {
    let p = Palette {
        name: "p".into(),
        primary: Rgb(1, 2, 3),
        secondary: Rgb(4, 5, 6),
    };
    assert_eq!(round_trip(&p), [2, b'p', 1, 2, 3, 4, 5, 6]);
}

/// Bounds written by hand replace the inferred ones.
#[derive(Packable, Debug, PartialEq)]
#[binform(bound = "T: Pack + for<'x> Unpack<'x> + Clone")]
struct Bounded<T> {
    items: Vec<T>,
}

#[derive(Packable, Debug, PartialEq)]
#[binform(bound(pack = "T: Pack", unpack = "T: Unpack<'de> + Default"))]
struct PerDirection<T> {
    item: T,
}

/// A field whose type is an associated type: inference would ask for
/// `T: Encoding`, which `T` (a configuration marker) is not; each impl's
/// bounds are given instead.
trait Config {
    type Value;
}

#[derive(Debug, PartialEq)]
struct Small;

impl Config for Small {
    type Value = u16;
}

#[derive(Packable, Debug, PartialEq)]
#[binform(bound(
    encoding = "T::Value: binform::Encoding",
    pack = "T::Value: binform::Pack",
    unpack = "T::Value: binform::Unpack<'de>"
))]
struct Configured<T: Config> {
    value: T::Value,
}

#[test]
fn bound_overrides() {
    round_trip(&Bounded {
        items: vec![1u8, 2],
    });
    round_trip(&PerDirection { item: 5u64 });
    round_trip(&Configured::<Small> { value: 300 });
    assert_eq!(
        binform::schema::fingerprint_of::<Configured<Small>>(),
        binform::schema::fingerprint(&binform::schema_of::<Configured<Small>>())
    );
}

/// A type with a lifetime and owned data both.
#[derive(Packable, Debug, PartialEq)]
struct Mixed<'a, T: Clone + Debug> {
    label: &'a str,
    values: Vec<T>,
}

#[test]
fn lifetimes_with_generics() {
    let bytes = binform::to_vec(&Mixed {
        label: "l",
        values: vec![1i8],
    })
    .unwrap();
    let back: Mixed<'_, i8> = binform::from_slice(&bytes).unwrap();
    assert_eq!(
        back,
        Mixed {
            label: "l",
            values: vec![1]
        }
    );
}

mod reexport {
    /// A crate that re-exports binform under another name.
    pub use binform as serial;
}

#[derive(reexport::serial::Packable, Debug, PartialEq)]
#[binform(crate = "reexport::serial")]
struct ThroughReexport {
    a: u8,
}

#[test]
fn crate_path_override() {
    round_trip(&ThroughReexport { a: 9 });
}

#[test]
fn generic_function_over_derived_types() {
    fn both<T: Pack + for<'de> Unpack<'de> + PartialEq + Debug>(value: T) {
        round_trip(&value);
    }
    both(Named { a: 1, b: vec![] });
    both(Message::Ping);
}

/// A compact type writes its fields through a cursor (`Pack::pack_cursor`):
/// every kind of field, through the cursor or handed to the writer, writes
/// exactly the bytes it writes on its own, in order.
#[test]
fn fields_written_through_the_cursor_are_the_fields_own_bytes() {
    #[derive(Packable, Debug, PartialEq, Clone)]
    enum Kind {
        A,
        B(u16, String),
    }
    #[derive(Packable, Debug, PartialEq, Clone)]
    struct Inner {
        x: i64,
        k: Kind,
    }
    #[derive(Packable, Debug, PartialEq, Clone)]
    struct Mixed {
        a: u8,
        b: [u32; 4],
        c: [u32; 9],
        d: [f64; 3],
        e: (f32, f32, i8),
        f: [String; 2],
        g: Option<(u64, bool)>,
        h: Vec<Inner>,
        i: Inner,
        j: char,
        k: i128,
        l: std::rc::Rc<str>,
    }
    let m = Mixed {
        a: 7,
        b: [1, 300, 70_000, u32::MAX],
        c: [5; 9],
        d: [1.5, -0.0, f64::MAX],
        e: (2.5, -1.0, -3),
        f: ["x".into(), "y".repeat(300)],
        g: Some((u64::MAX, true)),
        h: vec![
            Inner { x: -1, k: Kind::A },
            Inner {
                x: i64::MIN,
                k: Kind::B(9, "z".into()),
            },
        ],
        i: Inner {
            x: 1 << 40,
            k: Kind::B(65_535, String::new()),
        },
        j: 'é',
        k: i128::MIN,
        l: "shared".into(),
    };
    let mut expected = Vec::new();
    for part in [
        binform::to_vec(&m.a).unwrap(),
        binform::to_vec(&m.b).unwrap(),
        binform::to_vec(&m.c).unwrap(),
        binform::to_vec(&m.d).unwrap(),
        binform::to_vec(&m.e).unwrap(),
        binform::to_vec(&m.f).unwrap(),
        binform::to_vec(&m.g).unwrap(),
        binform::to_vec(&m.h).unwrap(),
        binform::to_vec(&m.i).unwrap(),
        binform::to_vec(&m.j).unwrap(),
        binform::to_vec(&m.k).unwrap(),
        binform::to_vec(&m.l).unwrap(),
    ] {
        expected.extend(part);
    }
    assert_eq!(round_trip(&m), expected);
}

/// The derive adds no inherent items: a type may have its own
/// `FINGERPRINT` (or anything else), and the fingerprint is read through
/// the trait.
#[derive(Packable, Debug, PartialEq)]
struct OwnItems {
    a: u8,
}

impl OwnItems {
    const FINGERPRINT: &'static str = "mine";
}

#[test]
fn a_derived_type_keeps_its_own_inherent_items() {
    assert_eq!(OwnItems::FINGERPRINT, "mine");
    assert_eq!(
        binform::schema::fingerprint_of::<OwnItems>(),
        binform::schema::fingerprint(&binform::schema_of::<OwnItems>())
    );
    round_trip(&OwnItems { a: 9 });
}

/// A type of another module encoded through `remote` (the mechanism binform
/// uses for its schema model, a crate of its own; the orphan rule keeps a
/// user's crate from doing it for another crate's types): the definition
/// restated here is checked field by field against it, and the impls,
/// schema and fingerprint are the remote type's, as if it were derived
/// where it is defined.
mod elsewhere {
    #[derive(Debug, PartialEq)]
    pub struct Version {
        pub major: u16,
        pub minor: u16,
        pub label: Option<String>,
    }

    #[derive(Debug, PartialEq)]
    pub enum Channel {
        Stable,
        Beta(u8),
    }

    #[derive(binform::Packable, Debug, PartialEq)]
    pub struct Release {
        pub version: Version,
        pub channel: Channel,
    }
}

#[derive(Packable)]
#[binform(remote = "elsewhere::Version")]
#[allow(dead_code)]
struct VersionDef {
    major: u16,
    minor: u16,
    label: Option<String>,
}

#[derive(Packable)]
#[binform(remote = "elsewhere::Channel")]
#[allow(dead_code)]
enum ChannelDef {
    Stable,
    Beta(u8),
}

#[test]
fn remote_types_encode_as_if_derived_where_they_are() {
    use elsewhere::{Channel, Release, Version};
    let release = Release {
        version: Version {
            major: 1,
            minor: 300,
            label: Some("rc".into()),
        },
        channel: Channel::Beta(2),
    };
    let bytes = binform::to_vec(&release).unwrap();
    // major (1 byte), minor (2), label (1 + 1 + 2), channel (1 + 1).
    assert_eq!(bytes.len(), 9);
    round_trip(&release);
    let text = binform::schema_of::<Release>().to_string();
    assert!(
        text.contains("struct Version compact\n  field 0 major u16"),
        "{text}"
    );
    assert!(text.contains("enum Channel compact"), "{text}");
    assert_eq!(
        binform::schema::fingerprint_of::<Version>(),
        binform::schema::fingerprint(&binform::schema_of::<Version>())
    );
}
