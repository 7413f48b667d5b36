use alloc::vec::Vec;

use super::decode::*;
use super::encode::*;
use super::lane::*;
use super::layout::*;
use super::scan::*;
use crate::{Reader, Writer};

/// Whether this CPU has packed-codec level `level` (`x86::level`), so
/// that a kernel's test can run. Without it the test has nothing to
/// check; with `BINFORM_REQUIRE_AVX512` set (on a CI machine known to have
/// AVX-512 VBMI2), that is a failure rather than a silent pass.
#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
pub(super) fn cpu_has_level(level: u8) -> bool {
    let has = super::x86::level() >= level;
    if !has && std::env::var_os("BINFORM_REQUIRE_AVX512").is_some() {
        panic!("BINFORM_REQUIRE_AVX512 is set, but this CPU lacks level {level}");
    }
    has
}

/// A xorshift generator: the kernels' tests' random words, the same for
/// each seed.
pub(super) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

#[test]
fn varint_len_matches_the_encoder() {
    for shift in 0..64 {
        for v in [1u64 << shift, (1u64 << shift) - 1, (1u64 << shift) + 1] {
            assert_eq!(v.varint_len() as usize, crate::varint::len_u64(v), "{v}");
            if let Ok(small) = u32::try_from(v) {
                assert_eq!(small.varint_len() as usize, crate::varint::len_u64(v));
            }
            let signed = v as i64;
            assert_eq!(
                signed.scalar_len() as usize,
                crate::varint::len_u64(crate::varint::zigzag_i64(signed))
            );
            let signed = v as i32;
            assert_eq!(
                signed.scalar_len() as usize,
                crate::varint::len_u64(crate::varint::zigzag_i64(signed.into()))
            );
        }
    }
    for shift in 0..128 {
        for v in [1u128 << shift, (1u128 << shift) - 1, (1u128 << shift) + 5] {
            assert_eq!(u128_len(v) as usize, crate::varint::encode_u128(v).1, "{v}");
        }
    }
    assert_eq!(
        u128_len(u128::MAX) as usize,
        crate::varint::encode_u128(u128::MAX).1
    );
}

#[test]
fn scan_counts_every_varint_and_payload_byte() {
    fn check<T: Lane + core::fmt::Debug>(block: &[T]) {
        let scan = scan(block, |_, _| usize::MAX);
        let expected: u32 = block.iter().map(|x| x.scalar_len()).sum();
        assert_eq!(scan.varints, expected, "{block:?}");
        let bytes = |x: &T| {
            let le = x.payload().to_u128().to_le_bytes();
            le.iter().rposition(|&b| b != 0).map_or(1, |i| i as u32 + 1)
        };
        // Counted only when the lengths form may win (the encoder's
        // choice is checked against every form's full size below).
        if scan.bytes != u32::MAX {
            let expected: u32 = block.iter().map(bytes).sum();
            assert_eq!(scan.bytes, expected, "{block:?}");
        }
    }
    let mut u = alloc::vec::Vec::new();
    for shift in 0..64 {
        u.extend([1u64 << shift, (1u64 << shift) - 1]);
    }
    for block in u.chunks(9) {
        check(block);
        check(&block.iter().map(|&v| v as i64).collect::<Vec<_>>());
        check(&block.iter().map(|&v| v as u32).collect::<Vec<_>>());
        check(&block.iter().map(|&v| v as i32).collect::<Vec<_>>());
        check(&block.iter().map(|&v| v as u16).collect::<Vec<_>>());
        check(&block.iter().map(|&v| v as i16).collect::<Vec<_>>());
        check(&block.iter().map(|&v| v as i128 * -3).collect::<Vec<_>>());
    }
    let mut wide = alloc::vec::Vec::new();
    for shift in 0..128 {
        wide.extend([1u128 << shift, (1u128 << shift) - 1]);
    }
    wide.push(u128::MAX);
    for block in wide.chunks(9) {
        check(block);
        check(&block.iter().map(|&v| v as i128).collect::<Vec<_>>());
    }
    check(&[u64::MAX; 256]);
    check(&[i16::MIN; 256]);
}

