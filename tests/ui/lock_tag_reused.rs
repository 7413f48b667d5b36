use binform::Packable;

#[derive(Packable, Default)]
struct Address {
    street: String,
    zip: u32,
}

/// Tag 9 is reserved in the lock file.
#[derive(Packable)]
#[binform(version_tolerant, schema_lock = "locks/Customer.binform-schema")]
struct Customer {
    id: u64,
    name: String,
    tags: Vec<String>,
    legacy: u8,
    address: Address,
    #[binform(tag = 9)]
    email: Option<String>,
}

fn main() {}
