//! Types from other crates (features `uuid`, `half`): round trips, golden
//! bytes (docs/format.md §23), truncation, and their use in derived types.

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
