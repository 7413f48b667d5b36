//! The decode side: [`Reader`] and the [`Unpack`] trait.

use alloc::boxed::Box;
use alloc::format;
use alloc::vec::Vec;

use crate::encoding::Encoding;
use crate::error::{Error, ErrorKind, Result};
use crate::options::Options;
use crate::plain;
use core::mem::ManuallyDrop;

use crate::refs::{DecodeRefs, Slot, TAG_ID_BASE};
use crate::varint::{self, VarintError};
use crate::wire::Wire;

pub(crate) mod cursor;
pub use cursor::ReadCursor;

/// A type that can be decoded from bytes that live for `'de`.
///
/// Types that borrow from the input (`&'de str`, `&'de [u8]`,
/// `Cow<'de, str>`) implement `Unpack<'de>` for that one lifetime; owned types
/// implement it for every `'de`, which [`UnpackOwned`] names.
///
/// Every implementation must treat the input as hostile: read through the
/// [`Reader`], whose methods check bounds, lengths and limits, and return an
/// error (never panic) on anything malformed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no binform encoding (`Unpack` is not implemented)",
    label = "no binform encoding",
    note = "derive `binform::Packable` for it, or mark the field `#[binform(serde)]` if it implements serde's traits (feature `serde`), or `#[binform(with = \"module\")]`"
)]
pub trait Unpack<'de>: Encoding + Sized {
    /// The fewest input bytes any encoding of this type takes. Collections
    /// multiply a declared length by it to reject impossible lengths before
    /// allocating. `0` (the default) is always correct, only less strict:
    /// such elements are counted against [`Options::max_len`] instead.
    const MIN_SIZE: usize = 0;

    /// Decodes the value of a version-tolerant type's field whose key said
    /// `wire`; `tag` is for error messages. `Option` overrides it to read
    /// `None` from the `Null` wire type.
    #[doc(hidden)]
    #[inline(always)]
    fn unpack_field(r: &mut Reader<'de>, tag: u32, wire: Wire) -> Result<Self> {
        r.read_field_plain(tag, wire)
    }

    /// Decodes one value.
    fn unpack(r: &mut Reader<'de>) -> Result<Self>;

    /// Decodes one value through a [`ReadCursor`]: the fields of a derived
    /// compact type, so that their reads keep the input's position in
    /// registers. Scalars read through the cursor; anything else through
    /// the reader.
    #[doc(hidden)]
    #[inline(always)]
    fn unpack_cursor(c: &mut ReadCursor<'_, 'de>) -> Result<Self> {
        c.reader(Self::unpack)
    }

    /// A cheap stand-in value (zeros, empty collections, `None`) used while
    /// a shared value that refers back to itself is being decoded; `None`
    /// if the type has none. Derived for structs and enums, which take
    /// their cheapest variant (chosen at compile time) and spend one unit of
    /// `work` each: a placeholder builds at most 256 derived values
    /// whatever the type's shape, and `None` once `work` runs out.
    #[doc(hidden)]
    #[inline]
    fn placeholder(work: &mut u32) -> Option<Self> {
        let _ = work;
        None
    }

    /// For interior-mutable wrappers (`RefCell`, `Mutex`, `RwLock`): a
    /// placeholder whose contents [`shared_fill`](Unpack::shared_fill) can
    /// replace later, so that an `Rc`/`Arc` of it exists before its
    /// contents are decoded and strong cycles can close.
    #[doc(hidden)]
    #[inline]
    fn shared_placeholder() -> Option<Self> {
        None
    }

    /// Decodes the contents into a value made by `shared_placeholder`.
    #[doc(hidden)]
    fn shared_fill(&self, r: &mut Reader<'de>) -> Result<()> {
        Err(r.error(
            ErrorKind::Custom,
            "shared_fill on a type without shared_placeholder",
        ))
    }

    /// Resets a value made by `shared_placeholder` to a placeholder,
    /// dropping its contents (breaks cycles after a failed decode).
    #[doc(hidden)]
    fn shared_clear(&self) {}

    /// Decodes `len` values into a vector; `len` has already been checked
    /// against the remaining input by [`Reader::read_seq_len`]. Plain-data
    /// types override this with a bulk copy.
    #[doc(hidden)]
    #[inline]
    fn unpack_vec(r: &mut Reader<'de>, len: usize) -> Result<Vec<Self>> {
        if Self::PLAIN.get() {
            return r.read_plain_vec(len);
        }
        r.nested(|r| {
            let mut out = r.vec_with_capacity::<Self>(len)?;
            for _ in 0..len {
                out.push(Self::unpack(r)?);
            }
            Ok(out)
        })
    }

    /// Decodes an array of `N` values; packed integers override it to
    /// read their blocks.
    #[doc(hidden)]
    #[inline]
    fn unpack_array<const N: usize>(r: &mut Reader<'de>) -> Result<[Self; N]> {
        // Decode into `Option`s so that the first error can stop the array
        // without a value to fill the rest; every slot is `Some` after.
        let mut failure: Option<Error> = None;
        let slots: [Option<Self>; N] = core::array::from_fn(|_| {
            if failure.is_some() {
                return None;
            }
            match Self::unpack(r) {
                Ok(v) => Some(v),
                Err(e) => {
                    failure = Some(e);
                    None
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        // Without a failure, `from_fn` filled every slot.
        Ok(slots.map(|slot| slot.unwrap_or_else(|| unreachable!("every slot is filled"))))
    }
}

/// The `n` bytes at `pos`, if the input holds them: the bounds check of
/// the reader's and the cursor's byte reads alike.
#[inline(always)]
fn bytes_at(input: &[u8], pos: usize, n: usize) -> Option<&[u8]> {
    pos.checked_add(n).and_then(|end| input.get(pos..end))
}

/// The `N` bytes at `pos` as an array, if the input holds them (sliced to
/// `pos + N` with a wrapping add: the check is a compare and a carry).
#[inline(always)]
fn array_at<const N: usize>(input: &[u8], pos: usize) -> Option<[u8; N]> {
    let bytes = input.get(pos..pos.wrapping_add(N))?;
    let mut out = [0u8; N];
    out.copy_from_slice(bytes);
    Some(out)
}

/// A type that can be decoded from input of any lifetime: it borrows nothing.
/// Needed where the input does not outlive the call, as in
/// [`from_reader`](crate::from_reader).
pub trait UnpackOwned: for<'de> Unpack<'de> {}
impl<T> UnpackOwned for T where T: for<'de> Unpack<'de> {}

/// Preallocation from a declared length never exceeds this many bytes; past
/// it, vectors grow as elements actually arrive.
const MAX_PREALLOC_BYTES: usize = 1 << 20;
/// How many derived values one placeholder may build: a small constant per
/// shared value, so that no type shape (an octree's eight boxed children,
/// say) makes placeholders cost exponential work.
pub(crate) const PLACEHOLDER_WORK: u32 = 256;
/// Allocations up to this size use the infallible (faster) path.
pub(crate) const SMALL_ALLOCATION: usize = 4096;
/// Beyond 1 MiB, preallocation may reach this many bytes per input byte left.
const PREALLOC_PER_INPUT_BYTE: usize = 8;
/// The keys of maps and sets may expand to one value per this many bytes
/// of the memory budget: as many values as honest keys could fill it with.
const KEY_EXPANSION_BYTES: usize = 16;

/// The decode-side cursor handed to [`Unpack::unpack`]: a bounds-checked view
/// of the input plus the limits of one decode call.
pub struct Reader<'de> {
    input: &'de [u8],
    pos: usize,
    depth_left: u32,
    max_depth: u32,
    max_len: usize,
    /// Elements of `MIN_SIZE == 0` types still allowed in this decode.
    empty_budget: usize,
    /// Bytes of memory this decode may still build (`Options::max_memory`).
    memory_left: usize,
    /// The deepest level reached, references counted at the depth of what
    /// they point to, since the shared value being decoded began (or since
    /// the start): how deep that value is.
    high_water: u32,
    /// Values built so far, shared values counted at every reference: what
    /// walking everything decoded (hashing it, comparing it) would cost.
    expansion: u64,
    /// How much expansion the keys of maps and sets may still have.
    key_expansion_left: u64,
    /// Shared values decoded so far; created on the first `Rc`/`Arc`.
    /// Dropped by hand (see `Drop`), so that a decode without shared
    /// values pays one test, not a call.
    pub(crate) refs: ManuallyDrop<Option<Box<DecodeRefs>>>,
    /// Whether a strong reference cycle is an error.
    pub(crate) reject_cycles: bool,
    /// The buffer the input is part of, when decoding from `bytes::Bytes`:
    /// `Bytes` fields share it instead of copying.
    #[cfg(feature = "bytes")]
    source: ManuallyDrop<Option<bytes::Bytes>>,
}

impl Drop for Reader<'_> {
    /// The reference table and the source buffer dropped out of line:
    /// inline, their drop code made every decode save and restore six
    /// registers around a call (about 45 instructions of 520 for a small
    /// message).
    #[inline(always)]
    fn drop(&mut self) {
        // The source first: its drop cannot panic, the shared values' (a
        // user's `Drop`) can, and would skip what follows.
        #[cfg(feature = "bytes")]
        if self.source.is_some() {
            self.drop_source();
        }
        if self.refs.is_some() {
            self.drop_refs();
        }
    }
}

/// Where a shared value began: what [`Reader::end_shared`] needs to measure
/// it.
pub(crate) struct SharedStart {
    depth: u32,
    high_water: u32,
    expansion: u64,
    pos: usize,
}

impl<'de> Reader<'de> {
    /// A reader over `input` with the limits of `options`. The byte budget
    /// (`max_bytes`) is checked by the entry points, not here.
    pub fn new(input: &'de [u8], options: &Options) -> Self {
        let memory = options.memory_limit(input.len());
        Reader {
            input,
            pos: 0,
            depth_left: options.depth_limit(),
            max_depth: options.depth_limit(),
            max_len: options.len_limit(),
            empty_budget: options.len_limit(),
            memory_left: memory,
            high_water: 0,
            expansion: 0,
            key_expansion_left: (memory / KEY_EXPANSION_BYTES) as u64,
            refs: ManuallyDrop::new(None),
            reject_cycles: options.cycles_rejected(),
            #[cfg(feature = "bytes")]
            source: ManuallyDrop::new(None),
        }
    }

    /// A reader over `input`, which is part of `source`.
    #[cfg(feature = "bytes")]
    pub(crate) fn with_source(input: &'de [u8], options: &Options, source: bytes::Bytes) -> Self {
        let mut reader = Reader::new(input, options);
        *reader.source = Some(source);
        reader
    }

    #[cold]
    #[inline(never)]
    fn drop_refs(&mut self) {
        // Taken out, `None` is left: nothing in the `ManuallyDrop` to leak.
        drop(core::mem::take(&mut *self.refs));
    }

    #[cfg(feature = "bytes")]
    #[cold]
    #[inline(never)]
    fn drop_source(&mut self) {
        drop(core::mem::take(&mut *self.source));
    }

    /// `slice` (just read from the input) as part of the source buffer,
    /// without copying, when there is one.
    #[cfg(feature = "bytes")]
    pub(crate) fn shared_bytes(&self, slice: &[u8]) -> Option<bytes::Bytes> {
        let source = self.source.as_ref()?;
        let offset = (slice.as_ptr() as usize).checked_sub(source.as_ptr() as usize)?;
        let end = offset.checked_add(slice.len())?;
        (end <= source.len()).then(|| source.slice(offset..end))
    }

    /// Charges `bytes` of memory that decoding is about to build (a
    /// vector's elements, a box, a shared value) against the memory budget
    /// ([`Options::max_memory`]); fails with [`ErrorKind::LimitExceeded`],
    /// before anything is allocated, once the budget is spent. binform's
    /// own impls charge what they build; a hand-written impl that allocates
    /// from a declared length should too.
    #[inline(always)]
    pub fn charge_memory(&mut self, bytes: usize) -> Result<()> {
        match self.memory_left.checked_sub(bytes) {
            Some(left) => {
                self.memory_left = left;
                Ok(())
            }
            None => Err(self.memory_error(bytes)),
        }
    }

    #[cold]
    #[inline(never)]
    fn memory_error(&self, bytes: usize) -> Error {
        self.error(
            ErrorKind::LimitExceeded,
            format!(
                "building {bytes} more bytes of memory would exceed the memory budget \
                 ({} bytes left; Options::max_memory)",
                self.memory_left
            ),
        )
    }

    /// The current nesting depth.
    #[inline(always)]
    fn depth(&self) -> u32 {
        self.max_depth - self.depth_left
    }

    /// The expansion so far (see [`charge_key`](Self::charge_key)).
    #[inline(always)]
    pub(crate) fn expansion(&self) -> u64 {
        self.expansion
    }

    /// Charges the expansion since `before` (a key just decoded) against
    /// the keys' budget: hashing and comparing a key walks all of it,
    /// shared sub-values once per reference, so keys built from a few
    /// shared values could otherwise cost exponential work.
    #[inline]
    pub(crate) fn charge_key(&mut self, before: u64, at: usize) -> Result<()> {
        // The key's own bytes, its nesting levels, and everything its
        // references stand for.
        let cost = self
            .expansion
            .saturating_sub(before)
            .saturating_add(self.pos.saturating_sub(at) as u64);
        match self.key_expansion_left.checked_sub(cost) {
            Some(left) => {
                self.key_expansion_left = left;
                Ok(())
            }
            None => Err(self.error_at(
                at,
                ErrorKind::LimitExceeded,
                format!(
                    "a key that expands to {cost} values (shared values counted at every \
                     reference) exceeds the budget for hashing and comparing keys"
                ),
            )),
        }
    }

    /// After a failed decode: resets every interior-mutable shared value
    /// built so far, so no strong cycle among them outlives the error and
    /// leaks the partial graph.
    pub(crate) fn break_cycles(&mut self) {
        if let Some(refs) = self.refs.as_mut() {
            refs.break_cycles();
        }
    }

    /// The byte offset of the next byte to read.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// How many input bytes are left.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.input.len() - self.pos
    }

    /// Makes an error of `kind` at the current offset.
    #[cold]
    #[inline(never)]
    pub fn error(&self, kind: ErrorKind, message: impl Into<alloc::string::String>) -> Error {
        Error::new(kind, message).at(self.pos)
    }

    /// Makes an error of `kind` at an earlier `offset`, such as the start of
    /// the value that turned out to be invalid.
    #[cold]
    #[inline(never)]
    pub fn error_at(
        &self,
        offset: usize,
        kind: ErrorKind,
        message: impl Into<alloc::string::String>,
    ) -> Error {
        Error::new(kind, message).at(offset)
    }

    #[cold]
    #[inline(never)]
    fn end_error(&self, needed: usize) -> Error {
        self.error(
            ErrorKind::UnexpectedEnd,
            format!("needed {needed} more bytes, {} remain", self.remaining()),
        )
    }

    #[cold]
    #[inline(never)]
    fn varint_error(&self, e: VarintError) -> Error {
        match e {
            VarintError::End => self.error(ErrorKind::UnexpectedEnd, "input ends inside a varint"),
            VarintError::Invalid => self.error(
                ErrorKind::InvalidVarint,
                "varint is not in its shortest form",
            ),
        }
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn alloc_error(&self, len: usize) -> Error {
        self.error(
            ErrorKind::LimitExceeded,
            format!("could not allocate room for {len} elements"),
        )
    }

    /// Reads one byte.
    #[inline(always)]
    pub fn read_u8(&mut self) -> Result<u8> {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.end_error(1)),
        }
    }

    /// Reads `n` raw bytes, borrowed from the input.
    #[inline]
    pub fn read_bytes(&mut self, n: usize) -> Result<&'de [u8]> {
        match bytes_at(self.input, self.pos, n) {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => Err(self.end_error(n)),
        }
    }

    /// Reads exactly `N` raw bytes into an array.
    #[inline(always)]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match array_at(self.input, self.pos) {
            Some(out) => {
                self.pos += N;
                Ok(out)
            }
            None => Err(self.end_error(N)),
        }
    }

    /// Reads an unsigned varint.
    #[inline(always)]
    pub fn read_varint(&mut self) -> Result<u64> {
        match varint::fast_at(self.input, self.pos) {
            Some((v, len)) => {
                self.pos += len;
                Ok(v)
            }
            None => self.read_varint_slow(),
        }
    }

    #[cold]
    #[inline(never)]
    fn read_varint_slow(&mut self) -> Result<u64> {
        match varint::decode_u64(self.input.get(self.pos..).unwrap_or_default()) {
            Ok((v, len)) => {
                self.pos += len;
                Ok(v)
            }
            Err(e) => Err(self.varint_error(e)),
        }
    }

    /// Reads a zig-zag signed varint.
    #[inline(always)]
    pub fn read_varint_signed(&mut self) -> Result<i64> {
        self.read_varint().map(varint::unzigzag_i64)
    }

    /// Reads a `u128` varint.
    #[inline(always)]
    pub fn read_varint_u128(&mut self) -> Result<u128> {
        if varint::short_u128_at(self.input, self.pos) {
            return self.read_varint().map(u128::from);
        }
        self.read_varint_u128_long()
    }

    #[inline(never)]
    fn read_varint_u128_long(&mut self) -> Result<u128> {
        match varint::decode_u128(self.input.get(self.pos..).unwrap_or_default()) {
            Ok((v, len)) => {
                self.pos += len;
                Ok(v)
            }
            Err(e) => Err(self.varint_error(e)),
        }
    }

    /// The error for a `#[binform(required)]` field that a tolerant
    /// payload does not hold (called by derived code).
    #[doc(hidden)]
    #[cold]
    #[inline(never)]
    pub fn missing_field(&self, name: &str, tag: u32) -> Error {
        self.error(
            ErrorKind::MissingField,
            format!("the payload has no field `{name}` (tag {tag}), which is required"),
        )
    }

    /// Builds the error for a tag that names no variant of `type_name`.
    #[cold]
    #[inline(never)]
    pub fn unknown_variant(&self, tag: u32, type_name: &str) -> Error {
        // Point at the tag, which was just read.
        let start = self.pos.saturating_sub(varint::len_u64(tag as u64));
        self.error_at(
            start,
            ErrorKind::UnknownVariant,
            format!("{type_name} has no variant with tag {tag}"),
        )
    }

    #[cold]
    #[inline(never)]
    fn len_error(&self, len: u64, start: usize) -> Error {
        self.error_at(
            start,
            ErrorKind::LimitExceeded,
            format!(
                "declared length {len} is above the limit of {}",
                self.max_len
            ),
        )
    }

    /// Reads the length of a sequence of `T` and checks that the remaining
    /// input can hold that many elements (`len * T::MIN_SIZE` bytes), before
    /// anything is allocated. Elements that take no input are counted
    /// against the reader-wide element budget instead.
    #[inline]
    pub fn read_len_for<T: Unpack<'de>>(&mut self) -> Result<usize> {
        let start = self.pos;
        let len = self.read_len()?;
        self.check_len::<T>(len, start)?;
        Ok(len)
    }

    /// [`read_len_for`](Self::read_len_for) for a sequence (`Vec<T>` and
    /// everything decoded through it): packed integers (format.md §22)
    /// need two bytes a block of 256 values, not one a value.
    #[doc(hidden)]
    #[inline]
    pub fn read_seq_len<T: Unpack<'de>>(&mut self) -> Result<usize> {
        if !T::PACKED {
            return self.read_len_for::<T>();
        }
        let start = self.pos;
        let len = self.read_len()?;
        let least = crate::packed::layout::min_size(len);
        if least > self.remaining() {
            return Err(self.short_input_bytes(len, least, start));
        }
        Ok(len)
    }

    #[inline(always)]
    fn check_len<T: Unpack<'de>>(&mut self, len: usize, start: usize) -> Result<()> {
        if T::MIN_SIZE == 0 {
            if len > self.empty_budget {
                return Err(self.empty_budget_error(len, start));
            }
            self.empty_budget -= len;
        } else if len > self.remaining() / T::MIN_SIZE {
            return Err(self.short_input_error(len, T::MIN_SIZE, start));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn empty_budget_error(&self, len: usize, start: usize) -> Error {
        self.error_at(
            start,
            ErrorKind::LimitExceeded,
            format!(
                "{len} elements that take no input exceed the remaining budget of {}",
                self.empty_budget
            ),
        )
    }

    /// A declared length that needs `least` bytes, more than remain.
    #[cold]
    #[inline(never)]
    fn short_input_bytes(&self, len: usize, least: usize, start: usize) -> Error {
        self.error_at(
            start,
            ErrorKind::UnexpectedEnd,
            format!(
                "declared length {len} needs at least {least} bytes, {} remain",
                self.remaining()
            ),
        )
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn short_input_error(&self, len: usize, min_size: usize, start: usize) -> Error {
        self.error_at(
            start,
            ErrorKind::UnexpectedEnd,
            format!(
                "declared length {len} needs at least {} bytes, {} remain",
                (len as u128) * (min_size as u128),
                self.remaining()
            ),
        )
    }

    /// How many `T` to preallocate for a checked length: at most 1 MiB or
    /// eight times the remaining input, whichever is more. A lying length
    /// thus costs memory in proportion to the input it came with, while
    /// honest large collections are allocated once instead of regrown.
    #[inline]
    pub fn cautious_capacity<T>(&self, len: usize) -> usize {
        let size = core::mem::size_of::<T>().max(1);
        let budget =
            MAX_PREALLOC_BYTES.max(self.remaining().saturating_mul(PREALLOC_PER_INPUT_BYTE));
        len.min(budget / size)
    }

    /// An empty vector with room for [`cautious_capacity`](Self::cautious_capacity)
    /// of a checked `len`. Small allocations take the infallible fast path;
    /// large ones report failure as an error instead of aborting.
    /// The whole length is charged to the memory budget first, elements
    /// that take no memory as one byte each (building them still costs a
    /// step each).
    #[inline]
    pub fn vec_with_capacity<T>(&mut self, len: usize) -> Result<Vec<T>> {
        self.charge_memory(len.saturating_mul(core::mem::size_of::<T>().max(1)))?;
        let cap = self.cautious_capacity::<T>(len);
        if cap.saturating_mul(core::mem::size_of::<T>()) <= SMALL_ALLOCATION {
            return Ok(Vec::with_capacity(cap));
        }
        let mut out = Vec::new();
        out.try_reserve_exact(cap)
            .map_err(|_| self.alloc_error(len))?;
        Ok(out)
    }

    /// Runs `f` one nesting level deeper; fails with
    /// [`ErrorKind::LimitExceeded`] past [`Options::max_depth`]. Every
    /// container that can hold itself (boxes, collections) decodes its
    /// contents inside this, which bounds recursion for any type.
    #[inline]
    pub fn nested<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        if self.depth_left == 0 {
            return Err(self.error(ErrorKind::LimitExceeded, "nesting depth limit reached"));
        }
        self.depth_left -= 1;
        let depth = self.depth();
        self.high_water = self.high_water.max(depth);
        self.expansion = self.expansion.saturating_add(1);
        let out = crate::stack::grow(|| f(self));
        self.depth_left += 1;
        out
    }

    /// Starts measuring a new shared value, about to be decoded at the
    /// current depth.
    #[inline]
    pub(crate) fn begin_shared(&mut self) -> SharedStart {
        let start = SharedStart {
            depth: self.depth(),
            high_water: self.high_water,
            expansion: self.expansion,
            pos: self.pos,
        };
        self.high_water = start.depth;
        start
    }

    /// Records how deep the shared value `id` begun at `start` is and how
    /// far it expands, for the references to it that follow.
    #[inline]
    pub(crate) fn end_shared(&mut self, id: usize, start: SharedStart) {
        let height = self.high_water - start.depth;
        // Its nesting levels and its bytes: hashing or comparing it walks both.
        let expansion =
            (self.expansion - start.expansion).saturating_add((self.pos - start.pos) as u64);
        self.refs_mut().set_extent(id, height, expansion);
        self.high_water = self.high_water.max(start.high_water);
    }

    /// A reference to the shared value with reference `tag`, read at
    /// `start`: the value is as deep here as where it was decoded, so a
    /// chain of references cannot build a value deeper than
    /// [`Options::max_depth`] (which dropping or printing it would recurse
    /// through), and it expands by its whole size.
    #[inline]
    pub(crate) fn reach_shared(&mut self, tag: u64, start: usize) -> Result<()> {
        let (height, expansion) = self
            .refs
            .as_ref()
            .map_or((0, 0), |r| r.extent(tag - TAG_ID_BASE));
        let reach = self.depth().saturating_add(height);
        if reach > self.max_depth {
            return Err(self.error_at(
                start,
                ErrorKind::LimitExceeded,
                format!(
                    "a reference to shared value {} makes the value {reach} levels deep, \
                     deeper than the depth limit (Options::max_depth)",
                    tag - TAG_ID_BASE
                ),
            ));
        }
        self.high_water = self.high_water.max(reach);
        self.expansion = self.expansion.saturating_add(expansion);
        Ok(())
    }

    /// Runs `f` on exactly the next `len` bytes: `f` cannot read past them
    /// and must consume all of them. How version-tolerant types decode one
    /// length-prefixed field.
    #[inline(always)]
    pub fn read_within<R>(
        &mut self,
        len: usize,
        f: impl FnOnce(&mut Self) -> Result<R>,
    ) -> Result<R> {
        let start = self.pos;
        let end = match start.checked_add(len) {
            Some(end) if end <= self.input.len() => end,
            _ => return Err(self.end_error(len)),
        };
        let whole = self.input;
        self.input = whole.get(..end).unwrap_or(whole);
        let result = f(self);
        self.input = whole;
        let value = result?;
        if self.pos != end {
            return Err(self.leftover_error(len, end));
        }
        Ok(value)
    }

    #[cold]
    #[inline(never)]
    fn leftover_error(&self, len: usize, end: usize) -> Error {
        self.error_at(
            self.pos,
            ErrorKind::InvalidValue,
            format!(
                "field of {len} bytes has {} bytes left over",
                end.saturating_sub(self.pos)
            ),
        )
    }

    /// Skips `len` bytes (an unknown field of a version-tolerant type).
    #[inline]
    pub fn skip(&mut self, len: usize) -> Result<()> {
        self.read_bytes(len).map(|_| ())
    }

    /// Consumes the next byte if there is one and `accept` holds for it.
    #[inline(always)]
    pub(crate) fn next_byte_if(&mut self, accept: impl FnOnce(u8) -> bool) -> Option<u8> {
        match self.input.get(self.pos) {
            Some(&b) if accept(b) => {
                self.pos += 1;
                Some(b)
            }
            _ => None,
        }
    }

    /// The input not read yet.
    #[inline(always)]
    pub(crate) fn rest(&self) -> &'de [u8] {
        let input: &'de [u8] = self.input;
        input.get(self.pos..).unwrap_or_default()
    }

    /// Moves past `n` bytes of [`rest`](Self::rest) (never past the end).
    #[inline(always)]
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n).min(self.input.len());
    }

    /// Decodes `len` plain values (`T::PLAIN`) with one copy.
    #[inline]
    fn read_plain_vec<T: Unpack<'de>>(&mut self, len: usize) -> Result<Vec<T>> {
        let total = len
            .checked_mul(core::mem::size_of::<T>())
            .ok_or_else(|| self.alloc_error(len))?;
        let bytes = self.read_bytes(total)?;
        self.charge_memory(total)?;
        match plain::vec_from_bytes(bytes, len, T::PLAIN) {
            Some(Ok(out)) => Ok(out),
            _ => Err(self.alloc_error(len)),
        }
    }

    // ------------------------------------------------------ shared values

    /// The reference table, created on first use.
    pub(crate) fn refs_mut(&mut self) -> &mut DecodeRefs {
        (*self.refs).get_or_insert_with(Box::default)
    }

    /// Reserves the next id for a new shared value.
    pub(crate) fn reserve_ref(&mut self) -> usize {
        self.refs_mut().reserve()
    }

    /// Marks a value that was `Filling` as complete, keeping its handle.
    pub(crate) fn finish_ref(&mut self, id: usize) {
        self.refs_mut().finish(id);
    }

    /// Whether `id` already holds a handle (it was `Filling`).
    pub(crate) fn has_handle(&self, id: usize) -> bool {
        self.refs.as_ref().is_some_and(|r| r.has_handle(id))
    }

    /// Sets what `id` refers to.
    pub(crate) fn set_ref(&mut self, id: usize, slot: Slot) {
        self.refs_mut().set(id, slot);
    }

    /// Registers a cleanup that breaks cycles through a shared value.
    pub(crate) fn add_cleanup(&mut self, cleanup: Box<dyn Fn()>) {
        self.refs_mut().add_cleanup(cleanup);
    }

    /// Reads a reference tag; returns it with its offset. Ids are checked
    /// against the table by [`ref_slot`](Self::ref_slot).
    pub(crate) fn read_ref_tag(&mut self) -> Result<(u64, usize)> {
        let start = self.position();
        let tag = self.read_varint()?;
        Ok((tag, start))
    }

    /// The slot of the id in `tag`, or an error naming the offending tag.
    pub(crate) fn ref_slot(&self, tag: u64, start: usize) -> Result<&Slot> {
        let id = tag - TAG_ID_BASE;
        match self.refs.as_ref().and_then(|r| r.slot(id)) {
            Some(slot) => Ok(slot),
            None => {
                let defined = self.refs.as_ref().map_or(0, |r| r.defined());
                Err(self.error_at(
                    start,
                    ErrorKind::InvalidReference,
                    format!(
                        "reference to id {id}, but only {defined} shared values are defined so far"
                    ),
                ))
            }
        }
    }

    /// The error for a reference whose target has another type.
    #[cold]
    pub(crate) fn ref_type_error(&self, tag: u64, start: usize, expected: &str) -> Error {
        self.error_at(
            start,
            ErrorKind::InvalidReference,
            format!("shared value {} is not a {expected}", tag - TAG_ID_BASE),
        )
    }

    // ------------------------------------------- version-tolerant fields

    /// `Unpack::unpack_field`'s default: the plain encoding, as
    /// `Pack::pack_field` wrote it.
    ///
    /// A framed value is accepted whatever the reader's wire type: the frame
    /// holds the plain encoding, which every type reads, and writers before
    /// a type learned a shorter wire type (`VecDeque`, `LinkedList` and
    /// `BinaryHeap` were framed before they shared `Vec`'s) framed it.
    #[inline(always)]
    pub(crate) fn read_field_plain<T: Unpack<'de>>(&mut self, tag: u32, wire: Wire) -> Result<T> {
        if T::WIRE != Wire::Framed && wire == Wire::Framed {
            return self.read_framed_instead(T::unpack);
        }
        self.expect_wire(tag, wire, T::WIRE)?;
        match T::WIRE {
            Wire::Framed => {
                let len = self.read_len()?;
                self.read_within(len, T::unpack)
            }
            _ => T::unpack(self),
        }
    }

    /// A framed field whose type has a shorter wire type (an older
    /// writer's): kept out of line, so that the usual paths stay small.
    #[cold]
    #[inline(never)]
    fn read_framed_instead<T>(&mut self, unpack: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let len = self.read_len()?;
        self.read_within(len, unpack)
    }

    /// Reads the field count of a tolerant value, checked against the
    /// remaining input (every field takes at least its key) before any
    /// field is read.
    #[doc(hidden)]
    #[inline(always)]
    pub fn read_fields(&mut self) -> Result<Fields> {
        let start = self.position();
        let count = self.read_len()?;
        if count > self.remaining() {
            return Err(self.short_input_error(count, 1, start));
        }
        Ok(Fields {
            left: count,
            next: 0,
        })
    }

    /// Reads a framed field value with `f` (a `with` module's decoder).
    #[doc(hidden)]
    #[inline(always)]
    pub fn read_field_with<T>(
        &mut self,
        tag: u32,
        wire: Wire,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.expect_wire(tag, wire, Wire::Framed)?;
        let len = self.read_len()?;
        self.read_within(len, f)
    }

    /// Fails unless a known field came with the wire type its type has
    /// here: the writer's field of that tag had another type.
    #[doc(hidden)]
    #[inline(always)]
    pub fn expect_wire(&self, tag: u32, found: Wire, expected: Wire) -> Result<()> {
        if found == expected {
            Ok(())
        } else {
            Err(self.wire_error(tag, found, expected))
        }
    }

    #[cold]
    #[inline(never)]
    fn wire_error(&self, tag: u32, found: Wire, expected: Wire) -> Error {
        self.error(
            ErrorKind::InvalidValue,
            format!(
                "field tag {tag} has wire type {}, but this reader's field is {}",
                found.name(),
                expected.name()
            ),
        )
    }

    /// Skips the value of a field this reader does not know.
    #[doc(hidden)]
    #[inline]
    pub fn skip_field(&mut self, wire: Wire) -> Result<()> {
        let n = match wire {
            Wire::Seq(element) => return self.skip_seq(element),
            Wire::Varint => match self.rest().first() {
                Some(first) => first.trailing_ones() as usize + 1,
                None => 1,
            },
            Wire::Byte => 1,
            Wire::Fixed4 => 4,
            Wire::Fixed8 => 8,
            Wire::Bytes | Wire::Framed => self.read_len()?,
            Wire::Null => 0,
        };
        self.skip(n)
    }

    /// Skips a sequence of `element`-typed values (each at least a byte,
    /// so the count is bounded by the input).
    fn skip_seq(&mut self, element: u8) -> Result<()> {
        let start = self.position();
        let count = self.read_len()?;
        // Packed integers take two bytes a block of 256, anything else at
        // least a byte an element.
        let least = if element == crate::wire::PACKED_ELEMENT {
            crate::packed::layout::min_size(count)
        } else {
            count
        };
        if least > self.remaining() {
            return Err(self.short_input_bytes(count, least, start));
        }
        let fixed = match element {
            crate::wire::PACKED_ELEMENT => return self.skip_packed(count),
            2 => 4,
            3 => 8,
            _ => {
                let wire = Wire::from_bits(element).unwrap_or(Wire::Framed);
                for _ in 0..count {
                    self.skip_field(wire)?;
                }
                return Ok(());
            }
        };
        self.skip(count.saturating_mul(fixed))
    }

    /// Skips `count` packed integers (§22) without knowing their type.
    fn skip_packed(&mut self, count: usize) -> Result<()> {
        use crate::packed::layout::{
            bits_len, code_bits, codes_len, padding_is_zero, payload_len, width, BITS, BLOCK,
            MAX_BITS, SHORT, VARINTS,
        };
        let mut left = count;
        while left > 0 {
            let n = left.min(BLOCK);
            let at = self.position();
            let header = if n < SHORT { VARINTS } else { self.read_u8()? };
            if header == VARINTS {
                for _ in 0..n {
                    self.skip_field(Wire::Varint)?;
                }
            } else if header == BITS {
                let bits = u32::from(self.read_u8()?);
                if !(1..=MAX_BITS).contains(&bits) {
                    return Err(self.error_at(
                        at,
                        ErrorKind::InvalidValue,
                        format!("packed block of {bits}-bit offsets (1 to {MAX_BITS} allowed)"),
                    ));
                }
                self.skip_packed_base()?;
                self.skip(bits_len(n, bits))?;
            } else if let Some(code_bits) = code_bits(header) {
                let codes = self.read_bytes(codes_len(n, code_bits))?;
                if !padding_is_zero(codes, n, code_bits) {
                    return Err(self.error_at(
                        at,
                        ErrorKind::InvalidValue,
                        "packed block of byte lengths with non-zero codes past its last value",
                    ));
                }
                // Tolerant sequences of packed integers hold at most 64 bits.
                let longest = crate::packed::layout::codes_longest(codes, code_bits);
                if longest > 8 {
                    return Err(self.error_at(
                        at,
                        ErrorKind::InvalidValue,
                        format!("packed block of byte lengths with a {longest}-byte value"),
                    ));
                }
                let payloads = payload_len(codes, n, code_bits);
                self.skip(payloads)?;
            } else {
                let Some(width) = width(header) else {
                    return Err(self.error_at(
                        at,
                        ErrorKind::InvalidValue,
                        format!("packed block header {header} is not 0 to 9"),
                    ));
                };
                self.skip_packed_base()?;
                self.skip(n * width)?;
            }
            left -= n;
        }
        Ok(())
    }

    /// Skips a packed block's base.
    fn skip_packed_base(&mut self) -> Result<()> {
        // Only integers of up to 64 bits are tolerant sequences of packed
        // integers (`u128`/`i128` fields are framed), so a base is a `u64`
        // varint: its first byte gives its length.
        self.skip_field(Wire::Varint)
    }

    /// Fails with [`ErrorKind::TrailingBytes`] unless all input was read.
    pub fn finish(&self) -> Result<()> {
        if self.pos == self.input.len() {
            Ok(())
        } else {
            Err(self.error(
                ErrorKind::TrailingBytes,
                format!("{} bytes left after the value", self.remaining()),
            ))
        }
    }
}

