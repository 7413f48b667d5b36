//! Object graphs: `Rc`/`Arc` identity, `Weak` links, cycles, trait
//! objects, and the hostile payloads of the reference table.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use std::sync::{Arc, Mutex, RwLock};

use binform::{ErrorKind, Options, Pack, Packable, Reader, Unpack, Writer};

// ---------------------------------------------------------------- sharing

#[derive(Packable, Debug)]
struct Shared {
    a: Rc<String>,
    b: Rc<String>,
    c: Rc<String>,
}

#[test]
fn rc_identity_survives_and_is_written_once() {
    let s = Rc::new("shared text".to_string());
    let value = Shared {
        a: s.clone(),
        b: s.clone(),
        c: Rc::new("other".into()),
    };
    let bytes = binform::to_vec(&value).unwrap();
    // a: new (1) + string (12); b: one reference byte; c: new + string.
    assert_eq!(bytes.len(), 1 + 12 + 1 + 1 + 6);
    let back: Shared = binform::from_slice(&bytes).unwrap();
    assert!(Rc::ptr_eq(&back.a, &back.b));
    assert!(!Rc::ptr_eq(&back.a, &back.c));
    assert_eq!(*back.a, "shared text");
    assert_eq!(*back.c, "other");
}

#[test]
fn arc_identity_and_unsized_pointees() {
    let arc = Arc::new(vec![1u32, 2, 3]);
    let (x, y): (Arc<Vec<u32>>, Arc<Vec<u32>>) =
        binform::from_slice(&binform::to_vec(&(arc.clone(), arc)).unwrap()).unwrap();
    assert!(Arc::ptr_eq(&x, &y));

    let text: Rc<str> = Rc::from("unsized");
    let (a, b): (Rc<str>, Rc<str>) =
        binform::from_slice(&binform::to_vec(&(text.clone(), text)).unwrap()).unwrap();
    assert!(Rc::ptr_eq(&a, &b));
    assert_eq!(&*a, "unsized");

    let atext: Arc<str> = Arc::from("atomic");
    let (a, b): (Arc<str>, Arc<str>) =
        binform::from_slice(&binform::to_vec(&(atext.clone(), atext)).unwrap()).unwrap();
    assert!(Arc::ptr_eq(&a, &b));

    let slice: Rc<[u16]> = Rc::from(vec![7u16, 8]);
    let (a, b): (Rc<[u16]>, Rc<[u16]>) =
        binform::from_slice(&binform::to_vec(&(slice.clone(), slice)).unwrap()).unwrap();
    assert!(Rc::ptr_eq(&a, &b));
    assert_eq!(&*a, &[7, 8]);

    let aslice: Arc<[String]> = Arc::from(vec!["x".to_string()]);
    let (a, b): (Arc<[String]>, Arc<[String]>) =
        binform::from_slice(&binform::to_vec(&(aslice.clone(), aslice)).unwrap()).unwrap();
    assert!(Arc::ptr_eq(&a, &b));
}

#[derive(Packable)]
struct WeakPair {
    weak: Weak<String>,
    strong: Rc<String>,
}

#[test]
fn weak_links() {
    // A weak before its strong owner: both decode to the same allocation.
    let target = Rc::new("target".to_string());
    let pair = WeakPair {
        weak: Rc::downgrade(&target),
        strong: target.clone(),
    };
    let back: WeakPair = binform::from_slice(&binform::to_vec(&pair).unwrap()).unwrap();
    assert!(Rc::ptr_eq(&back.weak.upgrade().unwrap(), &back.strong));

    // A dangling weak decodes dangling.
    let dangling: Weak<String> = {
        let gone = Rc::new("gone".to_string());
        Rc::downgrade(&gone)
    };
    let bytes = binform::to_vec(&dangling).unwrap();
    assert_eq!(bytes, [0x02]); // the null tag
    let back: Weak<String> = binform::from_slice(&bytes).unwrap();
    assert!(back.upgrade().is_none());
    let never: Weak<String> =
        binform::from_slice(&binform::to_vec(&Weak::<String>::new()).unwrap()).unwrap();
    assert!(never.upgrade().is_none());

    // A weak whose target nothing in the payload owns dangles after decoding.
    let alive = Rc::new(5u32);
    let back: Weak<u32> =
        binform::from_slice(&binform::to_vec(&Rc::downgrade(&alive)).unwrap()).unwrap();
    assert!(back.upgrade().is_none());

    // sync::Weak the same way.
    let arc = Arc::new(9u64);
    let (w, s): (std::sync::Weak<u64>, Arc<u64>) =
        binform::from_slice(&binform::to_vec(&(Arc::downgrade(&arc), arc.clone())).unwrap())
            .unwrap();
    assert!(Arc::ptr_eq(&w.upgrade().unwrap(), &s));
}

