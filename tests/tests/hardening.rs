//! Hardening round 3 (issue 32): each attack the red team found, built
//! here as a payload, must give a value or an `Err` with the heap's peak
//! inside the memory budget (counted by the allocator below), without
//! overflowing a small stack, in linear time.

use std::collections::{HashMap, LinkedList};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use binform::value::{self, Value};
use binform::{ErrorKind, Options, Packable};
use proptest::prelude::*;

#[global_allocator]
static HEAP: binform_tests::heap::Counting = binform_tests::heap::Counting;

use binform_tests::heap::peak_of;

/// The default memory budget for `input` bytes.
fn budget(input: usize) -> usize {
    Options::new().memory_limit(input)
}

/// What a call may hold besides what it builds from the input: the
/// error, the reader's tables, a document's copy of its schema.
const BOOKKEEPING: usize = 8 << 10;

/// `f` (a decode of `input` bytes) holds at most the default budget (and
/// [`BOOKKEEPING`]); its result is returned.
fn within<T>(what: &str, input: usize, f: impl FnOnce() -> T) -> T {
    within_budget(what, budget(input), f)
}

/// [`within`] for a decode into a `Value`, whose default budget is larger.
fn within_value<T>(what: &str, input: usize, f: impl FnOnce() -> T) -> T {
    within_budget(what, Options::new().value_memory_limit(input), f)
}

/// `f` holds at most `budget` (and [`BOOKKEEPING`]).
fn within_budget<T>(what: &str, budget: usize, f: impl FnOnce() -> T) -> T {
    let (out, peak) = peak_of(f);
    assert!(
        peak <= budget + BOOKKEEPING,
        "{what}: peak heap {peak} is over the budget {budget}"
    );
    out
}

fn len_prefix(n: usize) -> Vec<u8> {
    binform::to_vec(&n).unwrap()
}

fn kind<T>(r: binform::Result<T>) -> Option<ErrorKind> {
    r.err().map(|e| e.kind())
}

/// Runs `f` on a thread with `stack` bytes of stack.
fn on_stack<T: Send + 'static>(stack: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no overflow")
}

// ---- Class 1: memory past the budget -----------------------------------

#[derive(Packable, Debug, Default, Clone, PartialEq)]
struct Skipped {
    #[binform(skip)]
    wide: [u64; 8],
}

#[test]
fn a_vector_grows_toward_its_charge_not_past_it() {
    // 3 bytes: 2^15 structs of 64 bytes that take no input (2 MiB, over
    // the 1 MiB budget), then 2^14 (1 MiB, inside it).
    for (n, fits) in [(1usize << 15, false), (1 << 14, true)] {
        let bytes = len_prefix(n);
        let out = within("Vec<Skipped>", bytes.len(), || {
            binform::from_slice::<Vec<Skipped>>(&bytes)
        });
        match out {
            Ok(v) => assert!(fits && v.len() == n),
            Err(e) => assert!(!fits && e.kind() == ErrorKind::LimitExceeded, "{e}"),
        }
    }
    // Under a larger budget, the vector outgrows its cautious
    // preallocation and must still stop at what it was charged (it
    // doubled to twice that, 128 MiB, before).
    let n = 1usize << 20;
    let bytes = len_prefix(n);
    let limit = 80 << 20;
    let (v, peak) = peak_of(|| {
        Options::new()
            .max_memory(limit)
            .from_slice::<Vec<Skipped>>(&bytes)
            .unwrap()
    });
    assert_eq!(v.len(), n);
    assert!(peak <= limit, "{peak}");
    assert!(v.capacity() <= n);
    // Boxes of nothing, too.
    let out = within("Vec<Box<()>>", 5, || {
        binform::from_slice::<Vec<Box<()>>>(&[0xF7, 0xFF, 0xFF, 0xFF, 0x07])
    });
    assert_eq!(kind(out), Some(ErrorKind::LimitExceeded));
}

