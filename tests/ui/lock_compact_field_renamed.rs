use binform::Packable;

#[derive(Packable)]
#[binform(schema_lock = "locks/Point.binform-schema")]
struct Point {
    x: i32,
    z: i32,
    label: Option<String>,
}

fn main() {}
