use binform::Packable;

#[derive(Packable)]
#[binform(schema_lock = "schemas/Nowhere.binform-schema")]
struct Nowhere {
    a: u8,
}

fn main() {}
