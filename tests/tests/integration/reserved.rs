//! One room check a value (issue 14): a derived struct makes room once
//! for its bounded fields' largest encodings (`Pack::MAX_SIZE`) and writes
//! them with no check of their own; an unbounded field (a string, a
//! vector, a `with` field) writes with checks, and the next bounded field
//! makes room again. These tests pin the bounds, and that the bytes are
//! the checked writes' at every capacity the buffer can start with (so
//! that each field in turn finds the room short). In debug builds the
//! cursor asserts the room before every unchecked store, so an overrun
//! fails here rather than passing by luck.

use binform::{Encoding, Pack, Reader, Result, Unpack, Writer};

#[derive(binform::Packable, Debug, PartialEq, Clone)]
struct Inner {
    a: u16,
    b: Option<i64>,
    c: f32,
}

#[derive(binform::Packable, Debug, PartialEq, Clone)]
enum Kind {
    Empty,
    Pair(u32, i128),
    Named { name: String, n: u8 },
}

#[derive(binform::Packable, Debug, PartialEq, Clone)]
struct Mixed {
    x: u8,
    y: i32,
    inner: Inner,
    s: String,
    t: String,
    z: u128,
    kind: Kind,
    c: char,
    v: Vec<u64>,
    #[binform(with = "fixed")]
    w: u64,
    liar: Liar,
    after: u64,
    // More than the slack of bounded bytes after the liar: only the room
    // its default `pack_reserved` makes again keeps them in bounds.
    u1: u128,
    u2: u128,
    u3: u128,
    big: Big,
    last: bool,
}

/// A `u64` as its 8 bytes.
mod fixed {
    pub fn pack<L: binform::Layout>(
        v: &u64,
        w: &mut binform::Writer<'_, L>,
    ) -> binform::Result<()> {
        w.write_bytes(&v.to_le_bytes());
        Ok(())
    }

    pub fn unpack<L: binform::Layout>(r: &mut binform::Reader<'_, L>) -> binform::Result<u64> {
        r.read_array::<8>().map(u64::from_le_bytes)
    }
}

/// 40 bytes whose `MAX_SIZE` claims `CLAIM`: a hand-written bound that
/// is wrong (understated) or no bound at all (huge).
#[derive(Debug, PartialEq, Clone)]
struct Claims<const CLAIM: usize>([u8; 40]);

/// Claims 1 byte and takes 40: the struct around it must grow, not
/// overrun.
type Liar = Claims<1>;

/// Claims a size that is huge but not `usize::MAX`: not a bound, so
/// written with checks (summed as a bound, it would wrap the room).
type Big = Claims<{ usize::MAX - 1 }>;

impl<const CLAIM: usize> Encoding for Claims<CLAIM> {}

impl<const CLAIM: usize> Pack for Claims<CLAIM> {
    const MAX_SIZE: usize = CLAIM;

    fn pack<L: binform::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_bytes(&self.0);
        Ok(())
    }
}

impl<'de, const CLAIM: usize> Unpack<'de> for Claims<CLAIM> {
    fn unpack<L: binform::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        r.read_array::<40>().map(Claims)
    }
}

/// Each bounded type's `MAX_SIZE` is the length of its longest encoding:
/// the extreme values reach it, and no value passes it.
#[test]
fn max_sizes_are_the_longest_encodings() {
    // The bound covers both layouts: the longer of each value's two
    // encodings.
    fn longest<T: Pack>(values: &[T]) -> usize {
        let lens = values.iter().map(|v| {
            let compact = binform::to_vec(v).unwrap().len();
            compact.max(binform::fixed::to_vec(v).unwrap().len())
        });
        let longest = lens.max().unwrap();
        assert_eq!(longest, T::MAX_SIZE, "{}", std::any::type_name::<T>());
        longest
    }
    longest(&[0u8, u8::MAX]);
    longest(&[false, true]);
    longest(&[0i8, i8::MIN, i8::MAX]);
    longest(&[0u16, 300, u16::MAX]);
    longest(&[0i16, i16::MIN, i16::MAX]);
    longest(&[0u32, 1 << 28, u32::MAX]);
    longest(&[0i32, i32::MIN, i32::MAX]);
    longest(&[0u64, 1 << 56, u64::MAX]);
    longest(&[0i64, i64::MIN, i64::MAX]);
    longest(&[0usize, usize::MAX]);
    longest(&[0isize, isize::MIN]);
    longest(&[0u128, 1 << 56, u128::MAX]);
    longest(&[0i128, i128::MIN, i128::MAX]);
    longest(&[0.0f32, f32::MAX]);
    longest(&[0.0f64, f64::MIN]);
    longest(&['a', 'é', char::MAX]);
    longest(&[None, Some(0u32), Some(u32::MAX)]);
    // A derived struct: its fields' sum.
    let inner = |a, b, c| Inner { a, b, c };
    let max = longest(&[inner(0, None, 0.0), inner(u16::MAX, Some(i64::MIN), 1.0)]);
    assert_eq!(max, 3 + 1 + 9 + 4);
    // Unbounded: a string anywhere in it, or a `with` field.
    assert_eq!(<Kind as Pack>::MAX_SIZE, usize::MAX);
    assert_eq!(<Mixed as Pack>::MAX_SIZE, usize::MAX);
    assert_eq!(<String as Pack>::MAX_SIZE, usize::MAX);
    assert_eq!(<Vec<u8> as Pack>::MAX_SIZE, usize::MAX);
}

