//! `str`, `String`, `&str`, `Box<str>`: a length, then UTF-8 bytes.

use alloc::boxed::Box;
use alloc::string::String;

use crate::read::cursor::Source;
use crate::read::ReadCursor;
use crate::tolerant::wire::Wire;
use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl Encoding for str {
    encoding_builtin!("string");
    const WIRE: Wire = Wire::Bytes;
    const COLUMNS: bool = true;
}

impl Pack for str {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        // Through a cursor, whose copy of a short string is two stores
        // rather than a `memcpy` call.
        w.with_cursor(|c| self.pack_cursor(c))
    }

    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(
        &self,
        c: &mut crate::__private::Cursor<'_, '_, L>,
    ) -> Result<()> {
        c.write_varint(self.len() as u64);
        c.write_bytes(self.as_bytes());
        Ok(())
    }

    /// The key and the length in one store.
    #[inline(always)]
    fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_keyed_varint(gap_key | u64::from(Wire::Bytes.bits()), self.len() as u64);
        w.write_bytes(self.as_bytes());
        Ok(())
    }

    // A column of strings (§27); `str` has no slices of its own.
    column_pack_all!(|items, w| crate::impls::string::pack_strs(items, w));
}

impl Encoding for String {
    encoding_transparent!(str);
}

impl Pack for String {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_str().pack(w)
    }

    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(
        &self,
        c: &mut crate::__private::Cursor<'_, '_, L>,
    ) -> Result<()> {
        self.as_str().pack_cursor(c)
    }

    #[inline(always)]
    fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_str().pack_field(gap_key, w)
    }

    str_column_pack!(String::as_str);
}

/// Reads a length-prefixed UTF-8 string borrowed from the input.
#[inline]
pub(crate) fn read_str<'de, L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<&'de str> {
    str_from(r)
}

/// [`read_str`] from the reader or a cursor (a string field of a derived
/// type).
#[inline(always)]
fn str_from<'de>(s: &mut impl Source<'de>) -> Result<&'de str> {
    let len = s.read_len()?;
    let start = s.position();
    let bytes = s.read_bytes(len)?;
    match fast_utf8(bytes) {
        Some(text) => Ok(text),
        None => s.with_reader(|r| utf8(r, bytes, start)),
    }
}

/// `bytes` as text when a fast check accepts them (ASCII, or simdutf8
/// past [`SIMD_UTF8_FROM`]); `None` sends them to the general check,
/// which also finds the error's offset.
#[inline(always)]
fn fast_utf8(bytes: &[u8]) -> Option<&str> {
    #[cfg(feature = "simdutf8")]
    if bytes.len() > SIMD_UTF8_FROM {
        // The error, with the offset of the first invalid byte, comes
        // from the general check (simdutf8's `basic` says only "invalid").
        return simdutf8::basic::from_utf8(bytes).ok();
    }
    if is_ascii(bytes) {
        #[allow(unsafe_code)]
        // SAFETY: every byte is below 0x80, and ASCII is valid UTF-8.
        return Some(unsafe { core::str::from_utf8_unchecked(bytes) });
    }
    None
}

/// `bytes` (read from `start`) as text, checked in one pass: a string
/// column's bytes, all its strings at once.
pub(crate) fn utf8_at<'de, L: crate::Layout>(
    r: &Reader<'de, L>,
    bytes: &'de [u8],
    start: usize,
) -> Result<&'de str> {
    match fast_utf8(bytes) {
        Some(text) => Ok(text),
        None => utf8(r, bytes, start),
    }
}

/// Writes a column of strings: their byte lengths as packed `u64`
/// blocks (§22), then all their bytes, one after another.
pub(crate) fn pack_strs<'a, L: crate::Layout>(
    items: impl Iterator<Item = &'a str> + Clone,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    // The bytes' total, summed in the lengths' pass, reserves them all
    // at once.
    let mut total = 0usize;
    let lengths = items.clone().map(|s| {
        total = total.saturating_add(s.len());
        s.len() as u64
    });
    crate::packed::pack_iter(lengths, w)?;
    w.write_concat(items.map(str::as_bytes), total);
    Ok(())
}

