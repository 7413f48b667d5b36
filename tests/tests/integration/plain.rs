//! Plain-data structs (their memory is their encoding) take the bulk-copy
//! path; everything else is encoded field by field, with the same bytes.
//! In the compact layout a sequence of derived structs is columns (§27),
//! so an array of them is plain in the fixed layout only.

use binform::Packable;

use crate::round_trip;

#[derive(Packable, Debug, Clone, Copy, PartialEq)]
struct Vec3 {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Packable, Debug, Clone, Copy, PartialEq)]
struct Triangle {
    v: [Vec3; 3],
    normal: Vec3,
}

#[derive(Packable, Debug, Clone, Copy, PartialEq)]
struct Rgba(u8, u8, u8, u8);

/// `u8` then `f32`: three padding bytes between them.
#[derive(Packable, Debug, Clone, Copy, PartialEq)]
struct Padded {
    tag: u8,
    value: f32,
}

/// A varint field makes the whole struct non-plain.
#[derive(Packable, Debug, Clone, Copy, PartialEq)]
struct WithVarint {
    x: f32,
    n: u32,
}

#[derive(Packable, Debug, Clone, Copy, PartialEq)]
struct WithSkip {
    x: f32,
    #[binform(skip)]
    cached: f32,
}

fn plain<T: binform::Encoding>() -> bool {
    T::PLAIN.get()
}

fn plain_fixed<T: binform::Encoding>() -> bool {
    T::PLAIN.fixed()
}

#[test]
fn plainness_is_detected_from_layout() {
    let le = cfg!(target_endian = "little");
    assert_eq!(plain::<Vec3>(), le);
    // A struct of floats is rows in the compact layout too (§27), so its
    // `[Vec3; 3]` is its memory in both layouts.
    assert_eq!(plain::<Triangle>(), le);
    assert_eq!(plain_fixed::<Triangle>(), le);
    assert_eq!(plain::<Rgba>(), le);
    assert!(!plain::<Padded>());
    assert!(!plain::<WithVarint>());
    assert!(!plain::<WithSkip>());
}

#[test]
fn bulk_and_field_by_field_give_the_same_bytes() {
    let tris: Vec<Triangle> = (0..100)
        .map(|i| {
            let f = i as f32;
            let v = Vec3 {
                x: f,
                y: -f,
                z: f * 0.5,
            };
            Triangle {
                v: [v, v, v],
                normal: Vec3 {
                    x: 0.0,
                    y: 0.0,
                    z: 1.0,
                },
            }
        })
        .collect();
    round_trip(&tris);
    let bulk = binform::fixed::to_vec(&tris).unwrap();
    // The same data encoded one value at a time, as the format defines it.
    let mut by_field = binform::to_vec(&tris.len()).unwrap();
    for t in &tris {
        for v in t.v.iter().chain(std::iter::once(&t.normal)) {
            for f in [v.x, v.y, v.z] {
                by_field.extend(f.to_le_bytes());
            }
        }
    }
    assert_eq!(bulk, by_field);
    // The compact layout's rows: a struct of floats is no columns (§27),
    // the same bytes, copied whole.
    assert_eq!(binform::to_vec(&tris).unwrap(), by_field);
    round_trip(&vec![Rgba(1, 2, 3, 4); 10]);
    round_trip(&vec![Padded { tag: 1, value: 2.0 }; 3]);
    round_trip(&vec![WithVarint { x: 1.0, n: 300 }; 3]);
}

#[test]
fn truncated_bulk_input_is_an_error() {
    let bytes = binform::to_vec(&vec![
        Vec3 {
            x: 1.0,
            y: 2.0,
            z: 3.0
        };
        4
    ])
    .unwrap();
    for cut in 0..bytes.len() {
        assert!(binform::from_slice::<Vec<Vec3>>(&bytes[..cut]).is_err());
    }
}
