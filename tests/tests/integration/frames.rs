//! Many values on one stream (`binform::io` frames) and `bytes` entry
//! points: golden frame bytes, streams of frames, truncation, limits, and
//! zero-copy `Bytes` fields.

use std::io::Read;

use binform::io::{read_frame, write_frame};
use binform::{ErrorKind, Options, Packable};
use binform_tests::{kate, CardHolder};
use bytes::{BufMut, Bytes, BytesMut};

/// format.md §21: a frame is `varint(n)` and the value's `n` bytes.
#[test]
fn frames_match_the_specification() {
    let frame = |v: &dyn Fn(&mut Vec<u8>) -> binform::Result<()>| {
        let mut out = Vec::new();
        v(&mut out).unwrap();
        out
    };
    assert_eq!(frame(&|w| write_frame(w, &300u16)), [0x04, 0xB1, 0x04]);
    assert_eq!(frame(&|w| write_frame(w, "")), [0x02, 0x00]);
    assert_eq!(frame(&|w| write_frame(w, &()).map(|_| ())), [0x00]);
    let long = vec![7u8; 200];
    let bytes = frame(&|w| write_frame(w, &long));
    // 202 bytes of value: a two-byte length (202 << 2 | 1 = 0x329).
    assert_eq!(&bytes[..4], [0x29, 0x03, 0x21, 0x03]);
    assert_eq!(bytes.len(), 2 + 202);
    // With a fingerprint header the frame holds header and value.
    let opts = Options::new().fingerprint(true);
    let mut out = Vec::new();
    opts.write_frame(&mut out, &1u8).unwrap();
    assert_eq!(out[0], 13 << 1);
    assert_eq!(&out[1..5], b"BFM\x03");
    assert_eq!(opts.read_frame::<u8>(&mut &out[..]).unwrap(), Some(1));
}

#[test]
fn a_thousand_frames_then_the_end() {
    let mut stream = Vec::new();
    let values: Vec<CardHolder> = (0..1000).map(|i| kate(i % 3)).collect();
    for v in &values {
        write_frame(&mut stream, v).unwrap();
    }
    let mut reader = &stream[..];
    let mut back = Vec::new();
    while let Some(v) = read_frame::<CardHolder>(&mut reader).unwrap() {
        back.push(v);
    }
    assert_eq!(back, values);
    assert!(reader.is_empty(), "each read stopped right after its frame");
    assert_eq!(read_frame::<CardHolder>(&mut reader).unwrap(), None);

    // A truncated last frame: every cut inside it is `UnexpectedEnd`,
    // after the complete frames before it.
    let last_start = stream.len() - {
        let mut one = Vec::new();
        write_frame(&mut one, values.last().unwrap()).unwrap();
        one.len()
    };
    for cut in [last_start + 1, last_start + 2, stream.len() - 1] {
        let mut reader = &stream[..cut];
        let mut count = 0;
        let err = loop {
            match read_frame::<CardHolder>(&mut reader) {
                Ok(Some(_)) => count += 1,
                Ok(None) => panic!("a truncated frame is not the end"),
                Err(e) => break e,
            }
        };
        assert_eq!(count, 999);
        assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "cut at {cut}");
    }
}

/// A reader that yields at most one byte per call: frames still arrive
/// whole, split at every boundary.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn frames_read_from_a_byte_at_a_time_stream() {
    let mut stream = Vec::new();
    for i in 0..20u32 {
        write_frame(&mut stream, &(i, format!("message {i}"))).unwrap();
    }
    let mut reader = Trickle(&stream);
    for i in 0..20u32 {
        let got: (u32, String) = read_frame(&mut reader).unwrap().unwrap();
        assert_eq!(got, (i, format!("message {i}")));
    }
    assert_eq!(read_frame::<(u32, String)>(&mut reader).unwrap(), None);
}

#[test]
fn frame_lengths_are_checked_before_allocating() {
    // A five-byte length claiming 2^40 bytes, then nothing.
    let mut hostile = Vec::new();
    binform::Writer::new(&mut hostile).write_varint(1 << 40);
    let err = read_frame::<Vec<u8>>(&mut &hostile[..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // Within the limit but absent: an error once the stream ends, and
    // nothing was allocated up front for it.
    let small = Options::new().max_bytes(1 << 20);
    let mut claim = Vec::new();
    binform::Writer::new(&mut claim).write_varint(1 << 20);
    let err = small.read_frame::<Vec<u8>>(&mut &claim[..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    // A writer refuses what its reader would.
    let err = small
        .write_frame(&mut Vec::new(), &vec![0u8; 2 << 20])
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // An overlong length prefix is malformed.
    let err = read_frame::<u8>(&mut &[0x01u8, 0x00, 0x01][..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidVarint);
}

#[derive(Packable, Debug, PartialEq)]
struct Message {
    id: u32,
    body: Bytes,
    tail: Vec<Bytes>,
}

#[test]
fn bytes_fields_share_the_input_buffer() {
    let message = Message {
        id: 9,
        body: Bytes::from(vec![1u8; 1000]),
        tail: vec![Bytes::from_static(b"one"), Bytes::from_static(b"two")],
    };
    let wire = Bytes::from(binform::to_vec(&message).unwrap());
    let range = wire.as_ptr_range();
    let back: Message = binform::from_bytes(wire.clone()).unwrap();
    assert_eq!(back, message);
    let inside =
        |part: &Bytes| range.start <= part.as_ptr() && part.as_ptr_range().end <= range.end;
    assert!(inside(&back.body), "a Bytes field points into the input");
    // Fields under `SHARE_BYTES_FROM` bytes are copies: kept, they would
    // hold the whole buffer.
    assert!(b"one".len() < binform::SHARE_BYTES_FROM);
    for part in &back.tail {
        assert!(!inside(part), "a short Bytes field is copied");
    }
    // from_slice copies: the same fields point elsewhere.
    let copied: Message = binform::from_slice(&wire).unwrap();
    assert!(!range.contains(&copied.body.as_ptr()));
    // A fingerprinted payload shares too (the header is skipped).
    let opts = Options::new().fingerprint(true);
    let wire = Bytes::from(opts.to_vec(&message).unwrap());
    let back: Message = opts.from_bytes(wire.clone()).unwrap();
    assert!(wire.as_ptr_range().contains(&back.body.as_ptr()));
    // A `BytesMut` (a codec's buffer) is frozen and shared the same way.
    let mut buf = bytes::BytesMut::new();
    buf.extend_from_slice(&binform::to_vec(&message).unwrap());
    let range = buf.as_ptr_range();
    let back: Message = binform::from_bytes(buf).unwrap();
    assert_eq!(back, message);
    assert!(range.contains(&back.body.as_ptr()));
}

#[test]
fn to_buf_mut_appends_and_respects_room() {
    let mut buf = BytesMut::new();
    buf.put_u8(0xAA);
    binform::to_buf_mut(&mut buf, &kate(2)).unwrap();
    assert_eq!(&buf[1..], binform::to_vec(&kate(2)).unwrap());
    let mut room = [0u8; 4];
    let mut slice = &mut room[..];
    let err = binform::to_buf_mut(&mut slice, &kate(1)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}