/// Reads a column of `n` strings (`n` checked by the caller), each made
/// into a `T` by `make`. The bytes of all of them are checked for UTF-8
/// in one pass ([`column_text`]), and each string's ends for character
/// boundaries as it is cut.
pub(crate) fn unpack_strs<'de, T, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
    make: impl FnMut(&mut Reader<'de, L>, &'de str) -> Result<T>,
) -> Result<alloc::vec::Vec<T>> {
    // The room is taken before the whole column (lengths and text) is
    // read, which backs it.
    let room = r.cautious_capacity::<T>(n);
    crate::columns::with_lengths(r, n, |r, lens| strs_of(r, lens, room, make))
}

/// [`unpack_strs`] once the lengths are read: the bytes, checked, split.
fn strs_of<'de, T, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    lens: &[u64],
    room: usize,
    mut make: impl FnMut(&mut Reader<'de, L>, &'de str) -> Result<T>,
) -> Result<alloc::vec::Vec<T>> {
    let n = lens.len();
    let at = r.position();
    let text = column_text(r, lens)?;
    let mut out = r.vec_with_room::<T>(n, room)?;
    let mut start = 0usize;
    for (i, &len) in lens.iter().enumerate() {
        // Each length is below the total, which fits in `usize`.
        let end = start + len as usize;
        let Some(s) = text.get(start..end) else {
            return Err(not_a_boundary(r, at + end, i));
        };
        if out.len() == out.capacity() {
            r.grow_toward(&mut out, i + 1, n)?;
        }
        crate::read::push_made(&mut out, || make(r, s))?;
        start = end;
    }
    Ok(out)
}

/// The text of a column of strings of lengths `lens`, checked for UTF-8
/// in one pass.
#[inline]
fn column_text<'de, L: crate::Layout>(r: &mut Reader<'de, L>, lens: &[u64]) -> Result<&'de str> {
    let at = r.position();
    let total = crate::columns::total_of(r, lens, at)?;
    if total > r.remaining() {
        return Err(r.error_at(
            at,
            ErrorKind::UnexpectedEnd,
            "a string column's lengths add up to more than the input holds",
        ));
    }
    let bytes = r.read_bytes(total)?;
    utf8_at(r, bytes, at)
}

/// The error of string `i` of a column, which ends at `at` inside a
/// character.
#[cold]
fn not_a_boundary<L: crate::Layout>(r: &Reader<'_, L>, at: usize, i: usize) -> crate::Error {
    r.error_at(
        at,
        ErrorKind::InvalidUtf8,
        alloc::format!("string {i} of a column does not end on a character boundary"),
    )
}

/// A column of `n` strings (`n` checked by the caller), read lazily: the
/// lengths, then the bytes of all of them, checked for UTF-8 in one pass
/// and at each string's end for a character boundary, all before any
/// string is made; then each made by `make` when it is asked for, where
/// it is stored (a `String` field's column was a vector of them, each
/// moved again into its value). `charge` charges the large copies `make`
/// will make to the memory budget up front (`Reader::charge_copy`).
#[inline]
pub(crate) fn str_column<'de, T, L: crate::Layout, F: FnMut(&'de str) -> Option<T>>(
    r: &mut Reader<'de, L>,
    n: usize,
    charge: bool,
    make: F,
) -> Result<StrColumn<'de, F>> {
    let lens = crate::columns::read_lengths(r, n)?;
    let at = r.position();
    let text = column_text(r, lens.as_slice())?;
    // Every string's end on a character boundary, and the large copies
    // charged, before any string is made: its iterator has no error to
    // give.
    let mut end = 0usize;
    for (i, &len) in lens.as_slice().iter().enumerate() {
        // Each length is at most the total, which fits in `usize`.
        end += len as usize;
        if !text.is_char_boundary(end) {
            return Err(not_a_boundary(r, at + end, i));
        }
        if charge {
            r.charge_copy(len as usize)?;
        }
    }
    if let crate::columns::Lengths::Long(lens) = &lens {
        r.note_transient(lens);
    }
    Ok(StrColumn {
        lens,
        next: 0,
        text,
        start: 0,
        make,
    })
}

