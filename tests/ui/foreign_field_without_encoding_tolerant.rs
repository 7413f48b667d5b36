use binform::Packable;

// Two problems, two errors: no encoding, and (for a tolerant field that a
// payload may lack) no value to fill in; `with` or `serde` alone would
// still leave the second.
#[derive(Packable)]
#[binform(version_tolerant)]
struct Timed {
    id: u32,
    at: std::time::Instant,
}

fn main() {}
