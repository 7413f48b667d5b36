use binform::Packable;

struct NoDefault;

#[derive(Packable)]
struct S {
    a: u8,
    #[binform(skip)]
    b: NoDefault,
}

fn main() {}