/// The iterator of [`str_column`]: the strings of a column, each made by
/// `make` from its text. `None` past the last one, or where `make` could
/// not allocate, which the column's reader reports as an error.
///
/// Invariant, on which `next`'s unchecked slice relies: every sum of the
/// first lengths of `lens` (from none to all) is a character boundary of
/// `text` (so at most its length), and `start` is the sum of the lengths
/// before index `next`. Only [`str_column`] makes one (the fields are
/// private), after checking the sums; nothing changes `lens` or `text`
/// after.
pub(crate) struct StrColumn<'de, F> {
    lens: crate::columns::Lengths,
    next: usize,
    text: &'de str,
    start: usize,
    make: F,
}

impl<'de, T, F: FnMut(&'de str) -> Option<T>> Iterator for StrColumn<'de, F> {
    type Item = T;

    #[inline(always)]
    fn next(&mut self) -> Option<T> {
        let len = *self.lens.as_slice().get(self.next)?;
        // `end` before `next` moves: an early return leaves `start` and
        // `next` in step (it cannot happen: every sum of lengths fits in
        // `usize`, `column_text` checked their total).
        let end = self.start.checked_add(usize::try_from(len).ok()?)?;
        self.next += 1;
        debug_assert!(self.text.is_char_boundary(self.start) && self.text.is_char_boundary(end));
        #[allow(unsafe_code)]
        // SAFETY: `StrColumn`'s invariant: `start` is the sum of the
        // lengths before string `next - 1`, and `end` that sum with its
        // length, two of the character boundaries of `text` that
        // `str_column` checked, in order (lengths are unsigned).
        // `str::get` checked both again: about 8 instructions a string
        // (callgrind, log decode), for nothing.
        let s = unsafe { self.text.get_unchecked(self.start..end) };
        self.start = end;
        (self.make)(s)
    }
}

/// A column of `n` sequences of strings (`Vec<String>`'s column, §27),
/// read lazily: the sequences' lengths, then the strings' column
/// ([`str_column`], one level down, as the writer counts it), and each
/// sequence filled from it when it is asked for. Decoding all the strings
/// into one vector and cutting each sequence from it (the leaves' path,
/// `impls::seq::seqs_cut`, which `Vec<Vec<String>>::unpack_vec` still
/// takes) allocated that vector and one of the sequences besides theirs,
/// and moved every `String` twice.
#[inline]
pub(crate) fn str_seqs<'de, T: Unpack<'de>, L: crate::Layout, F: FnMut(&'de str) -> Option<T>>(
    r: &mut Reader<'de, L>,
    n: usize,
    charge: bool,
    make: F,
) -> Result<StrSeqs<'de, T, F>> {
    let lens = crate::columns::read_lengths(r, n)?;
    let at = r.position();
    let total = crate::columns::total_of(r, lens.as_slice(), at)?;
    let column = match total {
        // No elements, no column (nor a level): empty sequences.
        0 => None,
        _ => {
            r.check_column::<T>(total, at)?;
            // The sequences' own buffers, all of them.
            r.charge_memory(total.saturating_mul(core::mem::size_of::<T>()))?;
            Some(r.nested_holding::<T, _>(|r| str_column(r, total, charge, make))?)
        }
    };
    if let crate::columns::Lengths::Long(lens) = &lens {
        r.note_transient(lens);
    }
    Ok(StrSeqs {
        lens,
        next: 0,
        column,
        _made: core::marker::PhantomData,
    })
}

/// The iterator of [`str_seqs`]: each sequence of strings in turn, made
/// with room for its length and filled from the strings' column. `None`
/// past the last one, or where the column runs short or a buffer cannot
/// be allocated, which the column's reader reports as an error.
pub(crate) struct StrSeqs<'de, T, F> {
    lens: crate::columns::Lengths,
    next: usize,
    column: Option<StrColumn<'de, F>>,
    _made: core::marker::PhantomData<fn() -> T>,
}

