use binform::Packable;

#[derive(Packable)]
struct S {
    #[binform]
    a: u8,
}

fn main() {}
