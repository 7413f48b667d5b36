//! Types from other crates (features `uuid`, `half`, `indexmap`,
//! `hashbrown`, `smallvec`, `arrayvec`, `chrono`, `time`, `rust_decimal`):
//! round trips, golden bytes (docs/format.md §23), truncation, invalid
//! values, and their use in derived types.

use binform::{ErrorKind, Packable};

use crate::round_trip;

#[test]
fn uuid_is_its_sixteen_bytes() {
    let id = uuid::Uuid::from_bytes([
        0x67, 0xe5, 0x50, 0x44, 0x10, 0xb1, 0x42, 0x6f, 0x92, 0x47, 0xbb, 0x68, 0x0e, 0x5f, 0xe0,
        0xc8,
    ]);
    let bytes = round_trip(&id);
    assert_eq!(bytes, id.as_bytes());
    assert_eq!(round_trip(&uuid::Uuid::nil()), [0; 16]);
    assert_eq!(round_trip(&uuid::Uuid::max()), [0xFF; 16]);
    for cut in 0..16 {
        let err = binform::from_slice::<uuid::Uuid>(&bytes[..cut]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    }
    // A lying length of UUIDs fails before allocating: 16 bytes each.
    let err = binform::from_slice::<Vec<uuid::Uuid>>(&[0x40, 1, 2, 3]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(binform::schema_of::<uuid::Uuid>().root.to_string(), "uuid");
}

#[test]
fn half_floats_are_their_bits() {
    let one = half::f16::from_f32(1.0);
    assert_eq!(round_trip(&one), [0x00, 0x3C]);
    assert_eq!(round_trip(&half::bf16::from_f32(1.0)), [0x80, 0x3F]);
    // Bit-exact, NaN payloads and negative zero included.
    for bits in [0x7E01u16, 0x8000, 0xFC00, 0x0001] {
        let v = half::f16::from_bits(bits);
        let back: half::f16 = binform::from_slice(&binform::to_vec(&v).unwrap()).unwrap();
        assert_eq!(back.to_bits(), bits);
    }
    let err = binform::from_slice::<half::bf16>(&[0x80]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
}

#[derive(Packable, Debug, PartialEq)]
struct Order {
    id: uuid::Uuid,
    customer: uuid::Uuid,
    weights: Vec<half::f16>,
}

#[derive(Packable, Debug, PartialEq)]
#[binform(version_tolerant)]
struct OrderV2 {
    #[binform(tag = 0)]
    id: uuid::Uuid,
    #[binform(tag = 1)]
    scale: half::bf16,
}

#[test]
fn derived_types_hold_foreign_fields() {
    let order = Order {
        id: uuid::Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef),
        customer: uuid::Uuid::from_u128(7),
        weights: vec![half::f16::from_f32(0.5), half::f16::from_f32(-2.0)],
    };
    let bytes = round_trip(&order);
    assert_eq!(bytes.len(), 16 + 16 + 1 + 4);
    round_trip(&OrderV2 {
        id: order.id,
        scale: half::bf16::from_f32(3.0),
    });
}

#[test]
fn index_maps_and_sets_keep_their_order() {
    let map: indexmap::IndexMap<String, u32> = [("zebra", 1), ("apple", 2), ("mango", 3)]
        .map(|(k, v)| (k.to_string(), v))
        .into_iter()
        .collect();
    let bytes = round_trip(&map);
    let back: indexmap::IndexMap<String, u32> = binform::from_slice(&bytes).unwrap();
    assert!(back.keys().eq(map.keys()), "insertion order kept");
    // The same bytes as a BTreeMap when the entries are in the same order.
    let mut sorted = map.clone();
    sorted.sort_keys();
    let std_map: std::collections::BTreeMap<String, u32> = map.clone().into_iter().collect();
    assert_eq!(
        binform::to_vec(&sorted).unwrap(),
        binform::to_vec(&std_map).unwrap()
    );
    assert_eq!(
        binform::schema::fingerprint_of::<indexmap::IndexMap<String, u32>>(),
        binform::schema::fingerprint_of::<std::collections::BTreeMap<String, u32>>()
    );
    let set: indexmap::IndexSet<i64> = [5, -3, 900, 0].into_iter().collect();
    let back: indexmap::IndexSet<i64> = binform::from_slice(&round_trip(&set)).unwrap();
    assert!(back.iter().eq(set.iter()));
    // A repeated key is an error.
    let err = binform::from_slice::<indexmap::IndexSet<u8>>(&[0x04, 7, 7]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    // Keys 1, 1, then values 0, 0 (§27).
    let err = binform::from_slice::<indexmap::IndexMap<u8, u8>>(&[0x04, 1, 1, 0, 0]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
}

#[test]
fn hashbrown_maps_and_sets() {
    let map: hashbrown::HashMap<u32, String> = (0..50).map(|i| (i, format!("v{i}"))).collect();
    let back: hashbrown::HashMap<u32, String> =
        binform::from_slice(&binform::to_vec(&map).unwrap()).unwrap();
    assert_eq!(back, map);
    let set: hashbrown::HashSet<String> = ["a", "b"].map(String::from).into_iter().collect();
    let back: hashbrown::HashSet<String> =
        binform::from_slice(&binform::to_vec(&set).unwrap()).unwrap();
    assert_eq!(back, set);
    let err = binform::from_slice::<hashbrown::HashSet<u8>>(&[0x04, 7, 7]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let err = binform::from_slice::<hashbrown::HashMap<u8, u8>>(&[0xFE, 1]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
}

#[test]
fn small_and_array_vectors_are_sequences() {
    let small: smallvec::SmallVec<[u32; 4]> = (0..300).collect();
    let bytes = round_trip(&small);
    assert_eq!(
        bytes,
        binform::to_vec(&(0..300).collect::<Vec<u32>>()).unwrap()
    );
    let inline: smallvec::SmallVec<[String; 2]> = smallvec::smallvec!["x".into()];
    round_trip(&inline);

    let mut arr: arrayvec::ArrayVec<i16, 10> = arrayvec::ArrayVec::new();
    arr.extend([-1, 2, -3, 4, -5, 6, -7, 8, -9]);
    let bytes = round_trip(&arr);
    assert_eq!(bytes, binform::to_vec(&arr.to_vec()).unwrap());
    // Eleven elements for a capacity of ten: an error, before decoding any.
    let eleven = binform::to_vec(&vec![1i16; 11]).unwrap();
    let err = binform::from_slice::<arrayvec::ArrayVec<i16, 10>>(&eleven).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert_eq!(err.offset(), Some(0));

    // Elements that are not packed integers decode straight into the array.
    let mut words: arrayvec::ArrayVec<String, 3> = arrayvec::ArrayVec::new();
    words.extend(["a".to_string(), "bc".to_string()]);
    assert_eq!(
        round_trip(&words),
        binform::to_vec(&words.to_vec()).unwrap()
    );
    let four = binform::to_vec(&vec!["w".to_string(); 4]).unwrap();
    let err = binform::from_slice::<arrayvec::ArrayVec<String, 3>>(&four).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let cut = binform::to_vec(&words).unwrap();
    let err =
        binform::from_slice::<arrayvec::ArrayVec<String, 3>>(&cut[..cut.len() - 1]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);

    let text = arrayvec::ArrayString::<8>::from("héllo").unwrap();
    assert_eq!(round_trip(&text), binform::to_vec("héllo").unwrap());
    let err = binform::from_slice::<arrayvec::ArrayString<4>>(&binform::to_vec("héllo").unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
}

#[test]
fn chrono_dates_and_times() {
    use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, TimeDelta, Utc};
    // 1986-02-01T00:00:00Z, Kate's birth date: Unix seconds 507,600,000.
    let kate = DateTime::<Utc>::from_timestamp(507_600_000, 0).unwrap();
    let bytes = round_trip(&kate);
    let mut expected = binform::to_vec(&507_600_000i64).unwrap();
    expected.push(0);
    assert_eq!(bytes, expected);
    round_trip(&DateTime::<Utc>::from_timestamp(-1, 250_000_000).unwrap());
    round_trip(&kate.naive_utc());
    let paris = kate.with_timezone(&FixedOffset::east_opt(3600).unwrap());
    let back: DateTime<FixedOffset> = binform::from_slice(&round_trip(&paris)).unwrap();
    assert_eq!(back.offset().local_minus_utc(), 3600);
    assert_eq!(
        round_trip(&NaiveDate::from_ymd_opt(1, 1, 1).unwrap()),
        [0x04]
    ); // day 1
    round_trip(&NaiveDate::from_ymd_opt(-4000, 2, 29).unwrap());
    round_trip(&NaiveTime::from_hms_nano_opt(23, 59, 59, 1_500_000_000).unwrap());
    // -1.5 s: seconds rounded down (-2), then 0.5 s of nanoseconds.
    assert_eq!(
        round_trip(&TimeDelta::milliseconds(-1500)),
        binform::to_vec(&(-2i64, 500_000_000u32)).unwrap()
    );
    round_trip(&TimeDelta::MAX);
    round_trip(&TimeDelta::MIN);
    // Values chrono cannot hold.
    let kind = |r: binform::Result<()>| r.unwrap_err().kind();
    let far = binform::to_vec(&(i64::MAX, 0u32)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<DateTime<Utc>>(&far).map(|_| ())),
        ErrorKind::InvalidValue
    );
    let bad_nanos = binform::to_vec(&(0i64, 2_000_000_000u32)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<DateTime<Utc>>(&bad_nanos).map(|_| ())),
        ErrorKind::InvalidValue
    );
    let bad_offset = binform::to_vec(&(0i64, 0u32, 90_000i32)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<DateTime<FixedOffset>>(&bad_offset).map(|_| ())),
        ErrorKind::InvalidValue
    );
    let bad_day = binform::to_vec(&i64::from(i32::MAX)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<NaiveDate>(&bad_day).map(|_| ())),
        ErrorKind::InvalidValue
    );
    let bad_time = binform::to_vec(&(86_400u32, 0u32)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<NaiveTime>(&bad_time).map(|_| ())),
        ErrorKind::InvalidValue
    );
    let bad_delta = binform::to_vec(&(0i64, 1_000_000_000u32)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<TimeDelta>(&bad_delta).map(|_| ())),
        ErrorKind::InvalidValue
    );
    for cut in 0..bytes.len() {
        assert!(binform::from_slice::<DateTime<Utc>>(&bytes[..cut]).is_err());
    }
}

