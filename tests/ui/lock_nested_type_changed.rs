use binform::Packable;

/// `zip` was a u32 when the lock file was written.
#[derive(Packable, Default)]
struct Address {
    street: String,
    zip: String,
}

#[derive(Packable)]
#[binform(version_tolerant, reserved = [9], schema_lock = "../../../../tests/ui/locks/Customer.binform-schema")]
struct Customer {
    id: u64,
    name: String,
    tags: Vec<String>,
    legacy: u8,
    address: Address,
}

fn main() {}
