//! binform where services meet (issue 34), on loopback in one process:
//! the seed's ten people sent to an echo endpoint and back, through
//! axum with `binform::axum::Packed` and with `axum::Json`, and through
//! tonic with `binform::tonic::PackCodec` and with prost messages of the
//! same shape. Bytes on the wire are printed before the timings.
//!
//! `cargo bench -p binform-benches --bench services`

use std::hint::black_box;
use std::net::SocketAddr;
use std::time::Duration;

use axum::routing::post;
use axum::{Json, Router};
use binform::axum::{Packed, CONTENT_TYPE};
use binform_fixtures::seed::{ten_people, Person};
use bytes::Bytes;
use criterion::Criterion;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;

#[path = "../../binform/examples/grpc_echo/service.rs"]
#[allow(dead_code)]
mod service;

/// The people as protobuf messages of the same shape.
#[derive(Clone, PartialEq, prost::Message)]
struct PersonPb {
    #[prost(string, tag = "1")]
    name: String,
    #[prost(int32, tag = "2")]
    age: i32,
    #[prost(string, repeated, tag = "3")]
    programming_keywords: Vec<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PeoplePb {
    #[prost(message, repeated, tag = "1")]
    people: Vec<PersonPb>,
}

fn people_pb() -> PeoplePb {
    PeoplePb {
        people: ten_people()
            .into_iter()
            .map(|p| PersonPb {
                name: p.name,
                age: p.age,
                programming_keywords: p.programming_keywords,
            })
            .collect(),
    }
}

async fn serve_axum() -> SocketAddr {
    let app = Router::new()
        .route(
            "/binform",
            post(|Packed(people): Packed<Vec<Person>>| async move { Packed(people) }),
        )
        .route(
            "/json",
            post(|Json(people): Json<Vec<Person>>| async move { Json(people) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

async fn post_body(
    client: &Client<HttpConnector, Full<Bytes>>,
    uri: &str,
    content_type: &str,
    body: Bytes,
) -> Bytes {
    let request = http::Request::post(uri)
        .header(http::header::CONTENT_TYPE, content_type)
        .body(Full::new(body))
        .unwrap();
    let response = client.request(request).await.unwrap();
    assert!(response.status().is_success());
    response.into_body().collect().await.unwrap().to_bytes()
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let people = ten_people();
    let pb = people_pb();
    let binform_body = binform::to_vec(&people).unwrap();
    let json_body = serde_json::to_vec(&people).unwrap();
    println!(
        "bytes on the wire, one way: binform {}, JSON {}, protobuf {}",
        binform_body.len(),
        json_body.len(),
        prost::Message::encoded_len(&pb)
    );

    let http_addr = rt.block_on(serve_axum());
    let client: Client<HttpConnector, Full<Bytes>> =
        Client::builder(TokioExecutor::new()).build_http();
    let mut g = c.benchmark_group("services_axum");
    let uri = format!("http://{http_addr}/binform");
    g.bench_function("binform", |b| {
        b.iter(|| {
            rt.block_on(async {
                let body = Bytes::from(binform::to_vec(black_box(&people)).unwrap());
                let back = post_body(&client, &uri, CONTENT_TYPE, body).await;
                black_box(binform::from_slice::<Vec<Person>>(&back).unwrap())
            })
        })
    });
    let uri = format!("http://{http_addr}/json");
    g.bench_function("axum_json", |b| {
        b.iter(|| {
            rt.block_on(async {
                let body = Bytes::from(serde_json::to_vec(black_box(&people)).unwrap());
                let back = post_body(&client, &uri, "application/json", body).await;
                black_box(serde_json::from_slice::<Vec<Person>>(&back).unwrap())
            })
        })
    });
    g.finish();

    let listen = || {
        let listener = rt
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        (listener, addr)
    };
    let (listener, pack_addr) = listen();
    let forever = std::future::pending::<()>;
    rt.spawn(service::serve(
        listener,
        service::EchoServer::<Vec<Person>>::new(),
        forever(),
    ));
    let (listener, prost_addr) = listen();
    rt.spawn(service::serve(
        listener,
        service::EchoServer::<PeoplePb, tonic_prost::ProstCodec<PeoplePb, PeoplePb>>::new(),
        forever(),
    ));
    let connect = |addr: SocketAddr| {
        rt.block_on(
            tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
                .unwrap()
                .connect(),
        )
        .unwrap()
    };
    let (pack_channel, prost_channel) = (connect(pack_addr), connect(prost_addr));
    let mut g = c.benchmark_group("services_tonic");
    g.bench_function("binform", |b| {
        b.iter(|| {
            rt.block_on(service::echo(
                pack_channel.clone(),
                black_box(people.clone()),
            ))
            .unwrap()
        })
    });
    g.bench_function("prost", |b| {
        b.iter(|| {
            rt.block_on(service::echo_with(
                prost_channel.clone(),
                black_box(pb.clone()),
                tonic_prost::ProstCodec::<PeoplePb, PeoplePb>::default(),
            ))
            .unwrap()
        })
    });
    g.finish();
    c.final_summary();
    write_table(&[
        (
            "services_axum",
            "binform",
            "axum, `binform::axum::Packed`",
            binform_body.len(),
        ),
        (
            "services_axum",
            "axum_json",
            "axum, `axum::Json`",
            json_body.len(),
        ),
        (
            "services_tonic",
            "binform",
            "tonic, `binform::tonic::PackCodec`",
            binform_body.len(),
        ),
        (
            "services_tonic",
            "prost",
            "tonic, prost (same shape)",
            prost::Message::encoded_len(&pb),
        ),
    ]);
}

/// Writes the section `docs/benchmarks.md` shows (through the report):
/// each row's bytes each way and criterion's median time per request, as
/// the report gives every other time.
fn write_table(rows: &[(&str, &str, &str, usize)]) {
    let criterion = binform_benches::target_dir().join("criterion");
    let mut md = String::from(
        "## Services (issue 34)\n\nThe seed's ten people sent to an echo endpoint and back on loopback, \
         one process, one current-thread runtime (`cargo bench -p binform-benches --bench services`); \
         `docs/services.md` says what each row runs.\n\n\
         | endpoint | bytes each way | time per request |\n|---|---:|---:|\n",
    );
    for (group, id, name, bytes) in rows {
        let estimates = criterion.join(group).join(id).join("new/estimates.json");
        let median = std::fs::read_to_string(estimates)
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .and_then(|v| v["median"]["point_estimate"].as_f64());
        let time = median.map_or("–".to_string(), |ns| format!("{:.1} µs", ns / 1000.0));
        md.push_str(&format!("| {name} | {bytes} | {time} |\n"));
    }
    let dir = binform_benches::report_dir();
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("services.md"), md);
}
