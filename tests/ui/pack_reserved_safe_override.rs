//! `pack_reserved`'s caller trusts it to leave the room it counted on, so
//! an override must return a `Kept<Self>`: an override in safe code that
//! writes more than it claims (here 3,000 bytes against a bound of 0)
//! cannot give that word, and does not compile.

struct Hostile;

impl binform::Encoding for Hostile {}

impl binform::Pack for Hostile {
    const MAX_SIZE: usize = 0;

    fn pack<L: binform::Layout>(&self, w: &mut binform::Writer<'_, L>) -> binform::Result<()> {
        w.write_bytes(&[7; 3000]);
        Ok(())
    }

    unsafe fn pack_reserved<L: binform::Layout>(
        &self,
        c: &mut binform::__private::Cursor<'_, '_, L>,
    ) -> binform::Result<()> {
        c.write_bytes(&[7; 3000]);
        Ok(())
    }
}

fn main() {}
