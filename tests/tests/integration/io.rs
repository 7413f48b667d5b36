//! `to_writer` / `from_reader`.

use std::io::{self, Cursor, Read};

use binform::{ErrorKind, Options};
use binform_tests::{ten_people, Person};

#[test]
fn writer_and_reader_round_trip() {
    let people = ten_people();
    let mut out = Vec::new();
    binform::to_writer(&mut out, &people).unwrap();
    assert_eq!(out, binform::to_vec(&people).unwrap());
    let back: Vec<Person> = binform::from_reader(Cursor::new(out)).unwrap();
    assert_eq!(back, people);
}

#[test]
fn an_endless_reader_stops_at_the_byte_budget() {
    let endless = io::repeat(0);
    let err = Options::new()
        .max_bytes(4096)
        .from_reader::<Vec<u8>>(endless)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

struct Failing;
impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::new(
            io::ErrorKind::ConnectionReset,
            "peer went away",
        ))
    }
}
impl io::Write for Failing {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn io_errors_keep_their_source() {
    use std::error::Error as _;
    let err = binform::from_reader::<u8>(Failing).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
    let source = err.source().expect("io source");
    assert!(source.to_string().contains("peer went away"));
    let err = binform::to_writer(Failing, &5u8).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
}

#[test]
fn to_vec_into_appends() {
    let mut buf = vec![0xAA];
    binform::to_vec_into(&mut buf, &1u8).unwrap();
    binform::to_vec_into(&mut buf, &"x").unwrap();
    assert_eq!(buf, [0xAA, 1, 2, b'x']);
}

/// Streaming writes the very bytes `to_vec` builds, across buffer
/// hand-overs, large blobs written through, and version-tolerant frames
/// (whose length placeholders must stay buffered until filled in).
#[test]
fn streaming_writes_what_to_vec_builds() {
    #[derive(binform::Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    struct Record {
        id: u64,
        blob: Vec<u8>,
        names: Vec<String>,
        inner: Vec<(u32, String)>,
    }
    let records: Vec<Record> = (0..300)
        .map(|i| Record {
            id: i,
            blob: vec![i as u8; (i as usize * 97) % 5000],
            names: (0..i % 7).map(|j| format!("name {j}")).collect(),
            inner: (0..i % 5)
                .map(|j| (j as u32, "x".repeat(j as usize * 300)))
                .collect(),
        })
        .collect();
    let big_blob = vec![3u8; 300_000];
    let value = (records, big_blob, ten_people());
    let mut streamed = Vec::new();
    binform::to_writer(&mut streamed, &value).unwrap();
    assert_eq!(streamed, binform::to_vec(&value).unwrap());
    let opts = Options::new().fingerprint(true);
    let mut streamed = Vec::new();
    opts.to_writer(&mut streamed, &value).unwrap();
    assert_eq!(streamed, opts.to_vec(&value).unwrap());
    // A writer that fails part way fails the encode.
    let err = binform::to_writer(Failing, &value).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
}

/// A sink that keeps what it is given and the largest single write.
#[derive(Default)]
struct Recording {
    bytes: Vec<u8>,
    largest: usize,
}

impl io::Write for Recording {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        self.largest = self.largest.max(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A column of strings larger than the stream's buffer is handed over in
/// pieces between chunks of strings, not gathered whole (a column's bytes
/// are copied at once only when nothing is streamed), and the pieces are
/// the same bytes as `to_vec`'s.
#[test]
fn a_long_column_of_strings_streams_in_pieces() {
    let rows: Vec<(String, u8)> = (0..3000).map(|i| (format!("{i:0>100}"), i as u8)).collect();
    let mut sink = Recording::default();
    binform::to_writer(&mut sink, &rows).unwrap();
    assert_eq!(sink.bytes, binform::to_vec(&rows).unwrap());
    // 300 KB of text, handed over in pieces of about the stream's
    // buffer (64 KiB) and one chunk of strings (1,024 of 100 bytes).
    assert!(sink.bytes.len() > 300_000);
    assert!(sink.largest < 200_000, "largest write {}", sink.largest);
}
