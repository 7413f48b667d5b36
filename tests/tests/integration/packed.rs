//! Packed integer sequences (docs/format.md §22): every integer type and
//! container round-trips across block boundaries and forms, a block is
//! never more than its header above one varint per value, and damaged
//! blocks are errors of the right kind.

use std::collections::{BinaryHeap, LinkedList, VecDeque};
use std::fmt::Debug;
use std::num::{NonZeroI64, NonZeroU32};
use std::rc::Rc;

use binform::{ErrorKind, Pack, Packable, UnpackOwned};
use binform_fixtures::models::Rng;

use crate::round_trip;

/// Sequence lengths around every boundary: short blocks, one block, a
/// block and a short tail, a block and a long tail.
const LENGTHS: [usize; 12] = [0, 1, 7, 8, 9, 255, 256, 257, 263, 264, 600, 1030];

/// Values of one distribution, as `i128` to be cast to each type.
fn values(kind: u32, n: usize, seed: u64) -> Vec<i128> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| match kind {
            0 => 42,                                 // constant
            1 => rng.below(1000) as i128,            // small
            2 => rng.signed(62) as i128,             // mixed magnitudes
            3 => rng.next_u64() as i128,             // full range (bits)
            4 => 1_700_000_000_000 + 37 * i as i128, // sorted ids
            5 => {
                if i % 100 == 7 {
                    -1
                } else {
                    1 << 40
                }
            } // an outlier per block
            6 => ((rng.next_u64() as i128) << 64) | rng.next_u64() as i128,
            _ => {
                // Random byte lengths (the lengths form), either sign.
                let v = rng
                    .next_u64()
                    .checked_shr(8 * rng.below(9) as u32)
                    .unwrap_or(0);
                if rng.next_u64() & 1 == 1 {
                    -(v as i128)
                } else {
                    v as i128
                }
            }
        })
        .collect()
}

/// One varint per value: the size before packing, the bound a block may
/// exceed by its header byte only.
fn varint_size<T: Pack>(items: &[T]) -> usize {
    items
        .iter()
        .map(|v| binform::to_vec(v).unwrap().len())
        .sum()
}

fn check<T>(cast: impl Fn(i128) -> T)
where
    T: Pack + UnpackOwned + PartialEq + Debug + Clone + Ord + 'static,
{
    for kind in 0..8 {
        for (i, &n) in LENGTHS.iter().enumerate() {
            let items: Vec<T> = values(kind, n, i as u64).into_iter().map(&cast).collect();
            let bytes = round_trip(&items);
            let prefix = binform::to_vec(&n).unwrap().len();
            let headers = n / 256 + usize::from(n % 256 >= 8);
            assert!(
                bytes.len() <= prefix + varint_size(&items) + headers,
                "{} values of kind {kind}: {} bytes, varints take {}",
                n,
                bytes.len(),
                prefix + varint_size(&items)
            );
            // Every container of the sequence writes the same bytes.
            let deque: VecDeque<T> = items.iter().cloned().collect();
            assert_eq!(round_trip(&deque), bytes);
            let list: LinkedList<T> = items.iter().cloned().collect();
            assert_eq!(round_trip(&list), bytes);
            let boxed: Box<[T]> = items.clone().into_boxed_slice();
            assert_eq!(round_trip(&boxed), bytes);
            let shared: Rc<[T]> = items.clone().into();
            let back: Rc<[T]> = binform::from_slice(&binform::to_vec(&shared).unwrap()).unwrap();
            assert_eq!(&back[..], &items[..]);
            let heap: BinaryHeap<T> = items.iter().cloned().collect();
            let back: BinaryHeap<T> =
                binform::from_slice(&binform::to_vec(&heap).unwrap()).unwrap();
            assert_eq!(back.into_sorted_vec(), heap.into_sorted_vec());
            // Every proper prefix is an error.
            for cut in (0..bytes.len()).step_by(1 + bytes.len() / 97) {
                assert!(binform::from_slice::<Vec<T>>(&bytes[..cut]).is_err());
            }
        }
    }
}

#[test]
fn every_integer_type_round_trips_in_every_form() {
    check(|v| v as u16);
    check(|v| v as i16);
    check(|v| v as u32);
    check(|v| v as i32);
    check(|v| v as u64);
    check(|v| v as i64);
    check(|v| v as usize);
    check(|v| v as isize);
    check(|v| v as u128);
    check(|v| v);
}

