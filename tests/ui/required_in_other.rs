use binform::Packable;

#[derive(Packable)]
#[binform(version_tolerant)]
enum Event {
    Open,
    #[binform(other)]
    Unknown {
        #[binform(required)]
        code: u8,
    },
}

fn main() {}
