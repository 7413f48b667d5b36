//! Payloads built on purpose to cost the most (issue "Hardening"): each
//! class must end in a correct value or `Err(LimitExceeded)`, quickly, in
//! bounded memory (a counting allocator measures the peak) and on a thread
//! with a 2 MiB stack, the size `std::thread::spawn` gives by default.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList};
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use binform::{ErrorKind, Options, Packable, Writer};

// ------------------------------------------------------------ measuring

struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grew(bytes: usize) {
    let live = LIVE.with(|l| {
        l.set(l.get() + bytes);
        l.get()
    });
    PEAK.with(|p| p.set(p.get().max(live)));
}

fn shrank(bytes: usize) {
    LIVE.with(|l| l.set(l.get().saturating_sub(bytes)));
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are thread-local `Cell`s that need no allocation themselves.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grew(new_size);
        shrank(layout.size());
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What one decode cost.
struct Cost<T> {
    out: T,
    time: Duration,
    peak: usize,
}

/// Runs `f` on a fresh thread with a 2 MiB stack, measuring its time and
/// its peak of live heap bytes (what it built and still held, at most).
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Cost<T> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            LIVE.with(|l| l.set(0));
            PEAK.with(|p| p.set(0));
            let start = Instant::now();
            let out = f();
            Cost {
                out,
                time: start.elapsed(),
                peak: PEAK.with(Cell::get),
            }
        })
        .expect("spawn")
        .join()
        .expect("the decode neither panics nor overflows its stack")
}

/// The error kind of a decode result (`None` for success).
fn kind<T>(r: &binform::Result<T>) -> Option<ErrorKind> {
    r.as_ref().err().map(binform::Error::kind)
}

const QUICK: Duration = Duration::from_secs(2);
const MIB: usize = 1 << 20;

// ------------------------------------ 1. placeholders of branching types

#[derive(Packable, Debug, PartialEq)]
enum Octree {
    Split(Box<[Octree; 8]>),
    Leaf(u8),
}

#[derive(Packable, Debug, PartialEq)]
enum Hextree {
    Split(Box<[Hextree; 16]>),
    Pair(Box<Hextree>, Box<Hextree>),
    Leaf(u16),
}

#[derive(Packable, Debug, PartialEq)]
enum Expr {
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Lit(u8),
}

#[test]
fn placeholders_cost_a_constant_per_shared_value() {
    // `00 02 00`: a new shared value, variant 1 (Leaf), 0.
    let cost =
        on_small_stack(|| binform::from_slice::<Rc<RefCell<Octree>>>(&[0, 2, 0]).map(|_| ()));
    assert_eq!(kind(&cost.out), None);
    assert!(cost.time < QUICK, "{:?}", cost.time);
    assert!(cost.peak < 64 * 1024, "{} bytes", cost.peak);

    // Ten of them, with tight limits that did not help before.
    let mut ten = vec![20u8];
    for _ in 0..10 {
        ten.extend_from_slice(&[0, 2, 7]);
    }
    let cost = on_small_stack(move || {
        Options::new()
            .max_depth(16)
            .max_len(100)
            .from_slice::<Vec<Rc<RefCell<Octree>>>>(&ten)
            .map(|v| v.iter().all(|n| matches!(*n.borrow(), Octree::Leaf(7))))
    });
    assert_eq!(cost.out.as_ref().ok(), Some(&true));
    assert!(cost.time < QUICK, "{:?}", cost.time);
    assert!(cost.peak < 64 * 1024, "{} bytes", cost.peak);

    // Other branching factors and pointers: 16 children, three boxes, Arc.
    let mut many = Vec::new();
    Writer::new(&mut many).write_len(1000);
    for _ in 0..1000 {
        many.extend_from_slice(&[0, 4, 8]); // new, variant 2 (Leaf), 4
    }
    let cost = on_small_stack(move || {
        binform::from_slice::<Vec<Rc<RefCell<Hextree>>>>(&many).map(|v| v.len())
    });
    assert_eq!(cost.out.ok(), Some(1000));
    assert!(cost.time < QUICK, "{:?}", cost.time);

    let mut exprs = Vec::new();
    Writer::new(&mut exprs).write_len(1000);
    for _ in 0..1000 {
        exprs.extend_from_slice(&[0, 2, 1]); // new, Lit(1)
    }
    let cost = on_small_stack(move || {
        binform::from_slice::<Vec<Arc<Mutex<Expr>>>>(&exprs).map(|v| v.len())
    });
    assert_eq!(cost.out.ok(), Some(1000));
    assert!(cost.time < QUICK, "{:?}", cost.time);
}

