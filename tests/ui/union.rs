use binform::Packable;

#[derive(Packable)]
union U {
    a: u32,
    b: f32,
}

fn main() {}
