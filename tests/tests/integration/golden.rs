//! The value -> bytes tables of docs/format.md, one assertion per row.
//! A change here is a change of the wire format.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddrV4};
use std::num::NonZeroU8;
use std::time::{Duration, UNIX_EPOCH};

use binform::{Pack, Packable, UnpackOwned};

fn row<T: Pack + UnpackOwned + PartialEq + std::fmt::Debug>(value: T, bytes: &[u8]) {
    assert_eq!(
        binform::to_vec(&value).unwrap(),
        bytes,
        "encoding {value:?}"
    );
    assert_eq!(
        binform::from_slice::<T>(bytes).unwrap(),
        value,
        "decoding {bytes:02x?}"
    );
}

#[test]
fn section_integers() {
    row(0u8, &[0x00]);
    row(255u8, &[0xFF]);
    row(-1i8, &[0xFF]);
    row(0u32, &[0x00]);
    row(127u32, &[0xFE]);
    row(128u32, &[0x01, 0x02]);
    row(300u16, &[0xB1, 0x04]);
    row(16_384u32, &[0x03, 0x00, 0x02]);
    row(u16::MAX, &[0xFB, 0xFF, 0x07]);
    row(u32::MAX, &[0xEF, 0xFF, 0xFF, 0xFF, 0x1F]);
    row(u64::MAX, &[0xFF; 9]);
    row(1usize, &[0x02]);
    row(0i32, &[0x00]);
    row(-1i32, &[0x02]);
    row(1i32, &[0x04]);
    row(-64i32, &[0xFE]);
    row(64i32, &[0x01, 0x02]);
    row(i64::MIN, &[0xFF; 9]);
    row(
        i64::MAX,
        &[0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
    );
    row(1u128 << 64, &[0xFF, 0x09, 0, 0, 0, 0, 0, 0, 0, 0, 0x01]);
    row(-1i128, &[0x02]);
    row(5u128, &[0x0A]);
}

#[test]
fn section_scalars() {
    row(false, &[0x00]);
    row(true, &[0x01]);
    row(1.0f32, &[0x00, 0x00, 0x80, 0x3F]);
    row(-2.0f64, &[0, 0, 0, 0, 0, 0, 0, 0xC0]);
    row('A', &[0x82]);
    row('€', &[0xB1, 0x82]);
    row((), &[]);
}

#[test]
fn section_strings_and_sequences() {
    row(String::from("hi"), &[0x04, b'h', b'i']);
    row(String::new(), &[0x00]);
    row(vec![1u8, 2], &[0x04, 0x01, 0x02]);
    row(Vec::<u16>::new(), &[0x00]);
    row(vec![300u16], &[0x02, 0xB1, 0x04]);
    row([1u16, 2], &[0x02, 0x04]);
    row(vec![1u16, 2], &[0x04, 0x02, 0x04]);
    row([[1u8, 2], [3, 4]], &[1, 2, 3, 4]);
    row((1u8, true), &[0x01, 0x01]);
    row(Box::new(7u8), &[0x07]);
}

#[test]
fn section_packed_integers() {
    row(vec![300u16], &[0x02, 0xB1, 0x04]);
    row(vec![42u32; 8], &[0x10, 0x01, 0x54]);
    row([42u32; 8], &[0x01, 0x54]);
    row(
        (1000..1008u32).collect::<Vec<_>>(),
        &[0x10, 0x07, 0x03, 0xA1, 0x0F, 0x88, 0xC6, 0xFA],
    );
    row(
        (0..8).map(|i| 1000 + 255 * (i % 2)).collect::<Vec<u32>>(),
        &[0x10, 0x02, 0xA1, 0x0F, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0, 0xFF],
    );
    row(
        vec![-4i32, -3, -2, -1, 0, 1, 2, 3],
        &[0x10, 0x07, 0x03, 0x0E, 0x88, 0xC6, 0xFA],
    );
    row(
        vec![0u32, 1, 0, 1, 0, 1, 0, 100_000],
        &[
            0x10, 0x00, 0x00, 0x02, 0x00, 0x02, 0x00, 0x02, 0x00, 0x03, 0x35, 0x0C,
        ],
    );
    // Byte lengths, 2-bit codes: zig-zagged, i16::MIN is 65535 and
    // i16::MAX 65534, two bytes each (code 1, so 0x55 for four values):
    // 18 bytes, where 2-byte offsets take 19.
    let mut extremes = vec![0x10, 0x08, 0x55, 0x55];
    for _ in 0..4 {
        extremes.extend_from_slice(&[0xFF, 0xFF, 0xFE, 0xFF]);
    }
    row([i16::MIN, i16::MAX].repeat(4), &extremes);
    // Mixed magnitudes: lengths 1, 2, 1, 4 (codes 0b11_00_01_00 = 0xC4),
    // twice: 2 + 16 bytes, against 22 of varints and 33 of 4-byte offsets.
    row(
        [5u32, 60_000, 200, 4_000_000_000].repeat(2),
        &[
            0x10, 0x08, 0xC4, 0xC4, 0x05, 0x60, 0xEA, 0xC8, 0x00, 0x28, 0x6B, 0xEE, 0x05, 0x60,
            0xEA, 0xC8, 0x00, 0x28, 0x6B, 0xEE,
        ],
    );
    // 4-bit codes once a payload passes 4 bytes: lengths 8 and 1 (codes
    // 7 and 0, so 0x07 for each pair).
    let mut wide = vec![0x10, 0x09, 0x07, 0x07, 0x07, 0x07];
    for _ in 0..4 {
        wide.extend_from_slice(&(1u64 << 60).to_le_bytes());
        wide.push(0x00);
    }
    row([1u64 << 60, 0].repeat(4), &wide);
    let mut top = vec![0x10, 0x07, 0x03, 0xFF, 0xF8];
    top.extend_from_slice(&[0xFF; 7]);
    top.extend_from_slice(&[0x77, 0x39, 0x05]);
    row((0..8).map(|i| u64::MAX - i).collect::<Vec<_>>(), &top);
}

#[test]
fn section_numbers_with_rules_and_os_strings() {
    row(std::cmp::Ordering::Less, &[0xFF]);
    row(std::cmp::Ordering::Equal, &[0x00]);
    row(std::cmp::Ordering::Greater, &[0x01]);
    row(std::ffi::CString::new("hi").unwrap(), &[0x04, b'h', b'i']);
    row(std::path::PathBuf::from("a/b"), &[0x06, b'a', b'/', b'b']);
    row(std::ffi::OsString::from("é"), &[0x04, 0xC3, 0xA9]);
}

#[test]
fn section_option_result() {
    row(None::<u8>, &[0x00]);
    row(Some(5u8), &[0x01, 0x05]);
    row(Ok::<u8, u8>(1), &[0x00, 0x01]);
    row(Err::<u8, u8>(2), &[0x01, 0x02]);
}

#[test]
fn section_maps() {
    row(
        [(1u8, 2u8)].into_iter().collect::<BTreeMap<_, _>>(),
        &[0x02, 0x01, 0x02],
    );
    // The keys' column, then the values' (§27).
    row(
        [(1u8, 2u8), (3, 4)].into_iter().collect::<BTreeMap<_, _>>(),
        &[0x04, 0x01, 0x03, 0x02, 0x04],
    );
    row(
        [("a".to_string(), 1u32)]
            .into_iter()
            .collect::<BTreeMap<_, _>>(),
        &[0x02, 0x02, b'a', 0x02],
    );
}

#[test]
fn section_std_types() {
    row(Duration::new(1, 5), &[0x02, 0x0A]);
    row(UNIX_EPOCH - Duration::from_secs(1), &[0x01 << 1, 0x00]);
    row(Ipv4Addr::new(1, 2, 3, 4), &[1, 2, 3, 4]);
    row(IpAddr::V4(Ipv4Addr::new(1, 2, 3, 4)), &[0, 1, 2, 3, 4]);
    let mut v6 = vec![1u8];
    v6.extend(Ipv6Addr::LOCALHOST.octets());
    row(IpAddr::V6(Ipv6Addr::LOCALHOST), &v6);
    row(
        SocketAddrV4::new(Ipv4Addr::new(1, 2, 3, 4), 80),
        &[1, 2, 3, 4, 0xA0],
    );
    row(NonZeroU8::new(5).unwrap(), &[0x05]);
    row(1u8..3, &[0x01, 0x03]);
    row(std::marker::PhantomData::<u64>, &[]);
}

#[test]
fn section_shared_references() {
    let rc = std::rc::Rc::new(7u8);
    row((rc.clone(), rc), &[0x00, 0x07, 0x04]);
    row(std::rc::Rc::new(String::from("a")), &[0x00, 0x02, b'a']);
    let arc = std::sync::Arc::new(1u16);
    row(
        vec![arc.clone(), arc.clone(), arc],
        &[0x06, 0x00, 0x02, 0x04, 0x04],
    );
}

#[derive(Packable, Debug, PartialEq, Default)]
#[binform(version_tolerant)]
struct Tolerant {
    a: u8,
    b: u8,
}

#[derive(Packable, Debug, PartialEq)]
#[binform(version_tolerant)]
enum TolerantEnum {
    Unit,
    Data(u8),
}

/// One field of every wire type (format.md §12).
#[derive(Packable, Debug, PartialEq, Default)]
#[binform(version_tolerant)]
struct Wires {
    a: u16,
    b: bool,
    c: f32,
    d: f64,
    e: String,
    f: Vec<u8>,
    g: Option<u32>,
    h: Option<u32>,
    i: Vec<u16>,
    j: (u8, u8),
    #[binform(tag = 30)]
    k: u8,
}

#[test]
fn section_tolerant() {
    // Count 2; key (gap 0, byte) = 0x02 before each value.
    row(Tolerant { a: 1, b: 2 }, &[0x04, 0x02, 0x01, 0x02, 0x02]);
    row(TolerantEnum::Unit, &[0x00, 0x00]);
    // Variant tag 1, body length 3: count 1, key, value.
    row(TolerantEnum::Data(7), &[0x02, 0x06, 0x02, 0x02, 0x07]);
    let wires = Wires {
        a: 300,
        b: true,
        c: 1.0,
        d: -2.0,
        e: "hi".into(),
        f: vec![9],
        g: None,
        h: Some(5),
        i: vec![1, 2],
        j: (1, 2),
        k: 3,
    };
    #[rustfmt::skip]
    let bytes = [
        0x16,                                           // 11 fields
        0x00, 0xB1, 0x04,                               // a: varint 300
        0x02, 0x01,                                     // b: byte
        0x04, 0x00, 0x00, 0x80, 0x3F,                   // c: fixed4
        0x06, 0, 0, 0, 0, 0, 0, 0x00, 0xC0,             // d: fixed8
        0x08, 0x04, b'h', b'i',                         // e: bytes
        0x08, 0x02, 0x09,                               // f: bytes (Vec<u8>)
        0x0C,                                           // g: null (None)
        0x00, 0x0A,                                     // h: Some(5), as a varint
        0x0E, 0x01, 0x04, 0x02, 0x04,                   // i: sequence of packed integers
        0x0A, 0x04, 0x01, 0x02,                         // j: framed, 2 bytes
        0x85, 0x02, 0x03,                               // k: tag 30, gap 20: key 161 (two bytes)
    ];
    row(wires, &bytes);
}

#[derive(Packable, Debug, PartialEq)]
enum E {
    A,
    B(u8),
    C { x: bool },
}

#[derive(Packable, Debug, PartialEq)]
struct S {
    a: u8,
    b: String,
}

#[test]
fn section_derived() {
    row(E::A, &[0x00]);
    row(E::B(9), &[0x02, 0x09]);
    row(E::C { x: true }, &[0x04, 0x01]);
    row(
        S {
            a: 1,
            b: "z".into(),
        },
        &[0x01, 0x02, b'z'],
    );
}

#[derive(Packable, Debug, PartialEq, Clone)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Packable, Debug, PartialEq, Clone)]
enum Shape {
    Empty,
    Circle(u32),
}

#[derive(Packable, Debug, PartialEq, Clone)]
struct Rgb(u8, u8, u8);

#[derive(Packable, Debug, PartialEq, Clone)]
struct Person {
    name: String,
    age: u8,
    tags: Vec<String>,
}

#[test]
fn section_columns() {
    let s = |t: &str| t.to_string();
    // Lengths (a short packed block), then the bytes.
    row(vec![s("ab"), s("c")], &[0x04, 0x04, 0x02, b'a', b'b', b'c']);
    // Presence bits 0b101, then the present values' column.
    row(vec![Some(5u32), None, Some(7)], &[0x06, 0x05, 0x0A, 0x0E]);
    row(vec![Some(s("a")), None], &[0x04, 0x01, 0x02, b'a']);
    // x's column (1, 2), then y's (−1, −2).
    row(
        vec![Point { x: 1, y: -1 }, Point { x: 2, y: -2 }],
        &[0x04, 0x04, 0x08, 0x02, 0x06],
    );
    // The indexes (1, 0, 1), then Circle's field over its two elements.
    row(
        vec![Shape::Circle(3), Shape::Empty, Shape::Circle(4)],
        &[0x06, 0x02, 0x00, 0x02, 0x06, 0x08],
    );
    // A string column, a `u8` column (rows), then a column of sequences:
    // their counts (2, 0), then one string column of all their strings.
    row(
        vec![
            Person {
                name: s("a"),
                age: 30,
                tags: vec![s("x"), s("y")],
            },
            Person {
                name: s("bc"),
                age: 40,
                tags: vec![],
            },
        ],
        &[
            0x04, 0x02, 0x04, b'a', b'b', b'c', 0x1E, 0x28, 0x04, 0x00, 0x02, 0x02, b'x', b'y',
        ],
    );
    // Bools are bits; with presence bits, then bits of the present ones.
    row(vec![true, false, true, true], &[0x08, 0x0D]);
    row(vec![Some(true), None, Some(false)], &[0x06, 0x05, 0x01]);
    row([true, true, false], &[0x03]);
    // Sequences flatten: the counts, then one column of all elements.
    row(
        vec![vec![1u16, 2], vec![], vec![3]],
        &[0x06, 0x04, 0x00, 0x02, 0x02, 0x04, 0x06],
    );
    row(
        vec![vec![0u8, 1], vec![2]],
        &[0x04, 0x04, 0x02, 0x00, 0x01, 0x02],
    );
    // No elements, no columns.
    row(Vec::<Point>::new(), &[0x00]);
    // A struct whose fields' columns would all be rows is rows.
    row(
        vec![Rgb(1, 2, 3), Rgb(4, 5, 6)],
        &[0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06],
    );
    row(vec![Rgb(1, 2, 3)], &[0x02, 0x01, 0x02, 0x03]);
    // An array: no length, the same columns.
    row([Point { x: 1, y: -1 }], &[0x04, 0x02]);
    // Tuples: each element's column; wrappers take their contents'
    // sequences.
    row(vec![(1u8, 2u8)], &[0x02, 0x01, 0x02]);
    row(
        vec![(1u8, 300u16), (2, 5)],
        &[0x04, 0x01, 0x02, 0xB1, 0x04, 0x0A],
    );
    row(vec![std::num::Wrapping(300u16)], &[0x02, 0xB1, 0x04]);
    row(vec![Box::new(s("z"))], &[0x02, 0x02, b'z']);
}

/// A row of §26: the value's bytes in the fixed layout, and back.
fn fixed_row<T: Pack + UnpackOwned + PartialEq + std::fmt::Debug>(value: T, bytes: &[u8]) {
    assert_eq!(
        binform::fixed::to_vec(&value).unwrap(),
        bytes,
        "encoding {value:?} (fixed)"
    );
    assert_eq!(
        binform::fixed::from_slice::<T>(bytes).unwrap(),
        value,
        "decoding {bytes:02x?} (fixed)"
    );
}

#[test]
fn section_fixed_layout() {
    fixed_row(1u16, &[0x01, 0x00]);
    fixed_row(-2i16, &[0xFE, 0xFF]);
    fixed_row(300u32, &[0x2C, 0x01, 0x00, 0x00]);
    fixed_row(-1i32, &[0xFF; 4]);
    fixed_row(u64::MAX, &[0xFF; 8]);
    fixed_row(1usize, &[1, 0, 0, 0, 0, 0, 0, 0]);
    fixed_row(-1isize, &[0xFF; 8]);
    fixed_row(
        1u128 << 64,
        &[0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
    );
    fixed_row(-1i128, &[0xFF; 16]);
    fixed_row('A', &[0x41, 0, 0, 0]);
    fixed_row('€', &[0xAC, 0x20, 0, 0]);
    fixed_row(vec![1u32, 2], &[0x04, 1, 0, 0, 0, 2, 0, 0, 0]);
    fixed_row([1u16, 2], &[1, 0, 2, 0]);
    fixed_row(Some(7u32), &[0x01, 7, 0, 0, 0]);
    fixed_row(String::from("hi"), &[0x04, b'h', b'i']);
    fixed_row((1u8, 2u16), &[0x01, 0x02, 0x00]);
    fixed_row(
        Duration::new(1, 5),
        &[1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0],
    );
    fixed_row(Point { x: 1, y: -1 }, &[1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]);
    // The unchanged leaves of the first row.
    fixed_row(true, &[0x01]);
    fixed_row(-2.0f64, &[0, 0, 0, 0, 0, 0, 0, 0xC0]);
    fixed_row(E::B(9), &[0x02, 0x09]);
}

#[test]
fn section_fixed_layout_headers() {
    let opts = binform::Options::new().fixed_width().fingerprint(true);
    let bytes = opts.to_vec(&Point { x: 1, y: -1 }).unwrap();
    assert_eq!(&bytes[..4], b"BFM\x83");
    assert_eq!(
        &bytes[4..12],
        binform::schema::fingerprint_of::<Point>().to_le_bytes()
    );
    assert_eq!(&bytes[12..], [1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]);
    let described = binform::Options::new()
        .fixed_width()
        .self_describing(true)
        .to_vec(&Point { x: 1, y: -1 })
        .unwrap();
    assert_eq!(&described[..4], b"BFS\x83");
}
