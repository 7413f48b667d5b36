//! Every std type round-trips.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::BuildHasherDefault;
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::*;
use std::ops::Bound;
use std::sync::{Mutex, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use binform::{ErrorKind, Packable};
use binform_tests::{assert_everything_eq, everything, Everything};

use crate::round_trip;

#[test]
fn integers_at_their_limits() {
    macro_rules! limits {
        ($($ty:ty),*) => {$(
            for v in [<$ty>::MIN, <$ty>::MAX, 0 as $ty, 1 as $ty, <$ty>::MAX / 2, <$ty>::MIN / 2] {
                round_trip(&v);
            }
        )*};
    }
    limits!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
}

#[test]
fn floats_keep_their_bits() {
    let nan_payload = f64::from_bits(0x7FF8_0000_DEAD_BEEF);
    for v in [
        0.0f64,
        -0.0,
        1.5,
        f64::MIN_POSITIVE,
        f64::INFINITY,
        f64::NEG_INFINITY,
        nan_payload,
    ] {
        let bytes = binform::to_vec(&v).unwrap();
        assert_eq!(bytes, v.to_bits().to_le_bytes());
        assert_eq!(
            binform::from_slice::<f64>(&bytes).unwrap().to_bits(),
            v.to_bits()
        );
    }
    let nan32 = f32::from_bits(0x7FC0_1234);
    for v in [0.0f32, -0.0, 3.25, f32::MAX, nan32] {
        let bytes = binform::to_vec(&v).unwrap();
        assert_eq!(
            binform::from_slice::<f32>(&bytes).unwrap().to_bits(),
            v.to_bits()
        );
    }
    let floats = vec![1.0f64, nan_payload, -0.0];
    let back: Vec<f64> = binform::from_slice(&binform::to_vec(&floats).unwrap()).unwrap();
    assert_eq!(
        back.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
        floats.iter().map(|f| f.to_bits()).collect::<Vec<_>>()
    );
}

#[test]
fn scalars() {
    round_trip(&true);
    round_trip(&false);
    for c in ['\0', 'a', 'é', '\u{FFFF}', '🦀', char::MAX] {
        round_trip(&c);
    }
    round_trip(&());
}

#[test]
fn strings() {
    round_trip(&String::new());
    round_trip(&"ascii".to_string());
    round_trip(&"ünïcödé 🦀".to_string());
    round_trip(&"x".repeat(100_000));
    round_trip(&Box::<str>::from("boxed"));
    let cow_bytes = binform::to_vec(&Cow::<str>::Owned("cow".into())).unwrap();
    assert_eq!(
        binform::from_slice::<Cow<'_, str>>(&cow_bytes).unwrap(),
        "cow"
    );
}

#[test]
fn boxes_options_results() {
    round_trip(&Box::new(5u32));
    round_trip(&Box::new(Box::new(String::from("deep"))));
    round_trip(&vec![1u16, 2, 3].into_boxed_slice());
    round_trip(&Some(3u8));
    round_trip(&None::<u8>);
    round_trip(&Some(Some(None::<String>)));
    round_trip(&Ok::<u32, String>(7));
    round_trip(&Err::<u32, String>("e".into()));
}

#[test]
fn tuples_up_to_sixteen() {
    round_trip(&(1u8,));
    round_trip(&(1u8, -2i64, "three".to_string()));
    round_trip(&(
        1u8, 2u16, 3u32, 4u64, 5u128, 6usize, 7i8, 8i16, 9i32, 10i64, 11i128, 12isize,
    ));
    // std implements PartialEq only up to 12 elements: compare 16 by halves.
    let sixteen = (
        1u8,
        2u16,
        3u32,
        4u64,
        5u128,
        6usize,
        7i8,
        8i16,
        9i32,
        10i64,
        11i128,
        12isize,
        'c',
        true,
        (),
        "s".to_string(),
    );
    type Sixteen = (
        u8,
        u16,
        u32,
        u64,
        u128,
        usize,
        i8,
        i16,
        i32,
        i64,
        i128,
        isize,
        char,
        bool,
        (),
        String,
    );
    let back: Sixteen = binform::from_slice(&binform::to_vec(&sixteen).unwrap()).unwrap();
    assert_eq!(
        (back.0, back.1, back.2, back.3, back.4, back.5, back.6, back.7),
        (1, 2, 3, 4, 5, 6, 7, 8)
    );
    assert_eq!(
        (back.8, back.9, back.10, back.11, back.12, back.13, back.14, back.15),
        (9, 10, 11, 12, 'c', true, (), "s".to_string())
    );
}

#[test]
fn arrays_of_any_length() {
    round_trip(&[0u8; 0]);
    round_trip(&[7u8; 1]);
    round_trip(&[1u32, 2, 3]);
    round_trip(&[[1i16, 2, 3], [4, 5, 6]]);
    round_trip(&[[[0u8; 2]; 3]; 4]);
    let big: [u64; 100] = std::array::from_fn(|i| (i as u64) << 40);
    round_trip(&big);
    round_trip(&["a".to_string(), "b".to_string()]);
    // No length prefix: a [u8; 3] is exactly three bytes.
    assert_eq!(binform::to_vec(&[1u8, 2, 3]).unwrap(), [1, 2, 3]);
}

#[test]
fn sequences() {
    round_trip(&Vec::<u32>::new());
    round_trip(&(0..1000).collect::<Vec<u32>>());
    round_trip(&vec![vec![1u8], vec![], vec![2, 3]]);
    round_trip(&vec![vec![vec![String::from("jagged")]]]);
    let mut deque: VecDeque<i32> = (0..10).collect();
    deque.rotate_left(3); // make the ring buffer wrap
    round_trip(&deque);
    round_trip(
        &["x", "y"]
            .iter()
            .map(|s| s.to_string())
            .collect::<LinkedList<_>>(),
    );
    let heap: BinaryHeap<i32> = [3, 1, 4, 1, 5, 9, 2, 6].into_iter().collect();
    let bytes = binform::to_vec(&heap).unwrap();
    let back: BinaryHeap<i32> = binform::from_slice(&bytes).unwrap();
    assert_eq!(
        back.clone().into_sorted_vec(),
        heap.clone().into_sorted_vec()
    );
    assert_eq!(binform::to_vec(&back).unwrap(), bytes);
    round_trip(&vec![(); 1000]);
}

#[test]
fn maps_and_sets() {
    let hm: HashMap<String, Vec<u32>> = (0..50)
        .map(|i| (format!("k{i}"), vec![i; i as usize % 4]))
        .collect();
    let back: HashMap<String, Vec<u32>> =
        binform::from_slice(&binform::to_vec(&hm).unwrap()).unwrap();
    assert_eq!(back, hm);
    let hs: HashSet<u64> = (0..100).map(|i| i * 7919).collect();
    let back: HashSet<u64> = binform::from_slice(&binform::to_vec(&hs).unwrap()).unwrap();
    assert_eq!(back, hs);
    // Any BuildHasher + Default works.
    type Fixed = BuildHasherDefault<std::collections::hash_map::DefaultHasher>;
    let fixed: HashMap<u8, u8, Fixed> = [(1, 2), (3, 4)].into_iter().collect();
    let back: HashMap<u8, u8, Fixed> =
        binform::from_slice(&binform::to_vec(&fixed).unwrap()).unwrap();
    assert_eq!(back, fixed);
    round_trip(
        &(0..20)
            .map(|i| (i, i.to_string()))
            .collect::<BTreeMap<i32, String>>(),
    );
    round_trip(
        &["b", "a", "c"]
            .iter()
            .map(|s| s.to_string())
            .collect::<BTreeSet<_>>(),
    );
}

#[test]
fn cow_and_markers() {
    round_trip(&Cow::<[u32]>::Owned(vec![1, 2]));
    round_trip(&Cow::<u64>::Owned(9));
    round_trip(&PhantomData::<String>);
    assert!(binform::to_vec(&PhantomData::<String>).unwrap().is_empty());
    round_trip(&std::num::Wrapping(250u8));
    round_trip(&std::num::Saturating(-3i32));
    round_trip(&std::cmp::Reverse(5u32));
    round_trip(&(3u64..17));
    round_trip(&(-3i32..=-1));
    round_trip(&Bound::Included(3u8));
    round_trip(&Bound::Excluded(3u8));
    round_trip(&Bound::<u8>::Unbounded);
}

#[test]
fn nonzero_family() {
    round_trip(&NonZeroU8::new(1).unwrap());
    round_trip(&NonZeroU16::MAX);
    round_trip(&NonZeroU32::new(7).unwrap());
    round_trip(&NonZeroU64::MAX);
    round_trip(&NonZeroU128::MAX);
    round_trip(&NonZeroUsize::new(3).unwrap());
    round_trip(&NonZeroI8::MIN);
    round_trip(&NonZeroI16::new(-1).unwrap());
    round_trip(&NonZeroI32::MIN);
    round_trip(&NonZeroI64::MAX);
    round_trip(&NonZeroI128::MIN);
    round_trip(&NonZeroIsize::new(-9).unwrap());
}

#[test]
fn time() {
    for d in [
        Duration::ZERO,
        Duration::new(1, 1),
        Duration::MAX,
        Duration::from_nanos(999_999_999),
    ] {
        round_trip(&d);
    }
    let times = [
        UNIX_EPOCH,
        UNIX_EPOCH + Duration::new(1_700_000_000, 5),
        UNIX_EPOCH - Duration::new(1, 0),
        UNIX_EPOCH - Duration::new(86_400 * 365 * 50, 250_000_000),
        SystemTime::now(),
    ];
    for t in times {
        round_trip(&t);
    }
    // Before the epoch the seconds are floored: -0.75 s is (-1 s, 250 ms).
    let bytes = binform::to_vec(&(UNIX_EPOCH - Duration::from_millis(750))).unwrap();
    let mut expected = binform::to_vec(&-1i64).unwrap();
    expected.extend(binform::to_vec(&250_000_000u32).unwrap());
    assert_eq!(bytes, expected);
}

#[test]
fn addresses() {
    round_trip(&Ipv4Addr::new(10, 0, 0, 1));
    round_trip(&Ipv6Addr::new(0xfe80, 0, 0, 0, 1, 2, 3, 4));
    round_trip(&IpAddr::V4(Ipv4Addr::LOCALHOST));
    round_trip(&IpAddr::V6(Ipv6Addr::LOCALHOST));
    round_trip(&SocketAddrV4::new(Ipv4Addr::new(1, 2, 3, 4), 65535));
    round_trip(&SocketAddrV6::new(Ipv6Addr::LOCALHOST, 80, 1, 2));
    round_trip(&SocketAddr::from(([127, 0, 0, 1], 22)));
    round_trip(&SocketAddr::from(([0u16; 8], 22)));
    assert_eq!(
        binform::to_vec(&Ipv4Addr::new(1, 2, 3, 4)).unwrap(),
        [1, 2, 3, 4]
    );
}

#[test]
fn cells_and_locks() {
    round_trip(&Cell::new(5u32));
    round_trip(&RefCell::new(vec![1u8]));
    let m = Mutex::new(String::from("m"));
    let back: Mutex<String> = binform::from_slice(&binform::to_vec(&m).unwrap()).unwrap();
    assert_eq!(*back.lock().unwrap(), "m");
    let l = RwLock::new(3u64);
    let back: RwLock<u64> = binform::from_slice(&binform::to_vec(&l).unwrap()).unwrap();
    assert_eq!(*back.read().unwrap(), 3);
}

#[test]
fn borrowed_ref_cell_is_an_encode_error() {
    let cell = RefCell::new(5u32);
    let guard = cell.borrow_mut();
    let err = binform::to_vec(&cell).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyBorrowed);
    drop(guard);
    // Shared borrows do not block encoding.
    let _shared = cell.borrow();
    assert!(binform::to_vec(&cell).is_ok());
}

