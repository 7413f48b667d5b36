//! Property tests: random values round-trip, and random bytes never panic.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use binform::{Packable, UnpackOwned};
use proptest::prelude::*;

fn same_bytes<T: binform::Pack + UnpackOwned + PartialEq + std::fmt::Debug>(
    v: &T,
) -> Result<(), TestCaseError> {
    let bytes = binform::to_vec(v).unwrap();
    let back: T = binform::from_slice(&bytes).unwrap();
    prop_assert_eq!(&back, v);
    prop_assert_eq!(binform::to_vec(&back).unwrap(), bytes);
    // And in the fixed layout.
    let bytes = binform::fixed::to_vec(v).unwrap();
    let back: T = binform::fixed::from_slice(&bytes).unwrap();
    prop_assert_eq!(&back, v);
    prop_assert_eq!(binform::fixed::to_vec(&back).unwrap(), bytes);
    Ok(())
}

/// Values at and around every power of two, where varint lengths change.
fn boundary_u64() -> impl Strategy<Value = u64> {
    (0u32..64, -2i64..=2).prop_map(|(shift, delta)| (1u64 << shift).wrapping_add(delta as u64))
}

#[derive(Packable, Debug, Clone, PartialEq)]
enum Node {
    Leaf(i64),
    Text(String),
    Branch(Vec<Node>),
    Keyed {
        map: BTreeMap<u8, Option<Box<Node>>>,
    },
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Node::Leaf),
        ".{0,8}".prop_map(Node::Text)
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Node::Branch),
            prop::collection::btree_map(
                any::<u8>(),
                prop::option::of(inner.prop_map(Box::new)),
                0..3
            )
            .prop_map(|map| Node::Keyed { map }),
        ]
    })
}

#[derive(Packable, Debug, Clone, PartialEq)]
struct Record {
    id: u64,
    name: String,
    scores: Vec<i32>,
    tags: HashSet<String>,
    extra: Option<(u16, char, f64)>,
}

