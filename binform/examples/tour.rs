//! A tour of binform on the seed articles' scenarios, next to serde_json:
//! the MemoryPack article's ten people, and the BinaryFormatter article's
//! Person with 1 and with 10,000 credit cards; then hostile bytes, an
//! object graph with sharing and a weak back-link, two versions of a
//! record reading each other's bytes, and a self-describing file read
//! without its type (as the `binform` tool shows it).
//!
//! Run with `cargo run --release --example tour`. Times are a quick average
//! over repeated runs on this machine, for orientation only; the criterion
//! suite in `benches/` holds the real comparisons.

use std::cell::RefCell;
use std::hint::black_box;
use std::rc::{Rc, Weak};
use std::time::{Duration, Instant};

use binform_fixtures::seed::{kate, ten_people, CardHolder, Person};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Runs `f` repeatedly for about `budget` and returns the mean time per run.
fn time(budget: Duration, mut f: impl FnMut()) -> Duration {
    f(); // warm up
    let start = Instant::now();
    let mut runs = 0u32;
    while start.elapsed() < budget {
        f();
        runs += 1;
    }
    start.elapsed() / runs.max(1)
}

struct Row {
    size: usize,
    encode: Duration,
    decode: Duration,
}

/// Checks one serializer's round trip on `value`, then times encoding into
/// a reused buffer and decoding.
fn measure<T: PartialEq + std::fmt::Debug>(
    name: &str,
    value: &T,
    encode_into: impl Fn(&mut Vec<u8>, &T),
    decode: impl Fn(&[u8]) -> T,
) -> Row {
    let mut bytes = Vec::new();
    encode_into(&mut bytes, value);
    assert_eq!(&decode(&bytes), value, "{name} round trip");
    let budget = Duration::from_millis(300);
    let mut buf = Vec::with_capacity(bytes.len());
    let encode = time(budget, || {
        buf.clear();
        encode_into(&mut buf, black_box(value));
    });
    let decode = time(budget, || {
        black_box(decode(black_box(&bytes)));
    });
    Row {
        size: bytes.len(),
        encode,
        decode,
    }
}

fn show<T>(title: &str, value: &T)
where
    T: binform::Pack
        + binform::UnpackOwned
        + Serialize
        + DeserializeOwned
        + PartialEq
        + std::fmt::Debug,
{
    let b = measure(
        "binform",
        value,
        |buf, v| binform::to_vec_into(buf, v).expect("encode"),
        |bytes| binform::from_slice(bytes).expect("decode"),
    );
    let j = measure(
        "serde_json",
        value,
        |buf, v| serde_json::to_writer(buf, v).expect("encode"),
        |bytes| serde_json::from_slice(bytes).expect("decode"),
    );
    println!("\n{title}");
    println!(
        "  {:<12} {:>10} {:>14} {:>14}",
        "", "bytes", "encode", "decode"
    );
    for (name, row) in [("binform", &b), ("serde_json", &j)] {
        println!(
            "  {:<12} {:>10} {:>14} {:>14}",
            name,
            row.size,
            format!("{:.2?}", row.encode),
            format!("{:.2?}", row.decode)
        );
    }
    println!(
        "  binform is {:.1}x smaller, encodes {:.1}x and decodes {:.1}x faster than serde_json",
        j.size as f64 / b.size as f64,
        j.encode.as_secs_f64() / b.encode.as_secs_f64(),
        j.decode.as_secs_f64() / b.decode.as_secs_f64()
    );
}

fn main() {
    println!("binform tour: the seed scenarios (binform next to serde_json), hostile input, graphs, versions, self-describing files");

    let people: Vec<Person> = ten_people();
    show(
        "1. MemoryPack article: a list of ten Person { name, age, programming_keywords }",
        &people,
    );

    let one: CardHolder = kate(1);
    show("2. BinaryFormatter article: Kate with 1 credit card", &one);
    let size = binform::to_vec(&one).expect("encode").len();
    println!(
        "  the article measured 896 bytes with BinaryFormatter and 62 written by hand; binform: {size}"
    );

    let many: CardHolder = kate(10_000);
    show(
        "3. BinaryFormatter article: Kate with 10,000 credit cards",
        &many,
    );
    println!("  the article measured 640,899 bytes with BinaryFormatter and 450,062 by hand");

    // Hostile input is an error, never a panic or a huge allocation.
    let mut hostile = vec![0xFF];
    hostile.extend((1u64 << 62).to_le_bytes());
    let err = binform::from_slice::<Vec<Person>>(&hostile).expect_err("must fail");
    println!("\n4. Nine hostile bytes claiming 2^62 people: {err}");

    graph_scene();
    versioning_scene();
    self_describing_scene();
}

/// A node of an object graph: shared children, a weak link back.
#[derive(binform::Packable, Debug)]
struct Node {
    name: String,
    parent: RefCell<Weak<Node>>,
    children: RefCell<Vec<Rc<Node>>>,
}

