//! The BinaryFormatter article's message loop: a client sends 10,000
//! messages (a person with one credit card) over loopback TCP to a server
//! that decodes and acknowledges each, all through binform frames and the
//! tokio codec.
//!
//! `cargo run --release --example message_loop --features tokio`

use std::io::Write;
use std::time::Instant;

use binform::codec::PackCodec;
use binform_fixtures::seed::{kate, CardHolder};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{FramedRead, FramedWrite};

const MESSAGES: u32 = 10_000;

/// Decodes every message and acknowledges it with its number.
async fn server(listener: TcpListener) -> binform::Result<u64> {
    let (socket, _) = listener.accept().await?;
    let (read, write) = socket.into_split();
    let mut messages = FramedRead::new(read, PackCodec::<CardHolder>::new().max_frame_len(1 << 20));
    let mut acks = FramedWrite::new(write, PackCodec::<u32>::new());
    let mut cards = 0u64;
    let mut n = 0u32;
    while let Some(message) = messages.next().await {
        let holder = message?;
        cards += holder.cards.len() as u64;
        n += 1;
        acks.send(n).await?;
    }
    Ok(cards)
}

fn main() -> binform::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let server = tokio::spawn(server(listener));

        let socket = TcpStream::connect(addr).await?;
        socket.set_nodelay(true)?;
        let (read, write) = socket.into_split();
        let mut out = FramedWrite::new(write, PackCodec::<CardHolder>::new());
        let mut acks = FramedRead::new(read, PackCodec::<u32>::new());
        let message = kate(1);
        let mut frame = Vec::new();
        binform::io::write_frame(&mut frame, &message)?;

        println!(
            "binform message loop: {MESSAGES} messages (a person with one credit card) over loopback TCP"
        );
        let start = Instant::now();
        let sender = tokio::spawn(async move {
            for _ in 0..MESSAGES {
                out.feed(&message).await?;
            }
            SinkExt::<&CardHolder>::close(&mut out).await?;
            Ok::<_, binform::Error>(())
        });
        let mut last = 0;
        while let Some(ack) = acks.next().await {
            last = ack?;
            if last % 1000 == 0 || last == MESSAGES {
                print!("\r  acknowledged {last:>6} / {MESSAGES}");
                let _ = std::io::stdout().flush();
            }
            if last == MESSAGES {
                break;
            }
        }
        let elapsed = start.elapsed();
        println!();
        sender.await.expect("sender task")?;
        let cards = server.await.expect("server task")?;
        assert_eq!((last, cards), (MESSAGES, u64::from(MESSAGES)));

        let per_second = f64::from(MESSAGES) / elapsed.as_secs_f64();
        println!("  {per_second:>9.0} messages per second, each decoded and acknowledged");
        let value_len = binform::to_vec(&kate(1))?.len();
        println!(
            "  {:>9} bytes per message on the wire ({value_len} of value, {} of frame length)",
            frame.len(),
            frame.len() - value_len,
        );
        println!("  the article: about 1,000 bytes per message with BinaryFormatter, about 70 written by hand");
        Ok(())
    })
}
