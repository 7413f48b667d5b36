//! Limits and modes for one encode or decode call: plain data. The calls
//! that use them are in `api.rs`.

use core::marker::PhantomData;

use crate::layout::{Compact, Fixed, Layout};

/// Default nesting limit, in the range of serde_json's 128.
pub const DEFAULT_MAX_DEPTH: u32 = 128;
/// Default byte budget for one decode from a stream
/// ([`from_reader`](Options::from_reader)): 256 MiB. A slice the caller
/// already holds has no byte limit unless [`Options::max_bytes`] sets one;
/// the memory budget bounds what decoding it builds.
pub const DEFAULT_MAX_BYTES: usize = 256 << 20;
/// Default limit on one declared length: none of its own. Every length is
/// checked against the remaining input, and what it would build against
/// the memory budget, so honest gigabyte payloads decode with defaults.
pub const DEFAULT_MAX_LEN: usize = usize::MAX;
/// The default memory budget of one decode is this many bytes (1 MiB)…
///
/// Small, because a server decoding many small messages at once pays it
/// per message: every benchmark dataset needs at most 48 bytes of
/// memory per input byte (empty maps, a tree; `docs/security.md`
/// has the table), inside the per-byte allowance below, so the base only serves payloads of a
/// few bytes that build a little more than they are. Raise it with
/// [`Options::max_memory`] where small inputs legitimately expand.
pub const DEFAULT_MEMORY_BASE: usize = 1 << 20;
/// …plus this many bytes per input byte: honest payloads build at most a
/// few dozen bytes of memory per byte (an empty `HashMap` is one byte on
/// the wire and 48 in memory), while elements that take no input (`()`,
/// all-skipped structs) could otherwise claim gigabytes from a few bytes.
pub const DEFAULT_MEMORY_PER_INPUT_BYTE: usize = 64;
/// …or this many when the payload is read into a [`Value`](crate::Value)
/// (`binform::value`, the CLI): a value is a node of about 56 bytes, a
/// struct's field its name besides, and a column of bools (format §27)
/// holds eight in a byte, so honest payloads build up to a few hundred
/// bytes of `Value` a byte.
pub const DEFAULT_VALUE_MEMORY_PER_INPUT_BYTE: usize = 512;

/// Settings for encoding and decoding: a builder whose methods mirror the
/// crate-level functions. `L` is the layout the calls write and read:
/// [`Compact`] (from [`Options::new`]) or [`Fixed`] (from
/// [`fixed_width`](Options::fixed_width)); see [`crate::layout`].
///
/// The defaults are safe for untrusted input: nesting at most
/// [`DEFAULT_MAX_DEPTH`] levels (shared references included), at most
/// [`DEFAULT_MEMORY_BASE`] plus
/// [`DEFAULT_MEMORY_PER_INPUT_BYTE`] bytes per input byte of memory built,
/// at most [`DEFAULT_MAX_BYTES`] read from a stream, and strong reference
/// cycles rejected. `docs/security.md` lists every limit and the attack it
/// stops.
///
/// ```
/// use binform::{ErrorKind, Options};
///
/// let opts = Options::new().max_bytes(1024).max_depth(16);
/// let bytes = opts.to_vec(&vec![1u32, 2, 3]).unwrap();
/// assert_eq!(opts.from_slice::<Vec<u32>>(&bytes).unwrap(), [1, 2, 3]);
///
/// let too_big = binform::to_vec(&vec![0u8; 2000]).unwrap();
/// let err = opts.from_slice::<Vec<u8>>(&too_big).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::LimitExceeded);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options<L: Layout = Compact> {
    /// `None`: no limit for slices, [`DEFAULT_MAX_BYTES`] for streams.
    pub(crate) max_bytes: Option<usize>,
    pub(crate) max_depth: u32,
    pub(crate) max_len: usize,
    /// `None`: the default, in proportion to the input.
    pub(crate) max_memory: Option<usize>,
    pub(crate) reject_cycles: bool,
    pub(crate) fingerprint: bool,
    pub(crate) self_describing: bool,
    pub(crate) layout: PhantomData<L>,
}

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

impl Options {
    /// The default settings.
    pub const fn new() -> Self {
        Options {
            max_bytes: None,
            max_depth: DEFAULT_MAX_DEPTH,
            max_len: DEFAULT_MAX_LEN,
            max_memory: None,
            reject_cycles: true,
            fingerprint: false,
            self_describing: false,
            layout: PhantomData,
        }
    }
}

