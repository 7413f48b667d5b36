//! Many values on one stream: length-delimited frames (`docs/format.md`
//! §21). A frame is `varint(n)` and then exactly `n` bytes, the value's
//! encoding, so one stream carries any number of values and a reader stops
//! exactly after each.
//!
//! ```
//! let mut stream = Vec::new();
//! for n in [1u32, 300, 70_000] {
//!     binform::io::write_frame(&mut stream, &n)?;
//! }
//! let mut reader = &stream[..];
//! let mut got = Vec::new();
//! while let Some(n) = binform::io::read_frame::<u32>(&mut reader)? {
//!     got.push(n);
//! }
//! assert_eq!(got, [1, 300, 70_000]);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! The frame length is checked against [`Options::byte_limit`] before
//! anything is allocated, and the payload buffer grows only as bytes
//! arrive, so a lying length costs nothing.

use std::io::{Read, Write};
use std::vec::Vec;

use crate::error::{Error, ErrorKind, Result};
use crate::options::Options;
use crate::read::UnpackOwned;
use crate::scratch::with_scratch;
use crate::varint;
use crate::write::Pack;

/// Frames up to this size are read with one exact read; a lying length
/// below it costs at most this much memory.
const EXACT_READ: usize = 64 * 1024;

/// Writes `value` as one frame, with default [`Options`].
pub fn write_frame<T: Pack + ?Sized>(writer: &mut impl Write, value: &T) -> Result<()> {
    Options::new().write_frame(writer, value)
}

/// Reads one frame and decodes it, with default [`Options`]: `Ok(None)`
/// at a clean end of stream between frames, [`ErrorKind::UnexpectedEnd`]
/// when the stream ends inside one. The stream is left positioned right
/// after the frame.
pub fn read_frame<T: UnpackOwned>(reader: &mut impl Read) -> Result<Option<T>> {
    Options::new().read_frame(reader)
}

impl<L: crate::Layout> Options<L> {
    /// Writes `value` as one frame (see [`crate::io`]): its length, then
    /// its encoding, in one `write_all`. A value whose encoding is longer
    /// than [`byte_limit`](Options::byte_limit) is refused with
    /// [`ErrorKind::LimitExceeded`] before anything is written, since a
    /// reader with the same options would refuse the frame.
    pub fn write_frame<T: Pack + ?Sized>(&self, writer: &mut impl Write, value: &T) -> Result<()> {
        with_scratch(|scratch| {
            let frame = frame_bytes(self, value, core::mem::take(scratch))?;
            let written = writer
                .write_all(&frame.bytes[frame.prefix_start..])
                .map_err(Error::io);
            *scratch = frame.bytes;
            written
        })
    }

    /// Reads one frame and decodes it (see [`crate::io`]). The frame's
    /// length is checked against [`byte_limit`](Options::byte_limit) before
    /// anything is allocated.
    pub fn read_frame<T: UnpackOwned>(&self, reader: &mut impl Read) -> Result<Option<T>> {
        let Some(len) = read_frame_len(reader, self.byte_limit())? else {
            return Ok(None);
        };
        with_scratch(|payload| {
            payload.clear();
            if len <= EXACT_READ {
                // Small frames: one exact read into the reused buffer.
                payload.resize(len, 0);
                if let Err(e) = reader.read_exact(payload) {
                    if e.kind() != std::io::ErrorKind::UnexpectedEof {
                        return Err(Error::io(e));
                    }
                    return Err(Error::new(
                        ErrorKind::UnexpectedEnd,
                        alloc::format!("the stream ends inside a frame of {len} bytes"),
                    ));
                }
            } else {
                // Large ones grow only as their bytes arrive.
                reader
                    .by_ref()
                    .take(len as u64)
                    .read_to_end(payload)
                    .map_err(Error::io)?;
            }
            if payload.len() < len {
                return Err(Error::new(
                    ErrorKind::UnexpectedEnd,
                    alloc::format!(
                        "the stream ends inside a frame of {len} bytes, after {}",
                        payload.len()
                    ),
                ));
            }
            self.from_slice(payload).map(Some)
        })
    }
}

/// A frame built in one buffer: the value's encoding after room for the
/// longest length prefix, the prefix written just before it.
pub(crate) struct Frame {
    pub(crate) bytes: Vec<u8>,
    pub(crate) prefix_start: usize,
}

/// Encodes `value` as a frame into `buf` (cleared first).
pub(crate) fn frame_bytes<T: Pack + ?Sized, L: crate::Layout>(
    options: &Options<L>,
    value: &T,
    mut buf: Vec<u8>,
) -> Result<Frame> {
    buf.clear();
    buf.resize(varint::MAX_LEN_U64, 0);
    options.to_vec_into(&mut buf, value)?;
    let len = buf.len() - varint::MAX_LEN_U64;
    check_frame_len(len as u64, options.byte_limit())?;
    let (prefix, n) = varint::encode_u64(len as u64);
    let prefix_start = varint::MAX_LEN_U64 - n;
    buf[prefix_start..varint::MAX_LEN_U64].copy_from_slice(&prefix[..n]);
    Ok(Frame {
        bytes: buf,
        prefix_start,
    })
}

/// Fails unless a frame of `len` bytes is within `limit`.
pub(crate) fn check_frame_len(len: u64, limit: usize) -> Result<usize> {
    match usize::try_from(len) {
        Ok(len) if len <= limit => Ok(len),
        _ => Err(Error::new(
            ErrorKind::LimitExceeded,
            alloc::format!("a frame of {len} bytes is over the limit of {limit} bytes"),
        )),
    }
}

/// Reads a frame's length prefix one byte at a time (so nothing after it
/// is consumed); `None` at a clean end of stream.
fn read_frame_len(reader: &mut impl Read, limit: usize) -> Result<Option<usize>> {
    let mut prefix = [0u8; varint::MAX_LEN_U64];
    if !read_first(reader, &mut prefix[0])? {
        return Ok(None);
    }
    let n = varint::encoded_len(prefix[0]);
    reader.read_exact(&mut prefix[1..n]).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            Error::new(
                ErrorKind::UnexpectedEnd,
                "the stream ends inside a frame's length",
            )
        } else {
            Error::io(e)
        }
    })?;
    let len = varint::decode_u64(&prefix[..n]).map_err(|_| {
        Error::new(
            ErrorKind::InvalidVarint,
            "a frame's length is not in its shortest form",
        )
    })?;
    check_frame_len(len.0, limit).map(Some)
}

/// Reads one byte; `false` at the end of the stream.
fn read_first(reader: &mut impl Read, byte: &mut u8) -> Result<bool> {
    loop {
        match reader.read(core::slice::from_mut(byte)) {
            Ok(0) => return Ok(false),
            Ok(_) => return Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(e)),
        }
    }
}