/// serde's collections preallocated from each level's lying length before
/// anything was charged: 126 levels built 224 MiB from 20 KB.
#[test]
fn the_serde_bridge_preallocates_nothing_uncharged() {
    #[derive(serde::Deserialize, Debug)]
    #[serde(transparent)]
    #[allow(dead_code)]
    struct Nest(HashMap<u8, Nest>);
    let mut bytes = Vec::new();
    for level in 0..126u8 {
        bytes.extend(len_prefix(1 << 20));
        bytes.push(level);
    }
    bytes.extend(vec![0u8; 20_000]);
    let out = within("serde Nest", bytes.len(), || {
        binform::serde::from_slice::<Nest>(&bytes)
    });
    // It reads all 126 levels, then finds the keys of the next entry
    // missing (a map of length 2^20 holding one).
    let err = out.unwrap_err();
    assert!(err.offset().is_some_and(|at| at >= 126 * 4), "{err}");
    // A sequence of lying lengths, each holding the next.
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Node {
        children: Vec<Node>,
        pad: Vec<u64>,
    }
    let mut bytes = Vec::new();
    for _ in 0..60 {
        bytes.extend(len_prefix(1 << 20));
    }
    bytes.extend(vec![0u8; 40_000]);
    let out = within("serde Node", bytes.len(), || {
        binform::serde::from_slice::<Node>(&bytes)
    });
    let err = out.unwrap_err();
    assert!(err.offset().is_some_and(|at| at >= 60 * 3), "{err}");
}

#[test]
fn value_documents_charge_what_they_build() {
    // 3 bytes read as `seq<range<unit>>`: 2^20 records from no input.
    let schema = binform::schema::parse("root seq<range<unit>>\n").unwrap();
    let bytes = len_prefix(1 << 20);
    let out = within_value("seq<range<unit>>", bytes.len(), || {
        value::from_slice_with(&schema, &bytes)
    });
    assert_eq!(kind(out), Some(ErrorKind::LimitExceeded));
    // Trait objects of an empty type: a byte each, a variant, a pair and
    // three names each in memory (inside the `Value` allowance a byte, so
    // the larger is read under a budget of 64 bytes a byte).
    let schema = binform::schema::parse("root seq<dyn<1,Empty>>\nstruct Empty compact\n").unwrap();
    for (n, fits) in [(2_000usize, true), (200_000, false)] {
        let mut bytes = len_prefix(n);
        for _ in 0..n {
            bytes.extend(len_prefix(1)); // the tag
        }
        let opts = Options::new().max_memory(budget(bytes.len()));
        let out = within("seq<dyn<1,Empty>>", bytes.len(), || {
            value::from_slice_with_options(&schema, &bytes, &opts)
        });
        match out {
            Ok(doc) => {
                let Value::Seq(items) = doc.root() else {
                    panic!("{doc}")
                };
                assert!(fits && items.len() == n);
            }
            Err(e) => assert!(!fits && e.kind() == ErrorKind::LimitExceeded, "{e}"),
        }
    }
}

#[test]
fn from_slice_as_shares_one_budget_across_its_phases() {
    // A self-describing `Vec<()>` of 2^18 read as `Vec<Option<()>>`: the
    // document, what it resolves to, the plain payload and the result.
    for n in [1usize << 10, 1 << 18] {
        let bytes = Options::new()
            .self_describing(true)
            .to_vec(&vec![(); n])
            .unwrap();
        let out = within_value("from_slice_as", bytes.len(), || {
            value::from_slice_as::<Vec<Option<()>>>(&bytes)
        });
        match (n, out) {
            (1024, Ok(v)) => assert_eq!(v, vec![Some(()); n]),
            (262_144, Err(e)) => assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}"),
            (n, out) => panic!("{n} values: {:?}", out.map(|v| v.len())),
        }
    }
}

#[test]
fn lists_maps_and_shared_values_are_charged_as_they_are() {
    let list: LinkedList<u16> = (0..50_000).collect();
    let bytes = binform::to_vec(&list).unwrap();
    let back = within("LinkedList", bytes.len(), || {
        binform::from_slice::<LinkedList<u16>>(&bytes).unwrap()
    });
    assert_eq!(back, list);

    let map: HashMap<u32, u32> = (0..50_000).map(|i| (i, i)).collect();
    let bytes = binform::to_vec(&map).unwrap();
    let back = within("HashMap", bytes.len(), || {
        binform::from_slice::<HashMap<u32, u32>>(&bytes).unwrap()
    });
    assert_eq!(back, map);

    let shared: Vec<Arc<Mutex<()>>> = (0..100_000).map(|_| Arc::new(Mutex::new(()))).collect();
    let bytes = binform::to_vec(&shared).unwrap();
    // A byte each on the wire, more than the 64 bytes per input byte the
    // default allows in memory (the value, its table entry, its handle
    // and its cleanup): refused under the default, within a larger
    // budget under it.
    let out = within("Vec<Arc<Mutex<()>>>", bytes.len(), || {
        binform::from_slice::<Vec<Arc<Mutex<()>>>>(&bytes)
    });
    assert_eq!(kind(out), Some(ErrorKind::LimitExceeded));
    let limit = 32 << 20;
    let (back, peak) = peak_of(|| {
        Options::new()
            .max_memory(limit)
            .from_slice::<Vec<Arc<Mutex<()>>>>(&bytes)
            .unwrap()
    });
    assert_eq!(back.len(), shared.len());
    assert!(peak <= limit, "{peak}");
}