proptest! {
    /// Packed integer sequences: random values of every spread round-trip
    /// byte-exactly, and every single-byte change of their encoding
    /// decodes to a value or an error (never a panic), as do random bytes.
    #[test]
    fn packed_sequences_survive_damage(
        values in prop::collection::vec(any::<i64>(), 0..700),
        shift in 0u32..64,
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        noise in prop::collection::vec(any::<u8>(), 0..300),
    ) {
        let values: Vec<i64> = values.iter().map(|v| v >> shift).collect();
        same_bytes(&values)?;
        let narrow: Vec<i16> = values.iter().map(|&v| v as i16).collect();
        same_bytes(&narrow)?;
        let wide: Vec<u128> = values.iter().map(|&v| (v as u128) << (shift % 8 * 8)).collect();
        same_bytes(&wide)?;
        // Mixed magnitudes: blocks of byte lengths (and varints).
        let mixed: Vec<i64> = values.iter().map(|&v| v >> v.rem_euclid(64)).collect();
        same_bytes(&mixed)?;
        let mixed32: Vec<u32> = mixed.iter().map(|&v| v as u32 >> (v as u32 % 32)).collect();
        same_bytes(&mixed32)?;
        // Damaged payloads of either layout, behind the fuzz target's
        // layout byte (0 compact, 1 fixed).
        let payloads = [
            (0u8, binform::to_vec(&values).unwrap()),
            (0, binform::to_vec(&mixed).unwrap()),
            (1, binform::fixed::to_vec(&values).unwrap()),
            (1, binform::fixed::to_vec(&mixed32).unwrap()),
        ];
        for (layout, mut bytes) in payloads {
            if !bytes.is_empty() {
                let i = at.index(bytes.len());
                bytes[i] = byte;
                bytes.insert(0, layout);
                binform_tests::fuzz::decode_packed(&bytes);
            }
        }
        binform_tests::fuzz::decode_packed(&noise);
    }

    #[test]
    fn unsigned(v in any::<u64>(), w in boundary_u64(), x in any::<u128>(), y in any::<u16>(), z in any::<usize>()) {
        same_bytes(&v)?; same_bytes(&w)?; same_bytes(&x)?; same_bytes(&y)?; same_bytes(&z)?;
        prop_assert_eq!(binform::to_vec(&w).unwrap().len(), binform::varint::len_u64(w));
    }

    #[test]
    fn signed(v in any::<i64>(), w in boundary_u64(), x in any::<i128>(), y in any::<i16>(), z in any::<i32>()) {
        same_bytes(&v)?; same_bytes(&(w as i64))?; same_bytes(&x)?; same_bytes(&y)?; same_bytes(&z)?;
        same_bytes(&(-(w as i128)))?;
    }

    #[test]
    fn small_scalars(a in any::<u8>(), b in any::<i8>(), c in any::<bool>(), d in any::<char>(), e in any::<u32>()) {
        same_bytes(&(a, b, c, d, e))?;
    }

    #[test]
    fn floats_by_bits(bits64 in any::<u64>(), bits32 in any::<u32>()) {
        let (f, g) = (f64::from_bits(bits64), f32::from_bits(bits32));
        let back: (f64, f32) = binform::from_slice(&binform::to_vec(&(f, g)).unwrap()).unwrap();
        prop_assert_eq!(back.0.to_bits(), bits64);
        prop_assert_eq!(back.1.to_bits(), bits32);
    }

    #[test]
    fn strings_and_sequences(s in ".*", v in prop::collection::vec(any::<i32>(), 0..64), d in prop::collection::vec_deque(any::<u8>(), 0..64)) {
        same_bytes(&s)?; same_bytes(&v)?; same_bytes::<VecDeque<u8>>(&d)?;
    }

    #[test]
    fn maps(m in prop::collection::hash_map(".{0,6}", any::<u32>(), 0..16), b in prop::collection::btree_map(any::<i16>(), any::<bool>(), 0..16)) {
        let back: HashMap<String, u32> = binform::from_slice(&binform::to_vec(&m).unwrap()).unwrap();
        prop_assert_eq!(back, m);
        same_bytes(&b)?;
    }

    #[test]
    fn derived_records(id in any::<u64>(), name in ".{0,12}", scores in prop::collection::vec(any::<i32>(), 0..8),
                       tags in prop::collection::hash_set("[a-z]{1,4}", 0..4), extra in prop::option::of((any::<u16>(), any::<char>(), any::<f64>().prop_filter("not NaN", |f| !f.is_nan())))) {
        let r = Record { id, name, scores, tags, extra };
        let back: Record = binform::from_slice(&binform::to_vec(&r).unwrap()).unwrap();
        prop_assert_eq!(back, r);
    }

    #[test]
    fn recursive_enums(n in node()) {
        same_bytes(&n)?;
    }

    #[test]
    fn std_types(secs in any::<u64>(), nanos in 0u32..1_000_000_000, ip4 in any::<[u8; 4]>(), ip6 in any::<[u8; 16]>(),
                 port in any::<u16>(), nz in 1u32.., c in any::<char>(), r in any::<Result<u8, i64>>()) {
        same_bytes(&std::time::Duration::new(secs, nanos))?;
        let t = std::time::UNIX_EPOCH + std::time::Duration::new(secs % (1 << 40), nanos);
        same_bytes(&t)?;
        let before = std::time::UNIX_EPOCH - std::time::Duration::new(secs % (1 << 35), nanos);
        same_bytes(&before)?;
        same_bytes(&std::net::IpAddr::from(ip4))?;
        same_bytes(&std::net::IpAddr::from(ip6))?;
        same_bytes(&std::net::SocketAddr::from((ip6, port)))?;
        same_bytes(&std::net::SocketAddrV4::new(ip4.into(), port))?;
        same_bytes(&std::num::NonZeroU32::new(nz).unwrap())?;
        same_bytes(&(c, r, std::num::Wrapping(port)))?;
    }

    #[test]
    fn containers(b in prop::collection::btree_set(any::<i64>(), 0..16), o in prop::option::of(".{0,4}"),
                  arr in any::<[u16; 5]>(), boxed in any::<u64>(), nested in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..4), 0..4),
                  ll in prop::collection::linked_list(any::<i32>(), 0..8)) {
        same_bytes(&b)?;
        same_bytes(&o)?;
        same_bytes(&arr)?;
        same_bytes(&[[arr[0], arr[1]], [arr[2], arr[3]]])?;
        same_bytes(&Box::new(boxed))?;
        same_bytes(&nested.clone().into_boxed_slice())?;
        same_bytes(&ll)?;
        same_bytes(&std::collections::VecDeque::from(nested))?;
        same_bytes(&std::cell::RefCell::new(boxed))?;
        same_bytes(&(boxed..boxed.wrapping_add(3)))?;
    }

    #[test]
    fn shared_values_keep_identity(values in prop::collection::vec(any::<u32>(), 1..8), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..16)) {
        let shared: Vec<std::rc::Rc<u32>> = values.iter().map(|&v| std::rc::Rc::new(v)).collect();
        let list: Vec<std::rc::Rc<u32>> = picks.iter().map(|i| shared[i.index(shared.len())].clone()).collect();
        let bytes = binform::to_vec(&list).unwrap();
        let back: Vec<std::rc::Rc<u32>> = binform::from_slice(&bytes).unwrap();
        prop_assert_eq!(&back, &list);
        for i in 0..list.len() {
            for j in 0..list.len() {
                prop_assert_eq!(std::rc::Rc::ptr_eq(&list[i], &list[j]), std::rc::Rc::ptr_eq(&back[i], &back[j]));
            }
        }
        prop_assert_eq!(binform::to_vec(&back).unwrap(), bytes);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = binform::from_slice::<Node>(&bytes);
        let _ = binform::from_slice::<Record>(&bytes);
        let _ = binform::from_slice::<Vec<String>>(&bytes);
        let _ = binform::from_slice::<(u128, i64, char, bool)>(&bytes);
        // A value that decodes re-encodes to the same bytes (no maps here).
        if let Ok(n) = binform::from_slice::<Vec<(u32, i16, String)>>(&bytes) {
            prop_assert_eq!(binform::to_vec(&n).unwrap(), bytes.clone());
        }
        // The same in the fixed layout.
        let _ = binform::fixed::from_slice::<Node>(&bytes);
        let _ = binform::fixed::from_slice::<Record>(&bytes);
        let _ = binform::fixed::from_slice::<(u128, i64, char, bool)>(&bytes);
        if let Ok(n) = binform::fixed::from_slice::<Vec<(u32, i16, String)>>(&bytes) {
            prop_assert_eq!(binform::fixed::to_vec(&n).unwrap(), bytes);
        }
    }
}
