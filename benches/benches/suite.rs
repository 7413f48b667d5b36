//! binform against its peers on the seed workloads, in one criterion run.
//!
//! `cargo bench -p binform-benches` runs everything; set
//! `BINFORM_BENCH_QUICK=1` for a smoke run, and pass a filter after `--`
//! (`-- people`) for one workload. Encoded sizes are written beside
//! criterion's results; `cargo run -p binform-benches --example report`
//! turns both into `docs/benchmarks.md`.

use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};

/// Invokes a model-defining macro with every crate's derives, so the
/// models and the datasets list the peers once.
macro_rules! with_every_derive {
    ($define:path) => {
        $define!(
            #[derive(
                binform::Packable,
                serde::Serialize,
                serde::Deserialize,
                bitcode::Encode,
                bitcode::Decode,
                wincode::SchemaWrite,
                wincode::SchemaRead,
                bincode::Encode,
                bincode::Decode,
                rkyv::Archive,
                rkyv::Serialize,
                rkyv::Deserialize,
                speedy::Readable,
                speedy::Writable
            )]
        );
    };
}

mod models {
    with_every_derive!(binform_benches::define_models);

    /// `Person` decoded without copying its strings.
    #[derive(
        binform::Packable,
        serde::Serialize,
        serde::Deserialize,
        bitcode::Encode,
        bitcode::Decode,
        wincode::SchemaWrite,
        wincode::SchemaRead,
        bincode::Encode,
        bincode::BorrowDecode,
        Debug,
        PartialEq,
    )]
    pub struct PersonRef<'a> {
        #[serde(borrow)]
        pub name: &'a str,
        pub age: i32,
        #[serde(borrow)]
        pub programming_keywords: Vec<&'a str>,
    }
}

/// The rust_serialization_benchmark datasets, with every crate's derives.
mod rsb {
    with_every_derive!(binform_benches::define_rsb_models);
}

use binform_benches::models::plain;
use models::*;

/// Encoded sizes, by workload and crate, written out at the end.
type Sizes = BTreeMap<String, BTreeMap<&'static str, usize>>;

fn configure(g: &mut BenchmarkGroup<'_, WallTime>) {
    if std::env::var_os("BINFORM_BENCH_QUICK").is_some() {
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(100))
            .measurement_time(Duration::from_millis(300));
    } else {
        g.sample_size(30)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_millis(1500));
    }
}

