//! HTTP bodies in binform for [axum](https://docs.rs/axum) (feature
//! `axum`): [`Packed<T>`] is an extractor that reads a request body of
//! content type [`CONTENT_TYPE`] into `T`, and a response that writes `T`
//! with that content type.
//!
//! | request | status |
//! |---|---|
//! | no `Content-Type`, or another one | 415 Unsupported Media Type |
//! | a body over the limit (by its `Content-Length`, before any of it is read; without one, as soon as it passes the limit) | 413 Payload Too Large |
//! | a body that does not decode | 400 Bad Request, with binform's message: what, at which byte, and the field path |
//!
//! The body limit is axum's (2 MB, or what a `DefaultBodyLimit` layer
//! sets) unless a [`PackedConfig`] says otherwise (its limit then wins
//! over axum's). The same
//! `PackedConfig`, added to the router as an extension, gives the
//! extractor its [`Options`]: memory budget, depth, fingerprints,
//! self-describing headers, and the fixed-width layout. A response
//! written with other options than the default ones is
//! [`Packed::respond_with`].
//!
//! ```
//! use axum::{routing::post, Extension, Router};
//! use binform::axum::{Packed, PackedConfig};
//!
//! #[derive(binform::Packable)]
//! struct Order { id: u64, items: Vec<String> }
//! #[derive(binform::Packable)]
//! struct Receipt { id: u64, count: u32 }
//!
//! async fn place(Packed(order): Packed<Order>) -> Packed<Receipt> {
//!     Packed(Receipt { id: order.id, count: order.items.len() as u32 })
//! }
//!
//! let config = PackedConfig::new(binform::Options::new().max_memory(1 << 20))
//!     .body_limit(64 * 1024);
//! let app: Router = Router::new()
//!     .route("/orders", post(place))
//!     .layer(Extension(config));
//! ```

use axum_core::body::Body;
use axum_core::extract::{FromRequest, Request};
use axum_core::response::{IntoResponse, Response};
use axum_core::RequestExt;
use bytes::Bytes;
use http::{header, HeaderValue, StatusCode};
use http_body_util::BodyExt;

use crate::layout::{Compact, Fixed};
use crate::{Layout, Options, Pack, UnpackOwned};

/// The media type of a binform body.
pub const CONTENT_TYPE: &str = "application/x-binform";

/// A request body decoded from binform, or a response body encoded in it
/// (see the [module](self) for statuses and limits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Packed<T>(pub T);

/// How [`Packed`] reads requests: the [`Options`] (either layout) and the
/// body limit. Add it to a router with `.layer(Extension(config))`;
/// without it, requests are read with `Options::new()` and axum's body
/// limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedConfig {
    options: Layouts,
    body_limit: Option<usize>,
}

/// Options in one of the two layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layouts {
    Compact(Options<Compact>),
    Fixed(Options<Fixed>),
}

impl PackedConfig {
    /// Requests read with `options`, in their layout.
    pub fn new<L: Layout>(options: Options<L>) -> Self {
        let options = if L::FIXED {
            Layouts::Fixed(options.in_layout::<Fixed>())
        } else {
            Layouts::Compact(options.in_layout::<Compact>())
        };
        PackedConfig {
            options,
            body_limit: None,
        }
    }

    /// The largest body read, in bytes, instead of axum's: a longer one
    /// is 413, refused by its `Content-Length` before any of it is read,
    /// or, without one, as soon as it passes the limit (what was buffered
    /// until then is about the limit).
    #[must_use]
    pub fn body_limit(mut self, limit: usize) -> Self {
        self.body_limit = Some(limit);
        self
    }
}

impl Default for PackedConfig {
    fn default() -> Self {
        PackedConfig::new(Options::new())
    }
}

/// Why a [`Packed`] extractor refused a request; as a response, its
/// status and a one-line message.
#[derive(Debug)]
#[non_exhaustive]
pub enum PackedRejection {
    /// No `Content-Type`, or not [`CONTENT_TYPE`] (415).
    UnsupportedMediaType,
    /// A body longer than the limit (413).
    TooLarge {
        /// The limit, where known.
        limit: Option<usize>,
    },
    /// The body could not be read (400).
    Unreadable(String),
    /// The body did not decode (400).
    Invalid(crate::Error),
}