impl<L: Layout> Options<L> {
    /// Options for the fixed layout ([`layout::Fixed`](crate::layout::Fixed)):
    /// fixed-width little-endian integers and plain sequences copied
    /// whole, for the fastest encode and decode, at some cost in size.
    /// Every other setting is kept. A reader must use the layout the
    /// writer used (a header records it, when there is one).
    ///
    /// ```
    /// use binform::Options;
    ///
    /// let fixed = Options::new().fixed_width();
    /// let bytes = fixed.to_vec(&vec![1u32, 2, 3])?;
    /// assert_eq!(bytes, [6, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]); // the length 3 is the varint 6
    /// assert_eq!(fixed.from_slice::<Vec<u32>>(&bytes)?, [1, 2, 3]);
    /// # Ok::<(), binform::Error>(())
    /// ```
    #[must_use]
    pub const fn fixed_width(self) -> Options<Fixed> {
        self.in_layout()
    }

    /// The same settings in another layout.
    #[must_use]
    pub const fn in_layout<M: Layout>(self) -> Options<M> {
        Options {
            max_bytes: self.max_bytes,
            max_depth: self.max_depth,
            max_len: self.max_len,
            max_memory: self.max_memory,
            reject_cycles: self.reject_cycles,
            fingerprint: self.fingerprint,
            self_describing: self.self_describing,
            layout: PhantomData,
        }
    }

    /// Writes (and, when decoding, requires) a 12-byte header: the magic
    /// `BFM` and format version 3 (`0x83` in the fixed layout, which a
    /// reader in the other layout refuses), then the type's 64-bit schema
    /// fingerprint, little-endian. A reader whose type definition differs
    /// from the writer's fails at once with [`ErrorKind::SchemaMismatch`](crate::ErrorKind::SchemaMismatch),
    /// before reading any field. Both sides must turn it on. Off by default:
    /// compact payloads carry no type information.
    ///
    /// ```
    /// use binform::{ErrorKind, Options, Packable};
    ///
    /// #[derive(Packable)]
    /// struct V1 { a: u32 }
    /// #[derive(Packable)]
    /// struct V2 { a: u32, b: u32 }
    ///
    /// let opts = Options::new().fingerprint(true);
    /// let bytes = opts.to_vec(&V1 { a: 1 })?;
    /// assert!(opts.from_slice::<V1>(&bytes).is_ok());
    /// let err = opts.from_slice::<V2>(&bytes).err().unwrap();
    /// assert_eq!(err.kind(), ErrorKind::SchemaMismatch);
    /// # Ok::<(), binform::Error>(())
    /// ```
    #[must_use]
    pub const fn fingerprint(mut self, on: bool) -> Self {
        self.fingerprint = on;
        self
    }

    /// Writes (and, when decoding, requires) a self-describing header: the
    /// root type's complete schema ([`schema_of`](crate::schema_of)) in a
    /// compact binary form, with its fingerprint, before the value's bytes,
    /// which are the same as without it (`docs/format.md` §25). Tools read
    /// the payload without the Rust type ([`schema::read_schema`](crate::schema::read_schema));
    /// a reader with the type pays one fingerprint comparison, and a reader
    /// whose type differs fails with
    /// [`ErrorKind::SchemaMismatch`](crate::ErrorKind::SchemaMismatch).
    /// It includes what [`fingerprint`](Self::fingerprint) would write.
    /// The schema is built on every encode: for many small values of one
    /// type, frames or a plain payload cost less.
    ///
    /// ```
    /// use binform::{Options, Packable};
    ///
    /// #[derive(Packable, Debug, PartialEq)]
    /// struct Reading { sensor: String, celsius: f32 }
    ///
    /// let opts = Options::new().self_describing(true);
    /// let bytes = opts.to_vec(&Reading { sensor: "t1".into(), celsius: 21.5 })?;
    /// // The type is in the payload ...
    /// let schema = binform::schema::read_schema(&bytes)?;
    /// assert_eq!(schema, binform::schema_of::<Reading>());
    /// // ... and a reader with the type decodes it as usual.
    /// assert_eq!(opts.from_slice::<Reading>(&bytes)?.celsius, 21.5);
    /// # Ok::<(), binform::Error>(())
    /// ```
    #[must_use]
    pub const fn self_describing(mut self, on: bool) -> Self {
        self.self_describing = on;
        self
    }