// ---------------------------------------------------------------- the Rust Book tree

#[derive(Packable, Debug)]
struct TreeNode {
    value: i32,
    parent: RefCell<Weak<TreeNode>>,
    children: RefCell<Vec<Rc<TreeNode>>>,
}

#[test]
fn rust_book_tree_keeps_parent_links() {
    let leaf = Rc::new(TreeNode {
        value: 3,
        parent: RefCell::new(Weak::new()),
        children: RefCell::new(vec![]),
    });
    let other = Rc::new(TreeNode {
        value: 4,
        parent: RefCell::new(Weak::new()),
        children: RefCell::new(vec![]),
    });
    let branch = Rc::new(TreeNode {
        value: 5,
        parent: RefCell::new(Weak::new()),
        children: RefCell::new(vec![leaf.clone(), other.clone()]),
    });
    *leaf.parent.borrow_mut() = Rc::downgrade(&branch);
    *other.parent.borrow_mut() = Rc::downgrade(&branch);

    let bytes = binform::to_vec(&branch).unwrap();
    let back: Rc<TreeNode> = binform::from_slice(&bytes).unwrap();
    assert_eq!(back.value, 5);
    assert!(back.parent.borrow().upgrade().is_none());
    let children = back.children.borrow();
    assert_eq!(children.iter().map(|c| c.value).collect::<Vec<_>>(), [3, 4]);
    for child in children.iter() {
        let parent = child.parent.borrow().upgrade().expect("parent alive");
        assert!(Rc::ptr_eq(&parent, &back));
    }
    // Weak links only: the tree is freed when the root goes.
    let weak_root = Rc::downgrade(&back);
    drop(children);
    drop(back);
    assert!(weak_root.upgrade().is_none());

    // Cycles through Weak are allowed even when strong cycles are rejected.
    assert!(Options::new()
        .reject_cycles(true)
        .from_slice::<Rc<TreeNode>>(&bytes)
        .is_ok());
}

// ---------------------------------------------------------------- strong cycles

#[derive(Packable, Debug)]
struct ListNode {
    value: u32,
    next: Option<Rc<RefCell<ListNode>>>,
    prev: Option<Rc<RefCell<ListNode>>>,
}

fn doubly_linked(values: &[u32]) -> Rc<RefCell<ListNode>> {
    let nodes: Vec<_> = values
        .iter()
        .map(|&value| {
            Rc::new(RefCell::new(ListNode {
                value,
                next: None,
                prev: None,
            }))
        })
        .collect();
    for pair in nodes.windows(2) {
        pair[0].borrow_mut().next = Some(pair[1].clone());
        pair[1].borrow_mut().prev = Some(pair[0].clone());
    }
    nodes[0].clone()
}

/// Breaks the strong cycles of a list so the test does not leak.
fn unlink(head: &Rc<RefCell<ListNode>>) {
    let mut cur = Some(head.clone());
    while let Some(node) = cur {
        let mut n = node.borrow_mut();
        n.prev = None;
        cur = n.next.take();
    }
}

#[test]
fn doubly_linked_list_with_strong_links() {
    let head = doubly_linked(&[1, 2, 3, 4]);
    let bytes = binform::to_vec(&head).unwrap();
    unlink(&head);
    let back: Rc<RefCell<ListNode>> = crate::cycles().from_slice(&bytes).unwrap();

    // Walk forward, checking every prev link points at the node before.
    let mut seen = vec![];
    let mut cur = back.clone();
    loop {
        seen.push(cur.borrow().value);
        let next = cur.borrow().next.clone();
        match next {
            Some(n) => {
                assert!(Rc::ptr_eq(n.borrow().prev.as_ref().unwrap(), &cur));
                cur = n;
            }
            None => break,
        }
    }
    assert_eq!(seen, [1, 2, 3, 4]);
    assert!(back.borrow().prev.is_none());

    let err = Options::new()
        .reject_cycles(true)
        .from_slice::<Rc<RefCell<ListNode>>>(&bytes)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::CycleRejected);
    unlink(&back);
}