#[test]
fn decimals_are_a_mantissa_and_a_scale() {
    use rust_decimal::Decimal;
    let price = Decimal::new(-12345, 2); // -123.45
    let bytes = round_trip(&price);
    let mut expected = binform::to_vec(&-12345i128).unwrap();
    expected.push(2);
    assert_eq!(bytes, expected);
    round_trip(&Decimal::MAX);
    round_trip(&Decimal::MIN);
    round_trip(&Decimal::new(1, 28));
    assert_eq!(round_trip(&Decimal::ZERO), [0x00, 0x00]);
    // A scale above 28, and a mantissa past 96 bits.
    let err = binform::from_slice::<Decimal>(&[0x02, 29]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let mut wide = binform::to_vec(&(1i128 << 100)).unwrap();
    wide.push(0);
    let err = binform::from_slice::<Decimal>(&wide).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let prices: Vec<Decimal> = (0..100).map(|i| Decimal::new(i * 199, 2)).collect();
    round_trip(&prices);
}

#[test]
fn time_crate_dates_and_times() {
    use time::{Date, Duration, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};
    let kate = OffsetDateTime::from_unix_timestamp(507_600_000).unwrap();
    let bytes = round_trip(&kate);
    let mut expected = binform::to_vec(&507_600_000i64).unwrap();
    expected.extend_from_slice(&[0, 0]);
    assert_eq!(bytes, expected, "seconds, nanoseconds, offset 0");
    let tokyo = kate.to_offset(UtcOffset::from_hms(9, 0, 0).unwrap());
    let back: OffsetDateTime = binform::from_slice(&round_trip(&tokyo)).unwrap();
    assert_eq!(back.offset(), tokyo.offset());
    let date = Date::from_calendar_date(2012, Month::December, 24).unwrap();
    assert_eq!(
        round_trip(&date),
        binform::to_vec(&i64::from(date.to_julian_day())).unwrap()
    );
    round_trip(&Date::MIN);
    round_trip(&Date::MAX);
    let noon = Time::from_hms_nano(12, 0, 1, 5).unwrap();
    assert_eq!(
        round_trip(&noon),
        binform::to_vec(&(43_201u32, 5u32)).unwrap()
    );
    round_trip(&PrimitiveDateTime::new(date, noon));
    assert_eq!(
        round_trip(&Duration::milliseconds(-1500)),
        binform::to_vec(&(-1i64, -500_000_000i64)).unwrap()
    );
    round_trip(&Duration::MAX);
    round_trip(&Duration::MIN);
    // Values the crate cannot hold, and forms that are not normal.
    let kind = |r: binform::Result<()>| r.unwrap_err().kind();
    let far = binform::to_vec(&(i64::MAX, 0u32)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<OffsetDateTime>(&far).map(|_| ())),
        ErrorKind::InvalidValue
    );
    let bad_time = binform::to_vec(&(86_400u32, 0u32)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<Time>(&bad_time).map(|_| ())),
        ErrorKind::InvalidValue
    );
    let mixed_signs = binform::to_vec(&(1i64, -5i64)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<Duration>(&mixed_signs).map(|_| ())),
        ErrorKind::InvalidValue
    );
    let bad_day = binform::to_vec(&i64::from(i32::MAX)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<Date>(&bad_day).map(|_| ())),
        ErrorKind::InvalidValue
    );
    let bad_offset = binform::to_vec(&(0i64, 0u32, 200_000i32)).unwrap();
    assert_eq!(
        kind(binform::from_slice::<OffsetDateTime>(&bad_offset).map(|_| ())),
        ErrorKind::InvalidValue
    );
}

