//! Version-tolerant types: two versions of the same nested types, in two
//! modules, exchange payloads in both directions.

use binform::{ErrorKind, Packable};

mod v1 {
    use binform::Packable;

    #[derive(Packable, Debug, Clone, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub struct Address {
        #[binform(tag = 0)]
        pub street: String,
        #[binform(tag = 1)]
        pub city: String,
    }

    #[derive(Packable, Debug, Clone, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub enum Status {
        #[default]
        #[binform(tag = 0)]
        Active,
        #[binform(tag = 1)]
        Suspended { reason: String },
    }

    #[derive(Packable, Debug, Clone, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub struct Customer {
        #[binform(tag = 0)]
        pub id: u64,
        #[binform(tag = 1)]
        pub name: String,
        #[binform(tag = 2)]
        pub address: Address,
        #[binform(tag = 3)]
        pub phone: String,
        #[binform(tag = 4)]
        pub status: Status,
    }
}

mod v2 {
    use binform::Packable;

    #[derive(Packable, Debug, Clone, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub struct Address {
        #[binform(tag = 0)]
        pub street: String,
        /// Added in v2.
        #[binform(tag = 2)]
        pub postcode: Option<String>,
        #[binform(tag = 1)]
        pub city: String,
    }

    #[derive(Packable, Debug, Clone, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub enum Status {
        #[default]
        #[binform(tag = 0)]
        Active,
        #[binform(tag = 1)]
        Suspended {
            reason: String,
            #[binform(default = "super::forever")]
            days: u32,
        },
        /// Added in v2: a v1 reader has no such variant.
        #[binform(tag = 2)]
        Closed,
    }

    /// v2 renames `name` to `full_name` (same tag), removes `phone` (tag 3,
    /// reserved), and adds `email` in the middle and `loyalty` at the end.
    #[derive(Packable, Debug, Clone, PartialEq, Default)]
    #[binform(version_tolerant, reserved = [3])]
    pub struct Customer {
        #[binform(tag = 0)]
        pub id: u64,
        #[binform(tag = 1)]
        pub full_name: String,
        #[binform(tag = 5)]
        pub email: String,
        #[binform(tag = 2)]
        pub address: Address,
        #[binform(tag = 4)]
        pub status: Status,
        #[binform(tag = 6, default = "super::bronze")]
        pub loyalty: u8,
    }
}

fn forever() -> u32 {
    u32::MAX
}

fn bronze() -> u8 {
    1
}

fn v1_customer(id: u64) -> v1::Customer {
    v1::Customer {
        id,
        name: format!("customer {id}"),
        address: v1::Address {
            street: "1 Main St".into(),
            city: "Springfield".into(),
        },
        phone: "555-0100".into(),
        status: if id.is_multiple_of(2) {
            v1::Status::Active
        } else {
            v1::Status::Suspended {
                reason: "late".into(),
            }
        },
    }
}

fn v2_customer(id: u64) -> v2::Customer {
    v2::Customer {
        id,
        full_name: format!("customer {id}"),
        email: format!("c{id}@example.com"),
        address: v2::Address {
            street: "2 Side St".into(),
            postcode: Some("12345".into()),
            city: "Shelbyville".into(),
        },
        status: v2::Status::Suspended {
            reason: "audit".into(),
            days: 30,
        },
        loyalty: 3,
    }
}

#[test]
fn new_reader_reads_old_payloads() {
    let old = v1_customer(7);
    let bytes = binform::to_vec(&old).unwrap();
    let new: v2::Customer = binform::from_slice(&bytes).unwrap();
    assert_eq!(new.id, 7);
    assert_eq!(new.full_name, "customer 7", "renamed field keeps its tag");
    assert_eq!(new.email, "", "missing field takes Default");
    assert_eq!(new.loyalty, 1, "missing field takes its default path");
    assert_eq!(new.address.postcode, None);
    assert_eq!(new.address.city, "Springfield");
    assert_eq!(
        new.status,
        v2::Status::Suspended {
            reason: "late".into(),
            days: u32::MAX
        }
    );
}

#[test]
fn old_reader_reads_new_payloads() {
    let new = v2_customer(8);
    let bytes = binform::to_vec(&new).unwrap();
    let old: v1::Customer = binform::from_slice(&bytes).unwrap();
    assert_eq!(old.id, 8);
    assert_eq!(old.name, "customer 8");
    assert_eq!(old.phone, "", "a field the writer removed takes Default");
    assert_eq!(
        old.address,
        v1::Address {
            street: "2 Side St".into(),
            city: "Shelbyville".into()
        }
    );
    assert_eq!(
        old.status,
        v1::Status::Suspended {
            reason: "audit".into()
        }
    );
}

