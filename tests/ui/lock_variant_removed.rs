use binform::Packable;

/// `Paid` (tag 1) removed without reserving its tag.
#[derive(Packable)]
#[binform(version_tolerant, schema_lock = "locks/Event.binform-schema")]
enum Event {
    Open,
    #[binform(tag = 2, other)]
    Unknown,
}

fn main() {}