    /// Whether a strong reference cycle in the input is an error
    /// ([`ErrorKind::CycleRejected`](crate::ErrorKind::CycleRejected)). A decoded strong cycle (an `Rc` that
    /// reaches itself through `RefCell`s) is never freed, exactly like one
    /// built in code, so by default a peer cannot make a decoder leak:
    /// cycles are rejected. Decode graphs with strong cycles (built on
    /// purpose, and freed by the caller) with `reject_cycles(false)`.
    /// Back-links through `Weak` (trees with parent pointers, doubly linked
    /// lists) are always allowed.
    ///
    /// ```
    /// use std::cell::RefCell;
    /// use std::rc::Rc;
    /// use binform::{ErrorKind, Options, Packable};
    ///
    /// #[derive(Packable, Default)]
    /// struct Node { next: Option<Rc<RefCell<Node>>> }
    ///
    /// let a = Rc::new(RefCell::new(Node::default()));
    /// a.borrow_mut().next = Some(a.clone()); // a strong cycle
    /// let bytes = binform::to_vec(&a)?;
    /// a.borrow_mut().next = None; // break it, or it leaks
    ///
    /// let err = binform::from_slice::<Rc<RefCell<Node>>>(&bytes).err().unwrap();
    /// assert_eq!(err.kind(), ErrorKind::CycleRejected);
    /// let back: Rc<RefCell<Node>> = Options::new().reject_cycles(false).from_slice(&bytes)?;
    /// assert!(Rc::ptr_eq(&back, back.borrow().next.as_ref().unwrap()));
    /// back.borrow_mut().next = None;
    /// # Ok::<(), binform::Error>(())
    /// ```
    #[must_use]
    pub const fn reject_cycles(mut self, reject: bool) -> Self {
        self.reject_cycles = reject;
        self
    }

    /// Whether strong cycles are rejected.
    pub const fn cycles_rejected(&self) -> bool {
        self.reject_cycles
    }

    /// The most input bytes one decode may read; a longer input fails with
    /// [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded) before any of it is decoded, and
    /// [`from_reader`](Options::from_reader) stops reading there. Without
    /// it, slices have no byte limit (the caller already holds them; the
    /// memory budget bounds what is built) and streams stop at
    /// [`DEFAULT_MAX_BYTES`].
    #[must_use]
    pub const fn max_bytes(mut self, n: usize) -> Self {
        self.max_bytes = Some(n);
        self
    }

    /// The most memory, in bytes, one decode may build: every vector,
    /// box, shared value, map and list charges its in-memory size before
    /// it is allocated, and a decode over the budget fails with
    /// [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded) instead of taking the memory (or
    /// aborting the process). Without it the budget is
    /// [`DEFAULT_MEMORY_BASE`] plus [`DEFAULT_MEMORY_PER_INPUT_BYTE`] bytes
    /// per input byte: a payload builds memory in proportion to its size.
    ///
    /// ```
    /// use binform::{ErrorKind, Options};
    ///
    /// // Five bytes that declare 2^28 boxes of nothing: 2 GiB of pointers.
    /// let bytes = [0xF7, 0xFF, 0xFF, 0xFF, 0x07];
    /// let err = binform::from_slice::<Vec<Box<()>>>(&bytes).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    ///
    /// let small = Options::new().max_memory(1024);
    /// let err = small.from_slice::<Vec<u64>>(&binform::to_vec(&vec![1u64; 200])?).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    /// # Ok::<(), binform::Error>(())
    /// ```
    #[must_use]
    pub const fn max_memory(mut self, n: usize) -> Self {
        self.max_memory = Some(n);
        self
    }

    /// How many boxes and collections may nest inside each other.
    #[must_use]
    pub const fn max_depth(mut self, n: usize) -> Self {
        self.max_depth = if n > u32::MAX as usize {
            u32::MAX
        } else {
            n as u32
        };
        self
    }

    /// The largest length any string, byte string or collection may declare.
    /// It is also the total budget, over the whole decode, for elements that
    /// take no input bytes (such as `()`), which the input size cannot bound.
    #[must_use]
    pub const fn max_len(mut self, n: usize) -> Self {
        self.max_len = n;
        self
    }

    /// The byte limit of a stream: [`max_bytes`](Options::max_bytes), or
    /// [`DEFAULT_MAX_BYTES`] if it was not set.
    pub const fn byte_limit(&self) -> usize {
        match self.max_bytes {
            Some(n) => n,
            None => DEFAULT_MAX_BYTES,
        }
    }

    /// The memory budget of decoding `input_len` bytes (see
    /// [`max_memory`](Options::max_memory)).
    pub const fn memory_limit(&self, input_len: usize) -> usize {
        match self.max_memory {
            Some(n) => n,
            None => DEFAULT_MEMORY_BASE
                .saturating_add(input_len.saturating_mul(DEFAULT_MEMORY_PER_INPUT_BYTE)),
        }
    }

    /// The memory budget of reading `input_len` bytes into a `Value`:
    /// [`max_memory`](Options::max_memory) if set, else the default base
    /// plus [`DEFAULT_VALUE_MEMORY_PER_INPUT_BYTE`] a byte.
    pub const fn value_memory_limit(&self, input_len: usize) -> usize {
        match self.max_memory {
            Some(n) => n,
            None => DEFAULT_MEMORY_BASE
                .saturating_add(input_len.saturating_mul(DEFAULT_VALUE_MEMORY_PER_INPUT_BYTE)),
        }
    }

    /// The nesting limit.
    pub const fn depth_limit(&self) -> u32 {
        self.max_depth
    }

    /// The length limit.
    pub const fn len_limit(&self) -> usize {
        self.max_len
    }
}
