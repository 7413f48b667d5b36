//! [`Writer`]: the encode side's buffer and the state of one encode call
//! (shared-value ids, depth, the stream it may hand bytes to).

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, Result};
use crate::layout::{Compact, Layout};
use crate::refs::{self, EncodeRefs};
use crate::varint;
use core::marker::PhantomData;

#[cfg(feature = "std")]
use super::stream::{Stream, STREAM_BUFFER};
use super::{Pack, SEQUENCE_CHUNK};

/// The encode-side buffer handed to [`Pack::pack`]: it appends to a
/// `Vec<u8>` and carries the state of one encode call. `L` is the layout
/// it writes ([`Compact`] unless named: [`crate::layout`]).
pub struct Writer<'a, L: Layout = Compact> {
    buf: &'a mut Vec<u8>,
    /// Ids of the shared values written so far; created on the first one.
    refs: Option<Box<EncodeRefs>>,
    /// How many shared values have been written (the next one's id).
    shared_ids: u32,
    /// How many plain references (`&T`, `Cow`) the value being written is
    /// inside; through one, the same `Rc` can be reached twice.
    borrowed: u32,
    /// How many more shared values may nest inside each other.
    depth_left: u32,
    /// Where a streaming encode ([`to_writer`](crate::to_writer)) hands
    /// the bytes that are complete, so the whole value is never buffered.
    /// One pointer: a bigger writer costs every encode (its fields stop
    /// fitting in registers across a struct's fields).
    #[cfg(feature = "std")]
    stream: Option<&'a mut Stream<'a>>,
    layout: PhantomData<L>,
}

impl<'a> Writer<'a> {
    /// A writer that appends to `buf`, in the compact layout.
    #[inline]
    pub fn new(buf: &'a mut Vec<u8>) -> Self {
        Writer::in_layout(buf)
    }
}

impl<'a, L: crate::Layout> Writer<'a, L> {
    /// A writer that appends to `buf` in the layout `L`:
    /// `Writer::<binform::layout::Fixed>::in_layout(&mut buf)`.
    #[inline]
    pub fn in_layout(buf: &'a mut Vec<u8>) -> Self {
        Writer::with_depth(buf, crate::options::DEFAULT_MAX_DEPTH)
    }

    #[inline]
    pub(crate) fn with_depth(buf: &'a mut Vec<u8>, depth: u32) -> Self {
        Writer {
            buf,
            refs: None,
            shared_ids: 0,
            borrowed: 0,
            depth_left: depth,
            #[cfg(feature = "std")]
            stream: None,
            layout: PhantomData,
        }
    }

    /// A writer that gathers into `buf` and hands what is complete to the
    /// stream's sink whenever `buf` reaches [`STREAM_BUFFER`] bytes; call
    /// [`finish_stream`](Self::finish_stream) at the end.
    #[cfg(feature = "std")]
    pub(crate) fn streaming(buf: &'a mut Vec<u8>, stream: &'a mut Stream<'a>, depth: u32) -> Self {
        let mut w = Writer::with_depth(buf, depth);
        w.stream = Some(stream);
        w
    }

    /// Hands the rest to the sink; the first error the sink reported, if
    /// any.
    #[cfg(feature = "std")]
    pub(crate) fn finish_stream(mut self) -> Result<()> {
        self.hand_over();
        match self.stream.and_then(|s| s.error.take()) {
            Some(e) => Err(Error::io(e)),
            None => Ok(()),
        }
    }

    /// A point where everything written so far is final: a streaming
    /// encode hands its buffer over here once enough has gathered.
    #[inline(always)]
    pub(crate) fn checkpoint(&mut self) {
        #[cfg(feature = "std")]
        if self.stream.is_some() && self.buf.len() >= STREAM_BUFFER {
            self.hand_over();
        }
    }

    /// Gives the buffer to the sink, unless a length frame is open in it.
    #[cfg(feature = "std")]
    #[cold]
    #[inline(never)]
    fn hand_over(&mut self) {
        if let Some(stream) = self.stream.as_mut().filter(|s| s.pinned == 0) {
            stream.send(self.buf);
            self.buf.clear();
        }
    }

    /// Opens (`+1`) or closes (`-1`) a length frame in the buffer.
    #[inline(always)]
    fn pin(&mut self, open: bool) {
        #[cfg(feature = "std")]
        if let Some(stream) = self.stream.as_mut() {
            if open {
                stream.pinned += 1;
            } else {
                stream.pinned -= 1;
            }
        }
        let _ = open;
    }