/// Benchmarks one crate on one workload: checks the round trip, records the
/// size, then times encoding into a reused buffer and decoding.
macro_rules! bench_crate {
    (binform, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        let bytes = binform::to_vec($v).unwrap();
        assert!(
            binform::from_slice::<$ty>(&bytes).unwrap() == *$v,
            "binform round trip differs"
        );
        $sizes.insert("binform", bytes.len());
        let mut buf = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/binform", |b| {
            b.iter(|| {
                buf.clear();
                binform::to_vec_into(&mut buf, black_box($v)).unwrap();
            })
        });
        $g.bench_function("deserialize/binform", |b| {
            b.iter(|| binform::from_slice::<$ty>(black_box(&bytes)).unwrap())
        });
    }};
    (binform_fixed, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        let bytes = binform::fixed::to_vec($v).unwrap();
        assert!(
            binform::fixed::from_slice::<$ty>(&bytes).unwrap() == *$v,
            "binform fixed-layout round trip differs"
        );
        $sizes.insert("binform_fixed", bytes.len());
        let mut buf = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/binform_fixed", |b| {
            b.iter(|| {
                buf.clear();
                binform::fixed::to_vec_into(&mut buf, black_box($v)).unwrap();
            })
        });
        $g.bench_function("deserialize/binform_fixed", |b| {
            b.iter(|| binform::fixed::from_slice::<$ty>(black_box(&bytes)).unwrap())
        });
    }};
    (binform_serde, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        // The serde bridge: the same bytes as the derive, through serde's
        // data model.
        let bytes = binform::serde::to_vec($v).unwrap();
        assert!(
            binform::serde::from_slice::<$ty>(&bytes).unwrap() == *$v,
            "binform serde bridge round trip differs"
        );
        $sizes.insert("binform_serde", bytes.len());
        let mut buf = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/binform_serde", |b| {
            b.iter(|| {
                buf.clear();
                binform::serde::to_vec_into(&mut buf, black_box($v)).unwrap();
            })
        });
        $g.bench_function("deserialize/binform_serde", |b| {
            b.iter(|| binform::serde::from_slice::<$ty>(black_box(&bytes)).unwrap())
        });
    }};
    (bitcode_serde, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        // bitcode through its serde support, for types its derive cannot see.
        let bytes = bitcode::serialize($v).unwrap();
        assert!(
            bitcode::deserialize::<$ty>(&bytes).unwrap() == *$v,
            "bitcode (serde) round trip differs"
        );
        $sizes.insert("bitcode", bytes.len());
        $g.bench_function("serialize/bitcode", |b| {
            b.iter(|| black_box(bitcode::serialize(black_box($v)).unwrap()))
        });
        $g.bench_function("deserialize/bitcode", |b| {
            b.iter(|| bitcode::deserialize::<$ty>(black_box(&bytes)).unwrap())
        });
    }};
    (bincode_serde, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        let config = bincode::config::standard();
        let bytes = bincode::serde::encode_to_vec($v, config).unwrap();
        let (back, _): ($ty, usize) = bincode::serde::decode_from_slice(&bytes, config).unwrap();
        assert!(back == *$v, "bincode (serde) round trip differs");
        $sizes.insert("bincode", bytes.len());
        let mut buf: Vec<u8> = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/bincode", |b| {
            b.iter(|| {
                buf.clear();
                bincode::serde::encode_into_std_write(black_box($v), &mut buf, config).unwrap();
            })
        });
        $g.bench_function("deserialize/bincode", |b| {
            b.iter(|| {
                bincode::serde::decode_from_slice::<$ty, _>(black_box(&bytes), config).unwrap()
            })
        });
    }};
    (bitcode, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        let bytes = bitcode::encode($v);
        assert!(
            bitcode::decode::<$ty>(&bytes).unwrap() == *$v,
            "bitcode round trip differs"
        );
        $sizes.insert("bitcode", bytes.len());
        let mut buf = bitcode::Buffer::new();
        $g.bench_function("serialize/bitcode", |b| {
            b.iter(|| {
                black_box(buf.encode(black_box($v)));
            })
        });
        let mut dbuf = bitcode::Buffer::new();
        $g.bench_function("deserialize/bitcode", |b| {
            b.iter(|| dbuf.decode::<$ty>(black_box(&bytes)).unwrap())
        });
    }};
    (wincode, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        // wincode refuses to preallocate over 4 MiB by default; the mesh needs more.
        let cfg = wincode::config::Configuration::default()
            .with_preallocation_size_limit::<{ 64 << 20 }>();
        let bytes = wincode::config::serialize($v, cfg).unwrap();
        assert!(
            wincode::config::deserialize::<$ty, _>(&bytes, cfg).unwrap() == *$v,
            "wincode round trip differs"
        );
        $sizes.insert("wincode", bytes.len());
        let mut buf: Vec<u8> = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/wincode", |b| {
            b.iter(|| {
                buf.clear();
                wincode::config::serialize_into(
                    wincode::io::Cursor::new(&mut buf),
                    black_box($v),
                    cfg,
                )
                .unwrap();
            })
        });
        $g.bench_function("deserialize/wincode", |b| {
            b.iter(|| wincode::config::deserialize::<$ty, _>(black_box(&bytes), cfg).unwrap())
        });
    }};
    (bincode, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        let config = bincode::config::standard();
        let bytes = bincode::encode_to_vec($v, config).unwrap();
        let (back, _): ($ty, usize) = bincode::decode_from_slice(&bytes, config).unwrap();
        assert!(back == *$v, "bincode round trip differs");
        $sizes.insert("bincode", bytes.len());
        let mut buf: Vec<u8> = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/bincode", |b| {
            b.iter(|| {
                buf.clear();
                bincode::encode_into_std_write(black_box($v), &mut buf, config).unwrap();
            })
        });
        $g.bench_function("deserialize/bincode", |b| {
            b.iter(|| bincode::decode_from_slice::<$ty, _>(black_box(&bytes), config).unwrap())
        });
    }};
    (postcard, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        let bytes = postcard::to_allocvec($v).unwrap();
        assert!(
            postcard::from_bytes::<$ty>(&bytes).unwrap() == *$v,
            "postcard round trip differs"
        );
        $sizes.insert("postcard", bytes.len());
        let mut buf: Vec<u8> = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/postcard", |b| {
            b.iter(|| {
                buf.clear();
                buf = postcard::to_extend(black_box($v), std::mem::take(&mut buf)).unwrap();
            })
        });
        $g.bench_function("deserialize/postcard", |b| {
            b.iter(|| postcard::from_bytes::<$ty>(black_box(&bytes)).unwrap())
        });
    }};
    (rkyv, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        use rkyv::rancor::Error;
        use rkyv::util::AlignedVec;
        let bytes = rkyv::to_bytes::<Error>($v).unwrap();
        assert!(
            rkyv::from_bytes::<$ty, Error>(&bytes).unwrap() == *$v,
            "rkyv round trip differs"
        );
        $sizes.insert("rkyv", bytes.len());
        let mut slot = Some(AlignedVec::<16>::with_capacity(bytes.len()));
        $g.bench_function("serialize/rkyv", |b| {
            b.iter(|| {
                let mut out = slot.take().unwrap_or_default();
                out.clear();
                slot = Some(rkyv::api::high::to_bytes_in::<_, Error>(black_box($v), out).unwrap());
            })
        });
        $g.bench_function("deserialize/rkyv", |b| {
            b.iter(|| rkyv::from_bytes::<$ty, Error>(black_box(&bytes)).unwrap())
        });
    }};
    (rmp_serde, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        let bytes = rmp_serde::to_vec($v).unwrap();
        assert!(
            rmp_serde::from_slice::<$ty>(&bytes).unwrap() == *$v,
            "rmp-serde round trip differs"
        );
        $sizes.insert("rmp_serde", bytes.len());
        let mut buf: Vec<u8> = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/rmp_serde", |b| {
            b.iter(|| {
                buf.clear();
                rmp_serde::encode::write(&mut buf, black_box($v)).unwrap();
            })
        });
        $g.bench_function("deserialize/rmp_serde", |b| {
            b.iter(|| rmp_serde::from_slice::<$ty>(black_box(&bytes)).unwrap())
        });
    }};
    (serde_json, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        let bytes = serde_json::to_vec($v).unwrap();
        assert!(
            serde_json::from_slice::<$ty>(&bytes).unwrap() == *$v,
            "serde_json round trip differs"
        );
        $sizes.insert("serde_json", bytes.len());
        let mut buf: Vec<u8> = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/serde_json", |b| {
            b.iter(|| {
                buf.clear();
                serde_json::to_writer(&mut buf, black_box($v)).unwrap();
            })
        });
        $g.bench_function("deserialize/serde_json", |b| {
            b.iter(|| serde_json::from_slice::<$ty>(black_box(&bytes)).unwrap())
        });
    }};
    (speedy, $g:expr, $sizes:expr, $v:expr, $ty:ty) => {{
        use speedy::{Readable, Writable};
        let bytes = $v.write_to_vec().unwrap();
        assert!(
            <$ty>::read_from_buffer(&bytes).unwrap() == *$v,
            "speedy round trip differs"
        );
        $sizes.insert("speedy", bytes.len());
        // Into a reused buffer: speedy writes to a slice of the size it
        // computes first.
        let mut buf: Vec<u8> = Vec::with_capacity(bytes.len());
        $g.bench_function("serialize/speedy", |b| {
            b.iter(|| {
                let v = black_box($v);
                buf.resize(
                    Writable::<speedy::LittleEndian>::bytes_needed(v).unwrap(),
                    0,
                );
                v.write_to_buffer(&mut buf).unwrap();
            })
        });
        $g.bench_function("deserialize/speedy", |b| {
            b.iter(|| <$ty>::read_from_buffer(black_box(&bytes)).unwrap())
        });
    }};
    (memcpy, $g:expr, $sizes:expr, $raw:expr) => {{
        // The physical limit: copy the same number of bytes into a reused buffer.
        let raw: &[u8] = $raw;
        $sizes.insert("memcpy", raw.len());
        let mut buf: Vec<u8> = Vec::with_capacity(raw.len());
        $g.bench_function("serialize/memcpy", |b| {
            b.iter(|| {
                buf.clear();
                buf.extend_from_slice(black_box(raw));
            })
        });
        $g.bench_function("deserialize/memcpy", |b| b.iter(|| black_box(raw).to_vec()));
    }};
}

