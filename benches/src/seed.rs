//! The seed articles' types and values.

use binform::Packable;
use serde::{Deserialize, Serialize};

/// The MemoryPack article's record.
#[derive(Packable, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Person {
    pub name: String,
    pub age: i32,
    pub programming_keywords: Vec<String>,
}

/// The MemoryPack article's list of ten people.
pub fn ten_people() -> Vec<Person> {
    let rows = [
        ("John", 20, "F#"),
        ("Mary", 25, "VB.NET"),
        ("Bob", 30, "C++"),
        ("Alice", 35, "Java"),
        ("Mark", 40, "JavaScript"),
        ("Carol", 45, "Python"),
        ("Peter", 50, "Go"),
        ("Alex", 55, "Ruby"),
        ("Simon", 60, "PHP"),
        ("Jane", 65, "Perl"),
    ];
    rows.iter()
        .map(|&(name, age, second)| Person {
            name: name.into(),
            age,
            programming_keywords: vec!["C#".into(), second.into()],
        })
        .collect()
}

/// The BinaryFormatter article's credit card: a 36-character GUID text and
/// an expiry date as Unix seconds.
#[derive(Packable, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct CreditCard {
    pub number: String,
    pub expires: i64,
}

/// The BinaryFormatter article's person: name, birth date (Unix seconds),
/// cards.
#[derive(Packable, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct CardHolder {
    pub name: String,
    pub birth: i64,
    pub cards: Vec<CreditCard>,
}

/// A deterministic GUID-shaped string (8-4-4-4-12 lowercase hex digits).
pub fn guid(seed: u64) -> String {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    let mut text = String::with_capacity(36);
    for i in 0..32 {
        if matches!(i, 8 | 12 | 16 | 20) {
            text.push('-');
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        text.push(char::from_digit((x & 0xF) as u32, 16).unwrap_or('0'));
    }
    text
}

/// 1986-02-01T00:00:00Z, Kate's birth date in the article.
pub const KATE_BIRTH: i64 = 507_600_000;
/// 2012-12-24T00:00:00Z, the cards' expiry date in the article.
pub const CARD_EXPIRES: i64 = 1_356_307_200;

/// Kate with `cards` cards, as in the article.
pub fn kate(cards: usize) -> CardHolder {
    CardHolder {
        name: "Kate".into(),
        birth: KATE_BIRTH,
        cards: (0..cards as u64)
            .map(|i| CreditCard {
                number: guid(i),
                expires: CARD_EXPIRES,
            })
            .collect(),
    }
}
