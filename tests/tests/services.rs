//! binform where services meet (issue 34): the axum extractor and
//! response, and the tonic codec, each against a real server on an
//! ephemeral loopback port, with a real client. Each test bounds its own
//! time and stops its server; the heap is counted on the test's thread
//! (where its current-thread runtime runs the server), for the
//! oversized-body and leak checks.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::routing::post;
use axum::{Extension, Router};
use binform::axum::{Packed, PackedConfig, CONTENT_TYPE};
use binform::Options;
use binform_tests::{ten_people, Person};
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::Frame;
use hyper::{Request, StatusCode};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;

#[path = "../../binform/examples/grpc_echo/service.rs"]
#[allow(dead_code)]
mod service;

// Each test runs its server and client on one current-thread runtime, so
// the thread's allocations are the requests' (other tests' threads do not
// count).
#[global_allocator]
static HEAP: binform_tests::heap::Counting = binform_tests::heap::Counting;

use binform_tests::heap::{in_use, peak_since, reset_peak};

/// Runs `test` on a current-thread runtime within `bound`.
fn run<F: Future<Output = ()>>(bound: Duration, test: F) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            tokio::time::timeout(bound, test)
                .await
                .expect("the test finishes in its time");
        });
}

// ---- axum --------------------------------------------------------------

/// A server on an ephemeral loopback port, stopped when dropped.
struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Binds a port and spawns `serve` on it with a shutdown signal.
    async fn spawn<F>(serve: impl FnOnce(tokio::net::TcpListener, StopSignal) -> F) -> Server
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let signal = async {
            let _ = stopped.await;
        };
        let task = tokio::spawn(serve(listener, Box::pin(signal)));
        Server {
            addr,
            stop: Some(stop),
            task,
        }
    }

    async fn axum(app: Router) -> Server {
        Server::spawn(|listener, stopped| async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(stopped)
                .await
                .unwrap();
        })
        .await
    }

    async fn tonic<M>() -> Server
    where
        M: binform::Pack + binform::UnpackOwned + Send + 'static,
    {
        Server::spawn(|listener, stopped| async move {
            service::serve(listener, service::EchoServer::<M>::new(), stopped)
                .await
                .unwrap();
        })
        .await
    }

    async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(Duration::from_secs(10), &mut self.task)
            .await
            .expect("the server stops")
            .unwrap();
    }
}

/// What stops a server.
type StopSignal = std::pin::Pin<Box<dyn Future<Output = ()> + Send>>;

type Body = BoxBody<Bytes, Infallible>;

fn client() -> Client<HttpConnector, Body> {
    Client::builder(TokioExecutor::new()).build_http()
}

fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into()).boxed()
}

/// A POST of `body` to `path` with `content_type`; the status and body.
async fn post_to(
    client: &Client<HttpConnector, Body>,
    server: &Server,
    path: &str,
    content_type: Option<&str>,
    body: Body,
) -> (StatusCode, Option<String>, Bytes) {
    let mut request = Request::post(format!("http://{}{path}", server.addr));
    if let Some(ct) = content_type {
        request = request.header(http::header::CONTENT_TYPE, ct);
    }
    let response = client.request(request.body(body).unwrap()).await.unwrap();
    let status = response.status();
    let ct = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string());
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, ct, body)
}

/// The status line's code for a POST whose headers declare `length`
/// bytes, sent without its body over raw TCP: a server that refuses it
/// from its headers answers without reading any body.
async fn status_for_declared(server: &Server, length: u64) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /people HTTP/1.1\r\nHost: {}\r\nContent-Type: {CONTENT_TYPE}\r\nContent-Length: {length}\r\n\r\n",
        server.addr
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut answer = [0u8; 12];
    tcp.read_exact(&mut answer).await.unwrap();
    std::str::from_utf8(&answer[9..12])
        .unwrap()
        .parse()
        .unwrap()
}

async fn echo_people(Packed(people): Packed<Vec<Person>>) -> Packed<Vec<Person>> {
    Packed(people)
}

fn app(config: Option<PackedConfig>) -> Router {
    let router = Router::new().route("/people", post(echo_people));
    match config {
        Some(config) => router.layer(Extension(config)),
        None => router,
    }
}