impl<'de, T, F: FnMut(&'de str) -> Option<T>> Iterator for StrSeqs<'de, T, F> {
    type Item = alloc::vec::Vec<T>;

    #[inline(always)]
    fn next(&mut self) -> Option<alloc::vec::Vec<T>> {
        let len = usize::try_from(*self.lens.as_slice().get(self.next)?).ok()?;
        self.next += 1;
        if len == 0 {
            return Some(alloc::vec::Vec::new());
        }
        // Charged when the column was read; a large buffer through the
        // fallible allocation (its length was declared by the input).
        // `read::vec_room` spelled out: through it, people decoded 3%
        // slower (`hot`, alternating).
        let mut seq = match len.saturating_mul(core::mem::size_of::<T>()) {
            bytes if bytes <= crate::read::SMALL_ALLOCATION => alloc::vec::Vec::with_capacity(len),
            _ => crate::read::try_vec(len)?,
        };
        let column = self.column.as_mut()?;
        for _ in 0..len {
            // Room was reserved for `len`: written in place, never grown.
            crate::read::push_within(&mut seq, column.next()?);
        }
        Some(seq)
    }
}

/// A string of a lazy column as a `String` (its copy was charged when the
/// column was read); `None` where a large one cannot be allocated.
#[inline(always)]
fn string_lazy(s: &str) -> Option<String> {
    if s.len() <= crate::read::SMALL_ALLOCATION {
        return Some(small_string(s));
    }
    large_string(s)
}

/// A copy of a short string (at most `SMALL_ALLOCATION` bytes), its
/// allocation inline. `String::from`'s goes through
/// `RawVecInner::try_allocate_in`, which rustc left out of line once an
/// element's column was built where it is stored (`read::push_next`):
/// log's four string columns took 31 instructions a string more
/// (callgrind). With both, people decode 6.7% fewer instructions and
/// 5.5% faster (`hot`), log 2.0% and 1.8%.
#[inline(always)]
fn small_string(s: &str) -> String {
    let len = s.len();
    if len == 0 {
        return String::new();
    }
    let Ok(layout) = core::alloc::Layout::array::<u8>(len) else {
        return String::from(s);
    };
    #[allow(unsafe_code)]
    // SAFETY: `layout` has a non-zero size (`len > 0`), as `alloc`
    // requires. A null pointer (no memory) goes to `handle_alloc_error`,
    // which does not return; otherwise the block holds `len` bytes, all
    // written by the copy from `s`, which cannot overlap a block just
    // allocated. They are valid UTF-8, since `s` is. `from_raw_parts` asks
    // for a block of the global allocator with the layout of `len` bytes
    // (capacity `len`) and `len` initialized bytes of UTF-8: this one.
    // Covered under Miri by the columns' tests (`columns::tests`, in CI).
    unsafe {
        let ptr = alloc::alloc::alloc(layout);
        if ptr.is_null() {
            alloc::alloc::handle_alloc_error(layout);
        }
        core::ptr::copy_nonoverlapping(s.as_ptr(), ptr, len);
        String::from_raw_parts(ptr, len, len)
    }
}

/// A large string's copy, through the fallible allocation (its length was
/// declared by the input); `None` where it cannot be allocated. Out of
/// the loops' way.
#[cold]
#[inline(never)]
fn large_string(s: &str) -> Option<String> {
    let mut out = String::new();
    out.try_reserve_exact(s.len()).ok()?;
    out.push_str(s);
    Some(out)
}

/// The `Pack` hooks of a string type (`$as_str` borrows its text): its
/// sequences are string columns in the compact layout (§27).
macro_rules! str_column_pack {
    ($as_str:expr) => {
        column_pack_all!(|items, w| crate::impls::string::pack_strs(items.map($as_str), w));
    };
}