#[test]
fn lists_of_them_both_ways() {
    let olds: Vec<v1::Customer> = (0..20).map(v1_customer).collect();
    let news: Vec<v2::Customer> = binform::from_slice(&binform::to_vec(&olds).unwrap()).unwrap();
    assert_eq!(news.len(), 20);
    assert!(news
        .iter()
        .zip(&olds)
        .all(|(n, o)| n.id == o.id && n.full_name == o.name));

    let news: Vec<v2::Customer> = (0..20).map(v2_customer).collect();
    let olds: Vec<v1::Customer> = binform::from_slice(&binform::to_vec(&news).unwrap()).unwrap();
    assert!(olds
        .iter()
        .zip(&news)
        .all(|(o, n)| o.id == n.id && o.address.city == n.address.city));
}

#[test]
fn same_version_round_trips() {
    crate::round_trip(&v1_customer(1));
    crate::round_trip(&v2_customer(2));
    crate::round_trip(&vec![v2::Status::Active, v2::Status::Closed]);
}

#[test]
fn unknown_variant_is_an_error_without_a_catch_all() {
    let bytes = binform::to_vec(&v2::Status::Closed).unwrap();
    let err = binform::from_slice::<v1::Status>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownVariant);
}

mod with_other {
    use binform::Packable;

    #[derive(Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub enum Status {
        #[default]
        Active,
        Suspended {
            reason: String,
        },
        /// Tag 9, so v2's `Closed` (tag 2) is unknown here.
        #[binform(other, tag = 9)]
        Unknown,
    }
}

#[test]
fn unknown_variant_maps_to_the_catch_all() {
    let bytes = binform::to_vec(&vec![v2::Status::Closed, v2::Status::Active]).unwrap();
    let back: Vec<with_other::Status> = binform::from_slice(&bytes).unwrap();
    assert_eq!(
        back,
        [with_other::Status::Unknown, with_other::Status::Active]
    );
}

/// Tolerant types nest inside compact ones and the other way round.
#[derive(Packable, Debug, PartialEq)]
struct CompactEnvelope {
    seq: u32,
    customer: v2::Customer,
    trailer: [u8; 2],
}

#[derive(Packable, Debug, PartialEq, Default)]
#[binform(version_tolerant)]
struct TolerantOuter {
    inner: CompactInner,
    label: String,
}

#[derive(Packable, Debug, PartialEq, Default)]
struct CompactInner {
    x: i32,
    y: i32,
}

#[test]
fn nesting_both_ways() {
    crate::round_trip(&CompactEnvelope {
        seq: 1,
        customer: v2_customer(3),
        trailer: [9, 9],
    });
    crate::round_trip(&TolerantOuter {
        inner: CompactInner { x: -1, y: 1 },
        label: "l".into(),
    });
}

/// Implicit tags are positions (one more than the previous field's tag).
#[derive(Packable, Debug, PartialEq, Default)]
#[binform(version_tolerant)]
struct Implicit {
    a: u8,
    b: u8,
    #[binform(tag = 10)]
    c: u8,
    d: u8,
}

#[test]
fn wire_form_of_a_tolerant_struct() {
    let bytes = binform::to_vec(&Implicit {
        a: 1,
        b: 2,
        c: 3,
        d: 4,
    })
    .unwrap();
    // Count 4; then (key, value) per field. Keys are gap << 3 | wire type
    // (byte = 1), doubled by the one-byte varint form: tags 0 and 1 have
    // gap 0 (key 0x02), tag 10 follows tag 1 with gap 8 (key 65 = 0x82),
    // tag 11 has gap 0 again.
    assert_eq!(bytes, [0x08, 0x02, 1, 0x02, 2, 0x82, 3, 0x02, 4]);
    // A field longer than 127 bytes takes a two-byte length.
    let long = TolerantOuter {
        inner: CompactInner::default(),
        label: "x".repeat(200),
    };
    crate::round_trip(&long);
}

