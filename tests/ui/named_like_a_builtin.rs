//! A derived type named like a built-in encoding: a lock file could not
//! tell a field of the built-in `string` from one of this type.

#[allow(non_camel_case_types)]
#[derive(binform::Packable)]
struct string {
    text: String,
}

fn main() {}
