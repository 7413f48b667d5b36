//! [`Cursor`]: the end of a [`Writer`]'s buffer held in locals across the
//! fields of one value.
//!
//! Why: every `Writer` method reaches the buffer through `&mut Vec<u8>`,
//! and a byte stored into a `Vec`'s memory may, as far as the compiler
//! knows, have changed the `Vec`'s own length field. So each field
//! reloaded the length and the pointer, and stored the length back: a
//! chain through memory of about 5 cycles a field, most of what a struct
//! of scalars cost to encode (perf, issue 14). A cursor copies the
//! pointer, length and capacity into a value that lives in registers
//! while a derived type writes its fields, and gives the length back to
//! the `Vec` once at the end. Anything that needs the writer itself (a
//! string's bytes, a shared value, a field of an unknown type) gets it
//! through [`Cursor::writer`], which syncs before and reloads after.

use super::Writer;

/// The end of a writer's buffer, held in locals while one value is
/// written. Made by [`Writer::with_cursor`]; the derive writes the fields
/// of compact types through it ([`Pack::pack_cursor`](crate::Pack)).
#[doc(hidden)]
pub struct Cursor<'c, 'a, L: crate::Layout = crate::layout::Compact> {
    w: &'c mut Writer<'a, L>,
    /// The buffer's pointer as of the last sync.
    ptr: *mut u8,
    /// The bytes written (the buffer's length once synced).
    len: usize,
    /// The buffer's capacity as of the last sync.
    cap: usize,
}

impl<'a, L: crate::Layout> Writer<'a, L> {
    /// Runs `f` with a cursor over this writer's buffer; the buffer holds
    /// what `f` wrote afterwards, whether or not it failed.
    #[doc(hidden)]
    #[inline(always)]
    pub fn with_cursor<R>(&mut self, f: impl FnOnce(&mut Cursor<'_, 'a, L>) -> R) -> R {
        let (ptr, len, cap) = self.buf_parts();
        let mut cursor = Cursor {
            w: self,
            ptr,
            len,
            cap,
        };
        let result = f(&mut cursor);
        cursor.sync();
        result
    }
}

