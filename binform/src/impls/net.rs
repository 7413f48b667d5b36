//! IP and socket addresses: addresses as their raw octets (4 or 16 bytes),
//! ports as varints, `IpAddr`/`SocketAddr` with a tag byte (0 = v4, 1 = v6).

use core::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl Encoding for Ipv4Addr {
    encoding_builtin!("ipv4");
}

impl Pack for Ipv4Addr {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_bytes(&self.octets());
        Ok(())
    }
}

impl<'de> Unpack<'de> for Ipv4Addr {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Ipv4Addr::UNSPECIFIED)
    }

    const MIN_SIZE: usize = 4;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        r.read_array::<4>().map(Ipv4Addr::from)
    }
}

impl Encoding for Ipv6Addr {
    encoding_builtin!("ipv6");
}

impl Pack for Ipv6Addr {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_bytes(&self.octets());
        Ok(())
    }
}

impl<'de> Unpack<'de> for Ipv6Addr {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Ipv6Addr::UNSPECIFIED)
    }

    const MIN_SIZE: usize = 16;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        r.read_array::<16>().map(Ipv6Addr::from)
    }
}

impl Encoding for SocketAddrV4 {
    encoding_builtin!("socket_v4");
}

impl Pack for SocketAddrV4 {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.ip().pack(w)?;
        // The record's integers are `u64`s (`builtins.rs`), which only
        // the fixed layout tells apart from narrower ones.
        w.write_u64(u64::from(self.port()));
        Ok(())
    }
}

impl<'de> Unpack<'de> for SocketAddrV4 {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0))
    }

    const MIN_SIZE: usize = 5;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        Ok(SocketAddrV4::new(Ipv4Addr::unpack(r)?, narrow(r)?))
    }
}

/// Address, port, flow info, scope id.
impl Encoding for SocketAddrV6 {
    encoding_builtin!("socket_v6");
}

impl Pack for SocketAddrV6 {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.ip().pack(w)?;
        w.write_u64(u64::from(self.port()));
        w.write_u64(u64::from(self.flowinfo()));
        w.write_u64(u64::from(self.scope_id()));
        Ok(())
    }
}

impl<'de> Unpack<'de> for SocketAddrV6 {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(SocketAddrV6::new(Ipv6Addr::UNSPECIFIED, 0, 0, 0))
    }

    const MIN_SIZE: usize = 19;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        Ok(SocketAddrV6::new(
            Ipv6Addr::unpack(r)?,
            narrow(r)?,
            narrow(r)?,
            narrow(r)?,
        ))
    }
}

/// Reads the 0 (v4) / 1 (v6) tag of `IpAddr` and `SocketAddr`.
fn read_family<L: crate::Layout>(r: &mut Reader<'_, L>, ty: &str) -> Result<bool> {
    match r.read_u8()? {
        0 => Ok(false),
        1 => Ok(true),
        tag => Err(r.error_at(
            r.position() - 1,
            ErrorKind::UnknownVariant,
            alloc::format!("tag {tag} is not a {ty} tag (0 or 1)"),
        )),
    }
}

impl Encoding for IpAddr {
    encoding_builtin!("ip");
}

impl Pack for IpAddr {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        match self {
            IpAddr::V4(a) => {
                w.write_u8(0);
                a.pack(w)
            }
            IpAddr::V6(a) => {
                w.write_u8(1);
                a.pack(w)
            }
        }
    }
}

impl<'de> Unpack<'de> for IpAddr {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }

    const MIN_SIZE: usize = 5;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        if read_family(r, "IpAddr")? {
            Ipv6Addr::unpack(r).map(IpAddr::V6)
        } else {
            Ipv4Addr::unpack(r).map(IpAddr::V4)
        }
    }
}

impl Encoding for SocketAddr {
    encoding_builtin!("socket");
}

impl Pack for SocketAddr {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        match self {
            SocketAddr::V4(a) => {
                w.write_u8(0);
                a.pack(w)
            }
            SocketAddr::V6(a) => {
                w.write_u8(1);
                a.pack(w)
            }
        }
    }
}

impl<'de> Unpack<'de> for SocketAddr {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0)))
    }

    const MIN_SIZE: usize = 6;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        if read_family(r, "SocketAddr")? {
            SocketAddrV6::unpack(r).map(SocketAddr::V6)
        } else {
            SocketAddrV4::unpack(r).map(SocketAddr::V4)
        }
    }
}

/// A socket address's integer: a `u64` in the record, narrowed to its
/// Rust type (a wider value overflows, as the narrower type's own decoder
/// would report in the compact layout).
fn narrow<T: TryFrom<u64>, L: crate::Layout>(r: &mut Reader<'_, L>) -> Result<T> {
    let start = r.position();
    let v = r.read_u64()?;
    T::try_from(v).map_err(|_| {
        r.error_at(
            start,
            ErrorKind::IntegerOverflow,
            alloc::format!("{v} does not fit in {}", core::any::type_name::<T>()),
        )
    })
}
