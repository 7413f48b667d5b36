use binform::Packable;

#[derive(Packable)]
#[binform(skip)]
struct S {
    a: u8,
}

fn main() {}