#[test]
fn axum_round_trips_and_answers_each_bad_request_with_its_status() {
    run(Duration::from_secs(60), async {
        let server = Server::axum(app(None)).await;
        let client = client();
        let people = ten_people();
        let body = binform::to_vec(&people).unwrap();

        let (status, ct, back) = post_to(
            &client,
            &server,
            "/people",
            Some(CONTENT_TYPE),
            full(body.clone()),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(ct.as_deref(), Some(CONTENT_TYPE));
        assert_eq!(binform::from_slice::<Vec<Person>>(&back).unwrap(), people);
        // A parameter after the media type is fine.
        let with_charset = format!("{CONTENT_TYPE}; v=1");
        let (status, _, _) = post_to(
            &client,
            &server,
            "/people",
            Some(&with_charset),
            full(body.clone()),
        )
        .await;
        assert_eq!(status, StatusCode::OK);

        // 415: no content type, or another one.
        for ct in [
            None,
            Some("application/json"),
            Some("application/x-binformx"),
        ] {
            let (status, _, text) =
                post_to(&client, &server, "/people", ct, full(body.clone())).await;
            assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct:?}");
            assert!(String::from_utf8_lossy(&text).contains(CONTENT_TYPE));
        }

        // 400: the error's message, with where and the field path.
        let mut bad = body.clone();
        let name = people[0].name.as_bytes();
        let at = bad.windows(name.len()).position(|w| w == name).unwrap();
        bad[at] = 0xFF;
        let (status, _, text) =
            post_to(&client, &server, "/people", Some(CONTENT_TYPE), full(bad)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let text = String::from_utf8_lossy(&text);
        // The names are a column (§27): the path names the field.
        assert!(text.contains("UTF-8") && text.contains(".name"), "{text}");
        let (status, _, _) = post_to(
            &client,
            &server,
            "/people",
            Some(CONTENT_TYPE),
            full(vec![0x05]),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);

        // 413 under axum's default limit (2 MB), for a body of 3 MB.
        let big = vec![0u8; 3 << 20];
        let (status, _, _) =
            post_to(&client, &server, "/people", Some(CONTENT_TYPE), full(big)).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        server.stop().await;
    });
}

/// A body of `total` bytes in 64 KiB chunks made as they are sent, with no
/// `Content-Length`.
fn streamed(total: usize) -> Body {
    let chunks = (0..total.div_ceil(1 << 16))
        .map(|_| Ok::<_, Infallible>(Frame::data(Bytes::from(vec![0u8; 1 << 16]))));
    StreamBody::new(futures_util::stream::iter(chunks)).boxed()
}

#[test]
fn an_oversized_body_is_refused_without_buffering_it() {
    run(Duration::from_secs(60), async {
        let limit = 1 << 20;
        let config = PackedConfig::new(Options::new()).body_limit(limit);
        let server = Server::axum(app(Some(config))).await;

        // Declared too long: refused from its headers, before any of the
        // body is sent.
        assert_eq!(status_for_declared(&server, 64 << 20).await, 413);

        // Streamed without a length: refused once past the limit, the
        // server's heap never holding twice the limit. The client runs on
        // a thread of its own, so that only the server's allocations are
        // counted. (The server may reset the connection while the client
        // still sends; the answer is then lost, not the bound.)
        let before = reset_peak();
        let uri = format!("http://{}/people", server.addr);
        let answer = tokio::task::spawn_blocking(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let request = Request::post(uri)
                    .header(http::header::CONTENT_TYPE, CONTENT_TYPE)
                    .body(streamed(64 << 20))
                    .unwrap();
                match client().request(request).await {
                    Ok(response) => {
                        let status = response.status();
                        let text = response.into_body().collect().await.unwrap().to_bytes();
                        Some((status, String::from_utf8_lossy(&text).into_owned()))
                    }
                    Err(_) => None,
                }
            })
        })
        .await
        .unwrap();
        if let Some((status, text)) = answer {
            assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
            assert!(text.contains(&limit.to_string()), "{text}");
        }
        let peak = peak_since(before);
        // It read up to the limit, and not past it.
        assert!(
            peak > limit as isize / 2 && peak < 2 * limit as isize,
            "peak {peak} for a limit of {limit}"
        );

        // Within the limit, the same server answers.
        let body = binform::to_vec(&ten_people()).unwrap();
        let (status, _, _) = post_to(
            &client(),
            &server,
            "/people",
            Some(CONTENT_TYPE),
            full(body),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        server.stop().await;
    });
}