/// Benchmarks every listed crate on one workload in one criterion group.
macro_rules! workload {
    ($c:expr, $sizes:expr, $name:expr, $value:expr, $ty:ty, [$($krate:ident),*] $(, memcpy = $raw:expr)?) => {{
        let value: $ty = $value;
        let name: &str = $name;
        let mut g = $c.benchmark_group(name);
        configure(&mut g);
        let sizes = $sizes.entry(name.to_string()).or_default();
        $( bench_crate!($krate, g, sizes, &value, $ty); )*
        $( bench_crate!(memcpy, g, sizes, $raw); )?
        g.finish();
    }};
}

/// Every peer (and `[extra, ...]` crates after them).
macro_rules! all_workload {
    ($c:expr, $sizes:expr, $name:expr, $value:expr, $ty:ty $(, [$($extra:ident),*])? $(, memcpy = $raw:expr)?) => {
        workload!($c, $sizes, $name, $value, $ty,
            [binform, binform_fixed, bitcode, wincode, speedy, bincode, postcard, rkyv, rmp_serde, serde_json $($(, $extra)*)?] $(, memcpy = $raw)?)
    };
}

/// The BinaryFormatter article's card holder with the seed's own types: a
/// `Uuid` card number where the other workloads store its 36-character
/// text, `DateTime<Utc>` dates where they store Unix seconds, and a
/// `Decimal` credit limit. binform encodes them through its `uuid`,
/// `chrono` and `rust_decimal` features; the peers that take these types
/// do so through serde (bitcode and bincode through their serde support;
/// wincode, speedy and rkyv have no impls for them and sit this one out).
mod typed {
    use chrono::{DateTime, Utc};
    use criterion::Criterion;
    use rust_decimal::Decimal;
    use std::hint::black_box;
    use uuid::Uuid;