/// The placeholder takes the cheapest variant even when it is declared
/// last, and strong cycles through such types still close.
#[test]
fn cycles_close_through_types_whose_first_variant_is_costly() {
    #[derive(Packable, Debug)]
    enum Node {
        Split(Box<[Node; 8]>),
        Link(Option<Rc<RefCell<Node>>>),
    }
    let a = Rc::new(RefCell::new(Node::Link(None)));
    *a.borrow_mut() = Node::Link(Some(a.clone()));
    let bytes = binform::to_vec(&a).unwrap();
    *a.borrow_mut() = Node::Link(None);
    let back: Rc<RefCell<Node>> = Options::new()
        .reject_cycles(false)
        .from_slice(&bytes)
        .unwrap();
    let inner = match &*back.borrow() {
        Node::Link(Some(next)) => next.clone(),
        other => panic!("{other:?}"),
    };
    assert!(Rc::ptr_eq(&inner, &back));
    *back.borrow_mut() = Node::Link(None);
}

// ---------------------------------- 2. elements that take no input bytes

// A struct whose every field is skipped: 64 bytes in memory, none on the
// wire.
use binform_tests::fuzz::AllSkipped;

/// A length of 2^28: `F7 FF FF FF 07` … the five bytes before the elements.
fn huge_len() -> Vec<u8> {
    let mut out = Vec::new();
    Writer::new(&mut out).write_len(1 << 28);
    out
}

#[test]
fn elements_without_input_are_charged_for_memory() {
    /// A derived struct without fields: plain, and of size zero.
    #[derive(Packable, Debug)]
    struct Nothing {}

    fn check<T: binform::UnpackOwned + Send + 'static>(what: &str) {
        let cost = on_small_stack(|| kind(&binform::from_slice::<T>(&huge_len())));
        assert_eq!(cost.out, Some(ErrorKind::LimitExceeded), "{what}");
        assert!(cost.time < QUICK, "{what}: {:?}", cost.time);
        assert!(cost.peak < 2 * MIB, "{what}: {} bytes", cost.peak);
    }
    check::<Vec<Box<()>>>("Vec<Box<()>>");
    check::<LinkedList<()>>("LinkedList<()>");
    check::<Vec<AllSkipped>>("Vec<AllSkipped>");
    check::<Vec<RefCell<()>>>("Vec<RefCell<()>>");
    check::<Vec<()>>("Vec<()>");
    // Zero-size plain data, copied in one block, is charged all the same.
    check::<Vec<[u8; 0]>>("Vec<[u8; 0]>");
    check::<Vec<Nothing>>("Vec<Nothing>");
    let cost = on_small_stack(|| kind(&binform::fixed::from_slice::<Vec<[u32; 0]>>(&huge_len())));
    assert_eq!(
        cost.out,
        Some(ErrorKind::LimitExceeded),
        "fixed Vec<[u32; 0]>"
    );
    // Elements of one byte at least: the input itself bounds them.
    let cost = on_small_stack(|| kind(&binform::from_slice::<Vec<Vec<()>>>(&huge_len())));
    assert_eq!(cost.out, Some(ErrorKind::UnexpectedEnd));
    check::<BTreeSet<()>>("BTreeSet<()>");
    check::<HashMap<(), ()>>("HashMap<(), ()>");
    // An explicit budget is honoured both ways.
    let bytes = binform::to_vec(&vec![0u64; 1000]).unwrap();
    let small = Options::new().max_memory(1000);
    assert_eq!(
        kind(&small.from_slice::<Vec<u64>>(&bytes)),
        Some(ErrorKind::LimitExceeded)
    );
    let enough = Options::new().max_memory(8000);
    assert_eq!(enough.from_slice::<Vec<u64>>(&bytes).unwrap().len(), 1000);
}

// ------------------------------------------- 3. chains of shared values

#[derive(Packable, Debug)]
struct Chain {
    v: u8,
    next: Option<Rc<Chain>>,
}

#[derive(Packable, Debug)]
struct SyncChain {
    v: u8,
    next: Option<Arc<SyncChain>>,
}

#[derive(Packable, Debug)]
enum Link {
    End,
    Next(Rc<Link>),
}

