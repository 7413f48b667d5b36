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
    // The card numbers' lengths (all 36: a constant block of two bytes
    // for each 256), their 36 bytes each, and the expiry dates in packed
    // blocks (§27); the article's hand-written form took 450,062, rows
    // 420,012.
    assert!(
        bytes.len() <= 5 + 5 + 2 + 10_000 * 36 + 40 * 2 + 10_000 / 32,
        "{}",
        bytes.len()
    );
    assert_eq!(bytes.len(), 360_332);
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
    // Columns (§27): the names' lengths and bytes, the ages, then each
    // person's keywords (a length, then their own string column). The
    // ten names' lengths and ages are short blocks: one varint each.
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
    // Ten values make blocks with a header, so the two packed columns
    // save what their forms save over varints.
    assert!(bytes.len() < expected, "{} against {expected}", bytes.len());
    assert_eq!(bytes.len(), 140);
    let back: Vec<Person> = binform::from_slice(&bytes).unwrap();
    assert_eq!(back[9].name, "Jane");
}
