//! binform beside speedy and wincode on the same derived models, for
//! instruction counts (callgrind) of one decode or encode:
//!
//! ```text
//! cargo build --release -p binform-benches --example peer_count
//! valgrind --tool=callgrind target/release/examples/peer_count ls-de-binform 200   # and 2200
//! ```
//!
//! Cases: `<model>-<de|ser>-<crate>` with model `ls` (large struct),
//! `prim` (primitives), `sm` (small message), `kate` (one card), `lo`
//! (large object), `mii` and `msi` (`HashMap<i32, i32>` and
//! `HashMap<String, i32>` of 10,000 entries), `ppl` (ten people), `ppl1k` (a thousand), `mk48` (100 updates), `mc` (50
//! players), `log` (100 access-log lines), `logk`, `mck`, `mk48k` (the suite's sizes: 10,000 lines, 500 players, 1,000 updates) or `bppl` (ten people borrowing
//! their strings: decode, binform and bitcode only), and crate `binform`,
//! `fixed` (binform's fixed layout), `speedy`, `wincode` or `bitcode`.

use std::hint::black_box;

/// Invokes a model-defining macro with the derives of every crate here.
macro_rules! with_peer_derives {
    ($define:path) => {
        $define!(#[derive(
            binform::Packable,
            speedy::Readable,
            speedy::Writable,
            wincode::SchemaWrite,
            wincode::SchemaRead,
            bitcode::Encode,
            bitcode::Decode
        )]);
    };
}

mod models {
    with_peer_derives!(binform_benches::define_models);
}

/// `Person` decoded without copying its strings, as the suite's
/// `people_borrowed` workload.
mod borrowed {
    #[derive(binform::Packable, bitcode::Encode, bitcode::Decode)]
    pub struct PersonRef<'a> {
        pub name: &'a str,
        pub age: i32,
        pub programming_keywords: Vec<&'a str>,
    }
}

mod rsb {
    with_peer_derives!(binform_benches::define_rsb_models);
}

/// Decode-only cases of types that borrow from their input.
macro_rules! run_borrowed {
    ($case:expr, $n:expr, $name:literal, $value:expr, $ty:ty) => {{
        let value: $ty = $value;
        let bin = binform::to_vec(&value).unwrap();
        let bit = bitcode::encode(&value);
        for _ in 0..$n {
            match $case.strip_prefix(concat!($name, "-")) {
                Some("de-binform") => {
                    black_box(binform::from_slice::<$ty>(black_box(&bin)).unwrap());
                }
                Some("de-bitcode") => {
                    black_box(bitcode::decode::<$ty>(black_box(&bit)).unwrap());
                }
                _ => break,
            }
        }
    }};
}

macro_rules! run {
    ($case:expr, $n:expr, $name:literal, $value:expr, $ty:ty) => {{
        let value: $ty = $value;
        let bin = binform::to_vec(&value).unwrap();
        let fix = binform::fixed::to_vec(&value).unwrap();
        let spd = speedy::Writable::<speedy::LittleEndian>::write_to_vec(&value).unwrap();
        let win = wincode::serialize(&value).unwrap();
        let bit = bitcode::encode(&value);
        let mut bit_buf = bitcode::Buffer::new();
        let mut buf = Vec::with_capacity(1 << 16);
        for _ in 0..$n {
            match $case.strip_prefix(concat!($name, "-")) {
                Some("de-binform") => {
                    black_box(binform::from_slice::<$ty>(black_box(&bin)).unwrap());
                }
                Some("de-fixed") => {
                    black_box(binform::fixed::from_slice::<$ty>(black_box(&fix)).unwrap());
                }
                Some("ser-fixed") => {
                    buf.clear();
                    binform::fixed::to_vec_into(&mut buf, black_box(&value)).unwrap();
                }
                Some("de-speedy") => {
                    black_box(
                        <$ty as speedy::Readable<speedy::LittleEndian>>::read_from_buffer(
                            black_box(&spd),
                        )
                        .unwrap(),
                    );
                }
                Some("de-bitcode") => {
                    black_box(bit_buf.decode::<$ty>(black_box(&bit)).unwrap());
                }
                Some("ser-bitcode") => {
                    black_box(bit_buf.encode(black_box(&value)));
                }
                Some("de-wincode") => {
                    black_box(wincode::deserialize::<$ty>(black_box(&win)).unwrap());
                }
                Some("ser-binform") => {
                    buf.clear();
                    binform::to_vec_into(&mut buf, black_box(&value)).unwrap();
                }
                Some("ser-speedy") => {
                    // As the suite does: the buffer keeps its length, so
                    // `resize` is a no-op after the first write.
                    buf.resize(
                        speedy::Writable::<speedy::LittleEndian>::bytes_needed(&value).unwrap(),
                        0,
                    );
                    speedy::Writable::<speedy::LittleEndian>::write_to_buffer(
                        black_box(&value),
                        &mut buf,
                    )
                    .unwrap();
                }
                Some("ser-wincode") => {
                    buf.clear();
                    wincode::serialize_into(&mut buf, black_box(&value)).unwrap();
                }
                _ => break,
            }
        }
    }};
}

fn main() {
    let case = std::env::args().nth(1).unwrap_or_default();
    let n: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    use models::*;
    run!(case, n, "ls", large_struct(), LargeStruct);
    run!(case, n, "prim", primitives(), Primitives);
    run!(case, n, "sm", small_message(), SmallMessage);
    run!(case, n, "kate", kate(1), CardHolder);
    run!(case, n, "lo", large_object(), LargeObject);
    use binform_benches::models::plain;
    run!(case, n, "mii", plain::int_map(10_000), std::collections::HashMap<i32, i32>);
    run!(case, n, "msi", plain::string_map(10_000), std::collections::HashMap<String, i32>);
    run!(case, n, "ppl", ten_people(), Vec<Person>);
    // One person (what a decode costs besides its elements), and a
    // hundred times the people (what a person costs).
    run!(
        case,
        n,
        "ppl1",
        ten_people().into_iter().take(1).collect(),
        Vec<Person>
    );
    run!(
        case,
        n,
        "ppl1k",
        (0..100).flat_map(|_| ten_people()).collect(),
        Vec<Person>
    );
    run!(case, n, "mk48", rsb::updates(100), rsb::Updates);
    run!(case, n, "mc", rsb::players(50), rsb::Players);
    run!(case, n, "log", rsb::logs(100), rsb::Logs);
    // The suite's sizes of the rust_serialization_benchmark models.
    run!(case, n, "logk", rsb::logs(10_000), rsb::Logs);
    run!(case, n, "mck", rsb::players(500), rsb::Players);
    run!(case, n, "mk48k", rsb::updates(1000), rsb::Updates);
    let people = ten_people();
    run_borrowed!(
        case,
        n,
        "bppl",
        people
            .iter()
            .map(|p| borrowed::PersonRef {
                name: &p.name,
                age: p.age,
                programming_keywords: p.programming_keywords.iter().map(String::as_str).collect(),
            })
            .collect(),
        Vec<borrowed::PersonRef<'_>>
    );
}