/// `n` elements, each a new shared value whose link points at the one
/// before: flat on the wire, `n` deep in memory. `element(i)` writes the
/// element's contents after its new-value tag.
fn chain_payload(n: usize, trailing: bool, element: impl Fn(&mut Writer<'_>, usize)) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    w.write_len(n);
    for i in 0..n {
        w.write_varint(0); // a new shared value
        element(&mut w, i);
    }
    if trailing {
        out.push(0);
    }
    out
}

#[test]
fn chains_of_references_stop_at_the_depth_limit() {
    let struct_chain = |w: &mut Writer<'_>, i: usize| {
        w.write_u8(1); // v
        if i == 0 {
            w.write_u8(0); // None
        } else {
            w.write_u8(1); // Some
            w.write_varint(i as u64 - 1 + 2); // the previous element's id
        }
    };
    for trailing in [false, true] {
        let bytes = chain_payload(400_000, trailing, struct_chain);
        let cost = on_small_stack(move || kind(&binform::from_slice::<Vec<Rc<Chain>>>(&bytes)));
        assert_eq!(cost.out, Some(ErrorKind::LimitExceeded));
        assert!(cost.time < QUICK, "{:?}", cost.time);

        let bytes = chain_payload(400_000, trailing, struct_chain);
        let cost =
            on_small_stack(move || kind(&binform::from_slice::<Vec<Arc<SyncChain>>>(&bytes)));
        assert_eq!(cost.out, Some(ErrorKind::LimitExceeded));
    }
    let enum_chain = |w: &mut Writer<'_>, i: usize| {
        if i == 0 {
            w.write_tag(0); // End
        } else {
            w.write_tag(1); // Next
            w.write_varint(i as u64 - 1 + 2);
        }
    };
    let bytes = chain_payload(400_000, false, enum_chain);
    let cost = on_small_stack(move || kind(&binform::from_slice::<Vec<Rc<Link>>>(&bytes)));
    assert_eq!(cost.out, Some(ErrorKind::LimitExceeded));

    // Within the limit, the same shape decodes, is as deep as written and
    // drops on the small stack.
    let bytes = chain_payload(100, false, struct_chain);
    let cost = on_small_stack(move || {
        let chains = binform::from_slice::<Vec<Rc<Chain>>>(&bytes).unwrap();
        let mut depth = 0;
        let mut at = chains.last().cloned();
        while let Some(node) = at {
            depth += 1;
            at = node.next.clone();
        }
        depth
    });
    assert_eq!(cost.out, 100);
}

// ----------------------------------------- 4. keys that share sub-values

#[derive(Packable, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Dag {
    Leaf(u8),
    Pair(Rc<Dag>, Rc<Dag>),
}

#[derive(Packable, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Dag3 {
    Leaf(u8),
    Triple(Rc<Dag3>, Rc<Dag3>, Rc<Dag3>),
}

/// One value of `levels` levels, each pairing the level below with itself:
/// `levels` distinct nodes, `2^levels` leaves when walked.
fn doubling(levels: usize) -> Rc<Dag> {
    let mut at = Rc::new(Dag::Leaf(1));
    for _ in 0..levels {
        at = Rc::new(Dag::Pair(at.clone(), at));
    }
    at
}

#[test]
fn keys_built_from_shared_values_are_bounded() {
    let bytes = binform::to_vec(&vec![doubling(40)]).unwrap();
    assert!(bytes.len() < 200, "{} bytes", bytes.len());
    macro_rules! refuse {
        ($ty:ty, $bytes:expr) => {{
            let bytes = $bytes.clone();
            let cost = on_small_stack(move || kind(&binform::from_slice::<$ty>(&bytes)));
            assert_eq!(cost.out, Some(ErrorKind::LimitExceeded), stringify!($ty));
            assert!(cost.time < QUICK, "{}: {:?}", stringify!($ty), cost.time);
        }};
    }
    refuse!(HashSet<Rc<Dag>>, bytes);
    refuse!(BTreeSet<Rc<Dag>>, bytes);
    refuse!(BinaryHeap<Rc<Dag>>, bytes);
    let map_bytes = binform::to_vec(&vec![(doubling(40), 1u8)]).unwrap();
    refuse!(HashMap<Rc<Dag>, u8>, map_bytes);
    refuse!(BTreeMap<Rc<Dag>, u8>, map_bytes);

    let mut at = Rc::new(Dag3::Leaf(1));
    for _ in 0..30 {
        at = Rc::new(Dag3::Triple(at.clone(), at.clone(), at));
    }
    let bytes3 = binform::to_vec(&vec![at]).unwrap();
    refuse!(HashSet<Rc<Dag3>>, bytes3);

    // Honest sharing within keys still decodes: a few levels.
    let bytes = binform::to_vec(&vec![doubling(8), doubling(9)]).unwrap();
    let set: BTreeSet<Rc<Dag>> = binform::from_slice(&bytes).unwrap();
    assert_eq!(set.len(), 2);
    // The same DAG as a plain list (nothing hashes it) is fine too.
    let list: Vec<Rc<Dag>> =
        binform::from_slice(&binform::to_vec(&vec![doubling(40)]).unwrap()).unwrap();
    assert_eq!(list.len(), 1);
}

