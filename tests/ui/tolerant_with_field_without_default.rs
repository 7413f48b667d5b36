use binform::Packable;

// A `with` field of a tolerant type still needs a value when a payload
// lacks it: binform's message, not rustc's bare `Default` bound.

mod instant {
    use binform::{Layout, Reader, Result, Writer};
    use std::time::Instant;
    pub fn pack<L: Layout>(_: &Instant, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_u8(0);
        Ok(())
    }
    pub fn unpack<L: Layout>(r: &mut Reader<'_, L>) -> Result<Instant> {
        r.read_u8()?;
        Ok(Instant::now())
    }
}

#[derive(Packable)]
#[binform(version_tolerant)]
struct Timed {
    id: u32,
    #[binform(with = "instant")]
    at: std::time::Instant,
}

fn main() {}
