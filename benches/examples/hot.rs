//! A profiling harness: runs one binform operation in a loop, for `perf`,
//! `valgrind --tool=callgrind`, or a quick timing while optimizing.
//!
//! `cargo run --release -p binform-benches --example hot -- <case> [seconds]`
//! with a case such as `people-ser`, `people-de`, `i32-ser`, `i32-de`,
//! `cards-de`, `small-de`, `prim-ser`, `ls-ser`, the rust_serialization_benchmark
//! shapes `mc-*`, `mk48-*`, `log-*`, the suite's integer distributions
//! (`i32f`, `i32s`, `i32m`, `u64f`, `u64s`, `u64m`, `i128f`, `i128s`,
//! `i128m`, `ids`, each `-ser`/`-de`), `f64` (100,000), `bytes` (1 MiB),
//! `smap`/`imap` (100,000-entry maps), or `speople-ser`/`speople-de` (the
//! serde bridge).
//!
//! Large decodes here can be slower than in the criterion suite for the
//! heap's sake, not the decoder's: with nothing allocated above them,
//! glibc gives the freed top of the heap back at each iteration and
//! faults it in again at the next (mk48 3.9 ms here against 2.6 ms in the
//! suite, page faults a tenth of the profile). To compare with the suite,
//! keep the heap:
//!
//! ```text
//! GLIBC_TUNABLES=glibc.malloc.trim_threshold=2000000000:glibc.malloc.mmap_threshold=2000000000
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use binform_benches::models::plain;

fn run(name: &str, budget: Duration, mut f: impl FnMut()) {
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        let mut n = 0u64;
        while start.elapsed() < budget / 5 {
            for _ in 0..16 {
                f();
            }
            n += 16;
        }
        best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
    }
    println!("{name}: {best:.1} ns/iter (best of 5)");
}