// ------------------------------------------------------- 5. large frames

#[derive(Packable)]
struct Big {
    data: [u64; 512],
    next: Option<Box<Big>>,
}

#[test]
fn large_frames_fit_a_small_stack() {
    // 127 levels: within the default depth limit of 128.
    let mut value = Big {
        data: [0; 512],
        next: None,
    };
    for i in 0..126 {
        value = Big {
            data: [i; 512],
            next: Some(Box::new(value)),
        };
    }
    let bytes = binform::to_vec(&value).unwrap();
    drop(value);
    let cost = on_small_stack(move || {
        let back = binform::from_slice::<Big>(&bytes).unwrap();
        let mut depth = 1;
        let mut at = &back;
        while let Some(next) = &at.next {
            depth += 1;
            at = next;
        }
        (depth, back.data[0])
    });
    assert_eq!(cost.out, (127, 125));
}

// ------------------------------------------------------ 6. lock files

#[test]
fn lock_files_parse_in_linear_time_and_bounded_depth() {
    let deep = format!("root {}u8{}", "seq<".repeat(30_000), ">".repeat(30_000));
    let cost = on_small_stack(move || binform::schema::parse(&deep).err());
    let err = cost.out.expect("too deep");
    assert!(err.starts_with("line 1, column "), "{err}");
    assert!(err.contains("deeper than"), "{err}");
    assert!(cost.time < QUICK);

    // 10,000 wide arguments: linear.
    let wide = format!("root tuple<{}u8>", "u8, ".repeat(10_000));
    let start = Instant::now();
    let schema = binform::schema::parse(&wide).unwrap();
    assert!(start.elapsed() < QUICK);
    assert!(
        matches!(schema.root, binform::TypeRef::Builtin { ref args, .. } if args.len() == 10_001)
    );

    for (text, expected) in [
        ("root", "line 1, column 5: expected a type"),
        (
            "root a<,,,>",
            "line 1, column 8: expected a type, found `,`",
        ),
        (
            "root seq<u8",
            "line 1, column 12: expected `,` or `>`, found the end of the line",
        ),
        (
            "root seq<u8>>",
            "line 1, column 13: expected the end of the line, found `>`",
        ),
        (
            "root u8\nstruct A sideways",
            "line 2, column 10: expected `compact` or `tolerant`",
        ),
        (
            "root u8\nfield 0 x u8",
            "line 2, column 1: `field` outside a type",
        ),
        ("root u8\nroot u8", "line 2, column 1: a second `root` line"),
        (
            "root u8\nstruct A compact\n  field x y u8",
            "line 3, column 9: expected a tag",
        ),
        ("root u8\nbanana", "line 2, column 1: unknown line `banana`"),
    ] {
        let err = binform::schema::parse(text).unwrap_err();
        assert!(err.starts_with(expected), "{text:?}: {err}");
    }
}

// ------------------------------------------------------- defaults