/// The `Unpack` hooks of a string type (`$make` makes one from the
/// reader and a `&'de str`): a column's lengths, then its bytes. With
/// `lazy = $lazy` (makes one from a `&'de str`, `None` where it cannot
/// allocate; `charge`: whether it copies), its column is read lazily
/// ([`str_column`]).
macro_rules! str_column_unpack {
    ($make:expr, lazy = $lazy:expr, charge = $charge:expr, use<$($cap:lifetime),*>) => {
        crate::impls::string::str_column_unpack!($make);

        // A closure for `$lazy`, not a function's name: called through
        // `FnMut::call_mut`'s shim, `String`'s was not inlined, a call a
        // string.
        #[allow(clippy::redundant_closure)]
        #[inline(always)]
        fn read_column<L: crate::Layout>(
            r: &mut Reader<'de, L>,
            n: usize,
        ) -> Result<impl Iterator<Item = Self> + use<$($cap,)* L>> {
            crate::impls::string::str_column(r, n, $charge, $lazy)
        }

        /// A column of sequences of strings, each filled from the
        /// strings' column when it is asked for.
        #[allow(clippy::redundant_closure)]
        #[inline(always)]
        fn read_seqs<L: crate::Layout>(
            r: &mut Reader<'de, L>,
            n: usize,
        ) -> Result<impl Iterator<Item = alloc::vec::Vec<Self>> + use<$($cap,)* L>> {
            crate::impls::string::str_seqs(r, n, $charge, $lazy)
        }
    };
    ($make:expr) => {
        const COLUMN_MIN: usize = 2;

        #[inline]
        fn unpack_vec<L: crate::Layout>(
            r: &mut Reader<'de, L>,
            len: usize,
        ) -> Result<alloc::vec::Vec<Self>> {
            if L::FIXED {
                return crate::read::unpack_each(r, len);
            }
            crate::impls::string::unpack_strs(r, len, $make)
        }
    };
}
pub(crate) use {str_column_pack, str_column_unpack};

/// The length past which the `simdutf8` feature validates a string with
/// simdutf8. Measured on this project's AMD EPYC (Zen 1): on 1,000 bytes
/// it takes 73 ns against std's `is_ascii` 90 ns (ASCII) and `from_utf8`
/// 1,285 ns (accented Latin text); on names of about 25 bytes it takes
/// 15 ns against 6 ns for the word loads below.
#[cfg(feature = "simdutf8")]
const SIMD_UTF8_FROM: usize = 64;

/// Whether every byte is ASCII: names, keys and words, the common case,
/// in a few word loads instead of `from_utf8`'s general loop (about 70
/// instructions a short string).
#[inline(always)]
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Two loads that overlap cover 4 to 16 bytes: fixed-size copies the
    // compiler keeps in registers (copying a variable length into a zeroed
    // word called `memcpy`).
    // A missing slice (impossible: the lengths are matched below) reads as
    // high bits, so that the check fails closed before the unchecked
    // conversion it guards.
    let word = |b: Option<&[u8]>| {
        let mut raw = [0x80u8; 8];
        if let Some(b) = b {
            raw.copy_from_slice(b);
        }
        u64::from_le_bytes(raw)
    };
    let half = |b: Option<&[u8]>| {
        let mut raw = [0x80u8; 4];
        if let Some(b) = b {
            raw.copy_from_slice(b);
        }
        u64::from(u32::from_le_bytes(raw))
    };
    let n = bytes.len();
    match n {
        0..=3 => bytes.iter().fold(0, |acc, &b| acc | b) < 0x80,
        4..=7 => (half(bytes.get(..4)) | half(bytes.get(n - 4..))) & HIGH == 0,
        8..=16 => (word(bytes.get(..8)) | word(bytes.get(n - 8..))) & HIGH == 0,
        _ => bytes.is_ascii(),
    }
}

/// The general check, and the error naming the first invalid byte.
#[inline(never)]
fn utf8<'de, L: crate::Layout>(
    r: &Reader<'de, L>,
    bytes: &'de [u8],
    start: usize,
) -> Result<&'de str> {
    core::str::from_utf8(bytes).map_err(|e| {
        r.error_at(
            start + e.valid_up_to(),
            ErrorKind::InvalidUtf8,
            "string is not valid UTF-8",
        )
    })
}

