use binform::Packable;

#[derive(Packable)]
struct Compact {
    #[binform(required)]
    a: u8,
}

#[derive(Packable)]
#[binform(version_tolerant)]
struct Tolerant {
    #[binform(required, skip)]
    a: u8,
    #[binform(required, default = "seven")]
    b: u8,
}

fn seven() -> u8 {
    7
}

fn main() {}
