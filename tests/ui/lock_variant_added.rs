use binform::Packable;

/// The locked `Closed` has no `other` variant to read a new one as.
#[derive(Packable)]
#[binform(version_tolerant, schema_lock = "locks/Closed.binform-schema")]
enum Closed {
    A,
    B(u8),
    C,
}

fn main() {}
