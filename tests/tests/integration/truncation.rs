//! Every proper prefix of a valid payload is an error, never a panic or a
//! value.

use std::borrow::Cow;

use binform::{ErrorKind, UnpackOwned};
use binform_tests::{everything, kate, ten_people, CardHolder, Everything, Person, Shape};

fn every_prefix_fails<T: UnpackOwned>(bytes: &[u8]) {
    assert!(
        binform::from_slice::<T>(bytes).is_ok(),
        "the full payload decodes"
    );
    for cut in 0..bytes.len() {
        match binform::from_slice::<T>(&bytes[..cut]) {
            Ok(_) => panic!("a prefix of {cut} of {} bytes decoded", bytes.len()),
            Err(e) => assert!(
                matches!(
                    e.kind(),
                    ErrorKind::UnexpectedEnd | ErrorKind::LimitExceeded
                ),
                "cut at {cut}: {e}"
            ),
        }
    }
}

#[test]
fn payload_with_every_type() {
    let bytes = binform::to_vec(&everything()).unwrap();
    assert!(bytes.len() > 300);
    every_prefix_fails::<Everything>(&bytes);
}

#[test]
fn seed_payloads() {
    every_prefix_fails::<Vec<Person>>(&binform::to_vec(&ten_people()).unwrap());
    every_prefix_fails::<CardHolder>(&binform::to_vec(&kate(3)).unwrap());
    every_prefix_fails::<Vec<Shape>>(
        &binform::to_vec(&vec![
            Shape::Empty,
            Shape::Rect { w: 1, h: 2 },
            Shape::Circle(1.0),
        ])
        .unwrap(),
    );
}

#[test]
fn borrowed_payload() {
    let bytes = binform::to_vec(&(Cow::<str>::Borrowed("abc"), vec!["x", "yz"])).unwrap();
    for cut in 0..bytes.len() {
        assert!(binform::from_slice::<(Cow<'_, str>, Vec<&str>)>(&bytes[..cut]).is_err());
    }
}

/// Fields of every kind a derived type reads through its cursor (and a
/// `Vec` and a `with` field, which it hands to the reader mid-struct).
#[derive(binform::Packable, Debug, PartialEq)]
struct CursorFields {
    a: u8,
    b: bool,
    c: i16,
    d: u32,
    e: i64,
    f: f32,
    g: char,
    h: String,
    i: Option<u64>,
    j: CursorInner,
    k: Vec<u16>,
    #[binform(with = "fixed_u64")]
    l: u64,
    m: i8,
}

/// A `u64` as its 8 little-endian bytes.
mod fixed_u64 {
    use binform::{Reader, Result, Writer};

    pub fn pack<L: binform::Layout>(v: &u64, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_bytes(&v.to_le_bytes());
        Ok(())
    }

    pub fn unpack<L: binform::Layout>(r: &mut Reader<'_, L>) -> Result<u64> {
        r.read_array::<8>().map(u64::from_le_bytes)
    }
}

#[derive(binform::Packable, Debug, PartialEq)]
struct CursorInner {
    x: i128,
    y: u128,
    z: f64,
}

/// The same bytes decoded field by field through the reader: a tuple.
/// (Tuples print with `Debug` up to 12 elements, hence two.)
type ReaderFields = (
    (u8, bool, i16, u32, i64, f32),
    (
        char,
        String,
        Option<u64>,
        (i128, u128, f64),
        Vec<u16>,
        // Read as 8 bytes at once, as `fixed_u64` reads.
        f64,
        i8,
    ),
);

/// What a decode produced, comparable across the two decoders.
fn outcome<T: std::fmt::Debug>(r: binform::Result<T>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        // Without the path: the derived type names its fields, the tuple
        // cannot.
        Err(e) => format!("{:?} at {:?}: {}", e.kind(), e.offset(), e.message()),
    }
}

#[test]
fn a_derived_cursor_decodes_and_fails_exactly_as_the_reader() {
    let values = [
        CursorFields {
            a: 7,
            b: true,
            c: -300,
            d: 1 << 30,
            e: i64::MIN,
            f: 1.5,
            g: 'é',
            h: "a name".into(),
            i: Some(u64::MAX),
            j: CursorInner {
                x: -(1 << 100),
                y: u128::MAX,
                z: -0.25,
            },
            k: vec![1, 2, 60000],
            l: 0x0102_0304_0506_0708,
            m: -1,
        },
        CursorFields {
            a: 0,
            b: false,
            c: 0,
            d: 0,
            e: 0,
            f: 0.0,
            g: 'a',
            h: String::new(),
            i: None,
            j: CursorInner { x: 0, y: 0, z: 0.0 },
            k: vec![],
            l: 0,
            m: 0,
        },
    ];
    for value in &values {
        let bytes = binform::to_vec(value).unwrap();
        assert_eq!(binform::from_slice::<CursorFields>(&bytes).unwrap(), *value);
        // Every prefix, so that each field is read both with 8 bytes to
        // spare (the fast path) and near the end; then every byte damaged,
        // so that each error a field can raise is raised mid-struct.
        let mut cases: Vec<Vec<u8>> = (0..bytes.len()).map(|cut| bytes[..cut].to_vec()).collect();
        for at in 0..bytes.len() {
            for flip in [0x01, 0x80, 0xFF] {
                let mut damaged = bytes.clone();
                damaged[at] ^= flip;
                cases.push(damaged);
            }
        }
        for case in &cases {
            // Values compared by their encodings (the two types encode
            // alike), errors by kind, offset and message.
            let derived = binform::from_slice::<CursorFields>(case)
                .map(|v| binform::to_vec(&v).expect("re-encode"));
            let tuple = binform::from_slice::<ReaderFields>(case)
                .map(|v| binform::to_vec(&v).expect("re-encode"));
            assert_eq!(outcome(derived), outcome(tuple), "{case:?}");
        }
    }
}