/// A derived enum's bound: its tag and its largest variant.
#[test]
fn an_enum_of_bounded_variants_is_bounded() {
    #[derive(binform::Packable, Debug, PartialEq)]
    enum Small {
        A,
        B(u8, u64),
        C { x: Option<Inner> },
    }
    assert_eq!(<Small as Pack>::MAX_SIZE, 1 + 1 + 17);
    let longest = Small::C {
        x: Some(Inner {
            a: u16::MAX,
            b: Some(i64::MAX),
            c: 2.0,
        }),
    };
    assert_eq!(binform::to_vec(&longest).unwrap().len(), 19);
    assert_eq!(
        binform::from_slice::<Small>(&binform::to_vec(&longest).unwrap()).unwrap(),
        longest
    );
}

fn samples() -> Vec<Mixed> {
    let longest = Mixed {
        x: 255,
        y: i32::MIN,
        inner: Inner {
            a: u16::MAX,
            b: Some(i64::MIN),
            c: -1.5,
        },
        // Longer than the room made up front, so that the buffer grows to
        // exactly its end: the fields after it find no room left.
        s: "a string long enough to grow a buffer ".repeat(8),
        t: String::new(),
        z: u128::MAX,
        kind: Kind::Pair(u32::MAX, i128::MIN),
        c: char::MAX,
        v: vec![u64::MAX, 1, 2],
        w: 0x0102_0304_0506_0708,
        liar: Claims([9; 40]),
        after: u64::MAX,
        u1: u128::MAX,
        u2: u128::MAX,
        u3: u128::MAX,
        big: Claims([8; 40]),
        last: true,
    };
    let shortest = Mixed {
        x: 0,
        y: 0,
        inner: Inner {
            a: 0,
            b: None,
            c: 0.0,
        },
        s: String::new(),
        t: "t".into(),
        z: 0,
        kind: Kind::Named {
            name: "n".into(),
            n: 1,
        },
        c: 'a',
        v: vec![],
        w: 0,
        liar: Claims([0; 40]),
        after: 0,
        u1: 0,
        u2: 0,
        u3: 0,
        big: Claims([0; 40]),
        last: false,
    };
    let mut empty = shortest.clone();
    empty.kind = Kind::Empty;
    vec![longest, shortest, empty]
}

/// The bytes of `value` do not depend on the room the buffer starts with:
/// from none to more than the whole encoding, after 0 to 2 bytes already
/// in the buffer, so that every field in turn meets a buffer that must
/// grow; and they decode to `value`.
fn sweep<T>(value: &T)
where
    T: Pack + binform::UnpackOwned + PartialEq + std::fmt::Debug,
{
    let expected = binform::to_vec(value).unwrap();
    assert_eq!(binform::from_slice::<T>(&expected).unwrap(), *value);
    for lead in 0..3 {
        for capacity in lead..=lead + expected.len() + 40 {
            let mut buf = Vec::with_capacity(capacity);
            buf.extend(std::iter::repeat_n(0xEE, lead));
            binform::to_vec_into(&mut buf, value).unwrap();
            assert_eq!(&buf[..lead], &vec![0xEE; lead][..]);
            assert_eq!(
                &buf[lead..],
                &expected[..],
                "capacity {capacity}, lead {lead}"
            );
        }
    }
}

/// A struct of bounded and unbounded fields, a type whose bound is false
/// and one whose bound is huge.
#[test]
fn bytes_do_not_depend_on_the_room_a_buffer_starts_with() {
    for value in samples() {
        sweep(&value);
    }
}

