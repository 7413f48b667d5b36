//! Replays every input a fuzzer ever found (and the seed inputs) under
//! `cargo test`, in both layouts: each must decode to a value or an
//! error, never a panic.
//! Files live in `tests/fuzz_regressions/<target>/`; `scripts/fuzz.sh` copies
//! new findings there.

use std::path::Path;

use binform_tests::fuzz;

fn replay(target: &str, run: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz_regressions")
        .join(target);
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let data = std::fs::read(&path).unwrap();
        // As recorded (its first byte names the layout), and its bytes
        // whole in each layout (inputs found before the layout byte).
        run(&data);
        for layout in [0u8, 1] {
            let mut prefixed = vec![layout];
            prefixed.extend_from_slice(&data);
            run(&prefixed);
        }
        count += 1;
    }
    count
}

#[test]
fn every_recorded_fuzz_input_is_handled() {
    let total = replay("decode_seed", fuzz::decode_seed)
        + replay("decode_everything", fuzz::decode_everything)
        + replay("decode_columns", fuzz::decode_columns)
        + replay("decode_graph", fuzz::decode_graph)
        + replay("decode_tolerant", fuzz::decode_tolerant)
        + replay("decode_frames", fuzz::decode_frames)
        + replay("decode_packed", fuzz::decode_packed)
        + replay("decode_value", fuzz::decode_value);
    assert!(total > 0, "the corpus is empty");
}