#[test]
fn poisoned_locks_are_encode_errors() {
    let m = std::sync::Arc::new(Mutex::new(1u8));
    let l = std::sync::Arc::new(RwLock::new(1u8));
    let (m2, l2) = (m.clone(), l.clone());
    let _ = std::thread::spawn(move || {
        let _g = m2.lock().unwrap();
        let _h = l2.write().unwrap();
        panic!("poison both");
    })
    .join();
    assert_eq!(
        binform::to_vec(&*m).unwrap_err().kind(),
        ErrorKind::Poisoned
    );
    assert_eq!(
        binform::to_vec(&*l).unwrap_err().kind(),
        ErrorKind::Poisoned
    );
}

#[test]
fn failed_encode_leaves_the_buffer_as_it_was() {
    let cell = RefCell::new(5u32);
    let _guard = cell.borrow_mut();
    let mut buf = vec![9, 9];
    assert!(binform::to_vec_into(&mut buf, &(1u8, &cell)).is_err());
    assert_eq!(buf, [9, 9]);
}

#[test]
fn bytes_crate() {
    round_trip(&bytes::Bytes::from_static(b"hello"));
    round_trip(&bytes::BytesMut::from(&b"world"[..]));
    // Same encoding as Vec<u8>.
    assert_eq!(
        binform::to_vec(&bytes::Bytes::from_static(b"ab")).unwrap(),
        binform::to_vec(&b"ab".to_vec()).unwrap()
    );
}