#[test]
fn strong_cycles_are_rejected_by_default_and_accepted_on_request() {
    #[derive(Packable, Default, Debug)]
    struct Node {
        next: Option<Rc<RefCell<Node>>>,
    }
    let a = Rc::new(RefCell::new(Node::default()));
    a.borrow_mut().next = Some(a.clone());
    let bytes = binform::to_vec(&a).unwrap();
    a.borrow_mut().next = None;
    let err = binform::from_slice::<Rc<RefCell<Node>>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CycleRejected);
    assert!(err.message().contains("reject_cycles(false)"), "{err}");
    let back: Rc<RefCell<Node>> = Options::new()
        .reject_cycles(false)
        .from_slice(&bytes)
        .unwrap();
    back.borrow_mut().next = None;

    // A tree with parent links through `Weak` is no cycle of strong links.
    #[derive(Packable)]
    struct Tree {
        parent: std::rc::Weak<RefCell<Tree>>,
        kids: Vec<Rc<RefCell<Tree>>>,
    }
    let root = Rc::new(RefCell::new(Tree {
        parent: std::rc::Weak::new(),
        kids: vec![],
    }));
    let kid = Rc::new(RefCell::new(Tree {
        parent: Rc::downgrade(&root),
        kids: vec![],
    }));
    root.borrow_mut().kids.push(kid);
    let back: Rc<RefCell<Tree>> = binform::from_slice(&binform::to_vec(&root).unwrap()).unwrap();
    let kid = back.borrow().kids[0].clone();
    assert!(Rc::ptr_eq(&kid.borrow().parent.upgrade().unwrap(), &back));
}

