//! Decoding that borrows from the input instead of allocating.

use std::borrow::Cow;

use binform::{Options, Packable};

#[derive(Packable, Debug, PartialEq)]
struct Borrowed<'a> {
    name: &'a str,
    raw: &'a [u8],
    note: Cow<'a, str>,
    owned: String,
}

#[test]
fn str_bytes_and_cow_borrow_from_the_input() {
    let value = Borrowed {
        name: "name",
        raw: b"\x00\x01",
        note: Cow::Borrowed("note"),
        owned: "o".into(),
    };
    let bytes = binform::to_vec(&value).unwrap();
    let back: Borrowed<'_> = binform::from_slice(&bytes).unwrap();
    assert_eq!(back, value);
    let range = bytes.as_ptr_range();
    assert!(
        range.contains(&back.name.as_ptr()),
        "name points into the input"
    );
    assert!(
        range.contains(&back.raw.as_ptr()),
        "raw points into the input"
    );
    match back.note {
        Cow::Borrowed(s) => assert!(range.contains(&s.as_ptr())),
        Cow::Owned(_) => panic!("Cow<str> should borrow"),
    }
}

#[test]
fn borrowed_top_level_values() {
    let bytes = binform::to_vec("top").unwrap();
    let s: &str = binform::from_slice(&bytes).unwrap();
    assert_eq!(s, "top");
    let list = binform::to_vec(&vec!["a", "b"]).unwrap();
    let v: Vec<&str> = Options::new().from_slice(&list).unwrap();
    assert_eq!(v, ["a", "b"]);
}

#[derive(Packable, Debug, PartialEq)]
enum Token<'a> {
    Word(&'a str),
    Number(i64),
}

#[test]
fn borrowing_enum() {
    let tokens = vec![Token::Word("let"), Token::Number(5)];
    let bytes = binform::to_vec(&tokens).unwrap();
    let back: Vec<Token<'_>> = binform::from_slice(&bytes).unwrap();
    assert_eq!(back, tokens);
}