impl<'a, L: crate::Layout> Cursor<'_, 'a, L> {
    /// Gives the buffer its length.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn sync(&mut self) {
        // SAFETY: `len <= cap`, the capacity read with `ptr` (the cursor
        // advances only past bytes `reserve` made space for), and every byte
        // below `len` was written: in the buffer before the cursor was
        // made, or stored through `ptr` since.
        unsafe { self.w.set_buf_len(self.len) }
    }

    /// Runs `f` on the writer itself (for anything the cursor does not
    /// write): synced before, reloaded after.
    #[inline(always)]
    pub fn writer<R>(&mut self, f: impl FnOnce(&mut Writer<'a, L>) -> R) -> R {
        self.sync();
        // The reload runs even if `f` unwinds: a caller that catches the
        // panic must not keep writing through a buffer `f` reallocated.
        let reload = Reload(self);
        f(reload.0.w)
    }

    /// Makes room for `n` more bytes: one compare of two locals when it is
    /// there. A derived type makes room once for its scalar fields'
    /// largest encodings ([`Pack::MAX_SIZE`](crate::Pack::MAX_SIZE)) and
    /// [`RESERVE_SLACK`], then writes them with the `put_` methods.
    #[inline(always)]
    pub fn reserve(&mut self, n: usize) {
        if self.cap - self.len < n {
            (self.ptr, self.len, self.cap) = grown(self.w, self.len, n);
        }
    }

    /// Writes the first `n` (at most `N`) bytes of `block` with one store.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn write_prefix<const N: usize>(&mut self, block: [u8; N], n: usize) {
        self.reserve(N);
        // SAFETY: `reserve(N)` just made the room.
        unsafe { self.put_prefix(block, n) }
    }

    /// [`write_prefix`](Self::write_prefix) into room already made.
    ///
    /// # Safety
    /// `cap - len >= N`.
    #[inline(always)]
    #[allow(unsafe_code)]
    unsafe fn put_prefix<const N: usize>(&mut self, block: [u8; N], n: usize) {
        debug_assert!(self.cap - self.len >= N);
        // SAFETY: the caller made `cap - len >= N`, and `ptr`/`cap` are
        // the buffer's as of the last sync (only this cursor writes to it
        // meanwhile: it holds the writer mutably), so the unaligned `N`-byte
        // store at `len` stays inside the allocation; `[u8; N]` needs no
        // alignment.
        unsafe {
            self.ptr
                .add(self.len)
                .cast::<[u8; N]>()
                .write_unaligned(block)
        };
        self.len += n.min(N);
    }

    /// The room past the end: what may be written with no check.
    #[inline(always)]
    pub fn room_left(&self) -> usize {
        self.cap - self.len
    }

    /// Writes one raw byte.
    #[inline(always)]
    pub fn write_u8(&mut self, b: u8) {
        self.write_prefix([b], 1);
    }

    /// [`write_u8`](Self::write_u8) into room already made.
    ///
    /// # Safety
    /// [`room_left`](Self::room_left) is at least 1 + [`RESERVE_SLACK`].
    #[inline(always)]
    #[allow(unsafe_code)]
    pub unsafe fn put_u8(&mut self, b: u8) {
        // SAFETY: the caller's room covers the 1-byte store.
        unsafe { self.put_prefix([b], 1) }
    }

    /// Writes `N` raw bytes.
    #[inline(always)]
    pub fn write_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.write_prefix(bytes, N);
    }

    /// [`write_array`](Self::write_array) into room already made.
    ///
    /// # Safety
    /// [`room_left`](Self::room_left) is at least `N` + [`RESERVE_SLACK`].
    #[inline(always)]
    #[allow(unsafe_code)]
    pub unsafe fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        // SAFETY: the caller's room covers the `N`-byte store.
        unsafe { self.put_prefix(bytes, N) }
    }

    /// Writes a varint (`docs/format.md` §2): one byte below 2^7, else
    /// one 8-byte store and the length from the value's bit length, with no
    /// branch on the length below 2^56.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn write_varint(&mut self, v: u64) {
        self.reserve(crate::varint::MAX_LEN_U64);
        // SAFETY: the room was just made for the longest form, which is
        // also the widest store.
        unsafe { self.put_varint(v) }
    }

    /// [`write_varint`](Self::write_varint) into room already made: it
    /// advances by the varint's length, at most 9 bytes, and stores at
    /// most 9.
    ///
    /// # Safety
    /// [`room_left`](Self::room_left) is at least the varint's length +
    /// [`RESERVE_SLACK`], or at least 9.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub unsafe fn put_varint(&mut self, v: u64) {
        // SAFETY (each store): the caller's room covers the varint and
        // the slack past it, and no store is wider than 9 bytes or
        // reaches more than 7 past the varint's end.
        if v < 0x80 {
            // Most lengths, tags and small numbers: one byte, and for a
            // given field the branch goes the same way nearly always.
            unsafe { self.put_prefix([(v as u8) << 1], 1) }
        } else if v < 1 << 56 {
            let (word, len) = crate::varint::prefix_word(v);
            unsafe { self.put_prefix(word.to_le_bytes(), len) }
        } else {
            // `varint::long_form`, written out: through the call, even
            // inlined, a primitives struct's encode took 2 to 4
            // instructions more (callgrind), and this is every scalar's
            // path.
            let mut block = [0xFF; 9];
            if let Some(rest) = block.get_mut(1..) {
                rest.copy_from_slice(&v.to_le_bytes());
            }
            unsafe { self.put_prefix(block, 9) }
        }
    }

    /// Writes a `u128` varint.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn write_varint_u128(&mut self, v: u128) {
        self.reserve(crate::varint::MAX_LEN_U128);
        // SAFETY: the room was just made for the widest store.
        unsafe { self.put_varint_u128(v) }
    }

    /// [`write_varint_u128`](Self::write_varint_u128) into room already
    /// made: it advances by the varint's length, at most 18 bytes, and
    /// stores at most 18.
    ///
    /// # Safety
    /// [`room_left`](Self::room_left) is at least the varint's length +
    /// [`RESERVE_SLACK`], or at least 18.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub unsafe fn put_varint_u128(&mut self, v: u128) {
        if v < 1 << 56 {
            // SAFETY: as the caller's.
            return unsafe { self.put_varint(v as u64) };
        }
        let (bytes, len) = crate::varint::encode_u128(v);
        // SAFETY: the caller's room covers the varint and the slack past
        // it; the store is 18 bytes, at most 9 past a varint of at least 9.
        unsafe { self.put_prefix(bytes, len) }
    }

    /// Writes many varints: room for the longest encodings (`max_len`
    /// bytes each, and a whole 9-byte store past the last) made once, then
    /// one store a value, with no branch on its length below 2^56. Unlike
    /// a zero-filled `resize`, nothing is written twice (a `memset` call
    /// for each short integer vector, issue 14).
    #[inline(always)]
    pub(crate) fn write_varints(
        &mut self,
        max_len: usize,
        values: impl ExactSizeIterator<Item = u64>,
    ) {
        self.reserve(values.len().saturating_mul(max_len).saturating_add(9));
        for v in values {
            // Already there unless `max_len` understated a length: one
            // compare of locals keeps every store in bounds regardless.
            self.reserve(9);
            if v < 1 << 56 {
                let (word, len) = crate::varint::prefix_word(v);
                self.store_at(0, word.to_le_bytes());
                self.len += len;
            } else {
                self.store_at(0, crate::varint::long_form(v));
                self.len += crate::varint::MAX_LEN_U64;
            }
        }
    }

    /// Writes raw bytes; long runs go through the writer (a streaming
    /// encode may hand them straight to its sink).
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        if bytes.len() >= super::SEQUENCE_CHUNK {
            return self.writer(|w| w.write_bytes(bytes));
        }
        let n = bytes.len();
        self.reserve(n);
        if n <= 64 {
            self.write_short(bytes);
        } else {
            // SAFETY: `reserve` made `cap - len >= n` (see `write_prefix`);
            // `bytes` cannot overlap the buffer, which the cursor holds
            // mutably.
            unsafe {
                core::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(self.len), n);
            }
        }
        self.len += n;
    }

    /// Copies up to 64 bytes into room already made, as two fixed-size
    /// copies that overlap (the head and the tail of `bytes`), not a
    /// `memcpy` call: most strings are short, and the call and its
    /// dispatch on the length cost more than the copy (about 25
    /// instructions a string, callgrind, issue 14).
    #[inline(always)]
    fn write_short(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        match n {
            0 => {}
            1..=3 => {
                let [first, mid, last] =
                    [0, n / 2, n - 1].map(|i| bytes.get(i).copied().unwrap_or(0));
                self.store_at(0, [first]);
                self.store_at(n / 2, [mid]);
                self.store_at(n - 1, [last]);
            }
            4..=7 => self.store_ends::<4>(bytes),
            8..=15 => self.store_ends::<8>(bytes),
            16..=31 => self.store_ends::<16>(bytes),
            _ => self.store_ends::<32>(bytes),
        }
    }

    /// `bytes` (of `N` to `2N` bytes) as its first and its last `N`
    /// bytes, which overlap.
    #[inline(always)]
    fn store_ends<const N: usize>(&mut self, bytes: &[u8]) {
        if let (Some(head), Some(tail)) = (bytes.first_chunk::<N>(), bytes.last_chunk::<N>()) {
            self.store_at(0, *head);
            self.store_at(bytes.len() - N, *tail);
        }
    }

    /// Stores `block` at `at` bytes past the end, inside room already
    /// made for at least `at + N` bytes (not yet counted in `len`).
    #[inline(always)]
    #[allow(unsafe_code)]
    fn store_at<const N: usize>(&mut self, at: usize, block: [u8; N]) {
        debug_assert!(self.cap - self.len >= at + N);
        // SAFETY: the caller made room for at least `at + N` bytes past
        // `len` (`write_bytes` made room for the whole string and stores
        // only inside it, `write_varints` for 9 bytes before each store), so the unaligned store stays inside the
        // allocation; `[u8; N]` needs no alignment.
        unsafe {
            self.ptr
                .add(self.len + at)
                .cast::<[u8; N]>()
                .write_unaligned(block)
        };
    }
}

