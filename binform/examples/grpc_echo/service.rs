//! An echo service for any binform message, written by hand (no `.proto`
//! file, no code generation): the `tower` service tonic's server routes
//! to, and a client. What `tonic-build` would generate, in a screen. The
//! codec is a parameter (binform's `PackCodec` unless named), so the
//! benchmarks run the same service with protobuf.

use std::convert::Infallible;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use binform::tonic::PackCodec;
use tonic::body::Body;
use tonic::codec::Codec;
use tonic::codegen::http;
use tonic::{Request, Response, Status};

/// The method's path: `/<package>.<Service>/<Method>`.
pub const ECHO: &str = "/echo.Echo/Echo";

/// The server: answers [`ECHO`] with the request's message `M`, read and
/// written by the codec `C`.
pub struct EchoServer<M, C = PackCodec<M, M>>(PhantomData<fn(M, C) -> M>);

impl<M, C> EchoServer<M, C> {
    pub fn new() -> Self {
        EchoServer(PhantomData)
    }
}

impl<M, C> Clone for EchoServer<M, C> {
    fn clone(&self) -> Self {
        EchoServer(PhantomData)
    }
}

impl<M, C> tonic::server::NamedService for EchoServer<M, C> {
    const NAME: &'static str = "echo.Echo";
}

/// The method itself: a unary handler.
struct Echo<M>(PhantomData<fn(M) -> M>);

impl<M: Send + 'static> tonic::server::UnaryService<M> for Echo<M> {
    type Response = M;
    type Future = std::future::Ready<Result<Response<M>, Status>>;

    fn call(&mut self, request: Request<M>) -> Self::Future {
        std::future::ready(Ok(Response::new(request.into_inner())))
    }
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = Result<T, Infallible>> + Send>>;

impl<M, C> tower_service::Service<http::Request<Body>> for EchoServer<M, C>
where
    M: Send + 'static,
    C: Codec<Encode = M, Decode = M> + Default + Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<Self::Response>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        if request.uri().path() != ECHO {
            return Box::pin(async { Ok(Status::unimplemented("no such method").into_http()) });
        }
        Box::pin(async move {
            // The server decodes the request's `M` and encodes its reply.
            let mut grpc = tonic::server::Grpc::new(C::default());
            Ok(grpc.unary(Echo(PhantomData), request).await)
        })
    }
}

/// Calls [`ECHO`] on `channel` with `message`, through binform.
pub async fn echo<M>(channel: tonic::transport::Channel, message: M) -> Result<M, Status>
where
    M: binform::Pack + binform::UnpackOwned + Send + Sync + 'static,
{
    echo_with(channel, message, PackCodec::<M, M>::default()).await
}

/// Calls [`ECHO`] on `channel` with `message`, through `codec`.
pub async fn echo_with<M, C>(
    channel: tonic::transport::Channel,
    message: M,
    codec: C,
) -> Result<M, Status>
where
    M: Send + Sync + 'static,
    C: Codec<Encode = M, Decode = M>,
{
    let mut client = tonic::client::Grpc::new(channel);
    client
        .ready()
        .await
        .map_err(|e| Status::unavailable(e.to_string()))?;
    let path = http::uri::PathAndQuery::from_static(ECHO);
    let response = client.unary(Request::new(message), path, codec).await?;
    Ok(response.into_inner())
}

/// The listener's connections with Nagle's algorithm off, as tonic sets
/// them when it binds the address itself (small gRPC frames otherwise
/// wait for the peer's delayed acknowledgement).
pub fn incoming(
    listener: tokio::net::TcpListener,
) -> impl tokio_stream::Stream<Item = std::io::Result<tokio::net::TcpStream>> {
    use tokio_stream::StreamExt;
    tokio_stream::wrappers::TcpListenerStream::new(listener).map(|tcp| {
        let tcp = tcp?;
        tcp.set_nodelay(true)?;
        Ok(tcp)
    })
}

/// Serves `service` on `listener` (Nagle off) until `shutdown` completes.
pub async fn serve<S>(
    listener: tokio::net::TcpListener,
    service: S,
    shutdown: impl Future<Output = ()>,
) -> Result<(), tonic::transport::Error>
where
    S: tower_service::Service<
            http::Request<Body>,
            Response = http::Response<Body>,
            Error = Infallible,
        > + tonic::server::NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    tonic::transport::Server::builder()
        .add_service(service)
        .serve_with_incoming_shutdown(incoming(listener), shutdown)
        .await
}