/// The form the rule of format.md §22 picks, computed the long way:
/// every form's size in full, the smallest, ties in the rule's order.
fn expected_form<T: Lane>(block: &[T]) -> u8 {
    let n = block.len();
    let lo = block.iter().map(|x| x.key()).min().unwrap();
    let hi = block.iter().map(|x| x.key()).max().unwrap();
    let range = hi.wrapping_sub(lo).to_u128();
    let base = T::from_key(lo).scalar_len() as usize;
    let (code, width) = narrowest(hi.wrapping_sub(lo));
    let bits = 128 - range.leading_zeros();
    let payload_bytes = |x: &T| {
        let le = x.payload().to_u128().to_le_bytes();
        le.iter().rposition(|&b| b != 0).map_or(1, |i| i + 1)
    };
    let longest = block.iter().map(payload_bytes).max().unwrap();
    let codes = if longest <= 4 {
        n.div_ceil(4)
    } else {
        n.div_ceil(2)
    };
    let lengths_header = if longest <= 4 { LENGTHS2 } else { LENGTHS4 };
    let forms = [
        (base + n * width, code),
        (
            if (1..=56).contains(&bits) {
                1 + base + bits_len(n, bits)
            } else {
                usize::MAX
            },
            BITS,
        ),
        (
            codes + block.iter().map(payload_bytes).sum::<usize>(),
            lengths_header,
        ),
        (block.iter().map(|x| x.scalar_len() as usize).sum(), VARINTS),
    ];
    let mut best = forms[0];
    for form in forms {
        if form.0 < best.0 {
            best = form;
        }
    }
    best.1
}

#[test]
fn the_encoder_picks_the_smallest_form() {
    fn check<T: Lane + core::fmt::Debug>(block: &[T]) {
        let mut buf = Vec::new();
        pack_block(block, &mut Writer::new(&mut buf));
        assert_eq!(buf[0], expected_form(block), "{block:?}");
    }
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..400 {
        let n = 8 + (next() % 249) as usize;
        // A spread that moves across every form: narrow ranges, mixed
        // magnitudes, full ranges, far from zero or around it.
        let shift = (round % 64) as u32;
        let offset = if round % 3 == 0 { next() } else { 0 };
        let raw: Vec<u64> = (0..n)
            .map(|i| {
                let v = next() >> shift;
                let v = if round % 5 == 0 {
                    v >> (next() % 64)
                } else {
                    v
                };
                if round % 7 == 0 && i % 50 == 3 {
                    v.wrapping_mul(1 << 20)
                } else {
                    v.wrapping_add(offset)
                }
            })
            .collect();
        check(&raw);
        check(&raw.iter().map(|&v| v as i64).collect::<Vec<_>>());
        check(&raw.iter().map(|&v| v as u32).collect::<Vec<_>>());
        check(&raw.iter().map(|&v| (v >> 32) as i32).collect::<Vec<_>>());
        check(&raw.iter().map(|&v| v as i16).collect::<Vec<_>>());
        check(
            &raw.iter()
                .map(|&v| (v as i128) << (shift % 3 * 20))
                .collect::<Vec<_>>(),
        );
    }
}