/// The word of a [`Pack::pack_reserved`](crate::Pack::pack_reserved) that
/// it kept its caller's room: after it, the cursor's
/// [`room_left`](Cursor::room_left) is at least what it was called with
/// less `T::MAX_SIZE` (it advanced by at most `MAX_SIZE`, or it made room
/// again), and it stored nothing outside the buffer's allocation.
///
/// A derived type writes its bounded fields one after another with no
/// check of its own, trusting each field's `pack_reserved` to leave the
/// room it counted on. That is a promise of the implementer, so it takes
/// an `unsafe` step to make: [`Kept::promise`] is the only constructor,
/// and a `Kept<T>` is for `T` alone, so an override whose body is safe
/// code (one that writes more than it claims) cannot return one, and an
/// override cannot hand on the word of another type's `pack_reserved`.
#[doc(hidden)]
pub struct Kept<T: ?Sized>(core::marker::PhantomData<fn(&T) -> &T>);

impl<T: ?Sized> Kept<T> {
    /// The word itself.
    ///
    /// # Safety
    /// Returned only by `T`'s `pack_reserved`, after it kept the room as
    /// [`Kept`] says.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub const unsafe fn promise() -> Self {
        Kept(core::marker::PhantomData)
    }
}

/// Room made past the largest encodings a derived type counts
/// ([`Pack::MAX_SIZE`](crate::Pack::MAX_SIZE)): the scalars' stores are
/// wider than what they advance (a varint is one 8-byte store), and pass
/// their type's `MAX_SIZE` by at most 5 bytes (a `u16` varint stored as 8
/// bytes against a bound of 3); 32 leaves room for stores to widen.
#[doc(hidden)]
pub const RESERVE_SLACK: usize = 32;

