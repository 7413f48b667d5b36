//! The seed articles' scenarios and their size bounds.

use binform_tests::{kate, ten_people, CardHolder, Person};

use crate::round_trip;

/// The BinaryFormatter article: 896 bytes with BinaryFormatter, 62 written
/// by hand. binform must not exceed the hand-written size.
#[test]
fn kate_with_one_card_fits_in_62_bytes() {
    let bytes = round_trip(&kate(1));
    assert!(bytes.len() <= 62, "{} bytes", bytes.len());
    // name 1+4, birth 5, card count 1, number 1+36, expiry 5.
    assert_eq!(bytes.len(), 53);
}

#[test]
fn kate_with_ten_thousand_cards() {
    let bytes = round_trip(&kate(10_000));
    // Each card: 1 + 36 + 5 bytes; the article's hand-written form took 450,062.
    assert_eq!(bytes.len(), 5 + 5 + 2 + 10_000 * 42);
    let back: CardHolder = binform::from_slice(&bytes).unwrap();
    assert_eq!(back.cards.len(), 10_000);
}

/// Ages are zig-zag varints: 64 and above take two bytes.
fn age_len(age: i32) -> usize {
    binform::varint::len_u64(binform::varint::zigzag_i64(age as i64))
}

#[test]
fn ten_people_from_the_memorypack_article() {
    let people = ten_people();
    let bytes = round_trip(&people);
    let expected: usize = 1 + people
        .iter()
        .map(|p| {
            1 + p.name.len()
                + age_len(p.age)
                + 1
                + p.programming_keywords
                    .iter()
                    .map(|k| 1 + k.len())
                    .sum::<usize>()
        })
        .sum::<usize>();
    assert_eq!(bytes.len(), expected);
    let back: Vec<Person> = binform::from_slice(&bytes).unwrap();
    assert_eq!(back[9].name, "Jane");
}