#[derive(Packable, Debug)]
struct GraphNode {
    name: String,
    edges: Vec<Rc<RefCell<GraphNode>>>,
}

#[test]
fn graph_with_cycles_and_a_self_loop() {
    let make = |name: &str| {
        Rc::new(RefCell::new(GraphNode {
            name: name.into(),
            edges: vec![],
        }))
    };
    let (a, b, c) = (make("a"), make("b"), make("c"));
    a.borrow_mut().edges = vec![b.clone(), c.clone()];
    b.borrow_mut().edges = vec![c.clone()];
    c.borrow_mut().edges = vec![a.clone(), c.clone()]; // back to a, and itself
    let bytes = binform::to_vec(&a).unwrap();
    for n in [&a, &b, &c] {
        n.borrow_mut().edges.clear();
    }

    let a2: Rc<RefCell<GraphNode>> = crate::cycles().from_slice(&bytes).unwrap();
    let b2 = a2.borrow().edges[0].clone();
    let c2 = a2.borrow().edges[1].clone();
    assert_eq!(
        (
            a2.borrow().name.as_str(),
            b2.borrow().name.as_str(),
            c2.borrow().name.as_str()
        ),
        ("a", "b", "c")
    );
    assert!(Rc::ptr_eq(&b2.borrow().edges[0], &c2));
    assert!(Rc::ptr_eq(&c2.borrow().edges[0], &a2));
    assert!(Rc::ptr_eq(&c2.borrow().edges[1], &c2));
    // Three nodes, written once each.
    assert_eq!(
        bytes
            .iter()
            .filter(|&&b| b == b'a' || b == b'b' || b == b'c')
            .count(),
        3
    );
    for n in [&a2, &b2, &c2] {
        n.borrow_mut().edges.clear();
    }
}

#[derive(Packable, Debug)]
enum Value {
    Int(i64),
    Text(String),
    Map(Rc<RefCell<HashMap<String, Value>>>),
}

#[test]
fn a_map_that_holds_itself() {
    let map = Rc::new(RefCell::new(HashMap::new()));
    map.borrow_mut().insert("n".to_string(), Value::Int(1));
    map.borrow_mut()
        .insert("s".to_string(), Value::Text("x".into()));
    map.borrow_mut()
        .insert("self".to_string(), Value::Map(map.clone()));
    let bytes = binform::to_vec(&Value::Map(map.clone())).unwrap();
    map.borrow_mut().clear();

    let back: Value = crate::cycles().from_slice(&bytes).unwrap();
    let Value::Map(outer) = &back else {
        panic!("not a map")
    };
    let inner = match outer.borrow().get("self") {
        Some(Value::Map(inner)) => inner.clone(),
        other => panic!("self entry is {other:?}"),
    };
    assert!(Rc::ptr_eq(outer, &inner));
    assert!(matches!(outer.borrow().get("n"), Some(Value::Int(1))));
    outer.borrow_mut().clear();
}

#[derive(Packable, Debug)]
struct SyncNode {
    id: u32,
    links: Vec<Arc<Mutex<SyncNode>>>,
    labels: Arc<RwLock<Vec<String>>>,
}

#[derive(Packable, Debug)]
enum SyncValue {
    Int(i64),
    Map(Arc<RwLock<HashMap<String, SyncValue>>>),
}

