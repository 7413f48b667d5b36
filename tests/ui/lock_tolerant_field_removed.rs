use binform::Packable;

#[derive(Packable, Default)]
struct Address {
    street: String,
    zip: u32,
}

/// `legacy` (tag 3) removed without reserving its tag.
#[derive(Packable)]
#[binform(version_tolerant, reserved = [9], schema_lock = "locks/Customer.binform-schema")]
struct Customer {
    id: u64,
    name: String,
    tags: Vec<String>,
    #[binform(tag = 4)]
    address: Address,
}

fn main() {}
