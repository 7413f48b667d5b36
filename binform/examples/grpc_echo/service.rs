//! An echo service for any binform message, written by hand (no `.proto`
//! file, no code generation): the `tower` service tonic's server routes
//! to, and a client. What `tonic-build` would generate, in a screen.

use std::convert::Infallible;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use binform::tonic::PackCodec;
use binform::{Pack, UnpackOwned};
use tonic::body::Body;
use tonic::codegen::http;
use tonic::{Request, Response, Status};

/// The method's path: `/<package>.<Service>/<Method>`.
pub const ECHO: &str = "/echo.Echo/Echo";

/// The server: answers [`ECHO`] with the request's message.
pub struct EchoServer<M>(PhantomData<fn(M) -> M>);

impl<M> EchoServer<M> {
    pub fn new() -> Self {
        EchoServer(PhantomData)
    }
}

impl<M> Clone for EchoServer<M> {
    fn clone(&self) -> Self {
        EchoServer(PhantomData)
    }
}

impl<M> tonic::server::NamedService for EchoServer<M> {
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

impl<M> tower_service::Service<http::Request<Body>> for EchoServer<M>
where
    M: Pack + UnpackOwned + Send + 'static,
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
            let mut grpc = tonic::server::Grpc::new(PackCodec::<M, M>::default());
            Ok(grpc.unary(Echo(PhantomData), request).await)
        })
    }
}

/// Calls [`ECHO`] on `channel` with `message`.
pub async fn echo<M>(channel: tonic::transport::Channel, message: M) -> Result<M, Status>
where
    M: Pack + UnpackOwned + Send + Sync + 'static,
{
    let mut client = tonic::client::Grpc::new(channel);
    client
        .ready()
        .await
        .map_err(|e| Status::unavailable(e.to_string()))?;
    let path = http::uri::PathAndQuery::from_static(ECHO);
    let response = client
        .unary(Request::new(message), path, PackCodec::<M, M>::default())
        .await?;
    Ok(response.into_inner())
}
