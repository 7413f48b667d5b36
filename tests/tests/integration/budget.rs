//! The default memory budget against what honest payloads need: every
//! benchmark dataset and the seed's models decode with a margin of at
//! least 2x under the default (`docs/security.md` gives the table, which
//! `cargo test -p binform-tests --test integration budget -- --nocapture`
//! prints).

use std::collections::HashMap;
use std::fmt::Debug;

use binform::{Options, Pack, UnpackOwned};
use binform_fixtures::models::{graph, plain};
use binform_fixtures::{rsb_seed as rsb, seed};

/// The least `max_memory` with which `bytes` decode as `T` (the memory
/// they charge), by bisection.
fn need<T: UnpackOwned>(bytes: &[u8]) -> usize {
    let (mut lo, mut hi) = (0usize, Options::new().memory_limit(bytes.len()));
    assert!(
        Options::new().max_memory(hi).from_slice::<T>(bytes).is_ok(),
        "decodes with the default budget"
    );
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if Options::new()
            .max_memory(mid)
            .from_slice::<T>(bytes)
            .is_ok()
        {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

fn row<T: Pack + UnpackOwned + Debug>(
    name: &str,
    value: &T,
    out: &mut Vec<(String, usize, usize, usize)>,
) {
    let bytes = binform::to_vec(value).unwrap();
    let need = need::<T>(&bytes);
    let default = Options::new().memory_limit(bytes.len());
    out.push((name.to_string(), bytes.len(), need, default));
}

#[test]
fn honest_payloads_fit_the_default_budget_with_a_margin() {
    let mut rows = Vec::new();
    row("people (seed)", &seed::ten_people(), &mut rows);
    row("kate, 1 card", &seed::kate(1), &mut rows);
    row("kate, 10k cards", &seed::kate(10_000), &mut rows);
    row("large object", &seed::large_object(), &mut rows);
    row("primitives", &seed::primitives(), &mut rows);
    row("large struct", &seed::large_struct(), &mut rows);
    row("small message", &seed::small_message(), &mut rows);
    row("mesh, 125k", &seed::mesh(125_000), &mut rows);
    row("i32 x 100k", &plain::ints(100_000), &mut rows);
    row("f64 x 100k", &plain::floats(100_000), &mut rows);
    row("map i32 100k", &plain::int_map(100_000), &mut rows);
    row("map string 100k", &plain::string_map(100_000), &mut rows);
    row("string 1000", &plain::text(1000), &mut rows);
    row("bytes 1 MiB", &plain::bytes(1 << 20), &mut rows);
    row("log, 10k", &rsb::logs(10_000), &mut rows);
    row("minecraft, 500", &rsb::players(500), &mut rows);
    row("mk48, 1000", &rsb::updates(1000), &mut rows);
    row("tree, 10k", &graph::tree(10_000), &mut rows);
    row("DAG, 10k shared nodes", &graph::dag(50, 200), &mut rows);
    row("empty map", &HashMap::<u8, u8>::new(), &mut rows);
    row(
        "vec of empty maps",
        &vec![HashMap::<u8, u8>::new(); 1000],
        &mut rows,
    );
    println!("| payload | bytes | memory charged | per byte | default budget | margin |");
    println!("|---|---|---|---|---|---|");
    for (name, len, need, default) in &rows {
        println!(
            "| {name} | {len} | {need} | {:.1} | {default} | {:.1}x |",
            *need as f64 / *len as f64,
            *default as f64 / (*need).max(1) as f64
        );
    }
    for (name, _, need, default) in &rows {
        assert!(need * 2 <= *default, "{name}: needs {need} of {default}");
    }
}
