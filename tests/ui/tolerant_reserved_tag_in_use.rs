use binform::Packable;

#[derive(Packable, Default)]
#[binform(version_tolerant, reserved = [2, 3])]
struct S {
    #[binform(tag = 1)]
    a: u8,
    #[binform(tag = 3)]
    b: u8,
}

fn main() {}