    /// How many more levels may nest (for a side buffer that continues
    /// this encode, such as the serde bridge's sequences of unknown length).
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn depth_left(&self) -> u32 {
        self.depth_left
    }

    /// Enters one nesting level for contents written over several calls
    /// (the serde bridge's compounds); [`leave`](Self::leave) ends it.
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn enter(&mut self) -> Result<()> {
        if self.depth_left == 0 {
            return Err(depth_error());
        }
        self.depth_left -= 1;
        Ok(())
    }

    /// Leaves the level [`enter`](Self::enter) opened. (Sequences and
    /// maps checkpoint a streaming encode themselves.)
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn leave(&mut self) {
        self.depth_left += 1;
    }

    /// Runs `f` one nesting level deeper, failing with
    /// [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded) past
    /// the depth limit. Containers nest exactly where their decoders do, so
    /// whatever encodes under some [`Options`](crate::Options) also decodes
    /// under them.
    #[inline]
    pub fn nested(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        if self.depth_left == 0 {
            return Err(depth_error());
        }
        self.depth_left -= 1;
        let result = f(self);
        self.depth_left += 1;
        self.checkpoint();
        result
    }

    /// Writes a shared value (`Rc`, `Arc`, a live `Weak`) found at `addr`:
    /// its id if it was written before, else a new-value tag and the value.
    /// Registering before writing the contents is what ends cycles.
    pub(crate) fn pack_shared<T: Pack + ?Sized>(&mut self, addr: usize, value: &T) -> Result<()> {
        let refs = self.refs.get_or_insert_with(|| Box::new(EncodeRefs::new()));
        match refs.lookup_or_insert(addr, self.shared_ids) {
            Some(id) => {
                self.write_varint(u64::from(id) + refs::TAG_ID_BASE);
                Ok(())
            }
            None => self.pack_unique(value),
        }
    }

    /// Writes what `f` writes through a plain reference (`&T`, `Cow`): the
    /// same value may be reached again through another, so shared values
    /// inside are always looked up by address.
    #[inline]
    pub(crate) fn through_reference(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.borrowed += 1;
        let result = f(self);
        self.borrowed -= 1;
        result
    }

    /// Whether a shared value whose pointer is the only one to it can be
    /// written without the address lookup: it is, unless the value being
    /// written is inside a plain reference, which may be met twice.
    #[inline]
    pub(crate) fn owns_path(&self) -> bool {
        self.borrowed == 0
    }

