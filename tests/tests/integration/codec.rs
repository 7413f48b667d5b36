//! The tokio codec: the frame format of `binform::io`, partial frames
//! across reads, limits before buffering, and a loopback server that
//! survives oversized frames and garbage (127.0.0.1 only, bounded in count
//! and time).

use std::time::Duration;

use binform::codec::PackCodec;
use binform::{ErrorKind, Options};
use binform_tests::{kate, CardHolder};
use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Decoder, Encoder, Framed};

const LIMIT: usize = 64 * 1024;

#[test]
fn codec_and_io_frames_are_one_format() {
    let mut codec = PackCodec::<CardHolder>::new();
    let mut wire = BytesMut::new();
    codec.encode(&kate(2), &mut wire).unwrap();
    codec.encode(kate(0), &mut wire).unwrap();
    let mut io_bytes = Vec::new();
    binform::io::write_frame(&mut io_bytes, &kate(2)).unwrap();
    binform::io::write_frame(&mut io_bytes, &kate(0)).unwrap();
    assert_eq!(&wire[..], &io_bytes[..]);
    let mut reader = &wire[..];
    assert_eq!(
        binform::io::read_frame::<CardHolder>(&mut reader).unwrap(),
        Some(kate(2))
    );
    assert_eq!(codec.decode(&mut wire).unwrap(), Some(kate(2)));
    assert_eq!(codec.decode(&mut wire).unwrap(), Some(kate(0)));
    assert_eq!(codec.decode(&mut wire).unwrap(), None);
}

#[test]
fn partial_frames_at_every_byte_boundary() {
    let mut codec = PackCodec::<CardHolder>::new();
    let mut all = BytesMut::new();
    for i in 0..3 {
        codec.encode(&kate(i), &mut all).unwrap();
    }
    for split in 0..=all.len() {
        let mut src = BytesMut::from(&all[..split]);
        let mut got = Vec::new();
        while let Some(v) = codec.decode(&mut src).unwrap() {
            got.push(v);
        }
        src.extend_from_slice(&all[split..]);
        while let Some(v) = codec.decode(&mut src).unwrap() {
            got.push(v);
        }
        assert_eq!(got, [kate(0), kate(1), kate(2)], "split at {split}");
        assert!(src.is_empty());
    }
}

#[test]
fn oversized_frames_fail_before_buffering() {
    let mut codec = PackCodec::<Vec<u8>>::new().max_frame_len(LIMIT);
    // A header claiming 2^30 bytes: an error at once, nothing reserved.
    let mut src = BytesMut::new();
    let mut header = Vec::new();
    binform::Writer::new(&mut header).write_varint(1 << 30);
    src.extend_from_slice(&header);
    let capacity = src.capacity();
    let err = codec.decode(&mut src).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    assert_eq!(src.capacity(), capacity);
    // A frame within the limit that has not arrived: room reserved ahead
    // for at most 64 KiB of it.
    let mut codec = PackCodec::<Vec<u8>>::new().max_frame_len(1 << 30);
    let mut src = BytesMut::from(&header[..]);
    assert_eq!(codec.decode(&mut src).unwrap(), None);
    assert!(
        src.capacity() <= header.len() + 64 * 1024 + 64,
        "{}",
        src.capacity()
    );
    // The encoder refuses what its peer's decoder would.
    let mut small = PackCodec::<Vec<u8>>::new().max_frame_len(10);
    let err = small
        .encode(&vec![1u8; 20], &mut BytesMut::new())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // Limits come from the options by default.
    let codec = PackCodec::<u8>::with_options(Options::new().max_bytes(99));
    assert!(format!("{codec:?}").contains("max_frame_len: 99"));
}

/// Serves `CardHolder` frames: acknowledges each with its count; drops a
/// connection whose frames fail to decode.
async fn serve(listener: TcpListener) {
    loop {
        let Ok((socket, _)) = listener.accept().await else {
            return;
        };
        tokio::spawn(async move {
            let mut framed =
                Framed::new(socket, PackCodec::<CardHolder>::new().max_frame_len(LIMIT));
            let mut count = 0u32;
            while let Some(item) = framed.next().await {
                match item {
                    Ok(_) => {
                        count += 1;
                        let mut out = Vec::new();
                        binform::io::write_frame(&mut out, &count).unwrap();
                        if framed.get_mut().write_all(&out).await.is_err() {
                            return;
                        }
                    }
                    Err(_) => return, // drop the connection
                }
            }
        });
    }
}

/// Reads `n` acknowledgements (frames of `u32`) from a raw socket.
async fn acks(socket: &mut TcpStream, n: usize) -> Vec<u32> {
    let mut framed = Framed::new(socket, PackCodec::<u32>::new());
    let mut out = Vec::new();
    while out.len() < n {
        match framed.next().await {
            Some(Ok(v)) => out.push(v),
            _ => break,
        }
    }
    out
}

#[test]
fn loopback_server_survives_bad_peers() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(20), async {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let server = tokio::spawn(serve(listener));

            // Frames written one byte at a time.
            let mut wire = BytesMut::new();
            let mut codec = PackCodec::<CardHolder>::new();
            for i in 0..3 {
                codec.encode(&kate(i), &mut wire).unwrap();
            }
            let mut client = TcpStream::connect(addr).await.unwrap();
            client.set_nodelay(true).unwrap();
            for b in wire.iter() {
                client.write_all(&[*b]).await.unwrap();
                client.flush().await.unwrap();
            }
            assert_eq!(acks(&mut client, 3).await, [1, 2, 3]);

            // An oversized frame: the server drops this connection.
            let mut big = TcpStream::connect(addr).await.unwrap();
            let mut header = Vec::new();
            binform::Writer::new(&mut header).write_varint(LIMIT as u64 + 1);
            big.write_all(&header).await.unwrap();
            assert_eq!(
                acks(&mut big, 1).await,
                [] as [u32; 0],
                "closed without an ack"
            );

            // Garbage: an error, the connection dropped, no panic.
            let mut junk = TcpStream::connect(addr).await.unwrap();
            junk.write_all(&[0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
                .await
                .unwrap();
            assert!(acks(&mut junk, 1).await.is_empty());

            // And it still serves everyone else.
            let mut framed = Framed::new(
                TcpStream::connect(addr).await.unwrap(),
                PackCodec::<CardHolder>::new(),
            );
            framed.send(kate(1)).await.unwrap();
            let mut socket = framed.into_inner();
            assert_eq!(acks(&mut socket, 1).await, [1]);
            server.abort();
        })
        .await
        .expect("the loopback test finishes in time");
    });
}
