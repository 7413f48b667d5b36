use binform::Packable;

/// Variants renamed and added in a compact enum (numbered by position).
#[derive(Packable)]
#[binform(schema_lock = "locks/Shape.binform-schema")]
enum Shape {
    Circle(f64),
    Rectangle { side: f64 },
    Triangle,
}

fn main() {}
