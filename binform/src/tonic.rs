//! gRPC with binform messages: [`PackCodec`] is a [`tonic`] codec, so a
//! service whose messages are `#[derive(Packable)]` types needs no
//! protobuf and no `.proto` file (feature `tonic`).
//!
//! `PackCodec<E, D>` encodes `E` and decodes `D`, as tonic's own
//! `ProstCodec` does: a client of a method from `Req` to `Resp` uses
//! `PackCodec<Req, Resp>`, its server `PackCodec<Resp, Req>` (the server
//! encodes the response); `PackCodec::default()` lets tonic infer both. A message
//! that does not decode is [`tonic::Code::InvalidArgument`] with binform's
//! message (what, where, and the field path). tonic frames each message
//! and limits its size (4 MiB by default); every [`Options`] limit applies
//! inside it, and [`PackCodec::with_options`] sets them, the fixed-width
//! layout, fingerprints or self-describing headers.
//!
//! `examples/grpc_echo/` is a whole service written by hand (no code
//! generation), and `docs/services.md` the guide.
//!
//! ```
//! use binform::tonic::PackCodec;
//! use tonic::codec::Codec;
//!
//! #[derive(binform::Packable)]
//! struct Ping { seq: u32 }
//! #[derive(binform::Packable)]
//! struct Pong { seq: u32 }
//!
//! // A client's codec for a method from `Ping` to `Pong`, with limits.
//! let options = binform::Options::new().max_memory(1 << 20).fingerprint(true);
//! let mut codec = PackCodec::<Ping, Pong>::default().with_options(options);
//! let _encoder = codec.encoder();
//! ```

use core::marker::PhantomData;

use ::tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use ::tonic::Status;
use bytes::{Buf, BufMut};

use crate::layout::Compact;
use crate::{Layout, Options, Pack, UnpackOwned};

/// A tonic codec that encodes `E` and decodes `D` with binform, in layout
/// `L` ([`Compact`] unless the options say otherwise).
pub struct PackCodec<E, D, L: Layout = Compact> {
    options: Options<L>,
    _types: PhantomData<fn(E) -> D>,
}

impl<E, D> Default for PackCodec<E, D> {
    fn default() -> Self {
        PackCodec {
            options: Options::new(),
            _types: PhantomData,
        }
    }
}

impl<E, D, L: Layout> Clone for PackCodec<E, D, L> {
    fn clone(&self) -> Self {
        PackCodec {
            options: self.options,
            _types: PhantomData,
        }
    }
}

impl<E, D, L: Layout> core::fmt::Debug for PackCodec<E, D, L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PackCodec")
            .field("options", &self.options)
            .finish()
    }
}

impl<E, D, L: Layout> PackCodec<E, D, L> {
    /// The codec with `options` (their layout, limits and headers); both
    /// ends of a method must use the same layout and headers.
    pub fn with_options<M: Layout>(self, options: Options<M>) -> PackCodec<E, D, M> {
        PackCodec {
            options,
            _types: PhantomData,
        }
    }
}

impl<E, D, L> Codec for PackCodec<E, D, L>
where
    E: Pack + Send + 'static,
    D: UnpackOwned + Send + 'static,
    L: Layout + Send + 'static,
{
    type Encode = E;
    type Decode = D;
    type Encoder = PackEncoder<E, L>;
    type Decoder = PackDecoder<D, L>;

    fn encoder(&mut self) -> Self::Encoder {
        PackEncoder {
            options: self.options,
            _type: PhantomData,
        }
    }

    fn decoder(&mut self) -> Self::Decoder {
        PackDecoder {
            options: self.options,
            _type: PhantomData,
        }
    }
}

/// [`PackCodec`]'s encoder.
#[derive(Debug)]
pub struct PackEncoder<E, L: Layout> {
    options: Options<L>,
    _type: PhantomData<fn(E)>,
}

impl<E: Pack, L: Layout> Encoder for PackEncoder<E, L> {
    type Item = E;
    type Error = Status;

    fn encode(&mut self, item: E, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        let bytes = self
            .options
            .to_vec(&item)
            .map_err(|e| Status::internal(format!("binform could not encode the message: {e}")))?;
        dst.reserve(bytes.len());
        dst.put_slice(&bytes);
        Ok(())
    }
}

/// [`PackCodec`]'s decoder.
#[derive(Debug)]
pub struct PackDecoder<D, L: Layout> {
    options: Options<L>,
    _type: PhantomData<fn() -> D>,
}

impl<D: UnpackOwned, L: Layout> Decoder for PackDecoder<D, L> {
    type Item = D;
    type Error = Status;

    /// The message's bytes (tonic hands over exactly one, already framed
    /// and size-checked), read in place. They are not shared with the
    /// value's `Bytes` fields: a shared part would split tonic's read
    /// buffer, which then reallocated on a later message (a quarter of the
    /// calls took 2x as long), and a kept field would hold the buffer.
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<D>, Status> {
        let len = src.remaining();
        let result = if src.chunk().len() == len {
            let value = self.options.from_slice(src.chunk());
            src.advance(len);
            value
        } else {
            let bytes = src.copy_to_bytes(len);
            self.options.from_slice(&bytes)
        };
        result
            .map(Some)
            .map_err(|e| Status::invalid_argument(format!("the message does not decode: {e}")))
    }
}
