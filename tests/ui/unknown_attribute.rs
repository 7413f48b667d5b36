use binform::Packable;

#[derive(Packable)]
struct S {
    #[binform(skipp)]
    a: u8,
}

fn main() {}
