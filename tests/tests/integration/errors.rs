//! Malformed input yields the right error kind, at the right offset, and a
//! message that says what went wrong.

use std::collections::{BTreeMap, HashSet};

use binform::{Error, ErrorKind, Options, Packable};

fn kind<T: for<'de> binform::Unpack<'de>>(bytes: &[u8]) -> ErrorKind {
    binform::from_slice::<T>(bytes)
        .err()
        .map(|e| e.kind())
        .expect("decoding should fail")
}

#[test]
fn unexpected_end() {
    assert_eq!(kind::<u8>(&[]), ErrorKind::UnexpectedEnd);
    assert_eq!(kind::<u32>(&[0x01]), ErrorKind::UnexpectedEnd); // two-byte varint, one given
    assert_eq!(kind::<f64>(&[0; 7]), ErrorKind::UnexpectedEnd);
    assert_eq!(kind::<String>(&[10, b'a']), ErrorKind::UnexpectedEnd);
    let err = binform::from_slice::<(u8, u8)>(&[1]).unwrap_err();
    assert_eq!(err.offset(), Some(1));
    assert!(err.to_string().contains("at byte 1"), "{err}");
}

#[test]
fn huge_declared_lengths_fail_before_allocating() {
    // 2^62 elements declared in nine bytes.
    let mut bytes = vec![0xFF];
    bytes.extend((1u64 << 62).to_le_bytes());
    for k in [
        kind::<Vec<u64>>(&bytes),
        kind::<String>(&bytes),
        kind::<Vec<String>>(&bytes),
        kind::<BTreeMap<u32, u32>>(&bytes),
        kind::<HashSet<u8>>(&bytes),
    ] {
        assert!(
            matches!(k, ErrorKind::LimitExceeded | ErrorKind::UnexpectedEnd),
            "{k:?}"
        );
    }
    // A length within max_len but beyond the input.
    let bytes = binform::to_vec(&1_000_000usize).unwrap();
    assert_eq!(kind::<Vec<u32>>(&bytes), ErrorKind::UnexpectedEnd);
}

#[test]
fn zero_sized_elements_have_their_own_budget() {
    let bytes = binform::to_vec(&(1usize << 27)).unwrap();
    let err = Options::new()
        .max_len(1000)
        .from_slice::<Vec<()>>(&bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // The budget is shared by all collections in one decode.
    let nested = binform::to_vec(&vec![vec![(); 600], vec![(); 600]]).unwrap();
    assert_eq!(
        Options::new()
            .max_len(1000)
            .from_slice::<Vec<Vec<()>>>(&nested)
            .unwrap_err()
            .kind(),
        ErrorKind::LimitExceeded
    );
    assert!(Options::new()
        .max_len(1200)
        .from_slice::<Vec<Vec<()>>>(&nested)
        .is_ok());
}

#[test]
fn a_bad_bool_in_a_vector_is_found_where_it_is() {
    // In the fixed layout vectors of bools are a byte each, checked and
    // converted in bulk: every position is checked, and the error names
    // the byte's offset.
    let fixed = Options::new().fixed_width();
    let bools: Vec<bool> = (0..40).map(|i| i % 3 == 0).collect();
    let bytes = fixed.to_vec(&bools).unwrap();
    let len = bytes.len() - bools.len();
    assert_eq!(
        bytes[len..],
        bools.iter().map(|&b| b as u8).collect::<Vec<_>>()[..]
    );
    assert_eq!(fixed.from_slice::<Vec<bool>>(&bytes).unwrap(), bools);
    for at in 0..bools.len() {
        for bad in [2u8, 0x80, 0xFF] {
            let mut damaged = bytes.clone();
            damaged[len + at] = bad;
            let err = fixed.from_slice::<Vec<bool>>(&damaged).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidBool);
            assert_eq!(err.offset(), Some(len + at), "{bad:#x} at {at}");
        }
    }
    // A short input is an end, not a bad bool.
    let err = fixed.from_slice::<Vec<bool>>(&bytes[..bytes.len() - 1]);
    assert_eq!(err.unwrap_err().kind(), ErrorKind::UnexpectedEnd);

    // In the compact layout they are bits (§27): 40 in five bytes, and
    // a set bit past the last value is an error on the last byte.
    let bytes = binform::to_vec(&bools).unwrap();
    assert_eq!(
        bytes[1..],
        [
            0b0100_1001,
            0b1001_0010,
            0b0010_0100,
            0b0100_1001,
            0b1001_0010
        ]
    );
    assert_eq!(binform::from_slice::<Vec<bool>>(&bytes).unwrap(), bools);
    let three = binform::to_vec(&vec![true, false, true]).unwrap();
    assert_eq!(three[1..], [0b101]);
    let err = binform::from_slice::<Vec<bool>>(&[three[0], 0b1101]).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::InvalidValue, Some(1))
    );
    assert_eq!(
        kind::<Vec<bool>>(&bytes[..bytes.len() - 1]),
        ErrorKind::UnexpectedEnd
    );
}