/// Walks the fields of one tolerant value: how many are left, and the tag
/// the next one has if its gap is zero.
#[doc(hidden)]
pub struct Fields {
    left: usize,
    next: u64,
}

impl Fields {
    /// No fields: the empty body of a tolerant enum variant.
    #[inline]
    pub fn none() -> Fields {
        Fields { left: 0, next: 0 }
    }

    /// Takes the next field if it is the `index`-th of the value and comes
    /// `gap` tags after the previous one, returning its wire type: the fast
    /// path, in which the generated decoder expects its own fields one
    /// after another, as its own version writes them, after
    /// [`take_exact`](Self::take_exact) found another wire type than the
    /// reader's (`Null` for an option, or a mismatch the field's decoder
    /// reports). The cursor itself is not advanced: the caller knows, at
    /// compile time, how many fields it took and their last tag, and says
    /// so with [`Fields::resume`]. Consumes nothing when the field is not
    /// the expected one, nor for sequences and gaps of 16 or more (the
    /// general path handles those).
    #[inline(always)]
    pub fn take(&self, r: &mut Reader<'_>, index: usize, gap: u32) -> Option<Wire> {
        if self.left <= index || gap >= 16 {
            return None;
        }
        // A one-byte key is `gap << 4 | wire << 1`.
        let b = r.next_byte_if(|b| b & 1 == 0 && u32::from(b >> 4) == gap && (b >> 1) & 7 != 7)?;
        Wire::from_bits((b >> 1) & 7)
    }