impl<'de: 'a, 'a> Unpack<'de> for &'a str {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some("")
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        read_str(r)
    }

    str_column_unpack!(
        |_, s| Ok(s),
        lazy = |s: &'de str| -> Option<&'a str> { Some(s) },
        charge = false,
        use<'a, 'de>
    );
}

/// A string of a column as a `String`: as [`String::unpack`] makes it.
#[inline]
pub(crate) fn string_of<L: crate::Layout>(r: &mut Reader<'_, L>, s: &str) -> Result<String> {
    if s.len() <= crate::read::SMALL_ALLOCATION {
        return Ok(String::from(s));
    }
    owned(r, s)
}

/// A large string's copy, through the fallible allocation (its length was
/// declared by the input).
/// Charged to the memory budget (`Reader::charge_copy`).
fn owned<L: crate::Layout>(r: &mut Reader<'_, L>, s: &str) -> Result<String> {
    r.charge_copy(s.len())?;
    large_string(s).ok_or_else(|| r.alloc_error(s.len()))
}

impl<'de> Unpack<'de> for String {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(String::new())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let s = read_str(r)?;
        if s.len() <= crate::read::SMALL_ALLOCATION {
            // A plain allocation is faster than the fallible path, and a
            // small one cannot meaningfully fail.
            return Ok(String::from(s));
        }
        owned(r, s)
    }

    /// A field's string: read without syncing the cursor (the allocation
    /// is a call, but not one that takes the reader).
    #[inline(always)]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
        let s = str_from(c)?;
        if s.len() <= crate::read::SMALL_ALLOCATION {
            return Ok(String::from(s));
        }
        c.reader(|r| owned(r, s))
    }

    str_column_unpack!(
        string_of,
        lazy = #[inline(always)]
        |s| string_lazy(s),
        charge = true,
        use<'de>
    );
}

impl<'de> Unpack<'de> for Box<str> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Box::default())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        // One level for the box, as its encoder counts.
        r.nested(|r| String::unpack(r).map(String::into_boxed_str))
    }

    str_column_unpack!(|r, s| string_of(r, s).map(String::into_boxed_str));
}

#[cfg(test)]
mod tests {
    //! These run under Miri (`scripts/miri.sh`), which checks the unchecked
    //! conversion behind the ASCII fast path and a string column's
    //! unchecked cuts (`StrColumn::next`).
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::is_ascii;
    use crate::{from_slice, to_vec, ErrorKind};

    #[test]
    fn ascii_check_sees_every_byte_at_every_length() {
        for len in 0..40 {
            let text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(is_ascii(&text));
            for at in 0..len {
                let mut bad = text.clone();
                bad[at] = 0x80;
                assert!(!is_ascii(&bad), "{len} bytes, high bit at {at}");
            }
        }
    }

    #[test]
    fn strings_of_every_length_round_trip_and_invalid_utf8_is_found() {
        for len in 0..40 {
            let ascii: String = (0..len).map(|i| (b'a' + (i % 26) as u8) as char).collect();
            assert_eq!(
                from_slice::<String>(&to_vec(&ascii).unwrap()).unwrap(),
                ascii
            );
            let accented: String = ascii.replacen('a', "é", 1);
            assert_eq!(
                from_slice::<&str>(&to_vec(&accented).unwrap()).unwrap(),
                accented
            );
            if len > 0 {
                let mut bytes = to_vec(&ascii).unwrap();
                let last = bytes.len() - 1;
                bytes[last] = 0xFF;
                let err = from_slice::<String>(&bytes).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
                assert_eq!(err.offset(), Some(last));
            }
        }
    }

