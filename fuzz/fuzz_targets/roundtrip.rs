#![no_main]
//! Fuzz target (e): builds values with `arbitrary`, encodes and decodes
//! them, and asserts that the round trip gives back an equal value and the
//! same bytes.

use std::collections::{BTreeMap, HashMap};

use arbitrary::Arbitrary;
use binform::Packable;

#[derive(Arbitrary, Packable, Debug, PartialEq)]
enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Big(i128),
    Float(u64), // bits, so NaN compares equal
    Text(String),
    Bytes(Vec<u8>),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
}

#[derive(Arbitrary, Packable, Debug, PartialEq)]
struct Record {
    id: u64,
    small: u8,
    signed: i16,
    ch: char,
    name: String,
    maybe: Option<u32>,
    pair: (u16, i32),
    fixed: [i8; 4],
    values: Vec<Value>,
    index: HashMap<u32, String>,
}

/// A field of every tolerant wire type, sparse tags among them.
#[derive(Arbitrary, Packable, Debug, Default)]
#[binform(version_tolerant)]
struct Tolerant {
    a: u32,
    b: String,
    c: Vec<i64>,
    d: bool,
    e: Option<u64>,
    f: Option<Option<i8>>,
    #[binform(tag = 40)]
    g: f32,
    h: Vec<u8>,
    i: Option<String>,
    #[binform(tag = 1000)]
    j: u128,
    k: Option<Vec<u16>>,
    l: char,
    m: Nested,
    n: f64,
}

#[derive(Arbitrary, Packable, Debug, PartialEq, Default)]
#[binform(version_tolerant)]
enum Nested {
    #[default]
    Empty,
    One(i16),
    Two { x: Option<u8>, y: String },
}

libfuzzer_sys::fuzz_target!(|input: (Record, Tolerant)| {
    // Values nested past the depth limit are refused by the encoder too
    // (the first finding of this target: they used to encode and then
    // fail to decode).
    let bytes = match binform::to_vec(&input.0) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == binform::ErrorKind::LimitExceeded => return,
        Err(e) => panic!("encode: {e}"),
    };
    let back: Record = binform::from_slice(&bytes).expect("decode what was encoded");
    assert_eq!(back, input.0);
    let bytes = binform::to_vec(&input.1).expect("encode");
    let back: Tolerant = binform::from_slice(&bytes).expect("decode what was encoded");
    // Compared through the encoding, which keeps float bits (NaN != NaN).
    assert_eq!(binform::to_vec(&back).expect("re-encode"), bytes);
});