/// One block of each shape, as 64-bit patterns: equal values, byte,
/// 2-byte, 4-byte and full ranges far from zero, narrow bit ranges, small
/// varints with rare larger ones, mixed magnitudes.
fn shaped_values() -> Vec<u64> {
    let mut state = 0x853C_49E6_748F_EA9Bu64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut raw: Vec<u64> = Vec::new();
    let far = next();
    let shapes: [&dyn Fn(u64, usize) -> u64; 9] = [
        &|_, _| far,
        &|r, _| far.wrapping_add(r >> 56),
        &|r, _| far.wrapping_add(r >> 48),
        &|r, _| far.wrapping_add(r >> 32),
        &|r, _| r,
        &|r, _| r >> 59,
        &|r, i| if i % 40 == 1 { r >> 44 } else { r >> 58 },
        &|r, _| r >> (r % 64),
        &|r, _| (r >> (r % 64)) >> 40,
    ];
    for shape in shapes {
        for i in 0..BLOCK {
            raw.push(shape(next(), i));
        }
    }
    raw
}

#[test]
fn every_form_fills_every_slot_of_a_vector() {
    // `unpack_vec` decodes into a vector's uninitialized capacity and
    // trusts a block's `Ok` to mean every slot was written. Blocks of
    // every form (and a headed and a headerless tail) round-trip, so
    // a slot left unwritten is a wrong value here, and a read of
    // uninitialized memory under Miri (`scripts/miri.sh`, which runs
    // this with and without the x86 kernels).
    let raw = shaped_values();
    fn check<T: Lane + PartialEq + core::fmt::Debug>(values: &[T], forms: &mut [bool; 10]) {
        // The whole run, then the last two shapes with a headed and a
        // headerless partial block after them.
        let last = values.len() - 2 * BLOCK;
        for values in [
            values,
            &values[last..][..BLOCK + 200],
            &values[last..][..BLOCK + 5],
        ] {
            let mut buf = Vec::new();
            pack_slice(values, &mut Writer::new(&mut buf));
            let options = crate::Options::new();
            let mut r = Reader::new(&buf, &options);
            let back = unpack_vec::<T, _>(&mut r, values.len()).expect("decodes");
            assert_eq!(back, values, "{} values", values.len());
            assert!(r.rest().is_empty());
        }
        for block in values.chunks(BLOCK) {
            let mut buf = Vec::new();
            pack_block(block, &mut Writer::new(&mut buf));
            forms[usize::from(buf[0])] = true;
        }
    }
    let mut forms = [false; 10];
    // The shapes in each integer width, signed and unsigned.
    macro_rules! check_as {
        ($($map:expr),*) => {$(
            check(&raw.iter().map($map).collect::<Vec<_>>(), &mut forms);
        )*};
    }
    check(&raw, &mut forms);
    check_as!(
        |&v| v as i64,
        |&v| (v >> 32) as u32,
        |&v| v as i32,
        |&v| (v >> 48) as i16,
        |&v| v as u16,
        |&v| (i128::from(v) << 64) ^ i128::from(v.rotate_left(17))
    );
    assert_eq!(forms, [true; 10], "forms seen (by header)");
}

#[test]
fn wide_bit_blocks_carry_into_the_high_half_only_when_they_must() {
    // 128-bit bit-packed blocks whose base's low half leaves exactly
    // room for the widest offset (one 64-bit add a value) and one
    // short of it (the carry into the high half is needed).
    for bits in [1u32, 9, 20, 56] {
        let widest = (1u64 << bits) - 1;
        for room in [widest, widest - 1] {
            let base = (5u128 << 64) | u128::from(u64::MAX - room);
            let values: Vec<u128> = [base, base + u128::from(widest)]
                .into_iter()
                .chain(
                    (2..BLOCK as u64)
                        .map(|i| base + u128::from(i.wrapping_mul(0x9E37_79B9) % widest)),
                )
                .collect();
            let mut buf = Vec::new();
            pack_slice(&values, &mut Writer::new(&mut buf));
            assert_eq!(buf[0], BITS, "{bits} bits");
            let options = crate::Options::new();
            let back = unpack_vec::<u128, _>(&mut Reader::new(&buf, &options), values.len());
            assert_eq!(back.expect("decodes"), values, "{bits} bits, room {room}");
        }
    }
}