    /// Writes a shared value that nothing else in this encode can point at
    /// (an `Rc` with one strong and no weak reference, reached only through
    /// owning values): a new value with the next id, as the decoder counts,
    /// but without the address lookup, which is most of what sharing costs.
    pub(crate) fn pack_unique<T: Pack + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.shared_ids = self.shared_ids.wrapping_add(1);
        self.write_varint(refs::TAG_NEW);
        self.nested(|w| value.pack(w))
    }

    /// Bytes written so far into the underlying buffer (including what it
    /// held before).
    #[inline]
    pub fn len(&self) -> usize {
        #[cfg(feature = "std")]
        if let Some(stream) = &self.stream {
            return stream.flushed + self.buf.len();
        }
        self.buf.len()
    }

    /// The buffer's pointer, length and capacity, for a [`Cursor`].
    #[inline(always)]
    pub(crate) fn buf_parts(&mut self) -> (*mut u8, usize, usize) {
        (self.buf.as_mut_ptr(), self.buf.len(), self.buf.capacity())
    }

    /// Gives the buffer the length a cursor reached.
    ///
    /// # Safety
    ///
    /// Every byte below `len` must be initialized, and `len` at most the
    /// buffer's capacity.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(crate) unsafe fn set_buf_len(&mut self, len: usize) {
        // SAFETY: the caller's contract is `set_len`'s.
        unsafe { self.buf.set_len(len) }
    }

    /// Whether the underlying buffer is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reserves room for at least `additional` more bytes.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        self.buf.reserve(additional);
    }

    /// Writes one raw byte.
    #[inline]
    pub fn write_u8(&mut self, b: u8) {
        self.buf.push(b);
    }

    /// Writes `N` raw bytes (a fixed-width value).
    #[inline(always)]
    pub fn write_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.buf.extend_from_slice(&bytes);
    }

    /// Writes raw bytes, with no length prefix.
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        if bytes.len() >= SEQUENCE_CHUNK {
            return self.write_bytes_large(bytes);
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Large blocks: straight to the sink of a streaming encode whose
    /// buffer they would overfill. Out of line, so that `write_bytes` (one
    /// per string) stays small enough to inline.
    #[inline(never)]
    fn write_bytes_large(&mut self, bytes: &[u8]) {
        #[cfg(feature = "std")]
        if self.buf.len().saturating_add(bytes.len()) >= STREAM_BUFFER {
            if let Some(stream) = self.stream.as_mut().filter(|s| s.pinned == 0) {
                stream.send(self.buf);
                self.buf.clear();
                stream.send(bytes);
                return;
            }
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Appends the bytes of each of `items`, `total` in all, one after
    /// another (a column of strings' bytes): one reservation for them
    /// all, then a copy each, where a write each checked and grew the
    /// vector at each (a tenth of log's and minecraft's encodes).
    #[inline]
    pub(crate) fn write_concat<'b>(
        &mut self,
        mut items: impl Iterator<Item = &'b [u8]>,
        total: usize,
    ) {
        #[cfg(feature = "std")]
        if self.stream.is_some() {
            // A streaming encode hands its buffer over between chunks.
            for (i, bytes) in items.enumerate() {
                self.write_bytes(bytes);
                if i % SEQUENCE_CHUNK == SEQUENCE_CHUNK - 1 {
                    self.checkpoint();
                }
            }
            return;
        }
        // A total this buffer cannot hold (a clone of the iterator that
        // yields far more, say) takes the checked way, whose growth fails
        // as any other.
        if self.buf.try_reserve(total).is_err() {
            items.for_each(|bytes| self.buf.extend_from_slice(bytes));
            return;
        }
        let mut len = self.buf.len();
        let end = len + total;
        let base = self.buf.as_mut_ptr();
        let mut over = None;
        for bytes in items.by_ref() {
            let next = len + bytes.len();
            if next > end {
                // More than `total` (an iterator whose clone differed):
                // the rest the checked way, below.
                over = Some(bytes);
                break;
            }
            #[allow(unsafe_code)]
            // SAFETY: `base + len` is valid for `bytes.len()` writes
            // (`next` is within the capacity, which `try_reserve` made at
            // least `end`, and nothing else touches the vector in the
            // loop), and a borrowed slice cannot overlap the vector's
            // spare capacity.
            unsafe {
                copy_short(bytes, base.add(len));
            }
            len = next;
        }
        #[allow(unsafe_code)]
        // SAFETY: the loop wrote every byte below `len`, within the
        // capacity.
        unsafe {
            self.buf.set_len(len)
        };
        if let Some(bytes) = over {
            self.buf.extend_from_slice(bytes);
            items.for_each(|bytes| self.buf.extend_from_slice(bytes));
        }
    }

    /// Appends `n` zero bytes and returns them to be overwritten (packed
    /// blocks fill their offsets in one loop).
    #[inline]
    pub(crate) fn extend_zeroed(&mut self, n: usize) -> &mut [u8] {
        let start = self.buf.len();
        self.buf.resize(start + n, 0);
        self.buf.get_mut(start..).unwrap_or_default()
    }

    /// Drops the last `n` bytes written: the slack of a bulk writer that
    /// stores whole words past its end.
    pub(crate) fn unextend(&mut self, n: usize) {
        let len = self.buf.len().saturating_sub(n);
        self.buf.truncate(len);
    }

    /// Writes an unsigned integer as a varint (see `docs/format.md`), in
    /// either layout: for an integer that follows the layout, use
    /// [`write_u64`](Self::write_u64) and its siblings.
    #[inline(always)]
    pub fn write_varint(&mut self, v: u64) {
        if v < 0x80 {
            // Most lengths, tags and small numbers: one byte.
            self.buf.push((v as u8) << 1);
        } else {
            self.write_varint_long(v);
        }
    }

    #[inline]
    fn write_varint_long(&mut self, v: u64) {
        if v < 1 << 56 {
            // One 8-byte store, then keep only the varint's bytes: no branch
            // on the length, which real data makes unpredictable.
            let (word, len) = varint::prefix_word(v);
            self.write_word_prefix(word, len);
        } else {
            self.buf.push(0xFF);
            self.buf.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// Writes the first `n` (at most 8) little-endian bytes of `word` with
    /// one store.
    #[inline(always)]
    pub(crate) fn write_word_prefix(&mut self, word: u64, n: usize) {
        self.write_prefix(word.to_le_bytes(), n);
    }

    /// Writes the first `n` (at most `N`) bytes of `block` with one store
    /// of all `N`.
    ///
    /// This is the one raw store of the encoder: through `Vec`'s safe API
    /// (extend by `N`, truncate) the same store costs about 10% of encoding
    /// a struct of small tolerant fields (`hot lst-ser`, 103 ns vs 93 ns).
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(crate) fn write_prefix<const N: usize>(&mut self, block: [u8; N], n: usize) {
        self.buf.reserve(N);
        let len = self.buf.len();
        // SAFETY: `reserve(N)` guarantees capacity for `N` more bytes, so the
        // unaligned `N`-byte store at `len` stays inside the allocation (a
        // `[u8; N]` needs no alignment beyond 1). The new length
        // `len + min(n, N)` covers only bytes just written, which are
        // initialized `u8`s.
        unsafe {
            let end = self.buf.as_mut_ptr().add(len).cast::<[u8; N]>();
            end.write_unaligned(block);
            self.buf.set_len(len + n.min(N));
        }
    }

    /// Writes many varints at once (see [`Cursor::write_varints`]).
    #[inline]
    pub(crate) fn write_varints(
        &mut self,
        max_len: usize,
        values: impl ExactSizeIterator<Item = u64>,
    ) {
        self.with_cursor(|c| c.write_varints(max_len, values));
    }

    /// Appends `f` of each of `items`, each byte written once (no zero fill
    /// first): `Vec::extend` of a slice's map reserves once and stores
    /// through a pointer, which vectorizes.
    #[inline]
    pub(crate) fn extend_mapped<T: Copy>(&mut self, items: &[T], f: impl Fn(T) -> u8) {
        self.buf.extend(items.iter().map(|&x| f(x)));
    }

    /// Appends the `W` bytes `f` gives for each of `items`, each byte
    /// written once, straight into the spare capacity: a zero fill first
    /// was a tenth of a full-range integer encode (packed blocks of fixed
    /// widths).
    #[inline(always)]
    pub(crate) fn extend_chunks<T: Copy, const W: usize>(
        &mut self,
        items: &[T],
        f: impl Fn(T) -> [u8; W],
    ) {
        const { assert!(W > 0, "chunks of no bytes") };
        let start = self.buf.len();
        self.buf.reserve(items.len() * W);
        let mut written = 0;
        for (dst, &x) in self.buf.spare_capacity_mut().chunks_exact_mut(W).zip(items) {
            #[allow(unsafe_code)]
            // SAFETY: `dst` is `W` writable bytes (a whole chunk), and an
            // array of bytes needs no alignment. (Writing byte by byte was
            // twice as slow for 16-byte chunks.)
            unsafe {
                dst.as_mut_ptr().cast::<[u8; W]>().write(f(x))
            };
            written += W;
        }
        #[allow(unsafe_code)]
        // SAFETY: the loop wrote every byte of the first `written` bytes of
        // the spare capacity (whole chunks of `W`), which follow the
        // `start` initialized ones.
        unsafe {
            self.buf.set_len(start + written)
        };
    }

    /// Writes a signed integer zig-zag encoded as a varint, in either
    /// layout ([`write_i64`](Self::write_i64) follows the layout).
    #[inline]
    pub fn write_varint_signed(&mut self, v: i64) {
        self.write_varint(varint::zigzag_i64(v));
    }

    /// Writes a `u128` varint, in either layout
    /// ([`write_u128`](Self::write_u128) follows the layout).
    #[inline]
    pub fn write_varint_u128(&mut self, v: u128) {
        if v < 1 << 56 {
            return self.write_varint(v as u64);
        }
        let (bytes, len) = varint::encode_u128(v);
        self.buf.extend_from_slice(&bytes[..len]);
    }

    /// Writes a length prefix (a varint).
    #[inline]
    pub fn write_len(&mut self, len: usize) {
        self.write_varint(len as u64);
    }

    /// Writes what `f` writes, preceded by its length in bytes (a varint),
    /// so that a reader can skip it without understanding it: how
    /// version-tolerant types frame each field.
    #[inline(always)]
    pub fn write_len_prefixed(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let start = self.buf.len();
        // Most fields are under 128 bytes: reserve one length byte and
        // widen it afterwards in the rare case it is not enough.
        self.buf.push(0);
        self.pin(true);
        let result = f(self);
        self.pin(false);
        result?;
        let len = self.buf.len() - start - 1;
        if len < 0x80 {
            if let Some(slot) = self.buf.get_mut(start) {
                *slot = (len as u8) << 1;
            }
        } else {
            self.widen_length(start, len);
        }
        Ok(())
    }

    /// Replaces the one-byte length placeholder at `start` with the full
    /// varint of `len`, shifting the field right.
    #[cold]
    #[inline(never)]
    fn widen_length(&mut self, start: usize, len: usize) {
        let (bytes, n) = varint::encode_u64(len as u64);
        self.buf
            .splice(start..start + 1, bytes[..n].iter().copied());
    }

    /// Writes an enum variant tag (a varint).
    #[inline]
    pub fn write_tag(&mut self, tag: u32) {
        self.write_varint(tag as u64);
    }
}

#[cold]
#[inline(never)]
fn depth_error() -> Error {
    Error::new(
        ErrorKind::LimitExceeded,
        "the value nests deeper than the depth limit (Options::max_depth)",
    )
}

/// Copies `src` to `dst` inline: most strings of a column are short, and
/// a call to `memcpy` each was two fifths of minecraft's encode (its
/// item and recipe names). From 4 to 32 bytes, two overlapping loads and
/// stores of the widest word that fits; 1 to 3 bytes, the first, middle
/// and last; longer ones, `memcpy`. Every read and write is of the
/// `src.len()` bytes only (whole words past a string's end would read
/// outside its allocation).
///
/// # Safety
///
/// `dst` must be valid for writes of `src.len()` bytes and must not
/// overlap `src`.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn copy_short(src: &[u8], dst: *mut u8) {
    let n = src.len();
    let s = src.as_ptr();
    // SAFETY: every read below is of bytes `0..n` of `src` and every
    // write of bytes `0..n` of `dst`, which the caller makes valid and
    // disjoint from `src`: `memcpy` of `n`; each pair of words of width
    // `w <= n` at offsets 0 and `n - w`; bytes 0, `n / 2` and `n - 1` for
    // `n` from 1 to 3. Unaligned reads and writes need no alignment.
    unsafe {
        if n > 32 {
            core::ptr::copy_nonoverlapping(s, dst, n);
        } else if n >= 16 {
            let head = core::ptr::read_unaligned(s.cast::<[u8; 16]>());
            let tail = core::ptr::read_unaligned(s.add(n - 16).cast::<[u8; 16]>());
            core::ptr::write_unaligned(dst.cast::<[u8; 16]>(), head);
            core::ptr::write_unaligned(dst.add(n - 16).cast::<[u8; 16]>(), tail);
        } else if n >= 8 {
            let head = core::ptr::read_unaligned(s.cast::<u64>());
            let tail = core::ptr::read_unaligned(s.add(n - 8).cast::<u64>());
            core::ptr::write_unaligned(dst.cast::<u64>(), head);
            core::ptr::write_unaligned(dst.add(n - 8).cast::<u64>(), tail);
        } else if n >= 4 {
            let head = core::ptr::read_unaligned(s.cast::<u32>());
            let tail = core::ptr::read_unaligned(s.add(n - 4).cast::<u32>());
            core::ptr::write_unaligned(dst.cast::<u32>(), head);
            core::ptr::write_unaligned(dst.add(n - 4).cast::<u32>(), tail);
        } else if n > 0 {
            // 1 to 3 bytes: the first, the middle and the last.
            *dst = *s;
            *dst.add(n / 2) = *s.add(n / 2);
            *dst.add(n - 1) = *s.add(n - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    //! These run under Miri (`.ci/run`'s subset), which checks
    //! `write_concat`'s unchecked copies into the vector's capacity.
    use alloc::vec::Vec;

    use super::Writer;

    fn concat(before: &[u8], items: &[&[u8]], total: usize) -> Vec<u8> {
        let mut buf = before.to_vec();
        let mut w = Writer::new(&mut buf);
        w.write_concat(items.iter().copied(), total);
        buf
    }

    /// The bytes land after what the buffer held, in order, whether the
    /// total is right, short (the rest is written the checked way) or
    /// long (the extra room is only reserved).
    #[test]
    fn concat_writes_every_byte_whatever_the_total_said() {
        // Every length to past 32 (each of `copy_short`'s widths, and
        // `memcpy`), each from its own start, so that a byte copied from
        // the wrong place shows.
        let text: Vec<u8> = (0..48u8).map(|i| b'a' + i % 26).collect();
        let items: Vec<&[u8]> = (0..=40).map(|n| &text[n % 7..][..n]).collect();
        let mut expected = b"head".to_vec();
        expected.extend(items.concat());
        let all = expected.len() - 4;
        for total in [0, 1, 5, all / 2, all - 1, all, all + 100] {
            assert_eq!(concat(b"head", &items, total), expected, "total {total}");
        }
        assert_eq!(concat(b"", &[], 0), b"");
    }
}
