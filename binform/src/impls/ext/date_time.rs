//! What chrono's and the time crate's impls share: the impls of one
//! `Copy` date or time type from its parts, and the errors of values the
//! target crate cannot hold.

/// The impls of a date or time type (chrono's or the time crate's, all
/// `Copy`): its schema name, least encoded size, encoder, decoder and
/// placeholder.
macro_rules! date_time {
    ($ty:ty, $name:literal, $min:expr, |$v:ident, $w:ident| $pack:expr, |$r:ident| $unpack:expr, $placeholder:expr) => {
        impl crate::Encoding for $ty {
            encoding_builtin!($name);
        }

        impl crate::Pack for $ty {
            #[inline]
            fn pack<L: crate::Layout>(&self, $w: &mut crate::Writer<'_, L>) -> crate::Result<()> {
                let $v = *self;
                $pack;
                Ok(())
            }
        }

        impl<'de> crate::Unpack<'de> for $ty {
            const MIN_SIZE: usize = $min;

            #[inline]
            fn unpack<L: crate::Layout>($r: &mut crate::Reader<'de, L>) -> crate::Result<Self> {
                $unpack
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some($placeholder)
            }
        }
    };
}

/// A date or time value the target crate cannot hold.
#[cold]
#[inline(never)]
pub(super) fn invalid<L: crate::Layout>(
    r: &crate::Reader<'_, L>,
    at: usize,
    what: &str,
) -> crate::Error {
    r.error_at(
        at,
        crate::ErrorKind::InvalidValue,
        alloc::format!("not a valid {what}"),
    )
}

/// Reads a zig-zag varint that must fit an `i32` from which `make` builds
/// a value (a day number, an offset in seconds); anything else is
/// `InvalidValue` naming `what`.
pub(super) fn read_i32_as<T, L: crate::Layout>(
    r: &mut crate::Reader<'_, L>,
    what: &str,
    make: impl FnOnce(i32) -> Option<T>,
) -> crate::Result<T> {
    let at = r.position();
    let v = r.read_i64()?;
    i32::try_from(v)
        .ok()
        .and_then(make)
        .ok_or_else(|| invalid(r, at, what))
}
