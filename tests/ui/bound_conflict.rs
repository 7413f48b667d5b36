use binform::Packable;

#[derive(Packable)]
#[binform(bound = "T: binform::Pack", bound(pack = "T: binform::Pack"))]
struct S<T> {
    a: T,
}

fn main() {}
