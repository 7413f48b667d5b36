use binform::Packable;

mod __bf {
    pub struct Thing;
}

#[derive(Packable)]
struct S<__L> {
    a: __L,
    b: Vec<__bf::Thing>,
}

fn main() {}
