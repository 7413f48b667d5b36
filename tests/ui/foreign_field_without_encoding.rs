use binform::Packable;

#[derive(Packable)]
struct Timed {
    id: u32,
    at: std::time::Instant,
}

fn main() {}