#[test]
fn every_bit_width_round_trips_at_every_count() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for bits in 1..=MAX_BITS {
        for n in [1, 7, 8, 9, 15, 16, 17, 255, 256] {
            let values: Vec<u64> = (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state >> (64 - bits)
                })
                .collect();
            // With the encoder's slack (the grouped writer's whole
            // stores) and without (the joined writer alone at the end).
            for slack in [0, BITS_SLACK] {
                let len = bits_len(n, bits);
                let mut out = vec![0u8; len + slack];
                put_bits(&values, 0, bits, &mut out);
                assert!(out[len..].iter().all(|&b| b == 0), "slack written");
                let mut back = vec![0u64; n];
                assert!(!get_bits(&out[..len], bits, 0, slots(&mut back)));
                assert_eq!(back, values, "{bits} bits, {n} values, {slack} slack");
            }
        }
    }
}

#[test]
fn bit_blocks_followed_by_input_never_take_its_bytes() {
    // A bit-packed block with at least 64 bytes of input after it is read
    // with that input (`unpack_bits`): the kernels' windows and the last
    // word pass the block's end. Input of set bits after it must change
    // no value, and the reader must stop at the block's end; with less
    // input after it, the block alone is read. Keys of 2, 4, 8 and 16
    // bytes, signed and not: each kernel (8 or 16 lanes, 32 or 64-bit).
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut bit_blocks = 0;
    macro_rules! check {
        ($($ty:ty),*) => {$(
            let widest = MAX_BITS.min(<$ty>::BITS - 1);
            for bits in 1..=widest {
                for n in [8, 9, 10, 15, 16, 17, 20, 33, 64, 255] {
                    let values: Vec<$ty> = core::iter::once(0)
                        .chain(core::iter::once((1u64 << bits) - 1))
                        .chain((2..n).map(|_| next() >> (64 - bits)))
                        .map(|v| v as $ty)
                        .collect();
                    let mut buf = Vec::new();
                    pack_slice(&values, &mut Writer::new(&mut buf));
                    bit_blocks += usize::from(buf[0] == BITS);
                    for after in [0, 1, 63, 64, 65, 200] {
                        let mut input = buf.clone();
                        input.resize(buf.len() + after, 0xFF);
                        let options = crate::Options::new();
                        let mut r = Reader::new(&input, &options);
                        let back = unpack_vec::<$ty, _>(&mut r, n).expect("decodes");
                        let what = (stringify!($ty), bits, n, after);
                        assert_eq!(back, values, "{what:?}: type, bits, values, bytes after");
                        assert_eq!(r.rest().len(), after, "{what:?}");
                    }
                }
            }
        )*};
    }
    check!(u16, i32, u32, u64, i64, i128);
    assert!(bit_blocks > 1000, "only {bit_blocks} bit-packed blocks");
}

#[test]
fn wide_bit_widths_of_four_byte_keys_round_trip_under_a_base() {
    // 17 to 25-bit offsets of 4-byte keys (the AVX-512 kernel's 16-value
    // groups, and its padded tail) through `get_bits`, under a base that
    // is not zero, signed and unsigned.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for bits in 17..=25u32 {
        for n in [16, 17, 31, 32, 33, 100, 255, 256] {
            let offsets: Vec<u32> = (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> (64 - bits)) as u32
                })
                .collect();
            let len = bits_len(n, bits);
            let mut out = vec![0u8; len + BITS_SLACK];
            put_bits(&offsets, 0, bits, &mut out);
            let base = 12_345u32;
            let mut back = vec![0u32; n];
            assert!(!get_bits(&out[..len], bits, base, slots(&mut back)));
            let want: Vec<u32> = offsets.iter().map(|&o| base + o).collect();
            assert_eq!(back, want, "u32, {bits} bits, {n} values");
            let mut back = vec![0i32; n];
            assert!(!get_bits(&out[..len], bits, base, slots(&mut back)));
            let want: Vec<i32> = want.iter().map(|&k| (k ^ 1 << 31) as i32).collect();
            assert_eq!(back, want, "i32, {bits} bits, {n} values");
        }
    }
}