/// The header of the first block of 256 values of distribution `kind`.
fn first_header<T: Pack>(cast: impl Fn(i128) -> T, kind: u32) -> u8 {
    let items: Vec<T> = values(kind, 256, 3).into_iter().map(cast).collect();
    binform::to_vec(&items).unwrap()[2]
}

#[test]
fn mixed_byte_lengths_take_the_lengths_form() {
    // Payloads of 1 to 4 bytes: 2-bit codes; longer: 4-bit codes.
    assert_eq!(first_header(|v| v as u32, 7), 8);
    assert_eq!(first_header(|v| v as i32, 7), 8);
    assert_eq!(first_header(|v| v as u64, 7), 9);
    assert_eq!(first_header(|v| v as i64, 7), 9);
    assert_eq!(first_header(|v| v as usize, 7), 9);
    assert_eq!(first_header(|v| v as isize, 7), 9);
    assert_eq!(first_header(|v| v as u128, 7), 9);
    assert_eq!(first_header(|v| v, 7), 9);
    // Full-range values take fixed offsets, small ones bits.
    assert_eq!(first_header(|v| v as u64, 3), 5);
    assert_eq!(first_header(|v| v as u32, 1), 7);
}

#[test]
fn a_deque_split_across_its_buffer_writes_the_same_blocks() {
    // Pushing at the front wraps the ring buffer, so the deque's two halves
    // split a block.
    let mut deque: VecDeque<u32> = VecDeque::with_capacity(1024);
    for i in 0..300u32 {
        deque.push_back(1_000_000 + i);
    }
    for i in 0..400u32 {
        deque.push_front(i);
    }
    let (front, back) = deque.as_slices();
    assert!(!front.is_empty() && !back.is_empty(), "the deque is split");
    let flat: Vec<u32> = deque.iter().copied().collect();
    assert_eq!(
        binform::to_vec(&deque).unwrap(),
        binform::to_vec(&flat).unwrap()
    );
    assert_eq!(round_trip(&deque), binform::to_vec(&flat).unwrap());
}

#[test]
fn arrays_pack_too() {
    let mut rng = Rng::new(9);
    let big: [u64; 300] = std::array::from_fn(|_| rng.next_u64() >> 8);
    let bytes = round_trip(&big);
    let as_vec = binform::to_vec(&big.to_vec()).unwrap();
    // The same elements as the vector's, without its length.
    assert_eq!(
        bytes[..],
        as_vec[binform::to_vec(&300usize).unwrap().len()..]
    );
    round_trip(&[[7i32; 10]; 3]);
    round_trip(&[0u16; 0]);
    // A vector of arrays of constant blocks: the length check counts two
    // bytes a block, not one a value.
    let zeros = vec![[0u32; 512]; 100];
    let bytes = round_trip(&zeros);
    assert!(bytes.len() < 500, "{} bytes", bytes.len());
}