    /// Takes the next field if it is the `index`-th of the value, comes
    /// `gap` tags after the previous one and has exactly the wire type
    /// `expected` (the reader's own): the fastest path, one compare of a
    /// constant key (one byte for gaps below 16, two below 2048) for most
    /// fields. [`take`](Self::take) handles the other wire types a field
    /// accepts (`Null` for an option).
    #[inline(always)]
    pub fn take_exact(&self, r: &mut Reader<'_>, index: usize, gap: u32, expected: Wire) -> bool {
        if self.left <= index || gap >= 1 << 11 {
            return false;
        }
        let key = (u64::from(gap) << 3) | u64::from(expected.bits());
        // The key's varint bytes and, for a sequence, the element byte.
        let (word, len) = if key < 0x80 {
            (key << 1, 1)
        } else {
            ((key << 2) | 1, 2)
        };
        let (word, len) = match expected {
            Wire::Seq(element) => (word | (u64::from(element) << (8 * len)), len + 1),
            _ => (word, len),
        };
        let matches = match (len, r.rest()) {
            (1, [a, ..]) => u64::from(*a) == word,
            (2, [a, b, ..]) => (u64::from(*a) | (u64::from(*b) << 8)) == word,
            (3, [a, b, c, ..]) => {
                (u64::from(*a) | (u64::from(*b) << 8) | (u64::from(*c) << 16)) == word
            }
            _ => false,
        };
        if matches {
            r.advance(len);
        }
        matches
    }

