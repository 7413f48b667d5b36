use binform::Packable;

#[derive(Packable, Default)]
#[binform(version_tolerant)]
struct S {
    #[binform(tag = 1)]
    a: u8,
    #[binform(tag = 1)]
    b: u8,
}

fn main() {}
