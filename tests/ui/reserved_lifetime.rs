use binform::Packable;

#[derive(Packable)]
struct S<'de> {
    a: &'de str,
}

fn main() {}