#[test]
fn malformed_tolerant_payloads_are_errors() {
    let kind = |bytes: &[u8]| binform::from_slice::<Implicit>(bytes).unwrap_err().kind();
    // A sequence (wire type 7) whose element byte names no element type
    // (5: framed), and one of packed integers (1) where the field is a
    // `u8`.
    assert_eq!(kind(&[0x02, 0x0E, 0x05, 0x00]), ErrorKind::InvalidValue);
    assert_eq!(kind(&[0x02, 0x0E, 0x01, 0x00]), ErrorKind::InvalidValue);
    // A gap that takes the tag past 2^32 - 1.
    let mut bytes = vec![0x02];
    let (key, n) = binform::varint::encode_u64((1u64 << 35) | 1);
    bytes.extend_from_slice(&key[..n]);
    bytes.push(1);
    assert_eq!(kind(&bytes), ErrorKind::InvalidValue);
    // A known field with another wire type than the reader's (a varint for
    // a u8 field).
    let err = binform::from_slice::<Implicit>(&[0x02, 0x00, 0x02]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert!(err.to_string().contains("wire type varint"), "{err}");
    // A framed field whose length says 3 bytes but holds a 2-byte value.
    let bytes = [0x02, 0x0A, 0x06, 0x02, 0x04, 0x00];
    assert_eq!(
        binform::from_slice::<TolerantOuter>(&bytes)
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidValue
    );
    // A field count the remaining input cannot hold fails before any field.
    let err = binform::from_slice::<Implicit>(&[0x14, 0x02, 1]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(err.offset(), Some(0));
    // A frame length beyond the input.
    let bytes = [0x02, 0x0A, 0x40, 1];
    assert_eq!(
        binform::from_slice::<TolerantOuter>(&bytes)
            .unwrap_err()
            .kind(),
        ErrorKind::UnexpectedEnd
    );
    // Every prefix of a valid payload fails.
    let bytes = binform::to_vec(&v2_customer(5)).unwrap();
    for cut in 0..bytes.len() {
        assert!(binform::from_slice::<v1::Customer>(&bytes[..cut]).is_err());
        assert!(binform::from_slice::<v2::Customer>(&bytes[..cut]).is_err());
    }
}

mod wide {
    use binform::Packable;

    /// A field of every wire type, then one the narrow reader knows.
    #[derive(Packable, Debug, PartialEq, Default, Clone)]
    #[binform(version_tolerant)]
    pub struct Record {
        pub a: u64,
        pub b: bool,
        pub c: f32,
        pub d: f64,
        pub e: String,
        pub f: Vec<u8>,
        pub g: Option<u32>,
        pub h: Option<i64>,
        pub i: Vec<String>,
        pub j: Vec<f64>,
        pub k: Vec<i32>,
        pub l: Vec<f32>,
        #[binform(tag = 40)]
        pub far: u8,
        pub last: String,
        pub o: Option<Option<u8>>,
    }
}

mod narrow {
    use binform::Packable;

    /// Knows only the last fields of `wide::Record`; `g` changed from
    /// `Option<u32>` to `u32` would not be compatible, so it is left out.
    #[derive(Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub struct Record {
        #[binform(tag = 41)]
        pub last: String,
        #[binform(tag = 0)]
        pub a: Option<u64>,
        #[binform(tag = 42)]
        pub o: Option<Option<u8>>,
    }
}

fn wide_record() -> wide::Record {
    wide::Record {
        a: u64::MAX,
        b: true,
        c: 1.5,
        d: f64::MIN_POSITIVE,
        e: "é".repeat(100),
        f: vec![1; 300],
        g: None,
        h: Some(-1),
        i: vec!["x".into(), "y".into()],
        j: vec![0.5; 20],
        k: vec![-300, 5, i32::MIN],
        l: vec![1.0, f32::NAN],
        far: 9,
        last: "kept".into(),
        o: Some(None),
    }
}

#[test]
fn unknown_fields_of_every_wire_type_are_skipped() {
    let bytes = binform::to_vec(&wide_record()).unwrap();
    let narrow: narrow::Record = binform::from_slice(&bytes).unwrap();
    // `a` changed from u64 to Option<u64>: a varint field reads as Some.
    assert_eq!(
        narrow,
        narrow::Record {
            last: "kept".into(),
            a: Some(u64::MAX),
            o: Some(None),
        }
    );
    let again = binform::to_vec(&binform::from_slice::<wide::Record>(&bytes).unwrap()).unwrap();
    assert_eq!(again, bytes);
    // The other way: fields the narrow writer lacks take their defaults.
    let back: wide::Record = binform::from_slice(&binform::to_vec(&narrow).unwrap()).unwrap();
    assert_eq!(back.last, "kept");
    assert_eq!(back.a, u64::MAX);
    assert_eq!(back.o, Some(None));
    assert_eq!(back.e, "");
}

#[test]
fn hostile_sequence_counts_fail_before_skipping() {
    // An unknown field (tag 4 for `Implicit`, which knows 0, 1, 10, 11)
    // that claims a sequence of 100,000 varints in a few bytes.
    let mut bytes = vec![0x02, 0x4E, 0x00];
    let (count, n) = binform::varint::encode_u64(100_000);
    bytes.extend_from_slice(&count[..n]);
    bytes.extend_from_slice(&[0, 0, 0]);
    let err = binform::from_slice::<Implicit>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(err.offset(), Some(3));
    // Beyond an explicit `max_len` it is a limit, before anything else.
    let mut bytes = vec![0x02, 0x4E, 0x00];
    let (count, n) = binform::varint::encode_u64(1 << 40);
    bytes.extend_from_slice(&count[..n]);
    let err = binform::Options::new()
        .max_len(1 << 20)
        .from_slice::<Implicit>(&bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    let err = binform::from_slice::<Implicit>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    // Fixed-size elements: the count times the size must fit.
    let bytes = [0x02, 0x4E, 0x03, 0x04, 0, 0, 0, 0, 0, 0, 0, 0];
    let err = binform::from_slice::<Implicit>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
}

#[test]
fn option_fields_use_the_null_wire_type() {
    // `None` is a one-byte field; `Some(None)` of a nested option stays
    // distinct from `None` because options of options are framed.
    for o in [None, Some(None), Some(Some(3))] {
        let value = wide::Record {
            o,
            ..Default::default()
        };
        crate::round_trip(&value);
    }
    // A `None` written where the reader's field is not an option is an
    // error, not a default.
    #[derive(Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    struct Opt {
        v: Option<u32>,
    }
    #[derive(Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    struct Plain {
        v: u32,
    }
    let none = binform::to_vec(&Opt { v: None }).unwrap();
    assert_eq!(none, [0x02, 0x0C]);
    let err = binform::from_slice::<Plain>(&none).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let some = binform::to_vec(&Opt { v: Some(7) }).unwrap();
    assert_eq!(binform::from_slice::<Plain>(&some).unwrap(), Plain { v: 7 });
}