/// Found by review: values that would make chrono or time panic, and a
/// time value whose UTC instant is out of the crate's range.
#[test]
fn date_time_edges_are_errors_or_round_trip() {
    use chrono::{DateTime, FixedOffset, NaiveDateTime};
    // The last instant chrono holds, an hour east: its local time does not exist.
    let max = NaiveDateTime::MAX.and_utc();
    let bytes = binform::to_vec(&(max.timestamp(), max.timestamp_subsec_nanos(), 3600i32)).unwrap();
    let err = binform::from_slice::<DateTime<FixedOffset>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    // time::Duration with nanoseconds of i64::MIN.
    let bytes = binform::to_vec(&(0i64, i64::MIN)).unwrap();
    let err = binform::from_slice::<time::Duration>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    // The time crate's last day, an hour west of UTC: its instant is past
    // the crate's range, its local date-time is not.
    let last =
        time::PrimitiveDateTime::new(time::Date::MAX, time::Time::from_hms(23, 59, 59).unwrap())
            .assume_offset(time::UtcOffset::from_hms(-1, 0, 0).unwrap());
    round_trip(&last);
    let first = time::PrimitiveDateTime::new(time::Date::MIN, time::Time::MIDNIGHT)
        .assume_offset(time::UtcOffset::from_hms(2, 0, 0).unwrap());
    round_trip(&first);
}

