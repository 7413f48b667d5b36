use binform::Packable;

#[derive(Packable)]
struct NoDefault(u8);

#[derive(Packable)]
#[binform(version_tolerant)]
enum E {
    A,
    #[binform(other)]
    Unknown(NoDefault),
}

fn main() {}