#[derive(binform::Packable, Debug, PartialEq)]
struct FirstUnbounded(String, u64, Option<Inner>, u16);

#[derive(binform::Packable, Debug, PartialEq)]
struct Generic<T> {
    head: u32,
    t: T,
    tail: i64,
}

#[derive(binform::Packable, Debug, PartialEq)]
struct Zero;

#[derive(binform::Packable, Debug, PartialEq)]
struct ZeroBraced {}

#[derive(binform::Packable, Debug, PartialEq)]
enum Bounded {
    A,
    B(u8, u64),
    C { x: Option<Inner> },
}

#[derive(binform::Packable, Debug, PartialEq)]
struct WithEnum {
    e: Bounded,
    x: u128,
    z: Zero,
    y: i16,
}

#[derive(binform::Packable, Debug, PartialEq)]
struct Wide {
    a: u128,
    b: u128,
    c: u128,
    d: u128,
    e: u128,
    f: u128,
    g: u128,
    h: u128,
    i: u128,
    j: u128,
    k: u128,
    l: u128,
    m: u128,
    n: u128,
    o: u128,
}

/// 4 x 15 x 18 bytes: past the largest bound a type may claim.
#[derive(binform::Packable, Debug, PartialEq)]
struct Huge(Wide, Wide, Wide, Wide);

/// The shapes a derived struct's fields take: an unbounded first field
/// (a tuple struct), generic fields bounded and not, structs with no
/// fields, an option of a derived struct, a bounded enum nested in a
/// struct, and a struct past the largest bound (written field by field).
#[test]
fn every_shape_of_struct_writes_the_same_bytes_at_every_capacity() {
    let inner = Inner {
        a: u16::MAX,
        b: Some(i64::MIN),
        c: 3.0,
    };
    sweep(&FirstUnbounded(
        "s".repeat(300),
        u64::MAX,
        Some(inner.clone()),
        300,
    ));
    sweep(&FirstUnbounded(String::new(), 0, None, 0));
    sweep(&Generic {
        head: u32::MAX,
        t: u64::MAX,
        tail: i64::MIN,
    });
    sweep(&Generic {
        head: 1,
        t: "t".repeat(100),
        tail: -1,
    });
    assert_eq!(<Generic<u64> as Pack>::MAX_SIZE, 5 + 9 + 9);
    assert_eq!(<Generic<String> as Pack>::MAX_SIZE, usize::MAX);
    sweep(&Zero);
    sweep(&ZeroBraced {});
    assert_eq!(<Zero as Pack>::MAX_SIZE, 0);
    for e in [
        Bounded::A,
        Bounded::B(255, u64::MAX),
        Bounded::C {
            x: Some(inner.clone()),
        },
    ] {
        sweep(&WithEnum {
            e,
            x: u128::MAX,
            z: Zero,
            y: i16::MIN,
        });
    }
    assert_eq!(<WithEnum as Pack>::MAX_SIZE, 1 + 1 + 17 + 18 + 3);
    let wide = |v: u128| Wide {
        a: v,
        b: v,
        c: v,
        d: v,
        e: v,
        f: v,
        g: v,
        h: v,
        i: v,
        j: v,
        k: v,
        l: v,
        m: v,
        n: v,
        o: v,
    };
    assert_eq!(<Wide as Pack>::MAX_SIZE, 15 * 18);
    assert_eq!(<Huge as Pack>::MAX_SIZE, usize::MAX);
    sweep(&Huge(
        wide(u128::MAX),
        wide(1),
        wide(u128::MAX),
        wide(u128::MAX),
    ));
}

/// The same fields as a tuple, which writes each with its own checks:
/// the reserved writes give the same bytes.
#[test]
fn reserved_writes_match_checked_ones() {
    for value in samples() {
        let Mixed {
            x,
            y,
            inner,
            s,
            t,
            z,
            ..
        } = value.clone();
        let head = binform::to_vec(&(x, y, (inner.a, inner.b, inner.c), s, t, z)).unwrap();
        let whole = binform::to_vec(&value).unwrap();
        assert_eq!(&whole[..head.len()], &head[..]);
        let Inner { a, b, c } = value.inner.clone();
        assert_eq!(
            binform::to_vec(&value.inner).unwrap(),
            binform::to_vec(&(a, b, c)).unwrap()
        );
    }
}