#[test]
fn invalid_scalars() {
    assert_eq!(kind::<bool>(&[2]), ErrorKind::InvalidBool);
    // 0xD800 is a surrogate, not a char.
    assert_eq!(
        kind::<char>(&binform::to_vec(&0xD800u32).unwrap()),
        ErrorKind::InvalidChar
    );
    assert_eq!(
        kind::<char>(&binform::to_vec(&0x110000u32).unwrap()),
        ErrorKind::InvalidChar
    );
    assert_eq!(kind::<String>(&[4, 0xC3, 0x28]), ErrorKind::InvalidUtf8);
    assert_eq!(
        binform::from_slice::<&str>(&[2, 0xFF]).unwrap_err().kind(),
        ErrorKind::InvalidUtf8
    );
    assert_eq!(kind::<Option<u8>>(&[2]), ErrorKind::UnknownVariant);
    assert_eq!(kind::<Result<u8, u8>>(&[2, 0]), ErrorKind::UnknownVariant);
    assert_eq!(
        kind::<std::net::IpAddr>(&[2, 0, 0, 0, 0]),
        ErrorKind::UnknownVariant
    );
}

#[test]
fn invalid_utf8_reports_the_bad_byte() {
    let err = binform::from_slice::<String>(&[8, b'a', b'b', 0xFF, b'c']).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
    assert_eq!(err.offset(), Some(3));
}

#[test]
fn varints_must_be_minimal_and_fit() {
    // 1 written in two bytes.
    assert_eq!(kind::<u32>(&[0x05, 0x00]), ErrorKind::InvalidVarint);
    // 70000 does not fit a u16; 2^40 does not fit a u32 or i32.
    assert_eq!(
        kind::<u16>(&binform::to_vec(&70_000u32).unwrap()),
        ErrorKind::IntegerOverflow
    );
    assert_eq!(
        kind::<u32>(&binform::to_vec(&(1u64 << 40)).unwrap()),
        ErrorKind::IntegerOverflow
    );
    assert_eq!(
        kind::<i32>(&binform::to_vec(&(1i64 << 40)).unwrap()),
        ErrorKind::IntegerOverflow
    );
    assert_eq!(kind::<i8>(&[]), ErrorKind::UnexpectedEnd);
}

#[test]
fn invalid_values() {
    assert_eq!(kind::<std::num::NonZeroU32>(&[0]), ErrorKind::InvalidValue);
    // One second of nanoseconds is not a valid subsecond part.
    let mut d = binform::to_vec(&5u64).unwrap();
    d.extend(binform::to_vec(&1_000_000_000u32).unwrap());
    assert_eq!(kind::<std::time::Duration>(&d), ErrorKind::InvalidValue);
    // A map that names the same key twice.
    // Two entries: the keys' column 1, 1, then the values' 2, 3 (§27).
    let dup = [0x04, 1, 1, 2, 3];
    assert_eq!(kind::<BTreeMap<u8, u8>>(&dup), ErrorKind::InvalidValue);
    assert_eq!(
        kind::<std::collections::HashMap<u8, u8>>(&dup),
        ErrorKind::InvalidValue
    );
    let dup_set = binform::to_vec(&vec![4u8, 4]).unwrap();
    assert_eq!(kind::<HashSet<u8>>(&dup_set), ErrorKind::InvalidValue);
}

#[test]
fn trailing_bytes() {
    let err = binform::from_slice::<u8>(&[1, 2]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TrailingBytes);
    assert_eq!(err.offset(), Some(1));
    assert!(err.to_string().contains("1 byte left after"), "{err}");
    let err = binform::from_slice::<u8>(&[1, 2, 3]).unwrap_err();
    assert!(err.to_string().contains("2 bytes left after"), "{err}");
}

/// A payload with a header, read without the option that writes it, fails
/// as the bytes it is, and the error says what the header is and which
/// option reads it.
#[test]
fn a_header_read_without_its_option_is_named() {
    #[derive(Packable, Debug, PartialEq)]
    struct Point {
        x: i32,
        y: i32,
    }
    let p = Point { x: 1, y: 2 };
    let fingerprinted = Options::new().fingerprint(true).to_vec(&p).unwrap();
    let err = binform::from_slice::<Point>(&fingerprinted).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TrailingBytes);
    assert!(
        err.to_string().contains("fingerprint header (BFM)"),
        "{err}"
    );
    assert!(
        err.to_string().contains("Options::fingerprint(true)"),
        "{err}"
    );
    let described = Options::new().self_describing(true).to_vec(&p).unwrap();
    let err = binform::from_slice::<Point>(&described).unwrap_err();
    assert!(
        err.to_string().contains("self-describing header (BFS)"),
        "{err}"
    );
    // With the option, the same bytes read; an error without a header
    // carries no hint.
    assert_eq!(
        Options::new()
            .fingerprint(true)
            .from_slice::<Point>(&fingerprinted)
            .unwrap(),
        p
    );
    let err = binform::from_slice::<Point>(&[2]).unwrap_err();
    assert!(!err.to_string().contains("header"), "{err}");
}