#[test]
fn keys_keep_order_and_invert() {
    let values = [i32::MIN, -5, -1, 0, 1, 7, i32::MAX];
    for pair in values.windows(2) {
        assert!(pair[0].key() < pair[1].key());
    }
    for v in values {
        assert_eq!(i32::from_key(v.key()), v);
    }
    // The greatest value has the greatest key.
    assert_eq!(i32::KEY_MAX, u32::MAX);
    assert_eq!(i16::KEY_MAX, u16::MAX);
    assert_eq!(i128::KEY_MAX, u128::MAX);
    assert_eq!(u64::KEY_MAX, u64::MAX);
    assert_eq!(isize::KEY_MAX, isize::MAX.key());
    assert_eq!(i64::from_key(0), i64::MIN);
}

/// The 128-bit shortcuts (extrema by halves, the payload's top byte
/// from the high half) agree with the plain 128-bit arithmetic at the
/// edges: high halves equal and one apart, low halves at their ends,
/// signs on both sides of zero and of each half's boundary.
#[test]
fn wide_shortcuts_match_the_plain_arithmetic() {
    let edges: [i128; 14] = [
        i128::MIN,
        i128::MIN + 1,
        -(1 << 64) - 1,
        -(1 << 64),
        -(1 << 63),
        -1,
        0,
        1,
        (1 << 63) - 1,
        1 << 63,
        (1 << 64) - 1,
        1 << 64,
        (1 << 119) + (1 << 63),
        i128::MAX,
    ];
    for v in edges {
        let plain = (crate::varint::zigzag_i128(v) >> 120) as u64;
        assert_eq!(v.payload_top(), plain, "{v}");
    }
    // Every window of the edges, in order, reversed and rotated (so
    // that keys sharing a high half come in every order), so that the
    // extrema share high halves in some and not in others.
    for start in 0..edges.len() {
        for end in start + 1..=edges.len() {
            let window = &edges[start..end];
            let mut reversed = window.to_vec();
            reversed.reverse();
            let mut rotated = window.to_vec();
            rotated.rotate_left(window.len() / 2);
            for block in [window, &reversed, &rotated] {
                let keys = block.iter().map(|v| v.key());
                let plain = (keys.clone().min().unwrap(), keys.max().unwrap());
                assert_eq!(extrema_by_halves(block), plain, "{block:?}");
                let unsigned: Vec<u128> = block.iter().map(|&v| v as u128).collect();
                let plain = (unsigned.iter().min(), unsigned.iter().max());
                let (lo, hi) = extrema_by_halves(&unsigned);
                assert_eq!((Some(&lo), Some(&hi)), plain, "{unsigned:?}");
            }
        }
    }
}

#[test]
fn narrowest_width() {
    assert_eq!(narrowest(0u32), (1, 0));
    assert_eq!(narrowest(255u32), (2, 1));
    assert_eq!(narrowest(256u32), (3, 2));
    assert_eq!(narrowest(65_536u32), (4, 4));
    assert_eq!(narrowest(u64::MAX), (5, 8));
    assert_eq!(narrowest(u128::MAX), (6, 16));
}

