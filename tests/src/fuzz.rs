//! What each fuzz target does with its input, shared by the cargo-fuzz
//! targets under `fuzz/` and the regression test that replays every input a
//! fuzzer ever found (`tests/fuzz_regressions/<target>/`). Each function
//! must return normally for any input: a panic is a finding.
//!
//! Every decoding target takes its layout from its first byte (odd: the
//! fixed layout, even: the compact one) and decodes the rest, so one
//! fuzzer explores both (`docs/format.md` §26).

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use binform::{Layout, Options, Pack, Packable, UnpackOwned};

use crate::{CardHolder, Everything, Person};

/// Runs `$body::<L>(rest, options)` in the layout the first byte of
/// `$data` names, on the bytes after it.
macro_rules! by_layout {
    ($data:expr, $body:ident) => {
        match $data.split_first() {
            Some((first, rest)) if first & 1 == 1 => $body(rest, Options::new().fixed_width()),
            Some((_, rest)) => $body(rest, Options::new()),
            None => {}
        }
    };
}

/// Decodes `data` as `T`; a value that decodes must re-encode.
fn decode<T: UnpackOwned + Pack, L: Layout>(data: &[u8], o: Options<L>) {
    if let Ok(value) = o.from_slice::<T>(data) {
        o.to_vec(&value).expect("a decoded value re-encodes");
    }
}

/// Target (a): the seed articles' types.
pub fn decode_seed(data: &[u8]) {
    by_layout!(data, seed_in);
}

fn seed_in<L: Layout>(data: &[u8], o: Options<L>) {
    decode::<Vec<Person>, L>(data, o);
    decode::<CardHolder, L>(data, o);
}

/// A column-rich element: an enum whose variants hold options, tuples,
/// strings, nested sequences and a struct, so that a sequence of them is
/// a tag column and a column set per variant (format.md §27).
#[derive(Packable, Debug)]
pub enum Columnar {
    /// No fields: a tag only.
    Unit,
    /// One field: read without a tuple.
    One(Option<String>),
    /// Several, nested.
    Many(
        u8,
        (bool, Vec<Option<u16>>),
        Vec<Vec<String>>,
        Option<Person>,
    ),
    /// Named fields.
    Named {
        /// A wide integer.
        wide: i128,
        /// Text.
        text: Box<str>,
        /// Bits.
        flags: Vec<bool>,
    },
}

/// Target: columns (format.md §27), in both layouts: sequences of every
/// std type (`Vec<Everything>`), of a column-rich enum, and the
/// rust_serialization_benchmark models (mk48, minecraft, logs). Each
/// column's counts, lengths, bits and text are input: the decoders must
/// check them before building anything.
pub fn decode_columns(data: &[u8]) {
    by_layout!(data, columns_in);
}

fn columns_in<L: Layout>(data: &[u8], o: Options<L>) {
    decode::<Vec<Everything>, L>(data, o);
    decode::<Vec<Columnar>, L>(data, o);
    decode::<Vec<(Columnar, Option<Columnar>)>, L>(data, o);
    decode::<binform_fixtures::rsb_seed::Updates, L>(data, o);
    decode::<binform_fixtures::rsb_seed::Players, L>(data, o);
    decode::<binform_fixtures::rsb_seed::Logs, L>(data, o);
}

/// Target: packed integer sequences (format.md §22) of every width, as
/// vectors, arrays, deques and non-zero integers; a value that decodes
/// re-encodes canonically, and the canonical bytes decode to it again.
pub fn decode_packed(data: &[u8]) {
    by_layout!(data, packed_in);
}

fn packed_in<L: Layout>(data: &[u8], o: Options<L>) {
    fn again<T: UnpackOwned + Pack + PartialEq + std::fmt::Debug, L: Layout>(
        data: &[u8],
        o: Options<L>,
    ) {
        if let Ok(value) = o.from_slice::<T>(data) {
            let bytes = o.to_vec(&value).expect("a decoded value re-encodes");
            let back: T = o.from_slice(&bytes).expect("canonical bytes decode");
            assert_eq!(back, value);
        }
    }
    again::<Vec<u16>, L>(data, o);
    again::<Vec<i32>, L>(data, o);
    again::<Vec<u64>, L>(data, o);
    again::<Vec<i128>, L>(data, o);
    again::<Vec<isize>, L>(data, o);
    again::<[u32; 300], L>(data, o);
    again::<std::collections::VecDeque<i64>, L>(data, o);
    again::<Vec<std::num::NonZeroU32>, L>(data, o);
    again::<Vec<Vec<i16>>, L>(data, o);
}

/// Target (b): one type that uses every std impl.
pub fn decode_everything(data: &[u8]) {
    by_layout!(data, everything_in);
}

fn everything_in<L: Layout>(data: &[u8], o: Options<L>) {
    decode::<Everything, L>(data, o);
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

/// A DAG whose nodes can be keys: a few shared nodes can stand for an
/// exponentially large value, which hashing or ordering would walk.
#[derive(Packable, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dag {
    Leaf(u8),
    Pair(Rc<Dag>, Rc<Dag>),
}

/// Memory without input: 64 bytes per element, none on the wire.
#[derive(Packable, Debug, Default)]
pub struct AllSkipped {
    #[binform(skip)]
    pub pad: [u64; 8],
}