#[test]
fn arc_mutex_and_rwlock_cycles() {
    let labels = Arc::new(RwLock::new(vec!["l".to_string()]));
    let a = Arc::new(Mutex::new(SyncNode {
        id: 1,
        links: vec![],
        labels: labels.clone(),
    }));
    let b = Arc::new(Mutex::new(SyncNode {
        id: 2,
        links: vec![a.clone()],
        labels: labels.clone(),
    }));
    a.lock().unwrap().links.push(b.clone());
    a.lock().unwrap().links.push(a.clone());
    let bytes = binform::to_vec(&a).unwrap();
    a.lock().unwrap().links.clear();
    b.lock().unwrap().links.clear();

    let a2: Arc<Mutex<SyncNode>> = crate::cycles().from_slice(&bytes).unwrap();
    let (b2, self_link, labels_a) = {
        let g = a2.lock().unwrap();
        (g.links[0].clone(), g.links[1].clone(), g.labels.clone())
    };
    assert!(Arc::ptr_eq(&self_link, &a2));
    assert!(Arc::ptr_eq(&b2.lock().unwrap().links[0], &a2));
    assert!(Arc::ptr_eq(&b2.lock().unwrap().labels, &labels_a));
    assert_eq!(b2.lock().unwrap().id, 2);
    a2.lock().unwrap().links.clear();
    b2.lock().unwrap().links.clear();

    let map = Arc::new(RwLock::new(HashMap::new()));
    map.write()
        .unwrap()
        .insert("me".to_string(), SyncValue::Map(map.clone()));
    map.write()
        .unwrap()
        .insert("one".to_string(), SyncValue::Int(1));
    let bytes = binform::to_vec(&map).unwrap();
    map.write().unwrap().clear();
    let back: Arc<RwLock<HashMap<String, SyncValue>>> = crate::cycles().from_slice(&bytes).unwrap();
    let inner = match back.read().unwrap().get("me") {
        Some(SyncValue::Map(m)) => m.clone(),
        _ => panic!("missing self entry"),
    };
    assert!(Arc::ptr_eq(&inner, &back));
    let err = Options::new()
        .reject_cycles(true)
        .from_slice::<Arc<RwLock<HashMap<String, SyncValue>>>>(&bytes);
    assert_eq!(err.unwrap_err().kind(), ErrorKind::CycleRejected);
    back.write().unwrap().clear();
}

// ---------------------------------------------------------------- impossible constructions and cleanup

#[derive(Packable, Debug)]
struct Loop {
    next: Option<Rc<Loop>>,
}

#[test]
fn strong_reference_into_a_value_under_construction_is_an_error() {
    // Rc<Loop>: new value; next = Some(reference to id 0), which is the
    // value still being built. No Rc can exist yet: a clear error.
    let bytes = [0x00, 0x01, 0x04];
    let err = binform::from_slice::<Rc<Loop>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnsupportedCycle);
    assert!(err.to_string().contains("RefCell"), "{err}");
}

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

/// Counts live instances, to show that a failed decode frees its graph.
#[derive(Debug)]
struct Tracker;

impl Tracker {
    fn new() -> Self {
        LIVE.with(|n| n.set(n.get() + 1));
        Tracker
    }
}

impl Drop for Tracker {
    fn drop(&mut self) {
        LIVE.with(|n| n.set(n.get() - 1));
    }
}

impl binform::Encoding for Tracker {}

impl Pack for Tracker {
    fn pack<L: binform::Layout>(&self, _: &mut Writer<'_, L>) -> binform::Result<()> {
        Ok(())
    }
}

impl<'de> Unpack<'de> for Tracker {
    fn unpack<L: binform::Layout>(_: &mut Reader<'de, L>) -> binform::Result<Self> {
        Ok(Tracker::new())
    }

    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Tracker::new())
    }
}

#[derive(Packable, Debug)]
struct Tracked {
    tracker: Tracker,
    next: Option<Rc<RefCell<Tracked>>>,
}

#[test]
fn a_failed_decode_breaks_its_cycles_and_frees_everything() {
    let a = Rc::new(RefCell::new(Tracked {
        tracker: Tracker::new(),
        next: None,
    }));
    let b = Rc::new(RefCell::new(Tracked {
        tracker: Tracker::new(),
        next: Some(a.clone()),
    }));
    a.borrow_mut().next = Some(b.clone());
    let mut bytes = binform::to_vec(&a).unwrap();
    a.borrow_mut().next = None;
    drop((a, b));
    assert_eq!(LIVE.with(Cell::get), 0);

    // Success keeps the cycle (it leaks, as one built in code would) ...
    let ok: Rc<RefCell<Tracked>> = crate::cycles().from_slice(&bytes).unwrap();
    assert_eq!(LIVE.with(Cell::get), 2);
    ok.borrow_mut().next = None;
    drop(ok);
    assert_eq!(LIVE.with(Cell::get), 0);

    // ... while a trailing byte or a truncation frees everything built.
    bytes.push(0);
    assert_eq!(
        crate::cycles()
            .from_slice::<Rc<RefCell<Tracked>>>(&bytes)
            .unwrap_err()
            .kind(),
        ErrorKind::TrailingBytes
    );
    assert_eq!(LIVE.with(Cell::get), 0);
    bytes.pop();
    for cut in 0..bytes.len() {
        assert!(crate::cycles()
            .from_slice::<Rc<RefCell<Tracked>>>(&bytes[..cut])
            .is_err());
        assert_eq!(LIVE.with(Cell::get), 0, "leak after cut at {cut}");
    }
}

