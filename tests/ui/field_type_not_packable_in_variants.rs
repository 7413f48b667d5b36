use binform::Packable;

struct Foreign;

mod as_u16 {
    pub fn pack<L: binform::Layout>(v: &u8, w: &mut binform::Writer<'_, L>) -> binform::Result<()> {
        binform::Pack::pack(&u16::from(*v), w)
    }
    pub fn unpack<L: binform::Layout>(r: &mut binform::Reader<'_, L>) -> binform::Result<u8> {
        let v: u16 = binform::Unpack::unpack(r)?;
        Ok(v as u8)
    }
}

// Variants of several fields, one read with a `with` module: each
// field without an encoding is one error, at the field.
#[derive(Packable)]
enum Several {
    A(u8),
    B(u8, Foreign),
    C(#[binform(with = "as_u16")] u8, Vec<Foreign>),
}

// A generic enum, whose columns make their elements by closures.
#[derive(Packable)]
enum Generic<T> {
    A(T),
    B(T, Option<Foreign>),
}

fn main() {}
