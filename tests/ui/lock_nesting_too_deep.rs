//! A lock file whose field type nests 257 levels deep (one past
//! `binform_schema::MAX_DEPTH`): the derive's parser, the runtime's, stops
//! with the line and column, rather than recursing through it.

use binform::Packable;

#[derive(Packable)]
#[binform(schema_lock = "locks/Deep.binform-schema")]
struct Deep {
    x: Vec<u8>,
}

fn main() {}