/// Small inputs cost little: 3 bytes can no longer claim 128 MiB. What
/// fits the 1 MiB base decodes within it; what does not is refused before
/// anything is allocated.
#[test]
fn three_bytes_cost_at_most_the_base() {
    for (n, fits) in [(1usize << 14, true), ((1 << 21) - 1, false)] {
        let bytes = len_prefix(n);
        assert_eq!(bytes.len(), 3);
        let (out, peak) = peak_of(|| binform::from_slice::<Vec<Skipped>>(&bytes));
        if fits {
            assert_eq!(out.unwrap().len(), n);
            assert!(peak <= binform::DEFAULT_MEMORY_BASE + BOOKKEEPING, "{peak}");
        } else {
            assert_eq!(kind(out), Some(ErrorKind::LimitExceeded));
            assert!(peak <= BOOKKEEPING, "{peak}");
        }
    }
}

/// A kept `Bytes` field holds its frame only if it is large.
#[test]
fn small_bytes_fields_do_not_hold_their_frame() {
    #[derive(Packable)]
    struct Frame {
        id: bytes::Bytes,
        payload: Vec<u8>,
    }
    let wire = bytes::Bytes::from(
        binform::to_vec(&Frame {
            id: bytes::Bytes::from_static(b"x"),
            payload: vec![0; 1 << 20],
        })
        .unwrap(),
    );
    let frame: Frame = binform::from_bytes(wire.clone()).unwrap();
    let range = wire.as_ptr_range();
    drop(wire);
    assert!(
        !range.contains(&frame.id.as_ptr()),
        "a 1-byte field is a copy"
    );
}