// ---------------------------------------------------------------- hostile reference tables

#[test]
fn forged_references_are_errors() {
    // A reference (tag 2 + 5 = id 5) before anything is defined.
    let err = binform::from_slice::<Rc<u8>>(&[0x0E]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidReference);
    assert!(err.to_string().contains("id 5"), "{err}");
    // An id far out of range.
    let mut huge = vec![0xFF];
    huge.extend(u64::MAX.to_le_bytes());
    assert_eq!(
        binform::from_slice::<Rc<u8>>(&huge).unwrap_err().kind(),
        ErrorKind::InvalidReference
    );
    // An id that names a value of another type: Rc<u8> 7, then Rc<String> -> id 0.
    let err = binform::from_slice::<(Rc<u8>, Rc<String>)>(&[0x00, 0x07, 0x04]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidReference);
    assert!(err.to_string().contains("not a Rc"), "{err}");
    // Rc vs Arc of the same type are different types too.
    assert_eq!(
        binform::from_slice::<(Rc<u8>, Arc<u8>)>(&[0x00, 0x07, 0x04])
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidReference
    );
    // The null tag where an Rc is expected.
    assert_eq!(
        binform::from_slice::<Rc<u8>>(&[0x02]).unwrap_err().kind(),
        ErrorKind::InvalidReference
    );
    // A weak to a value of another type.
    assert_eq!(
        binform::from_slice::<(Rc<u8>, Weak<u16>)>(&[0x00, 0x07, 0x04])
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidReference
    );
}

#[test]
fn every_prefix_of_a_graph_payload_fails() {
    let head = doubly_linked(&[1, 2, 3]);
    let bytes = binform::to_vec(&head).unwrap();
    unlink(&head);
    for cut in 0..bytes.len() {
        assert!(binform::from_slice::<Rc<RefCell<ListNode>>>(&bytes[..cut]).is_err());
    }
}

// ---------------------------------------------------------------- cost

#[derive(Packable, Debug)]
struct DagNode {
    id: u32,
    children: Vec<Rc<DagNode>>,
}

#[test]
fn dag_size_grows_with_distinct_nodes_not_paths() {
    // A ladder of 40 levels, two nodes each, every node pointing at both
    // nodes below: 80 nodes, 2^40 paths.
    let mut level: Vec<Rc<DagNode>> = vec![];
    for depth in 0..40u32 {
        level = (0..2)
            .map(|i| {
                Rc::new(DagNode {
                    id: depth * 2 + i,
                    children: level.clone(),
                })
            })
            .collect();
    }
    let root = Rc::new(DagNode {
        id: 999,
        children: level,
    });
    let bytes = binform::to_vec(&root).unwrap();
    assert!(bytes.len() < 600, "{} bytes", bytes.len());
    let back: Rc<DagNode> = binform::from_slice(&bytes).unwrap();
    // The two children of the root share their own children.
    let (l, r) = (&back.children[0], &back.children[1]);
    assert!(Rc::ptr_eq(&l.children[0], &r.children[0]));
    assert!(Rc::ptr_eq(&l.children[1], &r.children[1]));
}

// ---------------------------------------------------------------- trait objects

trait Shape: Any {
    fn area(&self) -> f64;
}

#[derive(Packable, Debug, PartialEq)]
struct Circle {
    r: f64,
}

#[derive(Packable, Debug, PartialEq)]
struct Square {
    side: f64,
}

/// Not registered below.
struct Triangle;

impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}
impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}
impl Shape for Triangle {
    fn area(&self) -> f64 {
        0.5
    }
}