/// A slice the caller already holds has no byte limit by default: a
/// payload over the 256 MiB stream default decodes. Streams keep it.
#[test]
fn large_honest_slices_decode_with_default_options() {
    let big = vec![7u8; 260 * MIB];
    let bytes = binform::to_vec(&big).unwrap();
    drop(big);
    let back: Vec<u8> = binform::from_slice(&bytes).unwrap();
    assert_eq!(back.len(), 260 * MIB);
    drop(back);
    let err = binform::from_reader::<Vec<u8>>(&bytes[..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    let back: Vec<u8> = Options::new()
        .max_bytes(300 * MIB)
        .from_reader(&bytes[..])
        .unwrap();
    assert_eq!(back.len(), 260 * MIB);
    // An explicit limit still bounds slices.
    let err = Options::new()
        .max_bytes(MIB)
        .from_slice::<Vec<u8>>(&bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

#[test]
fn binary_heaps_keep_their_order_or_are_refused() {
    let err = binform::from_slice::<BinaryHeap<u8>>(&[0x06, 1, 2, 3]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let heap: BinaryHeap<u32> = [5, 1, 8, 3, 9, 2, 7].into_iter().collect();
    let bytes = binform::to_vec(&heap).unwrap();
    let back: BinaryHeap<u32> = binform::from_slice(&bytes).unwrap();
    assert_eq!(
        binform::to_vec(&back).unwrap(),
        bytes,
        "byte-exact round trip"
    );
    assert_eq!(back.into_sorted_vec(), heap.into_sorted_vec());
    let ordered: BinaryHeap<u8> = binform::from_slice(&[0x06, 3, 2, 1]).unwrap();
    assert_eq!(ordered.into_vec(), [3, 2, 1]);
}

/// The fuzz corpus's DAG seed is the doubling DAG of 40 levels, so the
/// replay exercises the key budget.
#[test]
fn the_dag_seed_is_the_attack() {
    let seed = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz_regressions/decode_graph/dag_in_a_set"),
    )
    .unwrap();
    let list: Vec<Rc<binform_tests::fuzz::Dag>> = binform::from_slice(&seed).unwrap();
    let mut depth = 0;
    let mut at = list[0].clone();
    while let binform_tests::fuzz::Dag::Pair(a, b) = &*at {
        assert!(Rc::ptr_eq(a, b));
        depth += 1;
        let next = a.clone();
        at = next;
    }
    assert_eq!(depth, 40);
    assert_eq!(
        kind(&binform::from_slice::<HashSet<Rc<binform_tests::fuzz::Dag>>>(&seed)),
        Some(ErrorKind::LimitExceeded)
    );
}

/// `to_writer` streams: a 100 MB value is written with a buffer of about
/// 64 KiB, not a second 100 MB copy, whether it is one byte string or a
/// million short strings.
#[test]
fn to_writer_streams_large_values() {
    let blob = vec![7u8; 100 * MIB];
    let cost = on_small_stack(move || {
        let mut counted = Counted(0);
        binform::to_writer(&mut counted, &blob).unwrap();
        counted.0
    });
    assert_eq!(cost.out, 100 * MIB + 4); // a four-byte length, then the bytes
    assert!(cost.peak < MIB, "{} bytes buffered", cost.peak);
    // What `to_writer` did before it streamed: the whole encoding first.
    let blob = vec![7u8; 100 * MIB];
    let whole = on_small_stack(move || binform::to_vec(&blob).unwrap().len());
    assert!(whole.peak > 100 * MIB);
    eprintln!(
        "peak while writing 100 MiB: {} bytes streaming, {} bytes encoding to a vector first",
        cost.peak, whole.peak
    );

    let strings: Vec<String> = (0..1_000_000).map(|i| format!("{i:0>100}")).collect();
    let expected = binform::to_vec(&strings).unwrap().len();
    let cost = on_small_stack(move || {
        let mut counted = Counted(0);
        binform::to_writer(&mut counted, &strings).unwrap();
        counted.0
    });
    assert_eq!(cost.out, expected);
    assert!(cost.peak < MIB, "{} bytes buffered", cost.peak);
}

/// Counts what is written, keeps nothing.
struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Shared values count their bytes, not only their nesting: a key that
/// references a large shared string many times over is charged all of it.
#[test]
fn keys_are_charged_the_bytes_their_references_stand_for() {
    #[derive(Packable, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    enum TextDag {
        Leaf(String),
        Pair(Rc<TextDag>, Rc<TextDag>),
    }
    let mut at = Rc::new(TextDag::Leaf("a".repeat(64 * 1024)));
    for _ in 0..21 {
        at = Rc::new(TextDag::Pair(at.clone(), at));
    }
    let bytes = binform::to_vec(&vec![at]).unwrap();
    let cost = on_small_stack(move || kind(&binform::from_slice::<HashSet<Rc<TextDag>>>(&bytes)));
    assert_eq!(cost.out, Some(ErrorKind::LimitExceeded));
    assert!(cost.time < QUICK, "{:?}", cost.time);

    // Many small keys that each reference one shared megabyte.
    let big: Rc<str> = Rc::from("a".repeat(MIB));
    let keys: Vec<(Rc<str>, u32)> = (0..65_535).map(|i| (big.clone(), i)).collect();
    let bytes = binform::to_vec(&keys).unwrap();
    assert!(bytes.len() < 2 * MIB);
    let cost =
        on_small_stack(move || kind(&binform::from_slice::<HashSet<(Rc<str>, u32)>>(&bytes)));
    assert_eq!(cost.out, Some(ErrorKind::LimitExceeded));
    assert!(cost.time < QUICK, "{:?}", cost.time);
    // Honest keys fit: their own bytes are always within the budget.
    let honest: Vec<String> = (0..100_000).map(|i| format!("key number {i}")).collect();
    let back: HashSet<String> = binform::from_slice(&binform::to_vec(&honest).unwrap()).unwrap();
    assert_eq!(back.len(), 100_000);
}

/// A frame length near `usize::MAX` with an unlimited codec is an error,
/// not an overflow.
#[test]
fn codec_frame_lengths_cannot_overflow() {
    use tokio_util::codec::Decoder;
    let mut codec = binform::codec::PackCodec::<u8>::new().max_frame_len(usize::MAX);
    let mut src = bytes::BytesMut::from(&[0xFFu8; 9][..]);
    assert!(codec.decode(&mut src).is_err());
}

/// A `VecDeque` streams in chunks like a `Vec`; an `Rc<[T]>` is charged
/// for its copy behind the pointer as well as its vector.
#[test]
fn deques_stream_and_shared_slices_charge_their_copy() {
    let deque: std::collections::VecDeque<u32> = (0..2_000_000).collect();
    let expected = binform::to_vec(&deque).unwrap().len();
    let cost = on_small_stack(move || {
        let mut counted = Counted(0);
        binform::to_writer(&mut counted, &deque).unwrap();
        counted.0
    });
    assert_eq!(cost.out, expected);
    assert!(cost.peak < MIB, "{} bytes buffered", cost.peak);

    let bytes = binform::to_vec(&Rc::<[u64]>::from(vec![1u64; 100])).unwrap();
    let tight = Options::new().max_memory(1200);
    assert_eq!(
        kind(&tight.from_slice::<Rc<[u64]>>(&bytes)),
        Some(ErrorKind::LimitExceeded)
    );
    let enough = Options::new().max_memory(2000);
    assert_eq!(enough.from_slice::<Rc<[u64]>>(&bytes).unwrap().len(), 100);
}

/// Through the serde bridge, serde's collections preallocate from the
/// declared length before any element is charged: nested lying lengths
/// must not hold more memory than the input can pay for.
#[test]
fn serde_bridge_lying_lengths_stay_in_budget() {
    #[derive(serde::Deserialize)]
    #[serde(transparent)]
    #[allow(dead_code)]
    struct Node(Vec<Node>);
    let (len, n) = binform::varint::encode_u64(1 << 20);
    let bytes: Vec<u8> = (0..200).flat_map(|_| len[..n].to_vec()).collect();
    let cost = on_small_stack(move || {
        binform::serde::from_slice_with::<Node>(&Options::new().max_memory(MIB), &bytes).map(|_| ())
    });
    assert!(
        matches!(
            kind(&cost.out),
            Some(ErrorKind::LimitExceeded | ErrorKind::UnexpectedEnd)
        ),
        "{:?}",
        kind(&cost.out)
    );
    assert!(cost.peak < 8 * MIB, "{} bytes", cost.peak);
}

// ------------------------------------------ 12. the fixed layout, attacked

/// The attacks above that a fixed-layout reader meets the same way: its
/// lengths, shared values, keys, depth and budget are the compact
/// layout's; only its integers differ, and a lying length of fixed-width
/// elements is refused before anything is allocated.
#[test]
fn the_fixed_layout_bounds_the_same_attacks() {
    fn fixed_kind<T: binform::UnpackOwned + 'static>(bytes: Vec<u8>) -> Cost<Option<ErrorKind>> {
        on_small_stack(move || kind(&binform::fixed::from_slice::<T>(&bytes)))
    }
    // Elements that take no input: charged to the memory budget.
    macro_rules! no_input {
        ($($ty:ty),*) => {$(
            let cost = fixed_kind::<$ty>(huge_len());
            assert_eq!(cost.out, Some(ErrorKind::LimitExceeded), stringify!($ty));
            assert!(cost.time < QUICK && cost.peak < 2 * MIB, stringify!($ty));
        )*};
    }
    no_input!(Vec<Box<()>>, LinkedList<()>, Vec<AllSkipped>, Vec<()>, HashMap<(), ()>);
    // Lying lengths of fixed-width elements, plain or not: the input ends
    // long before them, and nothing near their size is allocated.
    macro_rules! short {
        ($($ty:ty),*) => {$(
            let cost = fixed_kind::<$ty>(huge_len());
            assert_eq!(cost.out, Some(ErrorKind::UnexpectedEnd), stringify!($ty));
            assert!(cost.peak < 2 * MIB, "{}: {} bytes", stringify!($ty), cost.peak);
        )*};
    }
    short!(
        Vec<u64>,
        Vec<i128>,
        Vec<char>,
        Vec<[u32; 4]>,
        Vec<std::num::NonZeroU64>,
        Vec<(u16, u8)>,
        BTreeSet<u32>
    );
    // Keys that share sub-values: bounded in the fixed layout too.
    let bytes = binform::fixed::to_vec(&vec![doubling(40)]).unwrap();
    let cost = fixed_kind::<HashSet<Rc<Dag>>>(bytes.clone());
    assert_eq!(cost.out, Some(ErrorKind::LimitExceeded));
    assert!(cost.time < QUICK);
    let cost = fixed_kind::<BTreeSet<Rc<Dag>>>(bytes);
    assert_eq!(cost.out, Some(ErrorKind::LimitExceeded));
    // Nesting past the depth limit, through shared values.
    let bytes = on_small_stack(|| {
        let mut chain: Option<Rc<Chain>> = None;
        for v in 0..300u16 {
            chain = Some(Rc::new(Chain {
                v: v as u8,
                next: chain,
            }));
        }
        let bytes = Options::new()
            .fixed_width()
            .max_depth(1000)
            .to_vec(&chain)
            .unwrap();
        // Dropped a link at a time, not by recursion.
        while let Some(node) = chain {
            chain = Rc::try_unwrap(node).ok().and_then(|n| n.next);
        }
        bytes
    })
    .out;
    let cost = fixed_kind::<Option<Rc<Chain>>>(bytes);
    assert_eq!(cost.out, Some(ErrorKind::LimitExceeded));
    // An explicit memory budget is honoured.
    let bytes = binform::fixed::to_vec(&vec![0u64; 1000]).unwrap();
    let small = Options::new().fixed_width().max_memory(1000);
    assert_eq!(
        kind(&small.from_slice::<Vec<u64>>(&bytes)),
        Some(ErrorKind::LimitExceeded)
    );
    let enough = Options::new().fixed_width().max_memory(8000);
    assert_eq!(enough.from_slice::<Vec<u64>>(&bytes).unwrap().len(), 1000);
}