#[test]
fn the_config_reaches_the_extractor_and_responses_take_options() {
    run(Duration::from_secs(60), async {
        // Requests in the fixed layout with a fingerprint; the reply too.
        let fixed = Options::new().fixed_width().fingerprint(true);
        let router = Router::new()
            .route(
                "/people",
                post(move |Packed(people): Packed<Vec<Person>>| async move {
                    Packed(people).respond_with(&Options::new().fixed_width().fingerprint(true))
                }),
            )
            .layer(Extension(PackedConfig::new(fixed)));
        let server = Server::axum(router).await;
        let client = client();
        let people = ten_people();
        let (status, _, back) = post_to(
            &client,
            &server,
            "/people",
            Some(CONTENT_TYPE),
            full(fixed.to_vec(&people).unwrap()),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(fixed.from_slice::<Vec<Person>>(&back).unwrap(), people);
        // A compact body, without the fingerprint's header, is refused.
        let (status, _, text) = post_to(
            &client,
            &server,
            "/people",
            Some(CONTENT_TYPE),
            full(binform::to_vec(&people).unwrap()),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text:?}");
        server.stop().await;
    });
}

/// `n` round trips, then the heap in use compared with before them.
async fn leaks_over<F, Fut>(n: usize, mut one: F) -> isize
where
    F: FnMut() -> Fut,
    Fut: Future<Output = ()>,
{
    for _ in 0..20 {
        one().await; // warm up: connection pools, buffers
    }
    let before = in_use();
    for _ in 0..n {
        one().await;
    }
    in_use() - before
}

#[test]
fn a_thousand_axum_requests_leak_nothing() {
    run(Duration::from_secs(120), async {
        let server = Server::axum(app(None)).await;
        let client = client();
        let people = ten_people();
        let body = Bytes::from(binform::to_vec(&people).unwrap());
        let grown = leaks_over(1000, || {
            let (client, body, server) = (&client, body.clone(), &server);
            async move {
                let (status, _, back) =
                    post_to(client, server, "/people", Some(CONTENT_TYPE), full(body)).await;
                assert_eq!(status, StatusCode::OK);
                assert_eq!(back.len(), binform::to_vec(&ten_people()).unwrap().len());
            }
        })
        .await;
        assert!(
            grown < 64 << 10,
            "the heap grew {grown} bytes over 1,000 requests"
        );
        server.stop().await;
    });
}

// ---- tonic -------------------------------------------------------------

async fn channel(server: &Server) -> tonic::transport::Channel {
    tonic::transport::Endpoint::from_shared(format!("http://{}", server.addr))
        .unwrap()
        .connect()
        .await
        .unwrap()
}

#[test]
fn tonic_round_trips_and_a_bad_message_is_invalid_argument() {
    run(Duration::from_secs(60), async {
        let server = Server::tonic::<Vec<Person>>().await;
        let channel = channel(&server).await;
        let people = ten_people();
        let back = service::echo(channel.clone(), people.clone())
            .await
            .unwrap();
        assert_eq!(back, people);

        // A message of another type: the server's decoder refuses it.
        let mut client = tonic::client::Grpc::new(channel.clone());
        client.ready().await.unwrap();
        let status = client
            .unary(
                tonic::Request::new("not people".to_string()),
                http::uri::PathAndQuery::from_static(service::ECHO),
                binform::tonic::PackCodec::<String, Vec<Person>>::default(),
            )
            .await
            .unwrap_err();
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert!(status.message().contains("does not decode"), "{status:?}");

        // A method the service does not have.
        let mut client = tonic::client::Grpc::new(channel.clone());
        client.ready().await.unwrap();
        let status = client
            .unary(
                tonic::Request::new(people),
                http::uri::PathAndQuery::from_static("/echo.Echo/Nothing"),
                binform::tonic::PackCodec::<Vec<Person>, Vec<Person>>::default(),
            )
            .await
            .unwrap_err();
        assert_eq!(status.code(), tonic::Code::Unimplemented);
        drop(channel);
        server.stop().await;
    });
}

#[test]
fn a_thousand_tonic_calls_leak_nothing() {
    run(Duration::from_secs(120), async {
        let server = Server::tonic::<Vec<Person>>().await;
        let channel = channel(&server).await;
        let people = ten_people();
        let grown = leaks_over(1000, || {
            let (channel, people) = (channel.clone(), people.clone());
            async move {
                let back = service::echo(channel, people).await.unwrap();
                assert_eq!(back.len(), 10);
            }
        })
        .await;
        assert!(
            grown < 64 << 10,
            "the heap grew {grown} bytes over 1,000 calls"
        );
        drop(channel);
        server.stop().await;
    });
}