binform::polymorphic!(dyn Shape { 1 => Circle, 2 => Square });

#[test]
fn trait_objects_by_registration() {
    let shapes: Vec<Box<dyn Shape>> =
        vec![Box::new(Circle { r: 1.0 }), Box::new(Square { side: 2.0 })];
    let bytes = binform::to_vec(&shapes).unwrap();
    assert_eq!(bytes[1], 0x02, "the registered tag 1");
    let back: Vec<Box<dyn Shape>> = binform::from_slice(&bytes).unwrap();
    assert_eq!(
        back.iter().map(|s| s.area()).collect::<Vec<_>>(),
        [3.0, 4.0]
    );
    let any: &dyn Any = &*back[1];
    assert_eq!(any.downcast_ref::<Square>(), Some(&Square { side: 2.0 }));

    let rc: Rc<dyn Shape> = Rc::new(Circle { r: 2.0 });
    let (a, b): (Rc<dyn Shape>, Rc<dyn Shape>) =
        binform::from_slice(&binform::to_vec(&(rc.clone(), rc)).unwrap()).unwrap();
    assert!(Rc::ptr_eq(&a, &b));
    assert_eq!(a.area(), 12.0);

    let arc: Arc<dyn Shape> = Arc::new(Square { side: 3.0 });
    let back: Vec<Arc<dyn Shape>> =
        binform::from_slice(&binform::to_vec(&vec![arc.clone(), arc]).unwrap()).unwrap();
    assert!(Arc::ptr_eq(&back[0], &back[1]));
    assert_eq!(back[0].area(), 9.0);
}

#[test]
fn unknown_tags_and_unregistered_types_are_errors() {
    // Tag 7 names nothing registered for dyn Shape.
    let Err(err) = binform::from_slice::<Box<dyn Shape>>(&[0x0E, 0, 0, 0, 0, 0, 0, 0, 0]) else {
        panic!("tag 7 decoded");
    };
    assert_eq!(err.kind(), ErrorKind::UnknownVariant);
    assert!(err.to_string().contains("dyn Shape"), "{err}");
    let unregistered: Box<dyn Shape> = Box::new(Triangle);
    assert_eq!(
        binform::to_vec(&unregistered).unwrap_err().kind(),
        ErrorKind::UnregisteredType
    );
}

/// Shared values of types that cannot hold a `Weak` skip `Rc::new_cyclic`;
/// which the runtime reads from the type's schema (a `Weak` within 16
/// derived levels).
#[test]
fn which_types_may_hold_a_weak() {
    use binform::Encoding;
    fn may<T: Encoding>() -> bool {
        binform::__private::may_hold_weak::<T>()
    }
    assert!(!may::<DagNode>(), "std types and itself only");
    assert!(!may::<Loop>());
    assert!(may::<TreeNode>(), "holds a Weak");
    assert!(may::<Tracked>(), "a field of a user type could hold one");
    assert!(may::<Tracker>(), "the default of a hand-written impl");
    assert!(!may::<u32>(), "std types say what they hold");
    assert!(may::<Vec<std::rc::Weak<u8>>>());
    // Either way the decoded graphs keep their shape (tested above).
}

/// Identity is the allocation's, however it is reached: the same `Rc`
/// seen twice through plain references (its strong count is 1) is still
/// written once and decodes as one allocation. (The encoder skips the
/// address lookup for an `Rc` with a strong count of 1 only when it is
/// reached through owning values alone.)
#[test]
fn one_rc_reached_twice_by_reference_stays_one() {
    let rc = Rc::new(String::from("once"));
    assert_eq!(Rc::strong_count(&rc), 1);
    let bytes = binform::to_vec(&(&rc, &rc)).unwrap();
    // New value (id 0) with its string, then a reference to id 0.
    assert_eq!(bytes, [0x00, 0x08, b'o', b'n', b'c', b'e', 0x04]);
    let back: (Rc<String>, Rc<String>) = binform::from_slice(&bytes).unwrap();
    assert!(Rc::ptr_eq(&back.0, &back.1));
    assert_eq!(*back.0, "once");

    // The same through a vector of references and a borrowed Cow.
    let value = (&rc, vec![&rc, &rc], std::borrow::Cow::Borrowed(&rc));
    let bytes = binform::to_vec(&value).unwrap();
    let back: (Rc<String>, Vec<Rc<String>>, Rc<String>) = binform::from_slice(&bytes).unwrap();
    assert!(Rc::ptr_eq(&back.0, &back.1[0]) && Rc::ptr_eq(&back.0, &back.1[1]));
    assert!(Rc::ptr_eq(&back.0, &back.2));
}

