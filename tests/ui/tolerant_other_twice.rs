use binform::Packable;

#[derive(Packable)]
#[binform(version_tolerant)]
enum E {
    A,
    #[binform(other)]
    B,
    #[binform(other)]
    C,
}

fn main() {}