    use super::{configure, Sizes};
    use binform_benches::models::{Rng, CARD_EXPIRES, KATE_BIRTH};

    #[derive(binform::Packable, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    pub struct Card {
        pub number: Uuid,
        pub expires: DateTime<Utc>,
        pub limit: Decimal,
    }

    #[derive(binform::Packable, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    pub struct Holder {
        pub name: String,
        pub birth: DateTime<Utc>,
        pub cards: Vec<Card>,
    }

    /// Kate with `n` cards, as `kate(n)` but with the seed's types.
    pub fn kate(n: usize) -> Holder {
        let mut rng = Rng::new(7);
        let at = |secs| DateTime::from_timestamp(secs, 0).expect("in range");
        Holder {
            name: "Kate".into(),
            birth: at(KATE_BIRTH),
            cards: (0..n)
                .map(|_| Card {
                    number: Uuid::from_u64_pair(rng.next_u64(), rng.next_u64()),
                    expires: at(CARD_EXPIRES),
                    limit: Decimal::new(rng.below(10_000_000) as i64, 2),
                })
                .collect(),
        }
    }

    pub fn cards(c: &mut Criterion, sizes: &mut Sizes) {
        for (name, n) in [("typed_cards_1", 1), ("typed_cards_10k", 10_000)] {
            workload!(
                c,
                sizes,
                name,
                kate(n),
                Holder,
                [
                    binform,
                    binform_serde,
                    bitcode_serde,
                    bincode_serde,
                    postcard,
                    rmp_serde,
                    serde_json
                ]
            );
        }
    }
}