impl PackedRejection {
    /// The response's status.
    pub fn status(&self) -> StatusCode {
        match self {
            PackedRejection::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            PackedRejection::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            PackedRejection::Unreadable(_) | PackedRejection::Invalid(_) => StatusCode::BAD_REQUEST,
        }
    }
}

impl core::fmt::Display for PackedRejection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PackedRejection::UnsupportedMediaType => {
                write!(f, "expected a request with `Content-Type: {CONTENT_TYPE}`")
            }
            PackedRejection::TooLarge { limit: Some(n) } => {
                write!(f, "the body is over the limit of {n} bytes")
            }
            PackedRejection::TooLarge { limit: None } => f.write_str("the body is over the limit"),
            PackedRejection::Unreadable(e) => write!(f, "cannot read the body: {e}"),
            PackedRejection::Invalid(e) => write!(f, "the body does not decode: {e}"),
        }
    }
}

impl std::error::Error for PackedRejection {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PackedRejection::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

impl IntoResponse for PackedRejection {
    fn into_response(self) -> Response {
        (self.status(), self.to_string()).into_response()
    }
}

/// Whether `headers` say the body is binform (parameters allowed).
fn is_binform(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case(CONTENT_TYPE))
}

/// Whether `e` (or what caused it) is a body over its limit.
fn over_limit(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut at = Some(e);
    while let Some(e) = at {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        at = e.source();
    }
    false
}

/// The body of `req`, at most `limit` bytes (axum's when `None`). A body
/// whose `Content-Length` is over the limit is refused before any of it
/// is read: the limited body's size hint says so, whichever limit it has.
async fn read_body(req: Request, limit: Option<usize>) -> Result<Bytes, PackedRejection> {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let body = match limit {
        Some(limit) => Body::new(http_body_util::Limited::new(req.into_body(), limit)),
        None => req.into_limited_body(),
    };
    let room = http_body::Body::size_hint(&body).upper();
    if let (Some(declared), Some(room)) = (declared, room) {
        if declared > room {
            return Err(PackedRejection::TooLarge { limit });
        }
    }
    match body.collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) => {
            let e = e.into_inner();
            if over_limit(&*e) {
                Err(PackedRejection::TooLarge { limit })
            } else {
                Err(PackedRejection::Unreadable(e.to_string()))
            }
        }
    }
}

impl<T, S> FromRequest<S> for Packed<T>
where
    T: UnpackOwned,
    S: Send + Sync,
{
    type Rejection = PackedRejection;

    async fn from_request(req: Request, _: &S) -> Result<Self, Self::Rejection> {
        if !is_binform(req.headers()) {
            return Err(PackedRejection::UnsupportedMediaType);
        }
        let config = req
            .extensions()
            .get::<PackedConfig>()
            .copied()
            .unwrap_or_default();
        let bytes = read_body(req, config.body_limit).await?;
        let value = match config.options {
            Layouts::Compact(options) => options.from_bytes(bytes),
            Layouts::Fixed(options) => options.from_bytes(bytes),
        };
        value.map(Packed).map_err(PackedRejection::Invalid)
    }
}

impl<T: Pack> Packed<T> {
    /// The response with `options`' layout and headers (the request's
    /// [`PackedConfig`] does not reach responses).
    pub fn respond_with<L: Layout>(&self, options: &Options<L>) -> Response {
        match options.to_vec(&self.0) {
            Ok(bytes) => (
                [(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE))],
                bytes,
            )
                .into_response(),
            Err(e) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("binform could not encode the response: {e}"),
            )
                .into_response(),
        }
    }
}

/// The body in binform with default options, `Content-Type`
/// [`CONTENT_TYPE`]; a value that does not encode (a strong cycle) is
/// 500.
impl<T: Pack> IntoResponse for Packed<T> {
    fn into_response(self) -> Response {
        self.respond_with(&Options::new())
    }
}
