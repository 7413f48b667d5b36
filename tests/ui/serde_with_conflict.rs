use binform::Packable;

mod codec {}

#[derive(Packable)]
struct S {
    #[binform(serde, with = "codec")]
    a: u32,
}

fn main() {}