/// Decoding `Vec<PersonRef>`: strings borrowed from the input.
fn borrowed_people(c: &mut Criterion, sizes: &mut Sizes) {
    let people = ten_people();
    let refs: Vec<PersonRef<'_>> = people
        .iter()
        .map(|p| PersonRef {
            name: &p.name,
            age: p.age,
            programming_keywords: p.programming_keywords.iter().map(String::as_str).collect(),
        })
        .collect();
    let mut g = c.benchmark_group("people_borrowed");
    configure(&mut g);
    let s = sizes.entry("people_borrowed".into()).or_default();

    let bytes = binform::to_vec(&refs).unwrap();
    s.insert("binform", bytes.len());
    g.bench_function("deserialize/binform", |b| {
        b.iter(|| binform::from_slice::<Vec<PersonRef<'_>>>(black_box(&bytes)).unwrap())
    });
    let bytes = bitcode::encode(&refs);
    s.insert("bitcode", bytes.len());
    g.bench_function("deserialize/bitcode", |b| {
        b.iter(|| bitcode::decode::<Vec<PersonRef<'_>>>(black_box(&bytes)).unwrap())
    });
    let bytes = wincode::serialize(&refs).unwrap();
    s.insert("wincode", bytes.len());
    g.bench_function("deserialize/wincode", |b| {
        b.iter(|| wincode::deserialize::<Vec<PersonRef<'_>>>(black_box(&bytes)).unwrap())
    });
    let config = bincode::config::standard();
    let bytes = bincode::encode_to_vec(&refs, config).unwrap();
    s.insert("bincode", bytes.len());
    g.bench_function("deserialize/bincode", |b| {
        b.iter(|| {
            bincode::borrow_decode_from_slice::<Vec<PersonRef<'_>>, _>(black_box(&bytes), config)
                .unwrap()
        })
    });
    let bytes = postcard::to_allocvec(&refs).unwrap();
    s.insert("postcard", bytes.len());
    g.bench_function("deserialize/postcard", |b| {
        b.iter(|| postcard::from_bytes::<Vec<PersonRef<'_>>>(black_box(&bytes)).unwrap())
    });
    let bytes = rmp_serde::to_vec(&refs).unwrap();
    s.insert("rmp_serde", bytes.len());
    g.bench_function("deserialize/rmp_serde", |b| {
        b.iter(|| rmp_serde::from_slice::<Vec<PersonRef<'_>>>(black_box(&bytes)).unwrap())
    });
    let bytes = serde_json::to_vec(&refs).unwrap();
    s.insert("serde_json", bytes.len());
    g.bench_function("deserialize/serde_json", |b| {
        b.iter(|| serde_json::from_slice::<Vec<PersonRef<'_>>>(black_box(&bytes)).unwrap())
    });
    g.finish();
}

/// The bytes of a mesh as they lie in memory: the memcpy baseline copies
/// exactly this many bytes.
fn mesh_bytes(mesh: &Mesh) -> Vec<u8> {
    let mut out = Vec::with_capacity(mesh.triangles.len() * 48);
    for t in &mesh.triangles {
        for v in [t.v0, t.v1, t.v2, t.normal] {
            for f in [v.x, v.y, v.z] {
                out.extend_from_slice(&f.to_le_bytes());
            }
        }
    }
    out
}

/// Times binform alone on a value whose equality is too costly to check
/// (a DAG compares by value along every path).
/// Times binform encoding and decoding `value` in group `g`, under the
/// crate name `id`.
fn bench_binform<T: binform::Pack + binform::UnpackOwned>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    sizes: &mut Sizes,
    name: &str,
    id: &'static str,
    value: &T,
) {
    let bytes = binform::to_vec(value).unwrap();
    sizes
        .entry(name.into())
        .or_default()
        .insert(id, bytes.len());
    let mut buf = Vec::with_capacity(bytes.len());
    g.bench_function(format!("serialize/{id}"), |b| {
        b.iter(|| {
            buf.clear();
            binform::to_vec_into(&mut buf, black_box(value)).unwrap();
        })
    });
    g.bench_function(format!("deserialize/{id}"), |b| {
        b.iter(|| binform::from_slice::<T>(black_box(&bytes)).unwrap())
    });
}

/// Reference tracking: a DAG of 100,000 shared nodes against the same node
/// count written as trees (binform only), all in one group:
/// `binform_tree` has the DAG's layers, allocation order and scatter in
/// memory, with no sharing (it isolates what tracking costs);
/// `binform_complete_tree` is a complete binary tree stored inline and
/// allocated depth-first (cache-friendly: it adds the cost of the DAG's
/// memory layout).
fn graphs(c: &mut Criterion, sizes: &mut Sizes) {
    use binform_benches::models::graph::{dag, layered_tree, tree};
    let name = "graph_dag_100k";
    let mut g = c.benchmark_group(name);
    configure(&mut g);
    bench_binform(&mut g, sizes, name, "binform", &dag(50, 2000));
    bench_binform(&mut g, sizes, name, "binform_tree", &layered_tree(50, 2000));
    bench_binform(&mut g, sizes, name, "binform_complete_tree", &tree(100_000));
    g.finish();
}

/// The version-tolerant twins of `people` and `large_struct` (binform
/// only), each timed in one group with the compact form
/// (`binform_compact`) so that the ratio comes from one run.
fn tolerant(c: &mut Criterion, sizes: &mut Sizes) {
    use binform_benches::models::tolerant;
    tolerant_pair(
        c,
        sizes,
        "people_tolerant",
        &tolerant::ten_people(),
        &ten_people(),
    );
    tolerant_pair(
        c,
        sizes,
        "large_struct_tolerant",
        &tolerant::large_struct(),
        &large_struct(),
    );
}

/// One group: a tolerant value and its compact twin.
fn tolerant_pair<T, C>(c: &mut Criterion, sizes: &mut Sizes, name: &str, tolerant: &T, compact: &C)
where
    T: binform::Pack + binform::UnpackOwned,
    C: binform::Pack + binform::UnpackOwned,
{
    let mut g = c.benchmark_group(name);
    configure(&mut g);
    bench_binform(&mut g, sizes, name, "binform", tolerant);
    bench_binform(&mut g, sizes, name, "binform_compact", compact);
    g.finish();
}

/// Frames (`binform::io`) against plain encoding of the same value, in one
/// group: what the length prefix and the stream plumbing cost.
fn frames(c: &mut Criterion, sizes: &mut Sizes) {
    let name = "people_frames";
    let people = ten_people();
    let mut g = c.benchmark_group(name);
    configure(&mut g);
    bench_binform(&mut g, sizes, name, "binform", &people);
    let mut frame = Vec::new();
    binform::io::write_frame(&mut frame, &people).unwrap();
    sizes
        .entry(name.into())
        .or_default()
        .insert("binform_frame", frame.len());
    let mut buf = Vec::with_capacity(frame.len());
    g.bench_function("serialize/binform_frame", |b| {
        b.iter(|| {
            buf.clear();
            binform::io::write_frame(&mut buf, black_box(&people)).unwrap();
        })
    });
    g.bench_function("deserialize/binform_frame", |b| {
        b.iter(|| {
            let mut reader = black_box(&frame[..]);
            binform::io::read_frame::<Vec<Person>>(&mut reader).unwrap()
        })
    });
    g.finish();
}

/// The packed-sequence workloads: `Vec<i32>`, `Vec<u64>` and `Vec<i128>`
/// of 100,000 values in three distributions, and sorted `u64` ids.
fn integers(c: &mut Criterion, sizes: &mut Sizes) {
    use plain::{int_values, sorted_ids, IntDist};
    const N: usize = 100_000;
    for (dist, label) in [
        (IntDist::Full, "full"),
        (IntDist::Small, "small"),
        (IntDist::Mixed, "mixed"),
    ] {
        let values = |bits, signed| int_values(dist, bits, signed, N).into_iter();
        // The memcpy of the values' bytes: the fixed layout's bar (1.1x).
        let i32s: Vec<i32> = values(32, true).map(|v| v as i32).collect();
        let raw: Vec<u8> = i32s.iter().flat_map(|v| v.to_le_bytes()).collect();
        all_workload!(
            c,
            sizes,
            &format!("i32_{label}_100k"),
            i32s,
            Vec<i32>,
            memcpy = &raw
        );
        all_workload!(
            c,
            sizes,
            &format!("u64_{label}_100k"),
            values(64, false).map(|v| v as u64).collect(),
            Vec<u64>
        );
        all_workload!(
            c,
            sizes,
            &format!("i128_{label}_100k"),
            values(128, true).collect(),
            Vec<i128>
        );
    }
    all_workload!(c, sizes, "u64_sorted_ids_100k", sorted_ids(N), Vec<u64>);
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut sizes = Sizes::new();

    // The seed workloads also time the serde bridge (binform_serde).
    all_workload!(
        c,
        sizes,
        "people",
        ten_people(),
        Vec<Person>,
        [binform_serde]
    );
    borrowed_people(&mut c, &mut sizes);
    all_workload!(
        c,
        sizes,
        "kate_1_card",
        kate(1),
        CardHolder,
        [binform_serde]
    );
    all_workload!(
        c,
        sizes,
        "kate_10k_cards",
        kate(10_000),
        CardHolder,
        [binform_serde]
    );
    typed::cards(&mut c, &mut sizes);
    all_workload!(c, sizes, "large_object", large_object(), LargeObject);
    all_workload!(c, sizes, "primitives", primitives(), Primitives);
    integers(&mut c, &mut sizes);
    let floats = plain::floats(100_000);
    let float_bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    all_workload!(
        c,
        sizes,
        "f64_100k",
        floats,
        Vec<f64>,
        memcpy = &float_bytes
    );
    all_workload!(c, sizes, "map_i32_i32_100k", plain::int_map(100_000), HashMap<i32, i32>);
    all_workload!(c, sizes, "map_string_i32_100k", plain::string_map(100_000), HashMap<String, i32>);
    all_workload!(c, sizes, "string_1000", plain::text(1000), String);
    all_workload!(c, sizes, "large_struct", large_struct(), LargeStruct);
    all_workload!(c, sizes, "small_message", small_message(), SmallMessage);
    // The rust_serialization_benchmark datasets at its sizes.
    all_workload!(c, sizes, "log", rsb::logs(10_000), rsb::Logs);
    let m = mesh(125_000);
    let raw = mesh_bytes(&m);
    all_workload!(c, sizes, "mesh", m, Mesh, memcpy = &raw);
    all_workload!(
        c,
        sizes,
        "minecraft_savedata",
        rsb::players(500),
        rsb::Players
    );
    all_workload!(c, sizes, "mk48", rsb::updates(1000), rsb::Updates);
    let blob = plain::bytes(1 << 20);
    let blob_raw = blob.clone();
    all_workload!(c, sizes, "bytes_1mib", blob, Vec<u8>, memcpy = &blob_raw);

    graphs(&mut c, &mut sizes);
    tolerant(&mut c, &mut sizes);
    frames(&mut c, &mut sizes);

    c.final_summary();
    write_sizes(&sizes);
}

/// Writes `sizes.tsv` (workload, crate, bytes) beside criterion's output.
fn write_sizes(sizes: &Sizes) {
    let dir = binform_benches::report_dir();
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        return;
    }
    // A filtered run (`-- people`) updates its workloads and keeps the
    // others' sizes, so the report always covers the whole suite.
    let path = dir.join("sizes.tsv");
    let mut all: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for line in std::fs::read_to_string(&path)
        .unwrap_or_default()
        .lines()
        .skip(1)
    {
        if let [workload, krate, bytes] = line.split('\t').collect::<Vec<_>>()[..] {
            if let Ok(bytes) = bytes.parse() {
                all.entry(workload.into())
                    .or_default()
                    .insert(krate.into(), bytes);
            }
        }
    }
    for (workload, crates) in sizes {
        let entry = all.entry(workload.clone()).or_default();
        entry.clear();
        for (krate, bytes) in crates {
            entry.insert(krate.to_string(), *bytes);
        }
    }
    let mut text = String::from("workload\tcrate\tbytes\n");
    for (workload, crates) in &all {
        for (krate, bytes) in crates {
            text.push_str(&format!("{workload}\t{krate}\t{bytes}\n"));
        }
    }
    match std::fs::write(&path, text) {
        Ok(()) => eprintln!("sizes written to {}", path.display()),
        Err(e) => eprintln!("cannot write {}: {e}", path.display()),
    }
}
