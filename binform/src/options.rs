//! Limits and modes for one encode or decode call: plain data. The calls
//! that use them are in `api.rs`.

/// Default nesting limit, in the range of serde_json's 128.
pub const DEFAULT_MAX_DEPTH: u32 = 128;
/// Default byte budget for one decode: 256 MiB.
pub const DEFAULT_MAX_BYTES: usize = 256 << 20;
/// Default limit on one declared length: 2^28 elements.
pub const DEFAULT_MAX_LEN: usize = 1 << 28;

/// Settings for encoding and decoding: a builder whose methods mirror the
/// crate-level functions.
///
/// The defaults are safe for untrusted input: at most
/// [`DEFAULT_MAX_BYTES`] of input, nesting at most [`DEFAULT_MAX_DEPTH`]
/// levels, lengths at most [`DEFAULT_MAX_LEN`].
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
pub struct Options {
    pub(crate) max_bytes: usize,
    pub(crate) max_depth: u32,
    pub(crate) max_len: usize,
    pub(crate) reject_cycles: bool,
    pub(crate) fingerprint: bool,
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
            max_bytes: DEFAULT_MAX_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            max_len: DEFAULT_MAX_LEN,
            reject_cycles: false,
            fingerprint: false,
        }
    }

    /// Writes (and, when decoding, requires) a 12-byte header: the magic
    /// `BFM` and format version 1, then the type's 64-bit schema
    /// fingerprint, little-endian. A reader whose type definition differs
    /// from the writer's fails at once with [`ErrorKind::SchemaMismatch`],
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

    /// Rejects strong reference cycles when decoding, with
    /// [`ErrorKind::CycleRejected`]. A decoded strong cycle (an `Rc` that
    /// reaches itself through `RefCell`s) is never freed, exactly like one
    /// built in code; a service that accepts graph types from untrusted
    /// peers can turn this on so a peer cannot make it leak. Cycles through
    /// `Weak` stay allowed. Off by default.
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
    /// [`ErrorKind::LimitExceeded`] before any of it is decoded, and
    /// [`from_reader`](Options::from_reader) stops reading there.
    #[must_use]
    pub const fn max_bytes(mut self, n: usize) -> Self {
        self.max_bytes = n;
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

    /// The byte budget.
    pub const fn byte_limit(&self) -> usize {
        self.max_bytes
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
