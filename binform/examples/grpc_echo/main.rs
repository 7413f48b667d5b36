//! A gRPC service whose messages are `#[derive(Packable)]` types, with no
//! protobuf: a server and a client in one process on 127.0.0.1.
//!
//! ```text
//! cargo run -p binform --example grpc_echo --features tonic
//! ```

mod service;

use binform::Packable;

#[derive(Packable, Debug, Clone, PartialEq)]
struct Greeting {
    from: String,
    words: Vec<String>,
    mood: Mood,
}

#[derive(Packable, Debug, Clone, PartialEq)]
enum Mood {
    Calm,
    Excited { exclamation_marks: u8 },
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(service::serve(
        listener,
        service::EchoServer::<Greeting>::new(),
        async {
            let _ = stopped.await;
        },
    ));

    let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))?
        .connect()
        .await?;
    let greeting = Greeting {
        from: "binform".into(),
        words: vec!["hello".into(), "over".into(), "gRPC".into()],
        mood: Mood::Excited {
            exclamation_marks: 3,
        },
    };
    let back = service::echo(channel, greeting.clone()).await?;
    assert_eq!(back, greeting);
    println!("{addr} echoed {back:?}");
    println!(
        "{} bytes of binform where JSON would take {}",
        binform::to_vec(&greeting)?.len(),
        r#"{"from":"binform","words":["hello","over","gRPC"],"mood":{"Excited":{"exclamation_marks":3}}}"#.len()
    );

    let _ = stop.send(());
    server.await??;
    Ok(())
}