#[test]
fn sparse_tags_and_reordered_declarations() {
    // Tags far apart take two-byte keys and the general decode path; the
    // declaration order does not matter, only the tags.
    #[derive(Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    struct Sparse {
        #[binform(tag = 1000)]
        z: String,
        #[binform(tag = 3)]
        a: u16,
        #[binform(tag = 70000)]
        m: Vec<u32>,
    }
    #[derive(Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    struct SparseSorted {
        #[binform(tag = 3)]
        a: u16,
        #[binform(tag = 1000)]
        z: String,
        #[binform(tag = 70000)]
        m: Vec<u32>,
    }
    let value = Sparse {
        z: "z".into(),
        a: 5,
        m: vec![1, 2, 3],
    };
    crate::round_trip(&value);
    let bytes = binform::to_vec(&value).unwrap();
    let sorted: SparseSorted = binform::from_slice(&bytes).unwrap();
    assert_eq!(
        (sorted.a, sorted.z.as_str(), sorted.m),
        (5, "z", vec![1, 2, 3])
    );
}

/// `#[binform(required)]`: a tolerant field with no default, whose absence
/// is an error naming it.
mod required {
    use binform::{ErrorKind, Packable};

    /// A type without `Default`: only `required` lets it be a tolerant field.
    #[derive(Packable, Debug, PartialEq, Clone)]
    pub struct AccountId(pub u64);

    pub mod v1 {
        #[derive(binform::Packable, Debug, PartialEq)]
        #[binform(version_tolerant)]
        pub struct Order {
            pub note: String,
        }
    }

    pub mod v2 {
        use super::AccountId;

        #[derive(binform::Packable, Debug, PartialEq)]
        #[binform(version_tolerant)]
        pub struct Order {
            pub note: String,
            #[binform(required)]
            pub account: AccountId,
        }

        #[derive(binform::Packable, Debug, PartialEq)]
        #[binform(version_tolerant)]
        pub enum Event {
            Placed {
                #[binform(tag = 3, required)]
                account: AccountId,
            },
        }
    }

    #[test]
    fn a_required_field_round_trips_and_its_absence_is_missing_field() {
        let order = v2::Order {
            note: "n".into(),
            account: AccountId(42),
        };
        let bytes = binform::to_vec(&order).unwrap();
        assert_eq!(binform::from_slice::<v2::Order>(&bytes).unwrap(), order);
        // An older writer never wrote the field.
        let old = binform::to_vec(&v1::Order { note: "old".into() }).unwrap();
        let err = binform::from_slice::<v2::Order>(&old).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::MissingField);
        assert!(err.message().contains("`account`"), "{err}");
        assert!(err.message().contains("tag 1"), "{err}");
        // A newer reader of the old type skips it as usual.
        assert_eq!(binform::from_slice::<v1::Order>(&bytes).unwrap().note, "n");
    }

    #[test]
    fn a_required_field_of_a_variant() {
        let event = v2::Event::Placed {
            account: AccountId(1),
        };
        let bytes = binform::to_vec(&event).unwrap();
        assert_eq!(binform::from_slice::<v2::Event>(&bytes).unwrap(), event);
        // Variant 0 with an empty body.
        let err = binform::from_slice::<v2::Event>(&[0x00, 0x00]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::MissingField);
        assert!(err.message().contains("tag 3"), "{err}");
    }
}
