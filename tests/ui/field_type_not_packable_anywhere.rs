use binform::Packable;

struct Foreign;

#[derive(Packable)]
#[binform(version_tolerant)]
struct Tolerant {
    a: u8,
    b: Option<Foreign>,
}

#[derive(Packable)]
enum E {
    A(u8),
    B { inner: Vec<Foreign> },
}

fn main() {}