    /// Whether every field has been read.
    #[inline(always)]
    pub fn is_done(&self) -> bool {
        self.left == 0
    }

    /// Records that the fast path took `taken` fields, the last with tag
    /// `last` (`None` if it took none).
    #[inline(always)]
    pub fn resume(&mut self, taken: usize, last: Option<u32>) {
        if let Some(last) = last {
            self.left -= taken;
            self.next = u64::from(last) + 1;
        }
    }

    /// Reads the next field's tag and wire type; `None` after the last.
    #[inline(always)]
    pub fn next(&mut self, r: &mut Reader<'_>) -> Result<Option<(u32, Wire)>> {
        // After a fast path that took every field, this is all that runs.
        if self.left == 0 {
            return Ok(None);
        }
        self.next_key(r)
    }

    #[inline(never)]
    fn next_key(&mut self, r: &mut Reader<'_>) -> Result<Option<(u32, Wire)>> {
        let start = r.position();
        let key = r.read_varint()?;
        // `next` is at most 2^32 and the gap below 2^61: no overflow.
        let tag = self.next + (key >> 3);
        let Ok(t) = u32::try_from(tag) else {
            return Err(r.error_at(
                start,
                ErrorKind::InvalidValue,
                format!("field tag {tag} is larger than the largest tag, 2^32 - 1"),
            ));
        };
        let wire = match Wire::from_bits((key & 7) as u8) {
            Some(wire) => wire,
            None => {
                let element = r.read_u8()?;
                Wire::seq(element).ok_or_else(|| {
                    r.error(
                        ErrorKind::InvalidValue,
                        format!("field tag {tag}: {element} is not a sequence element wire type"),
                    )
                })?
            }
        };
        self.left -= 1;
        self.next = tag + 1;
        Ok(Some((t, wire)))
    }
}
