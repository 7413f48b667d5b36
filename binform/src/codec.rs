//! A tokio-util codec over binform frames (feature `tokio`): the frame
//! format of [`crate::io`], so a frame written by one reads with the other.
//!
//! ```
//! use binform::codec::PackCodec;
//! use bytes::BytesMut;
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! let mut codec = PackCodec::<Vec<String>>::new().max_frame_len(1 << 16);
//! let mut wire = BytesMut::new();
//! codec.encode(&vec!["a".to_string(), "b".to_string()], &mut wire)?;
//! let mut parts = wire.split_off(3); // the frame arrives in two reads
//! assert_eq!(codec.decode(&mut wire)?, None);
//! wire.unsplit(parts.split());
//! assert_eq!(codec.decode(&mut wire)?, Some(vec!["a".to_string(), "b".to_string()]));
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! With `tokio_util::codec::Framed` it turns a `TcpStream` into a `Stream`
//! of decoded values and a `Sink` of values to send; see
//! `binform/examples/message_loop.rs`.

use core::marker::PhantomData;

use bytes::BytesMut;
use tokio_util::codec::{Decoder, Encoder};

use crate::error::{Error, ErrorKind, Result};
use crate::io::{check_frame_len, frame_bytes};
use crate::layout::{Compact, Layout};
use crate::options::Options;
use crate::read::UnpackOwned;
use crate::varint;
use crate::write::Pack;

/// How much of a frame the decoder reserves room for ahead of its bytes:
/// a frame's declared length is trusted only up to this much before the
/// bytes arrive.
const RESERVE_AHEAD: usize = 64 * 1024;

/// Encodes values of `T` as frames and decodes frames as `T`.
///
/// The largest frame is [`max_frame_len`](PackCodec::max_frame_len), by
/// default the [`Options::byte_limit`] of the options it was made with. A
/// longer frame is an error as soon as its length arrives, before any of it
/// is buffered; the caller drops the connection (the codec does not try to
/// resynchronize a stream it can no longer trust).
///
/// The layout is the options': `PackCodec::with_options(Options::new().fixed_width())`
/// speaks the fixed layout.
pub struct PackCodec<T, L: Layout = Compact> {
    options: Options<L>,
    max_frame_len: usize,
    /// Reused between encodes.
    scratch: Vec<u8>,
    _item: PhantomData<fn() -> T>,
}

impl<T> PackCodec<T> {
    /// A codec with default [`Options`].
    pub fn new() -> Self {
        PackCodec::with_options(Options::new())
    }

    /// A codec with the limits and modes of `options` (fingerprint headers
    /// included), in their layout (`Options::new().fixed_width()` gives a
    /// codec of the fixed layout); the frame limit is
    /// `options.byte_limit()`. Written `PackCodec::<T>::with_options(..)`
    /// whichever the layout.
    pub fn with_options<L: Layout>(options: Options<L>) -> PackCodec<T, L> {
        PackCodec {
            options,
            max_frame_len: options.byte_limit(),
            scratch: Vec::new(),
            _item: PhantomData,
        }
    }
}

impl<T, L: Layout> PackCodec<T, L> {
    /// Sets the largest frame, in bytes, that this codec encodes or
    /// decodes.
    #[must_use]
    pub fn max_frame_len(mut self, n: usize) -> Self {
        self.max_frame_len = n;
        self
    }
}

impl<T> Default for PackCodec<T> {
    fn default() -> Self {
        PackCodec::new()
    }
}

impl<T, L: Layout> core::fmt::Debug for PackCodec<T, L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PackCodec")
            .field("options", &self.options)
            .field("max_frame_len", &self.max_frame_len)
            .finish()
    }
}

impl<T: UnpackOwned, L: Layout> Decoder for PackCodec<T, L> {
    type Item = T;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<T>> {
        let Some(&first) = src.first() else {
            return Ok(None);
        };
        let n = varint::encoded_len(first);
        let Some(prefix) = src.get(..n) else {
            return Ok(None);
        };
        let (len, _) = varint::decode_u64(prefix).map_err(|_| {
            Error::new(
                ErrorKind::InvalidVarint,
                "a frame's length is not in its shortest form",
            )
        })?;
        let len = check_frame_len(len, self.max_frame_len)?;
        let Some(total) = n.checked_add(len) else {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                "a frame longer than memory",
            ));
        };
        if src.len() < total {
            src.reserve((total - src.len()).min(RESERVE_AHEAD));
            return Ok(None);
        }
        let frame = src.split_to(total).freeze();
        self.options.from_bytes(frame.slice(n..)).map(Some)
    }
}

impl<T: Pack, L: Layout> Encoder<&T> for PackCodec<T, L> {
    type Error = Error;

    fn encode(&mut self, value: &T, dst: &mut BytesMut) -> Result<()> {
        let options = self.options.max_bytes(self.max_frame_len);
        let frame = frame_bytes(&options, value, core::mem::take(&mut self.scratch))?;
        dst.extend_from_slice(&frame.bytes[frame.prefix_start..]);
        self.scratch = frame.bytes;
        Ok(())
    }
}

impl<T: Pack, L: Layout> Encoder<T> for PackCodec<T, L> {
    type Error = Error;

    fn encode(&mut self, value: T, dst: &mut BytesMut) -> Result<()> {
        Encoder::<&T>::encode(self, &value, dst)
    }
}