/// 64 cases in CI; `scripts/fuzz.sh` sets `PEAK_CASES` for long runs.
fn peak_cases() -> u32 {
    std::env::var("PEAK_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(peak_cases()))]

    /// Whatever the bytes, every entry point's peak heap stays inside the
    /// budget. Each input is a declared length (any size: honest, or
    /// lying up to 2^21) then random bytes, read as types whose elements
    /// take little or no input, so that decoding reaches the budget, not
    /// just the check of a length against the input; self-describing
    /// inputs get a real header in front. `scripts/fuzz.sh` runs many
    /// more cases.
    #[test]
    fn any_bytes_stay_inside_the_budget(
        declared in prop_oneof![0usize..64, 0usize..(1 << 21)],
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut input = len_prefix(declared);
        input.extend(&bytes);
        let n = input.len();
        within("Vec<Skipped>", n, || drop(binform::from_slice::<Vec<Skipped>>(&input)));
        within("Vec<Vec<Skipped>>", n, || drop(binform::from_slice::<Vec<Vec<Skipped>>>(&input)));
        within("Vec<Box<()>>", n, || drop(binform::from_slice::<Vec<Box<()>>>(&input)));
        within("LinkedList<()>", n, || drop(binform::from_slice::<LinkedList<()>>(&input)));
        within("LinkedList<u16>", n, || drop(binform::from_slice::<LinkedList<u16>>(&input)));
        within("HashMap<u8, String>", n, || drop(binform::from_slice::<HashMap<u8, String>>(&input)));
        within("Vec<Arc<Mutex<()>>>", n, || drop(binform::from_slice::<Vec<Arc<Mutex<()>>>>(&input)));
        within("serde Vec<()>", n, || drop(binform::serde::from_slice::<Vec<()>>(&input)));
        within("serde", n, || drop(binform::serde::from_slice::<Vec<Vec<(u8, String)>>>(&input)));
        within("serde map", n, || drop(binform::serde::from_slice::<HashMap<u8, ()>>(&input)));
        let schema = binform::schema::parse("root seq<option<seq<range<unit>>>>\n").unwrap();
        within_value("Value", n, || drop(value::from_slice_with(&schema, &input)));
        // A self-describing `Vec<Vec<()>>`'s header, then the input as its body.
        let empty = Options::new().self_describing(true).to_vec(&Vec::<Vec<()>>::new()).unwrap();
        let mut described = empty[..empty.len() - 1].to_vec();
        described.extend(&input);
        let d = described.len();
        within_value("Value, self-describing", d, || drop(value::from_slice(&described)));
        within_value("from_slice_as", d, || drop(value::from_slice_as::<Vec<Vec<Option<()>>>>(&described)));
        let mut framed = len_prefix(n);
        framed.extend(&input);
        within("frame", framed.len(), || drop(binform::io::read_frame::<Vec<Skipped>>(&mut &framed[..])));
    }
}

// ---- Class 2: stack ----------------------------------------------------

/// A struct whose field is `depth` tuples around `Option<Self>`, as a
/// schema, and a payload nesting it `levels` times.
fn deep_document(depth: usize, levels: usize) -> (binform::Schema, Vec<u8>) {
    let field = format!("{}option<S>{}", "tuple<".repeat(depth), ">".repeat(depth));
    let text = format!("root S\nstruct S compact\n  field 0 a {field}\n");
    let schema = binform::schema::parse(&text).unwrap();
    let mut bytes = vec![1u8; levels];
    bytes.push(0);
    (schema, bytes)
}

#[test]
fn deep_documents_print_clone_and_compare_on_a_small_stack() {
    let (schema, bytes) = deep_document(125, 30);
    let doc = value::from_slice_with(&schema, &bytes).unwrap();
    let described = value::to_vec(&doc).unwrap();
    on_stack(2 << 20, move || {
        let debug = format!("{doc:?}");
        assert!(debug.contains('…'), "deeper than 512 levels prints as …");
        assert!(format!("{doc:#?}").len() < 64 << 20);
        let copy = doc.clone();
        assert!(copy == doc);
        let _ = doc.to_string();
    });
    // The schema read from a payload, its fingerprint and the document,
    // on 512 KiB.
    on_stack(512 << 10, move || {
        binform::schema::read_schema(&described).unwrap();
        let doc = value::from_slice(&described).unwrap();
        assert_eq!(value::to_vec(&doc).unwrap(), described);
    });
}

#[derive(Packable)]
struct Big {
    data: [u8; 256 * 1024],
    next: Option<Box<Big>>,
}

/// Frames larger than the red zone: each level holds 256 KiB inline.
#[test]
fn large_frames_grow_the_stack_by_their_size() {
    on_stack(8 << 20, || {
        let mut chain: Option<Box<Big>> = None;
        for i in 0..6u8 {
            let mut big = Box::new(Big {
                data: [0; 256 * 1024],
                next: chain.take(),
            });
            big.data[0] = i;
            chain = Some(big);
        }
        let bytes = binform::to_vec(&chain).unwrap();
        assert!(bytes.len() > 1_500_000);
        let back: Option<Box<Big>> = binform::from_slice(&bytes).unwrap();
        assert_eq!(back.map(|b| b.data[0]), Some(5));
    });
}

#[derive(Packable)]
struct BigMapNode {
    kids: std::collections::BTreeMap<u8, BigMapNode>,
    pad: [u64; 32 * 1024],
}

#[derive(Packable)]
struct BigListNode {
    kids: LinkedList<BigListNode>,
    pad: [u64; 32 * 1024],
}

/// Maps and lists hold an entry in each level's frames too: their levels
/// grow the stack by its size (a few bytes a level overflowed 8 MiB).
#[test]
fn maps_and_lists_of_large_values_grow_the_stack_by_their_size() {
    on_stack(8 << 20, || {
        let mut map = vec![];
        let mut list = vec![];
        for _ in 0..6 {
            map.extend(len_prefix(1));
            map.push(0); // the key
            list.extend(len_prefix(1));
        }
        map.extend(len_prefix(0));
        list.extend(len_prefix(0));
        // The innermost node is complete; every level above lacks its pad.
        for bytes in [&map, &list] {
            let mut bytes = bytes.clone();
            bytes.extend(vec![0u8; 32 * 1024]);
            let map_err = binform::from_slice::<BigMapNode>(&bytes).map(|_| ());
            let list_err = binform::from_slice::<BigListNode>(&bytes).map(|_| ());
            assert!(map_err.is_err() || list_err.is_err());
        }
    });
}

/// The encoder and decoder of an `ArrayVec` of integers count the same
/// levels: none, in either layout.
#[test]
fn array_vecs_of_integers_nest_no_level() {
    let v: arrayvec::ArrayVec<u32, 4> = [1, 2, 3].into_iter().collect();
    let compact = Options::new().max_depth(0);
    let back: arrayvec::ArrayVec<u32, 4> =
        compact.from_slice(&compact.to_vec(&v).unwrap()).unwrap();
    assert_eq!(back, v);
    let fixed = Options::new().fixed_width().max_depth(0);
    let back: arrayvec::ArrayVec<u32, 4> = fixed.from_slice(&fixed.to_vec(&v).unwrap()).unwrap();
    assert_eq!(back, v);
}

/// Copies of large byte buffers are charged like large strings.
#[test]
fn large_byte_copies_are_charged() {
    let field = bytes::Bytes::from(vec![7u8; 2 << 20]);
    let wire = binform::to_vec(&field).unwrap();
    let small = Options::new().max_memory(1 << 20);
    for err in [
        small
            .from_slice::<bytes::Bytes>(&wire)
            .map(|_| ())
            .unwrap_err(),
        small
            .from_slice::<bytes::BytesMut>(&wire)
            .map(|_| ())
            .unwrap_err(),
        small
            .from_slice::<String>(&binform::to_vec(&"x".repeat(2 << 20)).unwrap())
            .map(|_| ())
            .unwrap_err(),
        small
            .from_slice::<std::rc::Rc<str>>(
                &binform::to_vec(&std::rc::Rc::<str>::from("x".repeat(2 << 20))).unwrap(),
            )
            .map(|_| ())
            .unwrap_err(),
    ] {
        assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    }
    let back: bytes::Bytes = Options::new().from_slice(&wire).unwrap();
    assert_eq!(back, field);
}

// ---- Class 3: linear time ----------------------------------------------

fn within_time<T>(what: &str, bound: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    assert!(took < bound, "{what} took {took:?}");
    out
}

/// An error at the bottom of a document nested as deep as its decoder
/// allows, with long names: its path is built in linear time.
#[test]
fn a_deep_error_path_costs_linear_time() {
    let name = "f".repeat(6000);
    let field = format!("{}option<S>{}", "seq<".repeat(100), ">".repeat(100));
    let text = format!("root S\nstruct S compact\n  field 0 {name} {field}\n");
    let schema = binform::schema::parse(&text).unwrap();
    let mut bytes = Vec::new();
    for _ in 0..127 {
        for _ in 0..100 {
            bytes.extend(len_prefix(1)); // each sequence holds one
        }
        bytes.push(1); // Some
    }
    bytes.push(9); // not an option tag
    let err = within_time("the error path", Duration::from_secs(2), || {
        value::from_slice_with(&schema, &bytes).unwrap_err()
    });
    assert!(err.path().len() > 127 * 6000, "{}", err.path().len());
    // Each sequence is a column of one sequence (§27), whose elements
    // take no index in the path: the fields name the levels.
    assert!(err.path().starts_with(&format!(".{name}.{name}")));
}

/// A document of many trait objects over a schema that registers many
/// types: writing it back and reading it from JSON-like values look each
/// tag up, not scan the list.
#[test]
fn trait_object_tags_are_looked_up_not_scanned() {
    let tags: Vec<String> = (1..=3000).map(|t| format!("{t},u8")).collect();
    let text = format!("root seq<dyn<{}>>\n", tags.join(","));
    let schema = binform::schema::parse(&text).unwrap();
    let n = 30_000;
    let mut bytes = len_prefix(n);
    for _ in 0..n {
        bytes.extend(binform::to_vec(&3000u32).unwrap());
        bytes.push(7);
    }
    let doc = value::from_slice_with(&schema, &bytes).unwrap();
    let again = within_time("to_vec_with", Duration::from_secs(3), || {
        value::to_vec_with(&schema, &doc).unwrap()
    });
    assert_eq!(again, bytes);
    let loose = Value::Seq(
        (0..n)
            .map(|_| Value::Map(vec![(Value::String("3000".into()), Value::U64(7))]))
            .collect(),
    );
    let conformed = within_time("conform", Duration::from_secs(3), || {
        value::conform(&schema, &loose).unwrap()
    });
    assert_eq!(value::to_vec_with(&schema, &conformed).unwrap(), bytes);
}

/// The proptest's self-describing inputs are a real header and a body:
/// an honest body after it decodes.
#[test]
fn the_proptest_header_reads_a_body() {
    let empty = Options::new()
        .self_describing(true)
        .to_vec(&Vec::<Vec<()>>::new())
        .unwrap();
    let mut described = empty[..empty.len() - 1].to_vec();
    described.extend(binform::to_vec(&vec![vec![(); 2]; 3]).unwrap());
    let back: Vec<Vec<Option<()>>> = value::from_slice_as(&described).unwrap();
    assert_eq!(back, vec![vec![Some(()); 2]; 3]);
}
