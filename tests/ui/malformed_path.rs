use binform::Packable;

#[derive(Packable)]
struct S {
    #[binform(skip, default = "not a path!")]
    a: u8,
}

fn main() {}
