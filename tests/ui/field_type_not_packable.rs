use binform::Packable;

struct Foreign;

#[derive(Packable)]
struct S {
    a: u8,
    b: Foreign,
}

fn main() {}
