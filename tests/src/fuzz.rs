//! What each fuzz target does with its input, shared by the cargo-fuzz
//! targets under `fuzz/` and the regression test that replays every input a
//! fuzzer ever found (`tests/fuzz_regressions/<target>/`). Each function
//! must return normally for any input: a panic is a finding.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use binform::{Options, Pack, Packable, UnpackOwned};

use crate::{CardHolder, Everything, Person};

/// Decodes `data` as `T`; a value that decodes must re-encode.
fn decode<T: UnpackOwned + Pack>(data: &[u8]) {
    if let Ok(value) = binform::from_slice::<T>(data) {
        binform::to_vec(&value).expect("a decoded value re-encodes");
    }
}

/// Target (a): the seed articles' types.
pub fn decode_seed(data: &[u8]) {
    decode::<Vec<Person>>(data);
    decode::<CardHolder>(data);
}

/// Target (b): one type that uses every std impl.
pub fn decode_everything(data: &[u8]) {
    decode::<Everything>(data);
}

/// A graph node with strong links that may form cycles.
#[derive(Packable, Debug)]
pub struct GraphNode {
    pub id: u32,
    pub edges: Vec<Rc<RefCell<GraphNode>>>,
    pub back: Option<Weak<RefCell<GraphNode>>>,
}

/// The Rust Book tree: weak parents, strong children.
#[derive(Packable, Debug)]
pub struct TreeNode {
    pub value: i32,
    pub parent: RefCell<Weak<TreeNode>>,
    pub children: RefCell<Vec<Rc<TreeNode>>>,
}

/// Breaks every strong cycle reachable from `node`, so a fuzz run does not
/// accumulate leaks.
fn unlink(node: &Rc<RefCell<GraphNode>>) {
    let mut stack = vec![node.clone()];
    while let Some(n) = stack.pop() {
        let edges = match n.try_borrow_mut() {
            Ok(mut g) => std::mem::take(&mut g.edges),
            Err(_) => continue,
        };
        stack.extend(edges);
    }
}

/// Target (c): object graphs with `Rc`/`Weak`/`RefCell` cycles.
///
/// Cyclic types are decoded with `reject_cycles(true)`, the setting for
/// untrusted input: without it a payload may create strong cycles, even
/// ones unreachable from the decoded value, and those leak by design (the
/// second finding of this target, a 13-byte input that LeakSanitizer
/// flagged; see docs/security.md).
pub fn decode_graph(data: &[u8]) {
    let strict = Options::new().reject_cycles(true);
    if let Ok(root) = strict.from_slice::<Rc<RefCell<GraphNode>>>(data) {
        binform::to_vec(&root).expect("a decoded graph re-encodes");
        unlink(&root);
    }
    decode::<Rc<TreeNode>>(data);
    decode::<Vec<Rc<str>>>(data);
}

/// Version 1 of a tolerant record.
pub mod v1 {
    use binform::Packable;

    #[derive(Packable, Debug, Default, PartialEq)]
    #[binform(version_tolerant)]
    pub struct Record {
        pub id: u64,
        pub name: String,
        pub tags: Vec<String>,
        pub kind: Kind,
    }

    #[derive(Packable, Debug, Default, PartialEq)]
    #[binform(version_tolerant)]
    pub enum Kind {
        #[default]
        Plain,
        Special(u32),
    }
}

/// Version 2: a field added in the middle, one removed, a variant added.
pub mod v2 {
    use binform::Packable;

    #[derive(Packable, Debug, Default, PartialEq)]
    #[binform(version_tolerant, reserved = [2])]
    pub struct Record {
        #[binform(tag = 0)]
        pub id: u64,
        #[binform(tag = 4)]
        pub email: Option<String>,
        #[binform(tag = 1)]
        pub name: String,
        #[binform(tag = 3)]
        pub kind: Kind,
    }

    #[derive(Packable, Debug, Default, PartialEq)]
    #[binform(version_tolerant)]
    pub enum Kind {
        #[default]
        Plain,
        Special(u32),
        Extra {
            level: u8,
        },
        #[binform(other, tag = 99)]
        Unknown,
    }
}

/// Target (d): version-tolerant types, both versions.
pub fn decode_tolerant(data: &[u8]) {
    decode::<v1::Record>(data);
    decode::<v2::Record>(data);
    decode::<Vec<v1::Record>>(data);
    decode::<Vec<v2::Record>>(data);
}