/// An `Rc` that is the only pointer to its value, reached through owning
/// values, skips the address table when encoding; it still takes an id, so
/// later references line up, and the bytes are those of any new shared
/// value.
#[test]
fn unshared_rcs_keep_ids_in_step() {
    let shared = Rc::new(8u8);
    let value = (Rc::new(7u8), shared.clone(), Rc::new(9u8), shared);
    let bytes = binform::to_vec(&value).unwrap();
    // new 7 (id 0), new 8 (id 1), new 9 (id 2), then id 1: tag 3.
    assert_eq!(bytes, [0x00, 0x07, 0x00, 0x08, 0x00, 0x09, 0x06]);
    let back: (Rc<u8>, Rc<u8>, Rc<u8>, Rc<u8>) = binform::from_slice(&bytes).unwrap();
    assert_eq!((*back.0, *back.1, *back.2, *back.3), (7, 8, 9, 8));
    assert!(Rc::ptr_eq(&back.1, &back.3));
    assert_eq!(Rc::strong_count(&back.0), 1);

    // A tree of `Rc`s, none shared, with one shared leaf at the bottom.
    #[derive(Packable, Debug, PartialEq)]
    struct RcNode {
        id: u32,
        children: Vec<Rc<RcNode>>,
    }
    let leaf = Rc::new(RcNode {
        id: 99,
        children: vec![],
    });
    let tree = Rc::new(RcNode {
        id: 0,
        children: (1..4)
            .map(|id| {
                Rc::new(RcNode {
                    id,
                    children: vec![leaf.clone()],
                })
            })
            .collect(),
    });
    let back: Rc<RcNode> = binform::from_slice(&binform::to_vec(&tree).unwrap()).unwrap();
    assert_eq!(back, tree);
    let leaves: Vec<&Rc<RcNode>> = back.children.iter().map(|c| &c.children[0]).collect();
    assert!(Rc::ptr_eq(leaves[0], leaves[1]) && Rc::ptr_eq(leaves[1], leaves[2]));
    assert!(back.children.iter().all(|c| Rc::strong_count(c) == 1));
}

/// A placeholder attempt ends at the first field without one, before the
/// fields after it spend the budget: here the first variant (tried first,
/// as no variant's cost is known) would spend 250 of the 256 units on its
/// array before failing, and leave none for the second.
#[test]
fn a_failed_placeholder_attempt_stops_at_its_first_field() {
    struct Opaque;
    impl binform::Encoding for Opaque {}
    impl Pack for Opaque {
        fn pack<L: binform::Layout>(&self, _: &mut Writer<'_, L>) -> binform::Result<()> {
            Ok(())
        }
    }
    impl<'de> Unpack<'de> for Opaque {
        fn unpack<L: binform::Layout>(_: &mut Reader<'de, L>) -> binform::Result<Self> {
            Ok(Opaque)
        }
    }
    struct Hand;
    impl binform::Encoding for Hand {}
    impl Pack for Hand {
        fn pack<L: binform::Layout>(&self, _: &mut Writer<'_, L>) -> binform::Result<()> {
            Ok(())
        }
    }
    impl<'de> Unpack<'de> for Hand {
        fn unpack<L: binform::Layout>(_: &mut Reader<'de, L>) -> binform::Result<Self> {
            Ok(Hand)
        }
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(Hand)
        }
    }
    #[derive(Packable)]
    struct Leaf(u8);
    #[derive(Packable)]
    #[allow(dead_code, clippy::large_enum_variant)]
    enum Choice {
        Costly(Opaque, [Leaf; 250]),
        Fits(Hand, [Leaf; 10]),
    }
    let mut work = 256;
    let placeholder = <Choice as Unpack>::placeholder(&mut work);
    assert!(matches!(placeholder, Some(Choice::Fits(Hand, _))));
}