#[test]
fn nonzero_sequences_pack_and_reject_zero() {
    let ids: Vec<NonZeroU32> = (1..=700).filter_map(NonZeroU32::new).collect();
    let bytes = round_trip(&ids);
    let plain: Vec<u32> = ids.iter().map(|v| v.get()).collect();
    assert_eq!(bytes, binform::to_vec(&plain).unwrap());
    let arr: [NonZeroI64; 9] = std::array::from_fn(|i| NonZeroI64::new(i as i64 - 20).unwrap());
    round_trip(&arr);
    let list: LinkedList<NonZeroU32> = ids.iter().copied().collect();
    round_trip(&list);

    let mut zeros = plain.clone();
    zeros[300] = 0;
    let err =
        binform::from_slice::<Vec<NonZeroU32>>(&binform::to_vec(&zeros).unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let err =
        binform::from_slice::<[NonZeroU32; 9]>(&binform::to_vec(&[0u32; 9]).unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
}

/// Eight values in one fixed-width block: `varint(8)`, the header, the
/// base, the offsets.
fn fixed_block(header: u8, base: &[u8], offsets: &[u8]) -> Vec<u8> {
    let mut bytes = vec![0x10, header];
    bytes.extend_from_slice(base);
    bytes.extend_from_slice(offsets);
    bytes
}

#[test]
fn damaged_blocks_are_errors_of_their_kind() {
    let kind = |bytes: &[u8]| binform::from_slice::<Vec<u32>>(bytes).unwrap_err().kind();
    // Header 10 does not exist (9, byte lengths with 4-bit codes, is the
    // last).
    assert_eq!(kind(&fixed_block(10, &[0], &[])), ErrorKind::InvalidValue);
    assert_eq!(kind(&fixed_block(0xFF, &[0], &[])), ErrorKind::InvalidValue);
    // 8-byte offsets for a 4-byte integer.
    assert_eq!(
        kind(&fixed_block(5, &[0], &[0; 64])),
        ErrorKind::InvalidValue
    );
    // An offset that takes the value past u32::MAX.
    let mut offsets = [0u8; 32];
    offsets[28..].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        kind(&fixed_block(4, &[0x02], &offsets)),
        ErrorKind::IntegerOverflow
    );
    // The same offsets from base 0 are u32::MAX exactly: valid.
    let back: Vec<u32> = binform::from_slice(&fixed_block(4, &[0x00], &offsets)).unwrap();
    assert_eq!(back[7], u32::MAX);
    // Signed: from base i16::MAX - 1, offset 2 overflows, offset 1 is i16::MAX.
    let base = binform::to_vec(&(i16::MAX - 1)).unwrap();
    let mut offsets = [0u8; 8];
    offsets[7] = 2;
    let err = binform::from_slice::<Vec<i16>>(&fixed_block(2, &base, &offsets)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::IntegerOverflow);
    offsets[7] = 1;
    let back: Vec<i16> = binform::from_slice(&fixed_block(2, &base, &offsets)).unwrap();
    assert_eq!(back[7], i16::MAX);
    // A base out of the type's range.
    let err =
        binform::from_slice::<Vec<u16>>(&fixed_block(1, &[0x03, 0x00, 0x08], &[])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::IntegerOverflow);
    // Offsets cut short.
    assert_eq!(
        kind(&fixed_block(2, &[0], &[1, 2, 3])),
        ErrorKind::UnexpectedEnd
    );
    // Bit-packed: a width of 0, or wider than the type, or than 56 bits.
    assert_eq!(kind(&fixed_block(7, &[0, 0], &[])), ErrorKind::InvalidValue);
    assert_eq!(
        kind(&fixed_block(7, &[33, 0], &[0; 40])),
        ErrorKind::InvalidValue
    );
    let err = binform::from_slice::<Vec<u16>>(&fixed_block(7, &[17, 0], &[0; 17])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let err = binform::from_slice::<Vec<u64>>(&fixed_block(7, &[57, 0], &[0; 57])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    // 16-bit offsets, all ones, from a base 1 below u16's top: overflow.
    let base = binform::to_vec(&(u16::MAX - 1)).unwrap();
    let mut bits = vec![16];
    bits.extend_from_slice(&base);
    let err = binform::from_slice::<Vec<u16>>(&fixed_block(7, &bits, &[0xFF; 16])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::IntegerOverflow);
    // Bit-packed offsets cut short.
    assert_eq!(
        kind(&fixed_block(7, &[3, 0], &[0xFF, 0xFF])),
        ErrorKind::UnexpectedEnd
    );
    // Byte lengths: a length past the type's width (5 bytes for a u32, 3
    // for a u16, 9 for a u64).
    assert_eq!(
        kind(&fixed_block(9, &[0x04, 0, 0, 0], &[0; 12])),
        ErrorKind::InvalidValue
    );
    let err = binform::from_slice::<Vec<u16>>(&fixed_block(8, &[0x02, 0], &[0; 10])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let err =
        binform::from_slice::<Vec<u64>>(&fixed_block(9, &[0x08, 0, 0, 0], &[0; 16])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    // A value in more bytes than it needs (1 in two bytes), and the same
    // value minimal: valid.
    assert_eq!(
        kind(&fixed_block(8, &[0x01, 0], &[1, 0, 0, 0, 0, 0, 0, 0, 0])),
        ErrorKind::InvalidValue
    );
    let back: Vec<u32> =
        binform::from_slice(&fixed_block(8, &[0x01, 0], &[1, 1, 0, 0, 0, 0, 0, 0, 0])).unwrap();
    assert_eq!(back, [257, 0, 0, 0, 0, 0, 0, 0]);
    // Non-zero codes past the last value (9 values: the third control
    // byte holds one code).
    let mut bytes = vec![0x12, 0x08, 0, 0, 0x04];
    bytes.extend_from_slice(&[0; 10]);
    assert_eq!(kind(&bytes), ErrorKind::InvalidValue);
    bytes[4] = 0;
    assert_eq!(
        binform::from_slice::<Vec<u32>>(&bytes[..14]).unwrap(),
        [0; 9]
    );
    // A zig-zagged payload out of i16's range cannot be written in two
    // bytes; for `isize` on 64-bit targets every 8-byte payload is one.
    let payload = binform::from_slice::<Vec<i16>>(&fixed_block(8, &[0x55, 0x55], &[0xFF; 16]));
    assert_eq!(payload.unwrap()[0], i16::MIN);
    // Payloads cut short.
    assert_eq!(
        kind(&fixed_block(8, &[0xFF, 0xFF], &[0; 31])),
        ErrorKind::UnexpectedEnd
    );
}

#[test]
fn lying_lengths_fail_before_allocating() {
    // 2^40 values claimed by a few bytes: more blocks than the input holds.
    let mut bytes = binform::to_vec(&(1usize << 40)).unwrap();
    bytes.extend_from_slice(&[1, 0]);
    let err = binform::from_slice::<Vec<u64>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    // Constant blocks expand 256 values from two bytes: the memory budget
    // stops a payload that would build far more than it is worth.
    let n = 1usize << 23;
    let mut bytes = binform::to_vec(&n).unwrap();
    for _ in 0..n / 256 {
        bytes.extend_from_slice(&[1, 0]);
    }
    let err = binform::from_slice::<Vec<u128>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // Within a budget raised for it, the same shape decodes (32 MiB from
    // 64 KiB: past the default's 64 bytes per input byte, as any run of
    // equal values that compresses 512 to 1 is).
    let err = binform::from_slice::<Vec<u32>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    let zeros: Vec<u32> = binform::Options::new()
        .max_memory(40 << 20)
        .from_slice(&bytes)
        .unwrap();
    assert_eq!(zeros.len(), n);
    assert!(zeros.iter().all(|&v| v == 0));
}

#[derive(Packable, Debug, PartialEq)]
#[binform(version_tolerant)]
struct WithIds {
    #[binform(tag = 0)]
    name: String,
    #[binform(tag = 1)]
    ids: Vec<u64>,
    #[binform(tag = 2)]
    deltas: Vec<i16>,
    #[binform(tag = 3)]
    after: u32,
}

#[derive(Packable, Debug, PartialEq)]
#[binform(version_tolerant)]
struct WithoutIds {
    #[binform(tag = 0)]
    name: String,
    #[binform(tag = 3)]
    after: u32,
}

/// Encodes a `WithIds` holding `ids` and `deltas`, checks that it
/// round-trips and that a reader without those fields skips them to the
/// field after; returns the bytes.
fn read_by_older_version(ids: Vec<u64>, deltas: Vec<i16>) -> Vec<u8> {
    let value = WithIds {
        name: "n".into(),
        ids,
        deltas,
        after: 77,
    };
    let bytes = round_trip(&value);
    let old: WithoutIds = binform::from_slice(&bytes).unwrap();
    let expected = WithoutIds {
        name: "n".into(),
        after: 77,
    };
    assert_eq!(old, expected, "{:?}", value.ids);
    bytes
}

#[test]
fn tolerant_readers_skip_packed_fields() {
    let mut rng = Rng::new(3);
    let ids: Vec<u64> = (0..700).map(|i| (1 << 50) | (i * 3)).collect();
    let bytes = read_by_older_version(
        ids.clone(),
        (0..300).map(|_| rng.signed(15) as i16).collect(),
    );
    // A corrupt header in a skipped field is still an error.
    let ids = binform::to_vec(&ids).unwrap();
    let at = bytes
        .windows(ids.len())
        .position(|w| w == &ids[..])
        .unwrap();
    let header = at + binform::to_vec(&700usize).unwrap().len();
    let mut bad = bytes.clone();
    bad[header] = 10;
    assert!(binform::from_slice::<WithoutIds>(&bad).is_err());
    // Mixed magnitudes: blocks of byte lengths, skipped by their codes.
    let mixed: Vec<u64> = (0..700)
        .map(|_| rng.next_u64() >> (8 * rng.below(8)))
        .collect();
    let encoded = binform::to_vec(&mixed).unwrap();
    assert_eq!(encoded[2], 9, "a block of byte lengths with 4-bit codes");
    let bytes = read_by_older_version(
        mixed,
        (0..300)
            .map(|_| rng.next_u64() as i16 >> (rng.below(16)))
            .collect(),
    );
    // A skipped block announcing a 16-byte value, which no tolerant packed
    // sequence holds, is an error of its kind.
    let at = bytes
        .windows(encoded.len())
        .position(|w| w == &encoded[..])
        .unwrap();
    let mut bad = bytes.clone();
    bad[at + 3] = 0xFF;
    let err = binform::from_slice::<WithoutIds>(&bad).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue, "{err}");
}

#[test]
fn wrappers_of_integers_pack_as_their_integers_and_their_schema_says_so() {
    use std::cell::Cell;
    use std::num::Wrapping;
    // A wrapper encoded as its contents is so in sequences too (§27): the
    // schema shows the contents' type, so the bytes must be theirs.
    let values: Vec<u32> = (0..300).map(|i| 1_000_000 + i).collect();
    let wrapped: Vec<Wrapping<u32>> = values.iter().copied().map(Wrapping).collect();
    let cells: Vec<Cell<u32>> = values.iter().copied().map(Cell::new).collect();
    let boxed: Vec<Box<u32>> = values.iter().copied().map(Box::new).collect();
    let packed = round_trip(&values);
    assert_eq!(round_trip(&wrapped), packed);
    assert_eq!(round_trip(&boxed), packed);
    assert_eq!(binform::to_vec(&cells).unwrap(), packed);
    let fp = binform::schema::fingerprint_of::<Vec<u32>>();
    assert_eq!(fp, binform::schema::fingerprint_of::<Vec<Wrapping<u32>>>());
    assert!(binform::schema_of::<Vec<u32>>()
        .to_string()
        .contains("packed<u32>"));
    assert!(binform::schema_of::<Vec<Wrapping<u32>>>()
        .to_string()
        .contains("packed<u32>"));
    assert!(binform::schema_of::<[i16; 4]>()
        .to_string()
        .contains("packed_array<i16"));
    // An array of wrapped integers is a packed array as well.
    let array = [Wrapping(70_000u32); 16];
    assert_eq!(round_trip(&array), round_trip(&[70_000u32; 16]));
    // Every container of packed integers shares the sequence's schema.
    assert_eq!(fp, binform::schema::fingerprint_of::<VecDeque<u32>>());
    assert_eq!(fp, binform::schema::fingerprint_of::<Box<[u32]>>());
    assert_eq!(
        binform::schema::fingerprint_of::<Vec<NonZeroU32>>(),
        binform::schema::fingerprint(&binform::schema_of::<Vec<NonZeroU32>>())
    );
}

#[test]
fn close_values_pack_to_their_bits() {
    // 0..1000: 10 bits a value, well under one varint (1.9 bytes) each.
    let mut rng = Rng::new(5);
    let small: Vec<u32> = (0..2560).map(|_| rng.below(1000) as u32).collect();
    let bytes = round_trip(&small);
    assert!(
        bytes.len() < 2560 * 10 / 8 + 10 * 4,
        "{} bytes",
        bytes.len()
    );
    // Sorted ids: each block spans a small range above a large base.
    let ids: Vec<u64> = (0..1000u64).map(|i| (1 << 40) + i * 37).collect();
    let bytes = round_trip(&ids);
    assert!(bytes.len() < 1000 * 2, "{} bytes", bytes.len());
    // Every width from 1 to 56 bits round-trips.
    for bits in 1..=56u32 {
        let top = (1u64 << bits) - 1;
        let values: Vec<u64> = (0..300u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & top)
            .collect();
        round_trip(&values);
        let signed: Vec<i64> = values
            .iter()
            .map(|&v| v as i64 - (top / 2) as i64)
            .collect();
        round_trip(&signed);
    }
}

/// Found by review: a skipped sequence whose block base is a 9-byte varint
/// with a low byte of 8 to 16, and one of 300 zeros (4 bytes of blocks for
/// 300 elements), must be skipped exactly.
#[test]
fn tolerant_readers_skip_every_packed_shape() {
    for ids in [
        vec![0x0100_0000_0000_0008u64; 8],
        vec![0; 300],
        vec![u64::MAX; 9],
    ] {
        read_by_older_version(ids, vec![0; 300]);
    }
}

/// Found by review: sets of packed integers are decoded one element at a
/// time, so their length is checked at a byte per element.
#[test]
fn sets_of_integers_check_lengths_a_byte_each() {
    let mut lying = binform::to_vec(&200usize).unwrap();
    lying.extend_from_slice(&[2, 4]);
    let err = binform::from_slice::<std::collections::BTreeSet<u32>>(&lying).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    let err = binform::from_slice::<std::collections::HashSet<u64>>(&lying).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
}

/// 64 `u128` or `i128` in one lengths-form block with 4-bit codes: every
/// payload the byte 5, except value `at`, whose payload is `payload`.
fn wide_lengths_block(at: usize, payload: &[u8]) -> Vec<u8> {
    let mut bytes = binform::to_vec(&64u64).unwrap();
    bytes.push(9);
    let mut codes = [0u8; 32];
    codes[at / 2] = ((payload.len() - 1) as u8) << (4 * (at % 2));
    bytes.extend_from_slice(&codes);
    for i in 0..64 {
        if i == at {
            bytes.extend_from_slice(payload);
        } else {
            bytes.push(5);
        }
    }
    bytes
}

#[test]
fn wide_payloads_longer_than_they_need_are_rejected() {
    // Value 10 decodes where whole words are loaded, value 63 where each
    // load is checked; 2 and 16-byte payloads take each half of a word.
    for at in [10, 63] {
        let mut two = [7u8, 0];
        let mut sixteen = [9u8; 16];
        sixteen[15] = 0;
        for bad in [&two[..], &sixteen[..]] {
            let bytes = wide_lengths_block(at, bad);
            let err = binform::from_slice::<Vec<u128>>(&bytes).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidValue, "at {at}: {bad:?}");
            let err = binform::from_slice::<Vec<i128>>(&bytes).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidValue, "at {at}: {bad:?}");
        }
        two[1] = 1;
        sixteen[15] = 0x80;
        let back: Vec<u128> = binform::from_slice(&wide_lengths_block(at, &two)).unwrap();
        assert_eq!((back[at], back[at ^ 1]), (0x107, 5));
        let back: Vec<u128> = binform::from_slice(&wide_lengths_block(at, &sixteen)).unwrap();
        assert_eq!(back[at], u128::from_le_bytes(sixteen));
        let back: Vec<i128> = binform::from_slice(&wide_lengths_block(at, &sixteen)).unwrap();
        // Zig-zag: an odd payload is negative.
        assert_eq!(back[at], -((u128::from_le_bytes(sixteen) >> 1) as i128) - 1);
        assert_eq!(back[at ^ 1], -3);
    }
}

/// A 64-value bit-packed block (`bits` bits an offset) from `base`, every
/// offset 0 but `offset` at `at`.
fn bit_block<T: Pack>(base: T, bits: u32, at: usize, offset: u64) -> Vec<u8> {
    let mut bytes = binform::to_vec(&64u64).unwrap();
    bytes.extend_from_slice(&[7, bits as u8]);
    bytes.extend(binform::to_vec(&base).unwrap());
    let mut packed = vec![0u8; (64 * bits as usize).div_ceil(8)];
    for bit in 0..bits as usize {
        if offset >> bit & 1 == 1 {
            let i = at * bits as usize + bit;
            packed[i / 8] |= 1 << (i % 8);
        }
    }
    bytes.extend(packed);
    bytes
}

/// A base that leaves no room for the widest offset is checked value by
/// value, wherever the value is (the vector kernels' groups, the scalar
/// groups, the block's tail): one past the type's top is an overflow,
/// the top itself is decoded. The decoders skip the per-value check only
/// when the base leaves room for every offset, so this pins that choice.
#[test]
fn bit_packed_offsets_past_the_top_overflow_in_every_path() {
    fn check<T: Pack + UnpackOwned + PartialEq + Debug + Copy>(top: T, below_top: T, gap: u64) {
        // 20 bits: past the vector kernels (16 at most); not for a `u16`.
        let widths = if core::mem::size_of::<T>() == 2 {
            &[10, 16][..]
        } else {
            &[10, 20]
        };
        for &bits in widths {
            for at in [0, 5, 20, 43, 63] {
                let past = bit_block(below_top, bits, at, gap + 1);
                let err = binform::from_slice::<Vec<T>>(&past).unwrap_err();
                assert_eq!(
                    err.kind(),
                    ErrorKind::IntegerOverflow,
                    "bits {bits}, at {at}"
                );
                let exact = bit_block(below_top, bits, at, gap);
                let back: Vec<T> = binform::from_slice(&exact).unwrap();
                assert_eq!(back[at], top, "bits {bits}, at {at}");
                assert!(back
                    .iter()
                    .enumerate()
                    .all(|(i, &v)| i == at || v == below_top));
            }
        }
    }
    check(u16::MAX, u16::MAX - 5, 5);
    check(u32::MAX, u32::MAX - 5, 5);
    check(i32::MAX, i32::MAX - 5, 5);
    check(u64::MAX, u64::MAX - 5, 5);
    check(i64::MAX, i64::MAX - 5, 5);
    check(u128::MAX, u128::MAX - 5, 5);
    check(i128::MAX, i128::MAX - 5, 5);
}