/// What BinaryFormatter was kept for: graphs with shared objects and
/// back-links, which plain serializers duplicate or cannot write.
fn graph_scene() {
    let leaf = Rc::new(Node {
        name: "leaf".into(),
        parent: RefCell::new(Weak::new()),
        children: RefCell::new(vec![]),
    });
    let branch = Rc::new(Node {
        name: "branch".into(),
        parent: RefCell::new(Weak::new()),
        children: RefCell::new(vec![leaf.clone()]),
    });
    *leaf.parent.borrow_mut() = Rc::downgrade(&branch);
    // The same leaf twice, and a parent link: a graph, not a tree.
    let roots = vec![branch.clone(), leaf.clone()];
    let bytes = binform::to_vec(&roots).expect("encode");
    let back: Vec<Rc<Node>> = binform::from_slice(&bytes).expect("decode");
    let same_leaf = Rc::ptr_eq(&back[0].children.borrow()[0], &back[1]);
    let parent = back[1].parent.borrow().upgrade().map(|p| p.name.clone());
    println!(
        "\n5. An object graph (a leaf shared by two owners, with a Weak link to its parent): {} bytes;\n   \
         after decoding, the two leaves are one object: {same_leaf}; the leaf's parent: {parent:?}",
        bytes.len()
    );

    // A strong cycle is never freed, so by default a payload cannot make
    // the decoder build one; a program that wants cycles asks for them.
    let ring = Rc::new(RefCell::new(Ring { next: None }));
    ring.borrow_mut().next = Some(ring.clone());
    let bytes = binform::to_vec(&ring).expect("encode");
    ring.borrow_mut().next = None;
    let refused = binform::from_slice::<Rc<RefCell<Ring>>>(&bytes)
        .err()
        .expect("refused");
    let accepted: Rc<RefCell<Ring>> = binform::Options::new()
        .reject_cycles(false)
        .from_slice(&bytes)
        .expect("decode");
    let closes = Rc::ptr_eq(&accepted, accepted.borrow().next.as_ref().expect("a link"));
    accepted.borrow_mut().next = None;
    println!(
        "   a ring of strong links: refused by default ({:?}); with reject_cycles(false) it closes: {closes}",
        refused.kind()
    );
}

/// One node of a ring of strong links.
#[derive(binform::Packable)]
struct Ring {
    next: Option<Rc<RefCell<Ring>>>,
}

/// Two versions of one record: the newer adds a field in the middle and
/// renames one; each reads the other's bytes.
fn versioning_scene() {
    mod v1 {
        #[derive(binform::Packable, Debug, Default)]
        #[binform(version_tolerant)]
        pub struct Customer {
            pub id: u64,
            pub name: String,
        }
    }
    mod v2 {
        #[derive(binform::Packable, Debug, Default)]
        #[binform(version_tolerant)]
        pub struct Customer {
            #[binform(tag = 0)]
            pub id: u64,
            #[binform(tag = 2)]
            pub email: Option<String>,
            #[binform(tag = 1)]
            pub full_name: String,
        }
    }
    let old = v1::Customer {
        id: 7,
        name: "Kate".into(),
    };
    let new: v2::Customer =
        binform::from_slice(&binform::to_vec(&old).expect("encode")).expect("decode");
    let newer = v2::Customer {
        email: Some("kate@example.com".into()),
        ..new
    };
    let back: v1::Customer =
        binform::from_slice(&binform::to_vec(&newer).expect("encode")).expect("decode");
    println!(
        "\n6. Version tolerance: v1 {old:?}\n   read by v2 as {:?}\n   v2 with an email read back by v1 as {back:?}",
        v2::Customer { email: None, ..newer }
    );
}

/// A payload that carries its schema: tools read it without the type.
fn self_describing_scene() {
    let people: Vec<Person> = ten_people();
    // The files the README's `binform` tool examples read: the
    // self-describing payload, the plain one and its lock file.
    let dir = std::env::temp_dir();
    let path = dir.join("people.binform");
    let bytes = binform::Options::new()
        .self_describing(true)
        .to_vec(&people)
        .expect("encode");
    std::fs::write(&path, &bytes).expect("write");
    std::fs::write(
        dir.join("people.bin"),
        binform::to_vec(&people).expect("encode"),
    )
    .expect("write");
    std::fs::write(
        dir.join("people.lock"),
        binform::schema_of::<Vec<Person>>().to_string(),
    )
    .expect("write");
    let doc = binform::value::from_slice(&bytes).expect("read without the type");
    let tree = doc.to_string();
    let head: Vec<&str> = tree.lines().take(9).collect();
    println!(
        "\n7. Self-describing: {} bytes in {} ({} of them the schema); what\n   `cargo run -p binform-cli -- inspect {}` shows:\n{}\n   … ({} lines)",
        bytes.len(),
        path.display(),
        bytes.len() - binform::to_vec(&people).expect("encode").len(),
        path.display(),
        head.iter().map(|l| format!("   {l}")).collect::<Vec<_>>().join("\n"),
        tree.lines().count(),
    );
}