#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[test]
fn every_level_writes_the_same_bytes_and_reads_them_back() {
    // The encoder and decoder compiled for x86-64-v3 and v4 are the
    // portable code vectorized further: the bytes and the values must
    // not change. Each level runs where the CPU has it.
    let level = super::x86::level();
    fn check<T: Lane + PartialEq + core::fmt::Debug>(values: &[T], level: u8) {
        for values in [values, &values[..BLOCK + 13], &values[..SHORT + 1]] {
            let mut portable = Vec::new();
            pack_blocks(values, &mut Writer::new(&mut portable));
            let mut builds = Vec::new();
            if level >= 3 {
                let mut buf = Vec::new();
                #[allow(unsafe_code)]
                // SAFETY: the CPU has level 3's features.
                unsafe {
                    pack_slice_v3(values, &mut Writer::new(&mut buf))
                };
                builds.push(buf);
            }
            if level >= 4 {
                let mut buf = Vec::new();
                #[allow(unsafe_code)]
                // SAFETY: the CPU has level 4's features.
                unsafe {
                    pack_slice_v4(values, &mut Writer::new(&mut buf))
                };
                builds.push(buf);
            }
            for buf in &builds {
                assert_eq!(buf, &portable, "{} values", values.len());
            }
            let options = crate::Options::new();
            let mut r = Reader::new(&portable, &options);
            let back = unpack_vec_in::<T, _>(&mut r, values.len()).expect("decodes");
            assert_eq!(back, values);
            if level >= 4 {
                let mut r = Reader::new(&portable, &options);
                #[allow(unsafe_code)]
                // SAFETY: the CPU has level 4's features.
                let back = unsafe { unpack_vec_v4::<T, _>(&mut r, values.len()) };
                assert_eq!(back.expect("decodes"), values);
                // A damaged copy fails alike in both builds.
                for cut in [1, portable.len() / 2, portable.len() - 1] {
                    let mut bad = portable.clone();
                    bad[cut] ^= 0x5A;
                    let mut a = Reader::new(&bad, &options);
                    let mut b = Reader::new(&bad, &options);
                    let plain = unpack_vec_in::<T, _>(&mut a, values.len());
                    #[allow(unsafe_code)]
                    // SAFETY: the CPU has level 4's features.
                    let v4 = unsafe { unpack_vec_v4::<T, _>(&mut b, values.len()) };
                    assert_eq!(plain.as_ref().ok(), v4.as_ref().ok());
                    assert_eq!(
                        plain.map_err(|e| e.kind()).err(),
                        v4.map_err(|e| e.kind()).err()
                    );
                }
            }
        }
    }
    let raw = shaped_values();
    check(&raw, level);
    check(&raw.iter().map(|&v| v as i64).collect::<Vec<_>>(), level);
    check(
        &raw.iter().map(|&v| (v >> 32) as u32).collect::<Vec<_>>(),
        level,
    );
    check(&raw.iter().map(|&v| v as i32).collect::<Vec<_>>(), level);
    check(
        &raw.iter().map(|&v| (v >> 48) as i16).collect::<Vec<_>>(),
        level,
    );
    check(&raw.iter().map(|&v| v as u16).collect::<Vec<_>>(), level);
    check(
        &raw.iter()
            .map(|&v| (i128::from(v) << 64) ^ i128::from(v.rotate_left(17)))
            .collect::<Vec<_>>(),
        level,
    );
}

