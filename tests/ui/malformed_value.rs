use binform::Packable;

#[derive(Packable)]
struct S {
    #[binform(with = 5)]
    a: u8,
}

fn main() {}