#[test]
fn depth_limit() {
    // Box<Box<...<u8>>> sixteen deep decodes with max_depth 16, not 15.
    type Deep = Box<Box<Box<Box<Box<Box<Box<Box<Box<Box<Box<Box<Box<Box<Box<Box<u8>>>>>>>>>>>>>>>>;
    let bytes = [1u8];
    assert!(Options::new()
        .max_depth(16)
        .from_slice::<Deep>(&bytes)
        .is_ok());
    let err = Options::new()
        .max_depth(15)
        .from_slice::<Deep>(&bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    assert!(err.to_string().contains("depth"), "{err}");
}

#[test]
fn deeply_nested_payload_is_an_error_not_a_stack_overflow() {
    #[derive(binform::Packable, Debug)]
    #[allow(dead_code)]
    enum Value {
        Leaf(u8),
        List(Vec<Value>),
    }
    // A million levels of `List([List([...` : tag 1, length 1, repeated.
    let bytes: Vec<u8> = std::iter::repeat_n([2u8, 2u8], 1_000_000)
        .flatten()
        .collect();
    let err = binform::from_slice::<Value>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

#[test]
fn byte_budget() {
    let bytes = binform::to_vec(&vec![0u8; 100]).unwrap();
    let err = Options::new()
        .max_bytes(50)
        .from_slice::<Vec<u8>>(&bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    assert!(Options::new()
        .max_bytes(bytes.len())
        .from_slice::<Vec<u8>>(&bytes)
        .is_ok());
}

#[test]
fn max_len_caps_declared_lengths() {
    let bytes = binform::to_vec("hello").unwrap();
    assert_eq!(
        Options::new()
            .max_len(4)
            .from_slice::<String>(&bytes)
            .unwrap_err()
            .kind(),
        ErrorKind::LimitExceeded
    );
    assert!(Options::new()
        .max_len(5)
        .from_slice::<String>(&bytes)
        .is_ok());
}

#[test]
fn errors_are_std_errors_with_details() {
    let err: Error = binform::from_slice::<bool>(&[9]).unwrap_err();
    let dynamic: &dyn std::error::Error = &err;
    assert!(dynamic.source().is_none());
    assert_eq!(
        err.to_string(),
        "invalid bool: byte 0x09 is not a bool (at byte 0)"
    );
    assert_eq!(err.message(), "byte 0x09 is not a bool");
    assert!(format!("{err:?}").contains("InvalidBool"));
    let custom = Error::custom("bad checksum");
    assert_eq!(custom.kind(), ErrorKind::Custom);
    assert_eq!(custom.to_string(), "error: bad checksum");
}

/// Found by the roundtrip fuzz target: a value nested past the depth limit
/// used to encode and then fail to decode. The encoder now counts the same
/// levels as the decoder and refuses it.
#[test]
fn what_encodes_under_options_decodes_under_them() {
    #[derive(binform::Packable, Debug, PartialEq)]
    enum Value {
        Leaf,
        List(Vec<Value>),
    }
    fn nest(depth: usize) -> Value {
        (0..depth).fold(Value::Leaf, |v, _| Value::List(vec![v]))
    }
    // A list of one counts a level (its rows column of lists, §27); the
    // innermost, empty, counts none on either side.
    let ok = nest(129);
    let bytes = binform::to_vec(&ok).unwrap();
    assert_eq!(binform::from_slice::<Value>(&bytes).unwrap(), ok);
    let too_deep = nest(130);
    assert_eq!(
        binform::to_vec(&too_deep).unwrap_err().kind(),
        ErrorKind::LimitExceeded
    );
    let opts = Options::new().max_depth(200);
    let bytes = opts.to_vec(&too_deep).unwrap();
    assert_eq!(opts.from_slice::<Value>(&bytes).unwrap(), too_deep);
    // Boxes and maps count the same way on both sides.
    let boxed: Box<Box<Box<u8>>> = Box::new(Box::new(Box::new(1)));
    let opts = Options::new().max_depth(3);
    let bytes = opts.to_vec(&boxed).unwrap();
    assert_eq!(opts.from_slice::<Box<Box<Box<u8>>>>(&bytes).unwrap(), boxed);
    assert!(Options::new().max_depth(2).to_vec(&boxed).is_err());
    let text: Box<str> = "deep".into();
    let opts = Options::new().max_depth(1);
    assert_eq!(
        opts.from_slice::<Box<str>>(&opts.to_vec(&text).unwrap())
            .unwrap(),
        text
    );
}

// ------------------------------------------------- where a decode failed

mod paths {
    use std::collections::BTreeMap;

    use binform::{ErrorKind, Packable};

    #[derive(Packable, Debug, PartialEq)]
    struct Inner {
        id: u8,
        flag: bool,
    }

    #[derive(Packable, Debug, PartialEq)]
    struct Middle {
        inner: Inner,
    }

    #[derive(Packable, Debug, PartialEq)]
    struct Outer {
        name: String,
        middle: Middle,
        items: Vec<Inner>,
        scores: BTreeMap<String, Inner>,
        shape: Shape,
    }

    #[derive(Packable, Debug, PartialEq)]
    enum Shape {
        Dot,
        Line { start: Inner, end: Inner },
    }

    fn outer() -> Outer {
        Outer {
            name: "x".into(),
            middle: Middle {
                inner: Inner { id: 21, flag: true },
            },
            items: vec![
                Inner {
                    id: 22,
                    flag: false,
                },
                Inner { id: 23, flag: true },
            ],
            scores: [("a".to_string(), Inner { id: 24, flag: true })].into(),
            shape: Shape::Line {
                start: Inner {
                    id: 25,
                    flag: false,
                },
                end: Inner { id: 26, flag: true },
            },
        }
    }

    /// The bytes of `outer()` with the bool after the id byte `id` made 7
    /// (the ids are bytes no length or text in it takes):
    /// a bool byte, or a bool column's bits (§27), which then has bits set
    /// past its last value.
    fn with_bad_bool_after(id: u8) -> Vec<u8> {
        let mut bytes = binform::to_vec(&outer()).unwrap();
        let at = bytes
            .windows(2)
            .position(|w| w[0] == id && w[1] <= 3)
            .expect("the id byte");
        bytes[at + 1] = 7;
        bytes
    }

    fn path_of(bytes: &[u8]) -> (ErrorKind, String, String) {
        let err = binform::from_slice::<Outer>(bytes).unwrap_err();
        (err.kind(), err.path().to_string(), err.to_string())
    }

    #[test]
    fn typed_errors_name_the_field_they_failed_in() {
        let (kind, path, text) = path_of(&with_bad_bool_after(21));
        assert_eq!(kind, ErrorKind::InvalidBool);
        assert_eq!(path, ".middle.inner.flag");
        assert!(text.contains("in `.middle.inner.flag`"), "{text}");
        // A field of a vector of structs: its column (§27), bits whose
        // decoder checks them together.
        let (kind, path, _) = path_of(&with_bad_bool_after(23));
        assert_eq!(
            (kind, path.as_str()),
            (ErrorKind::InvalidValue, ".items.flag")
        );
        // A map's values: their column (§27).
        assert_eq!(path_of(&with_bad_bool_after(24)).1, ".scores[values].flag");
        // An enum variant's field.
        assert_eq!(path_of(&with_bad_bool_after(26)).1, ".shape::Line.end.flag");
        // In the fixed layout too.
        let mut fixed = binform::fixed::to_vec(&outer()).unwrap();
        let at = fixed
            .windows(2)
            .position(|w| w[0] == 25 && w[1] == 0)
            .expect("the id byte");
        fixed[at + 1] = 9;
        let err = binform::fixed::from_slice::<Outer>(&fixed).unwrap_err();
        assert_eq!(err.path(), ".shape::Line.start.flag");
        // A whole value that ends early names where it stopped.
        let bytes = binform::to_vec(&outer()).unwrap();
        let err = binform::from_slice::<Outer>(&bytes[..bytes.len() - 1]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
        assert_eq!(err.path(), ".shape::Line.end.flag");
    }

    #[derive(Packable, Debug, PartialEq)]
    #[binform(version_tolerant)]
    struct Account {
        #[binform(tag = 0)]
        id: u32,
        #[binform(tag = 1)]
        active: bool,
    }

    #[test]
    fn tolerant_fields_are_named_too() {
        let mut bytes = binform::to_vec(&Account {
            id: 9,
            active: true,
        })
        .unwrap();
        let last = bytes.len() - 1;
        bytes[last] = 3;
        let err = binform::from_slice::<Account>(&bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidBool);
        assert_eq!(err.path(), ".active");
        let map: Result<BTreeMap<bool, u8>, _> = binform::from_slice(&[0x02, 0x05, 0x01]);
        // The keys' column (§27).
        assert_eq!(map.unwrap_err().path(), "[keys]");
    }
}
