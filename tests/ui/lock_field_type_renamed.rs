use binform::Packable;

/// Was `Address` when the lock file was written.
#[derive(Packable, Default)]
struct Location {
    street: String,
    zip: u32,
}

#[derive(Packable)]
#[binform(version_tolerant, reserved = [9], schema_lock = "locks/Customer.binform-schema")]
struct Customer {
    id: u64,
    name: String,
    tags: Vec<String>,
    legacy: u8,
    address: Location,
}

fn main() {}
