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
