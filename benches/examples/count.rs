//! A fixed-iteration harness for instruction counts: this VM has no
//! hardware counters and its timings are noisy, but callgrind counts are
//! exact, so two builds compare to the instruction:
//!
//! ```text
//! cargo build --release -p binform-benches --example count
//! valgrind --tool=callgrind target/release/examples/count lst 1000   # and 11000:
//! # (Ir(11000) - Ir(1000)) / 10000 = instructions per encode
//! ```
//!
//! Cases: `lst`, `pt`, `ppl`, `ls`, `dag`, `i32f`, `i32s` encode (tolerant
//! large struct, tolerant people, people, large struct, a DAG, `prim` the
//! primitives struct, `s1k` a 1,000-character string, 100,000
//! full-range and small `i32`), `sppl` (people through the serde bridge), `fppl`
//! (people with a fingerprint header),
//! `pcppl` (postcard on the same people);
//! the same with `-de` decode; `log`, `mk48` and `mc` encode 100
//! logs, 100 mk48 updates and 10 players, and `log-de`, `mk48-de`,
//! `mc-de` and `cards-de` decode them and Kate with 100 cards; `mesh`
//! and `mesh-de` a mesh of 1,000 triangles.

use std::hint::black_box;
fn main() {
    let which = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let lst = binform_benches::models::tolerant::large_struct();
    let pt = binform_benches::models::tolerant::ten_people();
    let ppl = binform_benches::seed::ten_people();
    let ls = binform_benches::seed::large_struct();
    let dag = binform_benches::models::graph::dag(50, 200);
    let bdag = binform::to_vec(&dag).unwrap();
    let ints = |dist| -> Vec<i32> {
        binform_benches::models::plain::int_values(dist, 32, true, 100_000)
            .into_iter()
            .map(|v| v as i32)
            .collect()
    };
    // `<type><f|s|m>-<ser|de>` below: the suite's integer distributions.
    let dist = |name: &str| {
        use binform_benches::models::plain::IntDist;
        let (bits, signed, d) = match name {
            "i32m" => (32, true, IntDist::Mixed),
            "u64f" => (64, false, IntDist::Full),
            "u64s" => (64, false, IntDist::Small),
            "u64m" => (64, false, IntDist::Mixed),
            "i128f" => (128, true, IntDist::Full),
            "i128s" => (128, true, IntDist::Small),
            "i128m" => (128, true, IntDist::Mixed),
            _ => return None,
        };
        let values = binform_benches::models::plain::int_values(d, bits, signed, 100_000);
        Some((bits, values))
    };
    let base = which.split('-').next().unwrap_or_default();
    let wide = dist(base);
    let u64v: Vec<u64> = match &wide {
        Some((64, v)) => v.iter().map(|&x| x as u64).collect(),
        _ if base == "ids" => binform_benches::models::plain::sorted_ids(100_000),
        _ => Vec::new(),
    };
    let i32v: Vec<i32> = match &wide {
        Some((32, v)) => v.iter().map(|&x| x as i32).collect(),
        _ => Vec::new(),
    };
    let i128v: Vec<i128> = match &wide {
        Some((128, v)) => v.clone(),
        _ => Vec::new(),
    };
    let (bu64, bi32, bi128) = (
        binform::to_vec(&u64v).unwrap(),
        binform::to_vec(&i32v).unwrap(),
        binform::to_vec(&i128v).unwrap(),
    );
    let i32f = ints(binform_benches::models::plain::IntDist::Full);
    let i32s = ints(binform_benches::models::plain::IntDist::Small);
    let bi32f = binform::to_vec(&i32f).unwrap();
    let bi32s = binform::to_vec(&i32s).unwrap();
    let prim = binform_benches::seed::primitives();
    let bprim = binform::to_vec(&prim).unwrap();
    let sm = binform_benches::seed::small_message();
    let bsm = binform::to_vec(&sm).unwrap();
    let text = binform_benches::models::plain::text(1000);
    let btext = binform::to_vec(&text).unwrap();
    use binform_fixtures::rsb_seed as rsb;
    let (logs, updates, players) = (rsb::logs(100), rsb::updates(100), rsb::players(10));
    let blog = binform::to_vec(&logs).unwrap();
    let bmk48 = binform::to_vec(&updates).unwrap();
    let bmc = binform::to_vec(&players).unwrap();
    let bcards = binform::to_vec(&binform_benches::seed::kate(100)).unwrap();
    // The fixed layout's payloads, for the `x` cases.
    use binform::fixed as fx;
    let (xprim, xsm, xppl, xls) = (
        fx::to_vec(&prim).unwrap(),
        fx::to_vec(&sm).unwrap(),
        fx::to_vec(&ppl).unwrap(),
        fx::to_vec(&ls).unwrap(),
    );
    let (xmk48, xlog, xcard1) = (
        fx::to_vec(&updates).unwrap(),
        fx::to_vec(&logs).unwrap(),
        fx::to_vec(&binform_benches::seed::kate(1)).unwrap(),
    );
    let card1 = binform_benches::seed::kate(1);
    let bcard1 = binform::to_vec(&card1).unwrap();
    let mut buf = Vec::with_capacity(1 << 20);
    let blst = binform::to_vec(&lst).unwrap();
    let bpt = binform::to_vec(&pt).unwrap();
    let bppl = binform::to_vec(&ppl).unwrap();
    let fingerprinted = binform::Options::new().fingerprint(true);
    let bfppl = fingerprinted.to_vec(&ppl).unwrap();
    let bls = binform::to_vec(&ls).unwrap();
    let mesh = binform_benches::seed::mesh(1_000);
    let bmesh = binform::to_vec(&mesh).unwrap();
    for _ in 0..n {
        buf.clear();
        match which.as_str() {
            "lst" => binform::to_vec_into(&mut buf, black_box(&lst)).unwrap(),
            "pt" => binform::to_vec_into(&mut buf, black_box(&pt)).unwrap(),
            "ppl" => binform::to_vec_into(&mut buf, black_box(&ppl)).unwrap(),
            "fppl" => fingerprinted
                .to_vec_into(&mut buf, black_box(&ppl))
                .unwrap(),
            "fppl-de" => {
                black_box(
                    fingerprinted
                        .from_slice::<Vec<binform_benches::seed::Person>>(black_box(&bfppl))
                        .unwrap(),
                );
            }
            "ls" => binform::to_vec_into(&mut buf, black_box(&ls)).unwrap(),
            "mesh" => binform::to_vec_into(&mut buf, black_box(&mesh)).unwrap(),
            "mesh-de" => {
                black_box(
                    binform::from_slice::<binform_benches::seed::Mesh>(black_box(&bmesh)).unwrap(),
                );
            }
            "lst-de" => {
                black_box(
                    binform::from_slice::<binform_benches::models::tolerant::LargeStruct>(
                        black_box(&blst),
                    )
                    .unwrap(),
                );
            }
            "pt-de" => {
                black_box(
                    binform::from_slice::<Vec<binform_benches::models::tolerant::Person>>(
                        black_box(&bpt),
                    )
                    .unwrap(),
                );
            }
            "ppl-de" => {
                black_box(
                    binform::from_slice::<Vec<binform_benches::seed::Person>>(black_box(&bppl))
                        .unwrap(),
                );
            }
            "ls-de" => {
                black_box(
                    binform::from_slice::<binform_benches::seed::LargeStruct>(black_box(&bls))
                        .unwrap(),
                );
            }
            "i32m" => binform::to_vec_into(&mut buf, black_box(&i32v)).unwrap(),
            "u64f" | "u64s" | "u64m" | "ids" => {
                binform::to_vec_into(&mut buf, black_box(&u64v)).unwrap()
            }
            "i128f" | "i128s" | "i128m" => {
                binform::to_vec_into(&mut buf, black_box(&i128v)).unwrap()
            }
            "i32m-de" => {
                black_box(binform::from_slice::<Vec<i32>>(black_box(&bi32)).unwrap());
            }
            "u64f-de" | "u64s-de" | "u64m-de" | "ids-de" => {
                black_box(binform::from_slice::<Vec<u64>>(black_box(&bu64)).unwrap());
            }
            "i128f-de" | "i128s-de" | "i128m-de" => {
                black_box(binform::from_slice::<Vec<i128>>(black_box(&bi128)).unwrap());
            }
            "i32f" => binform::to_vec_into(&mut buf, black_box(&i32f)).unwrap(),
            "i32s" => binform::to_vec_into(&mut buf, black_box(&i32s)).unwrap(),
            "i32f-de" => {
                black_box(binform::from_slice::<Vec<i32>>(black_box(&bi32f)).unwrap());
            }
            "i32s-de" => {
                black_box(binform::from_slice::<Vec<i32>>(black_box(&bi32s)).unwrap());
            }
            "sm" => binform::to_vec_into(&mut buf, black_box(&sm)).unwrap(),
            "s1k" => binform::to_vec_into(&mut buf, black_box(&text)).unwrap(),
            "s1k-de" => {
                black_box(binform::from_slice::<String>(black_box(&btext)).unwrap());
            }
            "prim" => binform::to_vec_into(&mut buf, black_box(&prim)).unwrap(),
            "prim-de" => {
                black_box(
                    binform::from_slice::<binform_benches::seed::Primitives>(black_box(&bprim))
                        .unwrap(),
                );
            }
            "sm-de" => {
                black_box(
                    binform::from_slice::<binform_benches::seed::SmallMessage>(black_box(&bsm))
                        .unwrap(),
                );
            }
            "sppl" => binform::serde::to_vec_into(&mut buf, black_box(&ppl)).unwrap(),
            "sppl-de" => {
                black_box(
                    binform::serde::from_slice::<Vec<binform_benches::seed::Person>>(black_box(
                        &bppl,
                    ))
                    .unwrap(),
                );
            }
            // postcard on the same people, for the bridge's reference.
            "pcppl" => {
                buf = postcard::to_extend(black_box(&ppl), std::mem::take(&mut buf)).unwrap();
            }
            "pcppl-de" => {
                black_box(
                    postcard::from_bytes::<Vec<binform_benches::seed::Person>>(black_box(&bppl))
                        .unwrap(),
                );
            }
            "dag" => binform::to_vec_into(&mut buf, black_box(&dag)).unwrap(),
            "dag-de" => {
                black_box(binform::from_slice::<Vec<std::rc::Rc<binform_benches::models::graph::DagNode>>>(black_box(&bdag)).unwrap());
            }
            "log" => binform::to_vec_into(&mut buf, black_box(&logs)).unwrap(),
            "mk48" => binform::to_vec_into(&mut buf, black_box(&updates)).unwrap(),
            "mc" => binform::to_vec_into(&mut buf, black_box(&players)).unwrap(),
            "log-de" => {
                black_box(binform::from_slice::<rsb::Logs>(black_box(&blog)).unwrap());
            }
            "mk48-de" => {
                black_box(binform::from_slice::<rsb::Updates>(black_box(&bmk48)).unwrap());
            }
            "mc-de" => {
                black_box(binform::from_slice::<rsb::Players>(black_box(&bmc)).unwrap());
            }
            "cards-de" => {
                black_box(
                    binform::from_slice::<binform_benches::seed::CardHolder>(black_box(&bcards))
                        .unwrap(),
                );
            }
            // The fixed cost of a call: one byte each way.
            "u8" => binform::to_vec_into(&mut buf, black_box(&7u8)).unwrap(),
            "u8-de" => {
                black_box(binform::from_slice::<u8>(black_box(&[7u8][..])).unwrap());
            }
            "xu8" => fx::to_vec_into(&mut buf, black_box(&7u8)).unwrap(),
            "xu8-de" => {
                black_box(fx::from_slice::<u8>(black_box(&[7u8][..])).unwrap());
            }
            "card1" => binform::to_vec_into(&mut buf, black_box(&card1)).unwrap(),
            "card1-de" => {
                black_box(
                    binform::from_slice::<binform_benches::seed::CardHolder>(black_box(&bcard1))
                        .unwrap(),
                );
            }
            // The fixed layout (`binform::fixed`).
            "xprim" => fx::to_vec_into(&mut buf, black_box(&prim)).unwrap(),
            "xprim-de" => {
                black_box(
                    fx::from_slice::<binform_benches::seed::Primitives>(black_box(&xprim)).unwrap(),
                );
            }
            "xsm" => fx::to_vec_into(&mut buf, black_box(&sm)).unwrap(),
            "xsm-de" => {
                black_box(
                    fx::from_slice::<binform_benches::seed::SmallMessage>(black_box(&xsm)).unwrap(),
                );
            }
            "xppl" => fx::to_vec_into(&mut buf, black_box(&ppl)).unwrap(),
            "xppl-de" => {
                black_box(
                    fx::from_slice::<Vec<binform_benches::seed::Person>>(black_box(&xppl)).unwrap(),
                );
            }
            "xls" => fx::to_vec_into(&mut buf, black_box(&ls)).unwrap(),
            "xls-de" => {
                black_box(
                    fx::from_slice::<binform_benches::seed::LargeStruct>(black_box(&xls)).unwrap(),
                );
            }
            "xmk48" => fx::to_vec_into(&mut buf, black_box(&updates)).unwrap(),
            "xmk48-de" => {
                black_box(fx::from_slice::<rsb::Updates>(black_box(&xmk48)).unwrap());
            }
            "xlog-de" => {
                black_box(fx::from_slice::<rsb::Logs>(black_box(&xlog)).unwrap());
            }
            "xcard1" => fx::to_vec_into(&mut buf, black_box(&card1)).unwrap(),
            "xcard1-de" => {
                black_box(
                    fx::from_slice::<binform_benches::seed::CardHolder>(black_box(&xcard1))
                        .unwrap(),
                );
            }
            _ => panic!(),
        }
        black_box(&buf);
    }
}
