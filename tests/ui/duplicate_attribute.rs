use binform::Packable;

#[derive(Packable)]
struct S {
    #[binform(skip)]
    #[binform(skip)]
    a: u8,
}

fn main() {}