macro_rules! case {
    ($case:expr, $budget:expr, $name:literal, $value:expr, $ty:ty) => {{
        let value: $ty = $value;
        let bytes = binform::to_vec(&value).unwrap();
        let mut buf = Vec::with_capacity(bytes.len());
        if $case == concat!($name, "-ser") || $case == "all" {
            run(concat!($name, "-ser"), $budget, || {
                buf.clear();
                binform::to_vec_into(&mut buf, black_box(&value)).unwrap();
            });
        }
        if $case == concat!($name, "-de") || $case == "all" {
            run(concat!($name, "-de"), $budget, || {
                black_box(binform::from_slice::<$ty>(black_box(&bytes)).unwrap());
            });
        }
    }};
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map(String::as_str).unwrap_or("all");
    let secs: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let budget = Duration::from_secs_f64(secs);
    use binform_benches::seed::*;
    case!(case, budget, "people", ten_people(), Vec<Person>);
    case!(case, budget, "small", small_message(), SmallMessage);
    case!(case, budget, "prim", primitives(), Primitives);
    {
        use binform_fixtures::rsb_seed as rsb;
        case!(case, budget, "mc", rsb::players(500), rsb::Players);
        case!(case, budget, "mk48", rsb::updates(1000), rsb::Updates);
        case!(case, budget, "log", rsb::logs(10_000), rsb::Logs);
    }
    case!(case, budget, "ls", large_struct(), LargeStruct);
    case!(case, budget, "f64", plain::floats(100_000), Vec<f64>);
    case!(case, budget, "bytes", plain::bytes(1 << 20), Vec<u8>);
    case!(case, budget, "cards", kate(10_000), CardHolder);
    case!(case, budget, "large", large_object(), LargeObject);
    case!(case, budget, "i32", plain::ints(100_000), Vec<i32>);
    case!(
        case,
        budget,
        "i32s",
        plain::int_values(plain::IntDist::Small, 32, true, 100_000)
            .into_iter()
            .map(|v| v as i32)
            .collect(),
        Vec<i32>
    );
    case!(case, budget, "i128", plain::decimals(100_000), Vec<i128>);
    // The suite's integer distributions: `<type><f|s|m>`, full-range, small
    // and mixed magnitudes, and `ids` (sorted u64 ids).
    macro_rules! dists {
        ($($name:literal, $dist:ident, $bits:expr, $signed:expr, $ty:ty;)*) => {$(
            case!(
                case,
                budget,
                $name,
                plain::int_values(plain::IntDist::$dist, $bits, $signed, 100_000)
                    .into_iter()
                    .map(|v| v as $ty)
                    .collect(),
                Vec<$ty>
            );
        )*};
    }
    dists!(
        "i32f", Full, 32, true, i32;
        "i32m", Mixed, 32, true, i32;
        "u64f", Full, 64, false, u64;
        "u64s", Small, 64, false, u64;
        "u64m", Mixed, 64, false, u64;
        "i128f", Full, 128, true, i128;
        "i128s", Small, 128, true, i128;
        "i128m", Mixed, 128, true, i128;
    );
    case!(case, budget, "ids", plain::sorted_ids(100_000), Vec<u64>);
    {
        use binform_benches::models::graph;
        let dag = graph::dag(50, 2000);
        let bytes = binform::to_vec(&dag).unwrap();
        let mut buf = Vec::new();
        if case == "dag-ser" || case == "all" {
            run("dag-ser", budget, || {
                buf.clear();
                binform::to_vec_into(&mut buf, black_box(&dag)).unwrap();
            });
        }
        if case == "dag-walk" || case == "all" {
            // The traversal the encoder must do, with the cheapest possible
            // "seen" check (ids are dense): the memory-access floor.
            fn walk(n: &graph::DagNode, seen: &mut [bool], sum: &mut u64) {
                if std::mem::replace(&mut seen[n.id as usize], true) {
                    return;
                }
                *sum += n.id as u64;
                for c in &n.children {
                    walk(c, seen, sum);
                }
            }
            let mut seen = vec![false; 100_001];
            run("dag-walk", budget, || {
                seen.iter_mut().for_each(|s| *s = false);
                let mut sum = 0;
                for n in &dag {
                    walk(n, &mut seen, &mut sum);
                }
                black_box(sum);
            });
        }
        if case == "dag-de" || case == "all" {
            run("dag-de", budget, || {
                black_box(
                    binform::from_slice::<Vec<std::rc::Rc<graph::DagNode>>>(black_box(&bytes))
                        .unwrap(),
                );
            });
        }
    }
    case!(
        case,
        budget,
        "tree",
        binform_benches::models::graph::tree(100_000),
        binform_benches::models::graph::TreeNode
    );
    case!(
        case,
        budget,
        "ltree",
        binform_benches::models::graph::layered_tree(50, 2000),
        Vec<Box<binform_benches::models::graph::LayeredNode>>
    );
    case!(case, budget, "lsc", large_struct(), LargeStruct);
    case!(
        case,
        budget,
        "lst",
        binform_benches::models::tolerant::large_struct(),
        binform_benches::models::tolerant::LargeStruct
    );
    case!(
        case,
        budget,
        "tpeople",
        binform_benches::models::tolerant::ten_people(),
        Vec<binform_benches::models::tolerant::Person>
    );
    case!(case, budget, "smap", plain::string_map(100_000), std::collections::HashMap<String, i32>);
    case!(case, budget, "imap", plain::int_map(100_000), std::collections::HashMap<i32, i32>);
    // The serde bridge on the people workload.
    {
        let value = ten_people();
        let bytes = binform::serde::to_vec(&value).unwrap();
        let mut buf = Vec::with_capacity(bytes.len());
        if case == "speople-ser" || case == "all" {
            run("speople-ser", budget, || {
                buf.clear();
                binform::serde::to_vec_into(&mut buf, black_box(&value)).unwrap();
            });
        }
        if case == "speople-de" || case == "all" {
            run("speople-de", budget, || {
                black_box(binform::serde::from_slice::<Vec<Person>>(black_box(&bytes)).unwrap());
            });
        }
    }
}
