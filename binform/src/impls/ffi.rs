//! Operating-system strings: `PathBuf`/`Path` and `OsString`/`OsStr` as
//! UTF-8 strings (a path that is not UTF-8 is an encode error, so a payload
//! means the same on every platform), `CString`/`CStr` as their bytes
//! without the terminating NUL (a NUL inside is a decode error).

use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::CStr;

use crate::tolerant::wire::Wire;
use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl Encoding for CStr {
    encoding_builtin!("cstring");
    const WIRE: Wire = Wire::Bytes;
}

impl Pack for CStr {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.to_bytes().pack(w)
    }
}

impl Encoding for CString {
    encoding_transparent!(CStr);
}

impl Pack for CString {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_c_str().pack(w)
    }
}

impl<'de> Unpack<'de> for CString {
    const MIN_SIZE: usize = 1;

    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let start = r.position();
        let bytes = Vec::<u8>::unpack(r)?;
        CString::new(bytes).map_err(|e| {
            r.error_at(
                start,
                ErrorKind::InvalidValue,
                alloc::format!("a C string holds a NUL byte at {}", e.nul_position()),
            )
        })
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(CString::default())
    }
}

/// The UTF-8 text of an OS string, or the encode error that says why a
/// payload cannot carry it.
#[cfg(feature = "std")]
fn utf8<'a>(text: Option<&'a str>, what: &str) -> Result<&'a str> {
    text.ok_or_else(|| {
        crate::Error::new(
            ErrorKind::InvalidValue,
            alloc::format!("{what} is not valid UTF-8, which binform requires of it"),
        )
    })
}

#[cfg(feature = "std")]
mod os {
    use std::ffi::{OsStr, OsString};
    use std::path::{Path, PathBuf};

    use alloc::string::String;
    use alloc::vec::Vec;

    use super::utf8;
    use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

    /// Encoded as `str`, and decoded from it.
    macro_rules! os_text {
        ($($borrowed:ty, $owned:ty, $to_str:ident, $what:literal;)*) => {$(
            impl Encoding for $borrowed {
                encoding_transparent!(str);
            }

            impl Pack for $borrowed {
                #[inline]
                fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                    utf8(self.$to_str(), $what)?.pack(w)
                }

                fn pack_all<'a, L: crate::Layout>(
                    items: impl Iterator<Item = &'a Self> + Clone,
                    w: &mut Writer<'_, L>,
                ) -> Result<()>
                where
                    Self: 'a,
                {
                    let texts = items
                        .map(|x| utf8(x.$to_str(), $what))
                        .collect::<Result<Vec<&str>>>()?;
                    str::pack_all(texts.iter().copied(), w)
                }
            }

            impl Encoding for $owned {
                encoding_transparent!(str);
            }

            impl Pack for $owned {
                #[inline]
                fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                    utf8(self.$to_str(), $what)?.pack(w)
                }

                forward_columns!($borrowed, |x: &Self| x.as_ref());
            }

            impl<'de> Unpack<'de> for $owned {
                const MIN_SIZE: usize = 1;

                #[inline]
                fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                    String::unpack(r).map(<$owned>::from)
                }

                #[inline]
                fn placeholder(_: &mut u32) -> Option<Self> {
                    Some(<$owned>::new())
                }

                crate::impls::string::str_column_unpack!(|r, s| {
                    crate::impls::string::string_of(r, s).map(<$owned>::from)
                });
            }
        )*};
    }

    os_text!(
        Path, PathBuf, to_str, "a path";
        OsStr, OsString, to_str, "an OS string";
    );
}
