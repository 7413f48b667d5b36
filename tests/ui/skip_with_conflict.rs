use binform::Packable;

mod codec {}

#[derive(Packable)]
struct S {
    #[binform(skip, with = "codec")]
    a: u8,
}

fn main() {}
