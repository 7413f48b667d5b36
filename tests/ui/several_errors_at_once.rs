use binform::Packable;

#[derive(Packable)]
#[binform(crate = 7)]
struct S {
    #[binform(unknown)]
    a: u8,
    #[binform(with = "x", with = "y")]
    b: u8,
}

fn main() {}
