use binform::Packable;

#[derive(Packable)]
struct NoDefault(u8);

#[derive(Packable)]
#[binform(version_tolerant)]
struct S {
    a: u8,
    b: NoDefault,
}

fn main() {}
