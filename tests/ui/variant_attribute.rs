use binform::Packable;

#[derive(Packable)]
enum E {
    #[binform(skip)]
    A,
    B,
}

fn main() {}