#[test]
fn varint_blocks_decode_as_value_by_value_reads_do() {
    // The bulk varint loop (lengths counted first for long blocks, taken
    // from each word for short ones) against `read_scalar` value by
    // value: the same values, or an error of the same kind at the same
    // place, on blocks of varints of every length (minimal or not, the
    // 9-byte form, values past the type) and input that ends right after
    // them.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    /// A varint of `len` bytes (1 to 9) holding `v`'s low bits: possibly
    /// longer than `v` needs, possibly cut from a larger `v`.
    fn varint(v: u64, len: usize, out: &mut Vec<u8>) {
        if len == 9 {
            out.push(0xFF);
            out.extend_from_slice(&v.to_le_bytes());
            return;
        }
        let payload = if len == 8 {
            v & ((1 << 56) - 1)
        } else {
            v & ((1 << (7 * len)) - 1)
        };
        let word = payload << len | ((1u64 << (len - 1)) - 1);
        out.extend_from_slice(&word.to_le_bytes()[..len]);
    }
    fn check<T: Lane + PartialEq + core::fmt::Debug>(bytes: &[u8], n: usize) {
        let options = crate::Options::new();
        let mut bulk = Reader::new(bytes, &options);
        let got = unpack_vec::<T, _>(&mut bulk, n);
        let mut each = Reader::new(bytes, &options);
        let want: crate::Result<Vec<T>> = (|| {
            if n >= SHORT {
                assert_eq!(each.read_u8()?, VARINTS);
            }
            (0..n).map(|_| T::read_scalar(&mut each)).collect()
        })();
        match (got, want) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b);
                assert_eq!(bulk.position(), each.position());
            }
            (Err(a), Err(b)) => assert_eq!(a.kind(), b.kind(), "{a} / {b}"),
            (a, b) => panic!("bulk {a:?}, value by value {b:?}"),
        }
    }
    for case in 0..400 {
        let n = [8, 9, 31, 32, 33, 64, 200, 256][case % 8];
        let mut bytes = Vec::new();
        if n >= SHORT {
            bytes.push(VARINTS);
        }
        // Mostly short varints, some long, rarely a bad one.
        for _ in 0..n {
            let r = next();
            let len = match r % 100 {
                0..=59 => 1,
                60..=84 => 2,
                85..=94 => 1 + (r >> 8) as usize % 5,
                _ => 1 + (r >> 8) as usize % 9,
            };
            let v = match (r >> 16) % 50 {
                0 => 0,
                _ => next() >> (64 - 7 * len.min(9) as u32).min(63),
            };
            varint(v, len, &mut bytes);
        }
        // The input ends right after the block, or a few bytes later.
        bytes.extend(core::iter::repeat_n(0u8, (next() % 20) as usize));
        check::<u16>(&bytes, n);
        check::<i16>(&bytes, n);
        check::<u32>(&bytes, n);
        check::<i32>(&bytes, n);
        check::<u64>(&bytes, n);
        check::<i64>(&bytes, n);
    }
}

#[test]
fn fixed_offsets_find_each_value_out_of_range() {
    // The widening checks only the greatest offset against the room above
    // the base: one offset past it, at each position, must fail, and one
    // that just reaches the top must not (a check of some lanes only, or
    // off by one, fails here).
    fn check<T: Lane + PartialEq + core::fmt::Debug>(width: usize) {
        let n = 67;
        let top = T::KEY_MAX;
        let widest = if width >= 16 {
            u128::MAX
        } else {
            (1u128 << (8 * width)) - 1
        };
        let room = 5u128.min(widest - 1);
        let base = <T::Key as Key>::from_u128(top.to_u128() - room);
        for at in 0..n {
            for (off, fails) in [(room, false), (room + 1, true)] {
                let mut bytes = Vec::new();
                for i in 0..n {
                    let o = if i == at {
                        off
                    } else {
                        (i as u128) % (room + 1)
                    };
                    bytes.extend_from_slice(&o.to_le_bytes()[..width]);
                }
                let mut out = alloc::vec![core::mem::MaybeUninit::<T>::uninit(); n];
                assert_eq!(
                    widen(width, &bytes, base, &mut out),
                    fails,
                    "width {width}, offset {off} at {at}"
                );
                let mut out = alloc::vec![core::mem::MaybeUninit::<T>::uninit(); n];
                assert_eq!(widen_portable(width, &bytes, base, &mut out), fails);
                if !fails {
                    // SAFETY: a success writes every slot.
                    #[allow(unsafe_code)]
                    let last = unsafe { out[at].assume_init() };
                    assert_eq!(last, T::from_key(top));
                }
            }
        }
    }
    for width in [1, 2, 4] {
        check::<u32>(width);
        check::<i32>(width);
        check::<u16>(width.min(2));
        check::<i16>(width.min(2));
    }
    for width in [1, 2, 4, 8] {
        check::<u64>(width);
        check::<i64>(width);
    }
    for width in [1, 8, 16] {
        check::<u128>(width);
        check::<i128>(width);
    }
}
