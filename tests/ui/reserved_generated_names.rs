use binform::Packable;

mod __bf {
    pub struct Thing;
}

const __bf_len: usize = 3;

#[derive(Packable)]
struct S<__L> {
    a: __L,
    b: Vec<__bf::Thing>,
}

#[derive(Packable)]
struct T {
    a: u8,
    b: [u8; __bf_len],
}

fn main() {}