#[derive(Packable, Debug, PartialEq)]
struct Dimensions {
    grid: [[f32; 4]; 4],
    cube: [[[u8; 2]; 2]; 2],
    rows: Vec<[u16; 3]>,
}

#[test]
fn multi_dimensional_arrays_in_structs() {
    round_trip(&Dimensions {
        grid: [[1.0, 2.0, 3.0, 4.0]; 4],
        cube: [[[1, 2], [3, 4]], [[5, 6], [7, 8]]],
        rows: vec![[1, 2, 3], [4, 5, 6]],
    });
}

#[test]
fn everything_together() {
    let value = everything();
    let bytes = binform::to_vec(&value).unwrap();
    let back: Everything = binform::from_slice(&bytes).unwrap();
    assert_everything_eq(&value, &back);
}

#[test]
fn atomics_encode_as_their_value() {
    use std::sync::atomic::{AtomicBool, AtomicI16, AtomicU64, AtomicUsize, Ordering};
    let bytes = binform::to_vec(&AtomicU64::new(300)).unwrap();
    assert_eq!(bytes, binform::to_vec(&300u64).unwrap());
    let back: AtomicU64 = binform::from_slice(&bytes).unwrap();
    assert_eq!(back.load(Ordering::SeqCst), 300);
    let back: AtomicBool =
        binform::from_slice(&binform::to_vec(&AtomicBool::new(true)).unwrap()).unwrap();
    assert!(back.load(Ordering::SeqCst));
    let back: AtomicI16 =
        binform::from_slice(&binform::to_vec(&AtomicI16::new(-7)).unwrap()).unwrap();
    assert_eq!(back.load(Ordering::SeqCst), -7);
    // Sequences of atomics are their integers' packed blocks, and their
    // schema says so.
    let counters: Vec<AtomicUsize> = (0..300).map(AtomicUsize::new).collect();
    let bytes = binform::to_vec(&counters).unwrap();
    assert_eq!(
        bytes,
        binform::to_vec(&(0..300).collect::<Vec<usize>>()).unwrap()
    );
    let back: Vec<AtomicUsize> = binform::from_slice(&bytes).unwrap();
    let back: Vec<usize> = back.iter().map(|a| a.load(Ordering::SeqCst)).collect();
    assert_eq!(back, (0..300).collect::<Vec<_>>());
    assert_eq!(
        binform::schema::fingerprint_of::<Vec<AtomicUsize>>(),
        binform::schema::fingerprint_of::<Vec<usize>>()
    );
    assert_eq!(
        binform::schema::fingerprint_of::<AtomicUsize>(),
        binform::schema::fingerprint_of::<usize>()
    );
    let err = binform::from_slice::<AtomicBool>(&[2]).unwrap_err();
    assert_eq!(err.kind(), binform::ErrorKind::InvalidBool);
}

