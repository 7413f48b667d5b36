//! Every proper prefix of a valid payload is an error, never a panic or a
//! value.

use std::borrow::Cow;

use binform::{ErrorKind, UnpackOwned};
use binform_tests::{everything, kate, ten_people, CardHolder, Everything, Person, Shape};

fn every_prefix_fails<T: UnpackOwned>(bytes: &[u8]) {
    assert!(
        binform::from_slice::<T>(bytes).is_ok(),
        "the full payload decodes"
    );
    for cut in 0..bytes.len() {
        match binform::from_slice::<T>(&bytes[..cut]) {
            Ok(_) => panic!("a prefix of {cut} of {} bytes decoded", bytes.len()),
            Err(e) => assert!(
                matches!(
                    e.kind(),
                    ErrorKind::UnexpectedEnd | ErrorKind::LimitExceeded
                ),
                "cut at {cut}: {e}"
            ),
        }
    }
}

#[test]
fn payload_with_every_type() {
    let bytes = binform::to_vec(&everything()).unwrap();
    assert!(bytes.len() > 300);
    every_prefix_fails::<Everything>(&bytes);
}

#[test]
fn seed_payloads() {
    every_prefix_fails::<Vec<Person>>(&binform::to_vec(&ten_people()).unwrap());
    every_prefix_fails::<CardHolder>(&binform::to_vec(&kate(3)).unwrap());
    every_prefix_fails::<Vec<Shape>>(
        &binform::to_vec(&vec![
            Shape::Empty,
            Shape::Rect { w: 1, h: 2 },
            Shape::Circle(1.0),
        ])
        .unwrap(),
    );
}

#[test]
fn borrowed_payload() {
    let bytes = binform::to_vec(&(Cow::<str>::Borrowed("abc"), vec!["x", "yz"])).unwrap();
    for cut in 0..bytes.len() {
        assert!(binform::from_slice::<(Cow<'_, str>, Vec<&str>)>(&bytes[..cut]).is_err());
    }
}
