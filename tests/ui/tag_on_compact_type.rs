use binform::Packable;

#[derive(Packable)]
struct S {
    #[binform(tag = 4)]
    a: u8,
}

fn main() {}