    /// The strings of a lazy column (a tuple's, here) are cut from the
    /// column's text without their boundaries checked again
    /// (`StrColumn::next`): characters of every width and empty strings
    /// round-trip, owned and borrowed, and lengths that end inside a
    /// character are `InvalidUtf8` before any string is made. Fourteen
    /// values keep their lengths in a vector, two inline
    /// (`columns::KEPT_LENGTHS`).
    #[test]
    fn lazy_string_columns_cut_on_every_boundary() {
        let words = ["", "a", "é", "€uro", "😀", "zé€😀", "plain"];
        let rows: Vec<(String, &str)> = (0..2 * words.len())
            .map(|i| (String::from(words[i % 7]), words[i * 3 % 7]))
            .collect();
        let bytes = to_vec(&rows).unwrap();
        assert_eq!(from_slice::<Vec<(String, &str)>>(&bytes).unwrap(), rows);

        // Two values: the count, the lengths 2 and 2 (short: a varint
        // each), the text "éé", then the bytes' column.
        let pair = vec![(String::from("é"), 1u8), (String::from("é"), 2)];
        let mut bytes = to_vec(&pair).unwrap();
        assert_eq!(bytes, [0x04, 0x04, 0x04, 0xC3, 0xA9, 0xC3, 0xA9, 1, 2]);
        assert_eq!(from_slice::<Vec<(String, u8)>>(&bytes).unwrap(), pair);
        // Lengths 1 and 3: the same total, the first cut inside a
        // character.
        bytes[1] = 0x02;
        bytes[2] = 0x06;
        let err = from_slice::<Vec<(String, u8)>>(&bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
        let err = from_slice::<Vec<(&str, u8)>>(&bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
    }

    /// A column's bytes are copied at once past its lengths
    /// (`Writer::write_concat`): strings of every length, after what the
    /// buffer held, and the same bytes through a streaming encode, which
    /// writes them one by one (a long column's pieces are tested in
    /// `tests/tests/integration/io.rs`).
    #[test]
    fn string_columns_write_their_bytes_at_once() {
        let rows: Vec<(String, u8)> = (0..40)
            .map(|i| {
                (
                    (0..i % 23).map(|j| ['a', 'é', '€'][j % 3]).collect(),
                    i as u8,
                )
            })
            .collect();
        let bytes = to_vec(&rows).unwrap();
        assert_eq!(from_slice::<Vec<(String, u8)>>(&bytes).unwrap(), rows);
        let mut buf = alloc::vec![7u8; 3];
        crate::to_vec_into(&mut buf, &rows).unwrap();
        assert_eq!(buf[..3], [7, 7, 7]);
        assert_eq!(buf[3..], bytes[..]);
        #[cfg(feature = "std")]
        {
            let mut streamed = Vec::new();
            crate::to_writer(&mut streamed, &rows).unwrap();
            assert_eq!(streamed, bytes);
        }
    }

    /// Long strings (the `simdutf8` feature's path past 64 bytes, the
    /// built-in one otherwise): text with characters of every width
    /// round-trips, and a damaged byte, an overlong form, a surrogate or
    /// a cut character is `InvalidUtf8` at the offset `from_utf8` names,
    /// with the feature on or off.
    #[test]
    fn long_strings_are_checked_alike_with_or_without_simdutf8() {
        let chars = ['a', 'é', '€', '😀', 'z', ' '];
        for len in [60, 63, 64, 65, 66, 100, 257, 1000] {
            let text: String = (0..len).map(|i| chars[i * 7 % chars.len()]).collect();
            let bytes = to_vec(&text).unwrap();
            assert_eq!(from_slice::<String>(&bytes).unwrap(), text);
            assert_eq!(from_slice::<&str>(&bytes).unwrap(), text);
            let prefix = bytes.len() - text.len();
            let damages: [&[u8]; 4] = [&[0xFF], &[0xC0, 0x80], &[0xED, 0xA0, 0x80], &[0xF0, 0x9F]];
            for damage in damages {
                for at in [0, text.len() / 2, text.len() - damage.len()] {
                    let mut bad = bytes.clone();
                    bad[prefix + at..prefix + at + damage.len()].copy_from_slice(damage);
                    let body = &bad[prefix..];
                    let Err(expected) = core::str::from_utf8(body) else {
                        continue;
                    };
                    let err = from_slice::<String>(&bad).unwrap_err();
                    assert_eq!(err.kind(), ErrorKind::InvalidUtf8, "{len} at {at}");
                    assert_eq!(
                        err.offset(),
                        Some(prefix + expected.valid_up_to()),
                        "{len} bytes, {damage:x?} at {at}"
                    );
                }
            }
        }
    }
}