#[test]
fn os_strings_paths_and_c_strings() {
    use std::ffi::{CStr, CString, OsStr, OsString};
    use std::path::{Path, PathBuf};
    let path = PathBuf::from("/var/log/binform.log");
    let bytes = binform::to_vec(&path).unwrap();
    assert_eq!(bytes, binform::to_vec("/var/log/binform.log").unwrap());
    assert_eq!(binform::from_slice::<PathBuf>(&bytes).unwrap(), path);
    assert_eq!(
        binform::to_vec(Path::new("/var/log/binform.log")).unwrap(),
        bytes
    );
    let os = OsString::from("héllo wörld");
    assert_eq!(
        binform::from_slice::<OsString>(&binform::to_vec(&os).unwrap()).unwrap(),
        os
    );
    assert_eq!(binform::to_vec(OsStr::new("x")).unwrap(), [0x02, b'x']);
    let c = CString::new("binform").unwrap();
    let bytes = binform::to_vec(&c).unwrap();
    assert_eq!(bytes, binform::to_vec(c.as_c_str()).unwrap());
    assert_eq!(binform::from_slice::<CString>(&bytes).unwrap(), c);
    let borrowed: &CStr = c.as_c_str();
    assert_eq!(
        binform::to_vec(borrowed).unwrap(),
        binform::to_vec(&b"binform"[..]).unwrap()
    );
    // A NUL inside a C string.
    let err = binform::from_slice::<CString>(&[0x06, b'a', 0, b'b']).unwrap_err();
    assert_eq!(err.kind(), binform::ErrorKind::InvalidValue);
    // An Ordering byte out of range.
    let err = binform::from_slice::<std::cmp::Ordering>(&[0x02]).unwrap_err();
    assert_eq!(err.kind(), binform::ErrorKind::InvalidValue);
}

#[cfg(unix)]
#[test]
fn a_path_that_is_not_utf8_is_an_encode_error() {
    use std::os::unix::ffi::OsStrExt;
    let raw = std::ffi::OsStr::from_bytes(b"caf\xE9.txt");
    let mut buf = vec![9u8];
    let err = binform::to_vec_into(&mut buf, std::path::Path::new(raw)).unwrap_err();
    assert_eq!(err.kind(), binform::ErrorKind::InvalidValue);
    assert_eq!(buf, [9], "nothing is written on error");
    let err = binform::to_vec(&raw.to_os_string()).unwrap_err();
    assert_eq!(err.kind(), binform::ErrorKind::InvalidValue);
}