/// Target (c): object graphs with `Rc`/`Weak`/`RefCell` cycles, graphs in
/// sets and maps (keys that share sub-values), and elements that take no
/// input (whose memory the budget must bound).
///
/// Cyclic types are decoded with the default options, which reject strong
/// cycles: with `reject_cycles(false)` a payload may create strong cycles,
/// even ones unreachable from the decoded value, and those leak by design
/// (the second finding of this target, a 13-byte input that LeakSanitizer
/// flagged; see docs/security.md).
pub fn decode_graph(data: &[u8]) {
    by_layout!(data, graph_in);
}

fn graph_in<L: Layout>(data: &[u8], o: Options<L>) {
    if let Ok(root) = o.from_slice::<Rc<RefCell<GraphNode>>>(data) {
        o.to_vec(&root).expect("a decoded graph re-encodes");
        unlink(&root);
    }
    decode::<Rc<TreeNode>, L>(data, o);
    decode::<Vec<Rc<str>>, L>(data, o);
    decode::<std::collections::HashSet<Rc<Dag>>, L>(data, o);
    decode::<std::collections::BTreeMap<Rc<Dag>, u8>, L>(data, o);
    decode::<std::collections::BinaryHeap<Rc<Dag>>, L>(data, o);
    decode::<Vec<Box<()>>, L>(data, o);
    decode::<std::collections::LinkedList<()>, L>(data, o);
    decode::<Vec<AllSkipped>, L>(data, o);
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
        // One field of every other wire type.
        pub active: bool,
        pub ratio: f32,
        pub score: f64,
        pub flags: Vec<u8>,
        pub limit: Option<i32>,
        pub nested: Option<Option<u16>>,
        pub big: u128,
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
        // Retyped (wire types differ from version 1) and sparse tags.
        #[binform(tag = 5)]
        pub active: u8,
        #[binform(tag = 6)]
        pub ratio: Option<f32>,
        #[binform(tag = 8)]
        pub flags: Vec<u8>,
        #[binform(tag = 9)]
        pub limit: i32,
        #[binform(tag = 500)]
        pub far: Option<String>,
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

/// Target (d): version-tolerant types, both versions. A value that
/// decodes must also survive its own round trip unchanged (floats aside,
/// compared by bits through their encoding).
pub fn decode_tolerant(data: &[u8]) {
    by_layout!(data, tolerant_in);
}

fn tolerant_in<L: Layout>(data: &[u8], o: Options<L>) {
    decode_stable::<v1::Record, L>(data, o);
    decode_stable::<v2::Record, L>(data, o);
    decode_stable::<Vec<v1::Record>, L>(data, o);
    decode_stable::<Vec<v2::Record>, L>(data, o);
}

/// Decodes; a value that comes back re-encodes, and the re-encoding
/// decodes to a value that encodes to the very same bytes.
fn decode_stable<T: UnpackOwned + Pack, L: Layout>(data: &[u8], o: Options<L>) {
    if let Ok(value) = o.from_slice::<T>(data) {
        let bytes = o.to_vec(&value).expect("a decoded value re-encodes");
        let again: T = o.from_slice(&bytes).expect("a re-encoded value decodes");
        assert_eq!(
            o.to_vec(&again).expect("and re-encodes"),
            bytes,
            "re-encoding is not stable"
        );
    }
}

/// Target (e): a stream of frames (`binform::io`, `binform::codec`). The
/// first byte chooses the layout (its low bit, as every target) and where
/// the rest is split into reads; the frames are
/// decoded as card holders by `read_frame` and by the tokio codec fed one
/// piece at a time, and both must agree on every frame they accept.
pub fn decode_frames(data: &[u8]) {
    let Some((&seed, stream)) = data.split_first() else {
        return;
    };
    if seed & 1 == 1 {
        frames_in(stream, Options::new().fixed_width(), seed);
    } else {
        frames_in(stream, Options::new(), seed);
    }
}

fn frames_in<L: Layout>(stream: &[u8], o: Options<L>, seed: u8) {
    use bytes::BytesMut;
    use tokio_util::codec::Decoder;

    let limit = o.max_bytes(1 << 16);
    let mut reader = stream;
    let mut from_io = Vec::new();
    while let Ok(Some(frame)) = limit.read_frame::<CardHolder>(&mut reader) {
        from_io.push(frame);
    }
    let mut codec = binform::codec::PackCodec::<CardHolder>::with_options(limit);
    let mut src = BytesMut::new();
    let mut from_codec = Vec::new();
    let step = usize::from((seed >> 1) % 7) + 1;
    'feed: for piece in stream.chunks(step) {
        src.extend_from_slice(piece);
        loop {
            match codec.decode(&mut src) {
                Ok(Some(frame)) => from_codec.push(frame),
                Ok(None) => break,
                Err(_) => break 'feed,
            }
        }
    }
    assert_eq!(
        from_io, from_codec,
        "io and codec agree on the frames they accept"
    );
}

/// Target: self-describing payloads read as `binform::Value` (schema and
/// body both from the input); a document that reads writes back to bytes
/// that read to a document writing the same bytes, and prints.
///
/// Documents carry their layout in the header; the first byte chooses the
/// layout they are written back in.
pub fn decode_value(data: &[u8]) {
    by_layout!(data, value_in);
}

fn value_in<L: Layout>(data: &[u8], o: Options<L>) {
    if let Ok(value) = binform::value::from_slice(data) {
        let bytes =
            binform::value::to_vec_options(&value, &o).expect("a document that reads writes back");
        let again = binform::value::from_slice(&bytes).expect("written bytes read");
        assert_eq!(
            binform::value::to_vec_options(&again, &o).expect("and write again"),
            bytes
        );
        let _ = value.to_string();
    }
    let _ = binform::schema::read_schema(data);
}