bitflags::bitflags! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Perms: u8 {
        const READ = 1;
        const WRITE = 2;
        const EXEC = 4;
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Wide: u64 {
        const LOW = 1;
        const HIGH = 1 << 63;
    }
}

#[derive(binform::Packable, Debug, PartialEq)]
struct WithFlags {
    #[binform(with = "binform::bitflags")]
    perms: Perms,
    #[binform(with = "binform::bitflags")]
    wide: Wide,
}

#[derive(binform::Packable, Debug, PartialEq)]
#[binform(version_tolerant)]
struct TolerantFlags {
    #[binform(with = "binform::bitflags")]
    perms: Perms,
}

impl Default for Perms {
    fn default() -> Self {
        Perms::empty()
    }
}

#[test]
fn bitflags_are_their_bits_and_unknown_bits_are_errors() {
    let value = WithFlags {
        perms: Perms::READ | Perms::EXEC,
        wide: Wide::all(),
    };
    let bytes = round_trip(&value);
    // 0b101 as a byte, then 2^63 + 1 as a u64 varint (9 bytes).
    assert_eq!(bytes[0], 0x05);
    assert_eq!(bytes.len(), 1 + 9);
    assert_eq!(&bytes[1..], binform::to_vec(&((1u64 << 63) | 1)).unwrap());
    let err = binform::from_slice::<WithFlags>(&[0x08, 0x00]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert_eq!(err.offset(), Some(0));
    let err = binform::from_slice::<WithFlags>(&[0x01, 0x04]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert_eq!(err.offset(), Some(1));
    for end in 0..bytes.len() {
        let err = binform::from_slice::<WithFlags>(&bytes[..end]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    }
    round_trip(&TolerantFlags {
        perms: Perms::WRITE,
    });
}