/// Takes the writer's buffer into its cursor again when dropped, on return
/// or unwind.
struct Reload<'g, 'c, 'a, L: crate::Layout>(&'g mut Cursor<'c, 'a, L>);

impl<L: crate::Layout> Drop for Reload<'_, '_, '_, L> {
    #[inline(always)]
    fn drop(&mut self) {
        let c = &mut *self.0;
        (c.ptr, c.len, c.cap) = c.w.buf_parts();
    }
}

/// Grows the writer's buffer for `n` more bytes past `len`, out of line,
/// and returns its new pointer, length and capacity. It takes the writer,
/// not the cursor: a cursor whose address reached a call that is not
/// inlined would live in memory, reloaded after every byte stored.
#[cold]
#[inline(never)]
#[allow(unsafe_code)]
fn grown<L: crate::Layout>(w: &mut Writer<'_, L>, len: usize, n: usize) -> (*mut u8, usize, usize) {
    // SAFETY: as for `Cursor::sync`: `len` is the cursor's, within the
    // capacity it read and covering only written bytes.
    unsafe { w.set_buf_len(len) };
    w.reserve(n);
    w.buf_parts()
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use crate::Writer;

    #[test]
    fn a_cursor_writes_what_the_writer_writes_and_grows() {
        // From empty, so that every kind of write grows the buffer, mixed
        // with writes through the writer.
        let mut via_cursor = Vec::new();
        let mut w = Writer::new(&mut via_cursor);
        w.with_cursor(|c| {
            for i in 0..300u64 {
                c.write_u8(i as u8);
                c.write_varint(i << (i % 64));
                c.write_varint_u128(u128::from(i) << (i % 128));
                c.write_array((i as u32).to_le_bytes());
                c.write_bytes(&[7; 5][..(i % 6) as usize]);
                if i % 7 == 0 {
                    c.writer(|w| w.write_bytes(b"through the writer"));
                }
            }
            c.write_bytes(&[1; 2000]);
        });
        drop(w);
        let mut plain = Vec::new();
        let mut w = Writer::new(&mut plain);
        for i in 0..300u64 {
            w.write_u8(i as u8);
            w.write_varint(i << (i % 64));
            w.write_varint_u128(u128::from(i) << (i % 128));
            w.write_bytes(&(i as u32).to_le_bytes());
            w.write_bytes(&[7; 5][..(i % 6) as usize]);
            if i % 7 == 0 {
                w.write_bytes(b"through the writer");
            }
        }
        w.write_bytes(&[1; 2000]);
        drop(w);
        assert_eq!(via_cursor, plain);
    }

    /// Bulk varints land as one at a time would, from an empty buffer (so
    /// the first `reserve` grows it) and after bytes that leave each store's
    /// slack at the capacity's edge; a `max_len` too small for the values
    /// still writes them right (each store makes its own room). Runs under
    /// Miri, which checks the unaligned stores.
    #[test]
    fn bulk_varints_write_what_single_ones_do() {
        let values: Vec<u64> = (0..70).map(|i| (1u64 << (i % 64)) | i).collect();
        for (max_len, lead) in [(9, 0), (9, 3), (1, 0), (2, 7)] {
            let mut bulk = Vec::with_capacity(lead);
            bulk.extend((0..lead).map(|i| i as u8));
            let mut w = Writer::new(&mut bulk);
            w.write_varints(max_len, values.iter().copied());
            w.write_varints(max_len, core::iter::empty());
            drop(w);
            let mut single: Vec<u8> = (0..lead).map(|i| i as u8).collect();
            let mut w = Writer::new(&mut single);
            values.iter().for_each(|&v| w.write_varint(v));
            drop(w);
            assert_eq!(bulk, single, "max_len {max_len}, lead {lead}");
        }
    }

    /// Every length the short copies take (0 to 64 bytes, each path's
    /// bounds and the memcpy's first), each into a buffer with exactly
    /// the room it needs, and with none (so that `reserve` grows it first):
    /// the bytes land where they belong and nothing past them is touched.
    /// Runs under Miri, which checks the unaligned stores.
    #[test]
    fn short_copies_write_every_length_exactly() {
        let source: Vec<u8> = (1..=70).collect();
        for n in 0..=66 {
            let bytes = &source[..n];
            for spare in [0, 1] {
                let mut buf = Vec::with_capacity(3 + n * spare);
                buf.extend_from_slice(&[0xAA; 3]);
                let mut w = Writer::new(&mut buf);
                w.with_cursor(|c| c.write_bytes(bytes));
                w.write_u8(0xBB);
                drop(w);
                let mut expected = alloc::vec![0xAA; 3];
                expected.extend_from_slice(bytes);
                expected.push(0xBB);
                assert_eq!(buf, expected, "{n} bytes, spare {spare}");
            }
        }
    }

    /// Found by review: a panic inside `writer` that its caller catches
    /// used to leave the cursor holding the buffer's old allocation.
    #[cfg(feature = "std")]
    #[test]
    fn a_caught_panic_in_the_writer_leaves_the_cursor_current() {
        let mut buf = Vec::with_capacity(16);
        let mut w = Writer::new(&mut buf);
        w.with_cursor(|c| {
            c.write_u8(1);
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                c.writer(|w| {
                    // Reallocates past the 16 bytes the cursor first saw.
                    w.write_bytes(&[0; 4096]);
                    panic!("after growing the buffer");
                })
            }));
            assert!(caught.is_err());
            c.write_u8(2);
        });
        drop(w);
        assert_eq!(buf.len(), 1 + 4096 + 1);
        assert_eq!((buf[0], buf[4097]), (1, 2));
    }

    /// Scalars written unchecked into exactly the room their contract asks
    /// for (their `MAX_SIZE`s and the slack, in a buffer of exactly that
    /// capacity), at their longest and shortest: the bytes are the checked
    /// writes', and under Miri no store leaves the allocation.
    #[test]
    #[allow(unsafe_code)]
    fn reserved_writes_fit_the_room_they_count_on() {
        use crate::Pack;
        // Ending with a `u16` of two bytes, stored as 8 against its bound
        // of 3: the widest a store reaches past its type's bound.
        type Row = (u8, char, i64, u128, f64, Option<i128>, u16);
        let room = <u8 as Pack>::MAX_SIZE
            + <char as Pack>::MAX_SIZE
            + <i64 as Pack>::MAX_SIZE
            + <u128 as Pack>::MAX_SIZE
            + <f64 as Pack>::MAX_SIZE
            + <Option<i128> as Pack>::MAX_SIZE
            + <u16 as Pack>::MAX_SIZE;
        let rows: [Row; 3] = [
            (
                u8::MAX,
                char::MAX,
                i64::MIN,
                u128::MAX,
                f64::MAX,
                Some(i128::MIN),
                u16::MAX,
            ),
            (0, 'a', 0, 0, 0.0, None, 0),
            (1, 'é', -5, 1 << 60, 1.0, Some(1 << 70), 300),
        ];
        for row in rows {
            let mut buf = Vec::with_capacity(room + super::RESERVE_SLACK);
            let mut w = Writer::new(&mut buf);
            w.with_cursor(|c| {
                assert!(c.room_left() >= room + super::RESERVE_SLACK);
                let (a, b, d, e, f, g, h) = row;
                // SAFETY: the room was just checked; each value writes at
                // most its `MAX_SIZE`, and their sum is `room`.
                unsafe {
                    a.pack_reserved(c).map(drop).unwrap();
                    b.pack_reserved(c).map(drop).unwrap();
                    d.pack_reserved(c).map(drop).unwrap();
                    e.pack_reserved(c).map(drop).unwrap();
                    f.pack_reserved(c).map(drop).unwrap();
                    g.pack_reserved(c).map(drop).unwrap();
                    h.pack_reserved(c).map(drop).unwrap();
                }
            });
            drop(w);
            let mut checked = Vec::new();
            row.pack(&mut Writer::new(&mut checked)).unwrap();
            assert_eq!(buf, checked, "{row:?}");
        }
    }

    /// A hand-written type with every safe way to lie about its room: it
    /// claims a bound of 0 bytes and writes 3,000 through the cursor's
    /// checked writes. Its `pack_reserved` is the default (an override
    /// must return a `Kept<Self>`, which only `unsafe` code can make), so
    /// the derived struct around it writes its bounded fields after it
    /// unchecked into room made again, at every capacity the buffer can
    /// start with. Under Miri, a store past the allocation fails this.
    #[test]
    fn a_hostile_safe_impl_cannot_make_its_parent_overrun() {
        struct Hostile;
        impl crate::Encoding for Hostile {}
        impl crate::Pack for Hostile {
            const MAX_SIZE: usize = 0;
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> crate::Result<()> {
                w.write_bytes(&[7; 3000]);
                Ok(())
            }
            fn pack_cursor<L: crate::Layout>(
                &self,
                c: &mut super::Cursor<'_, '_, L>,
            ) -> crate::Result<()> {
                c.write_bytes(&[7; 3000]);
                Ok(())
            }
        }
        impl<'de> crate::Unpack<'de> for Hostile {
            fn unpack<L: crate::Layout>(r: &mut crate::Reader<'de, L>) -> crate::Result<Self> {
                r.read_array::<3000>().map(|_| Hostile)
            }
        }
        #[derive(binform_derive::Packable)]
        #[binform(crate = "crate")]
        struct Around {
            a: u64,
            hostile: Hostile,
            b: u128,
            c: u128,
            d: i128,
            e: Option<u64>,
        }
        let value = Around {
            a: u64::MAX,
            hostile: Hostile,
            b: u128::MAX,
            c: u128::MAX - 1,
            d: i128::MIN,
            e: Some(u64::MAX),
        };
        assert_eq!(<Around as crate::Pack>::MAX_SIZE, 9 + 18 + 18 + 18 + 10);
        let mut expected = Vec::new();
        let mut w = Writer::new(&mut expected);
        crate::Pack::pack(&u64::MAX, &mut w).unwrap();
        w.write_bytes(&[7; 3000]);
        crate::Pack::pack(
            &(u128::MAX, u128::MAX - 1, i128::MIN, Some(u64::MAX)),
            &mut w,
        )
        .unwrap();
        drop(w);
        // Capacities around the first room (the bounded fields' sum and
        // the slack) and around the end of the hostile bytes.
        let starts = (0..96).chain(3000..3080);
        for capacity in starts.step_by(if cfg!(miri) { 7 } else { 1 }) {
            let mut buf = Vec::with_capacity(capacity);
            crate::Pack::pack(&value, &mut Writer::new(&mut buf)).unwrap();
            assert_eq!(buf, expected, "capacity {capacity}");
        }
    }

    /// Derived structs whose `MAX_SIZE` is no bound get no room from their
    /// `pack_cursor`: their first bounded field makes it, for itself and
    /// the bounded fields after it (a struct with a string in the middle,
    /// and one of bounded fields whose sum is over the bound). At every
    /// capacity the buffer starts with, the bytes are the checked writes',
    /// and under Miri no store leaves the allocation.
    #[test]
    fn structs_without_a_bound_make_their_own_room() {
        #[derive(binform_derive::Packable)]
        #[binform(crate = "crate")]
        struct Mixed {
            a: u128,
            b: i64,
            name: alloc::string::String,
            c: u128,
            d: Option<u64>,
        }
        #[derive(binform_derive::Packable, Clone, Copy)]
        #[binform(crate = "crate")]
        struct Inner(u128, u128, u128, u128, u128, u128);
        #[derive(binform_derive::Packable)]
        #[binform(crate = "crate")]
        struct Wide {
            a: u64,
            g: Inner,
            h: Inner,
            i: Inner,
            j: Inner,
            k: Inner,
            l: Inner,
            m: Inner,
            n: Inner,
            o: Inner,
            p: Inner,
            b: u128,
        }
        assert!(!crate::__private::is_bounded(
            <Mixed as crate::Pack>::MAX_SIZE
        ));
        assert!(!crate::__private::is_bounded(
            <Wide as crate::Pack>::MAX_SIZE
        ));
        // Every field of `Wide` is bounded; their sum is not.
        assert!(crate::__private::is_bounded(
            <Inner as crate::Pack>::MAX_SIZE
        ));
        assert_eq!(<Wide as crate::Pack>::MAX_SIZE, usize::MAX);
        let mixed = Mixed {
            a: u128::MAX,
            b: i64::MIN,
            name: "x".repeat(40),
            c: u128::MAX - 1,
            d: Some(u64::MAX),
        };
        let big = Inner(u128::MAX, 1 << 100, u128::MAX - 7, 1 << 90, u128::MAX, 3);
        let wide = Wide {
            a: u64::MAX,
            g: big,
            h: big,
            i: big,
            j: big,
            k: big,
            l: big,
            m: big,
            n: big,
            o: big,
            p: big,
            b: u128::MAX,
        };
        let mut expected_mixed = Vec::new();
        let mut w = Writer::new(&mut expected_mixed);
        crate::Pack::pack(&(mixed.a, mixed.b, &mixed.name, mixed.c, mixed.d), &mut w).unwrap();
        drop(w);
        let mut expected_wide = Vec::new();
        let mut w = Writer::new(&mut expected_wide);
        let inner = |w: &mut Writer<'_>| {
            crate::Pack::pack(&(big.0, big.1, big.2, big.3, big.4, big.5), w).unwrap()
        };
        crate::Pack::pack(&wide.a, &mut w).unwrap();
        for _ in 0..10 {
            inner(&mut w);
        }
        crate::Pack::pack(&wide.b, &mut w).unwrap();
        drop(w);
        for capacity in (0..1300).step_by(if cfg!(miri) { 37 } else { 1 }) {
            let mut buf = Vec::with_capacity(capacity);
            crate::Pack::pack(&mixed, &mut Writer::new(&mut buf)).unwrap();
            assert_eq!(buf, expected_mixed, "capacity {capacity}");
            let mut buf = Vec::with_capacity(capacity);
            crate::Pack::pack(&wide, &mut Writer::new(&mut buf)).unwrap();
            assert_eq!(buf, expected_wide, "capacity {capacity}");
        }
    }

    #[test]
    fn a_cursor_appends_after_what_the_buffer_held() {
        let mut buf = alloc::vec![9u8; 3];
        buf.reserve_exact(1);
        let mut w = Writer::new(&mut buf);
        w.write_u8(1);
        w.with_cursor(|c| {
            c.write_varint(300);
            c.write_u8(2);
        });
        w.write_u8(3);
        drop(w);
        assert_eq!(buf, [9, 9, 9, 1, 0xB1, 0x04, 2, 3]);
    }
}
