//! The serde `Deserializer`: the derive's bytes read back through
//! serde's data model. binform bytes do not say their type, so every
//! value is read as the `Deserialize` impl asks for it; what would need
//! the bytes to say it (`deserialize_any`) is refused.
//!
//! Hostile input: every compound is one nesting level (the depth limit
//! and stack growth of [`Reader::nested`]), every element and entry is
//! charged to the memory budget before it is built (its size, at least
//! a byte, so elements that take no input are bounded too), and packed
//! blocks are checked as the derive checks them.

use ::serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::ints::{pop, Mode, PackedInt};
use crate::{Error, ErrorKind, Reader, Result, Unpack};

/// Reads one serde value from a [`Reader`]; inside a sequence or tuple it
/// also carries the sequence's state, so that integers come from packed
/// blocks.
pub(crate) struct Deserializer<'a, 'de, L: crate::Layout> {
    r: &'a mut Reader<'de, L>,
    seq: Option<&'a mut SeqState>,
}

/// A sequence's elements as read so far: how, and how many of its packed
/// values are still on the wire.
struct SeqState {
    mode: Mode,
    unread: usize,
}

impl<'a, 'de, L: crate::Layout> Deserializer<'a, 'de, L> {
    /// A deserializer for a value on its own (not a sequence element).
    pub(crate) fn new(r: &'a mut Reader<'de, L>) -> Self {
        Deserializer { r, seq: None }
    }

    /// The reader, for a value that is not a packed integer.
    #[inline]
    fn plain(self) -> Result<&'a mut Reader<'de, L>> {
        if let Some(seq) = self.seq {
            seq.mode.plain()?;
        }
        Ok(self.r)
    }

    /// An integer that sequences pack (in the compact layout; the fixed
    /// one reads each as it comes).
    #[inline]
    fn int<T: PackedInt>(self) -> Result<T> {
        if L::FIXED {
            return T::unpack(self.r);
        }
        if let Some(seq) = self.seq {
            if let Some((values, next)) = seq.mode.packed::<T>()? {
                return pop(values, next, &mut seq.unread, self.r);
            }
        }
        T::unpack(self.r)
    }
}

/// Runs `visit` one nesting level deeper and points an error the visitor
/// raised (which knows no offset) at where reading stopped.
#[inline]
fn nested<'de, R, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    visit: impl FnOnce(&mut Reader<'de, L>) -> Result<R>,
) -> Result<R> {
    r.nested(visit).map_err(|e| e.at(r.position()))
}

/// Runs `f`, which builds a value of `size` bytes, with room on the stack
/// for its level's frames: each compound already runs on a grown stack
/// with the usual red zone (`nested`), so only values too large for it
/// check again, with a red zone that follows their size (the test folds
/// away for all others).
#[inline(always)]
fn deeper<R>(size: usize, f: impl FnOnce() -> R) -> R {
    if size > 16 * 1024 {
        crate::stack::grow_for(size, f)
    } else {
        f()
    }
}

#[cold]
fn refused(what: &str, why: &str) -> Error {
    Error::new(
        ErrorKind::Unsupported,
        alloc::format!(
            "{what}: binform bytes do not say their type, so the serde bridge cannot {why}; \
             {what} is what `#[serde(untagged)]`, internally tagged enums, `#[serde(flatten)]` \
             and self-describing types such as serde_json::Value ask for"
        ),
    )
}

macro_rules! plain {
    ($($method:ident $ty:ty => $visit:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let r = self.plain()?;
            let at = r.position();
            let value = <$ty as Unpack<'de>>::unpack(r)?;
            visitor.$visit::<Error>(value).map_err(|e| e.at(at))
        }
    )*};
}

macro_rules! packed {
    ($($method:ident $ty:ty => $visit:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let at = self.r.position();
            visitor.$visit::<Error>(self.int::<$ty>()?).map_err(|e| e.at(at))
        }
    )*};
}

impl<'de, L: crate::Layout> de::Deserializer<'de> for Deserializer<'_, 'de, L> {
    type Error = Error;

    #[inline]
    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(refused("deserialize_any", "tell which value comes next").at(self.r.position()))
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(
            refused("deserialize_ignored_any", "skip a value without its type")
                .at(self.r.position()),
        )
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(refused(
            "deserialize_identifier",
            "read a field or variant name, which it does not write",
        )
        .at(self.r.position()))
    }

    plain! {
        deserialize_bool bool => visit_bool;
        deserialize_i8 i8 => visit_i8;
        deserialize_u8 u8 => visit_u8;
        deserialize_f32 f32 => visit_f32;
        deserialize_f64 f64 => visit_f64;
        deserialize_char char => visit_char;
        deserialize_str &'de str => visit_borrowed_str;
        deserialize_string &'de str => visit_borrowed_str;
        deserialize_bytes &'de [u8] => visit_borrowed_bytes;
        deserialize_byte_buf &'de [u8] => visit_borrowed_bytes;
    }

    packed! {
        deserialize_i16 i16 => visit_i16;
        deserialize_u16 u16 => visit_u16;
        deserialize_i32 i32 => visit_i32;
        deserialize_u32 u32 => visit_u32;
        deserialize_i64 i64 => visit_i64;
        deserialize_u64 u64 => visit_u64;
        deserialize_i128 i128 => visit_i128;
        deserialize_u128 u128 => visit_u128;
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = self.plain()?;
        let at = r.position();
        match r.read_u8()? {
            0 => visitor.visit_none(),
            1 => nested(r, |r| visitor.visit_some(Deserializer::new(r))),
            tag => Err(r.error_at(
                at,
                ErrorKind::UnknownVariant,
                alloc::format!("Option tag {tag} is neither 0 (None) nor 1 (Some)"),
            )),
        }
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.plain()?;
        visitor.visit_unit()
    }

    #[inline]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.plain()?;
        visitor.visit_unit()
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        nested(self.plain()?, |r| {
            visitor.visit_newtype_struct(Deserializer::new(r))
        })
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = self.plain()?;
        let len = r.read_len()?;
        Seq::visit(r, len, true, visitor)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        // Tuples and arrays: never packed (see `serialize_tuple`).
        Seq::visit(self.plain()?, len, false, visitor)
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        Seq::visit(self.plain()?, len, false, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        Seq::fields(self.plain()?, fields.len(), visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = self.plain()?;
        let len = r.read_len()?;
        nested(r, |r| {
            let mut map = Map { r, left: len };
            let value = visitor.visit_map(&mut map)?;
            match map.left {
                0 => Ok(value),
                left => Err(unread(map.r, "map", left)),
            }
        })
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let r = self.plain()?;
        let at = r.position();
        let tag = match r.next_byte_if(|b| b <= 1 && super::byte_tagged(name, variants)) {
            Some(byte) => u32::from(byte),
            None => r.read_tag()?,
        };
        // The variant's contents nest as the encoder nested them: a
        // newtype's one level, a tuple's or struct's one as a compound.
        visitor.visit_enum(Enum { r, tag }).map_err(|e| {
            if e.kind() == ErrorKind::UnknownVariant {
                e.at(at)
            } else {
                e
            }
        })
    }
}

/// Charges one element or entry of `size` bytes (at least one, so that
/// elements taking no input still cost) before the visitor builds it.
#[inline]
fn charge<L: crate::Layout>(r: &mut Reader<'_, L>, size: usize) -> Result<()> {
    r.charge_memory(size.max(1))
}

#[cold]
fn unread<L: crate::Layout>(r: &Reader<'_, L>, what: &str, left: usize) -> Error {
    r.error(
        ErrorKind::InvalidValue,
        alloc::format!("the type read its {what} and left {left} of the elements written unread"),
    )
}

/// The elements of a sequence, tuple or struct.
struct Seq<'a, 'de, L: crate::Layout> {
    r: &'a mut Reader<'de, L>,
    left: usize,
    /// `None` for structs and tuple structs, whose fields never pack.
    state: Option<SeqState>,
    /// The size hint given to the visitor, which it may preallocate; the
    /// first element pays for all of them, the rest for themselves.
    hinted: usize,
    /// Elements read so far.
    read: usize,
}

/// The largest size hint a sequence gives: what serde's collections
/// preallocate before the first element is charged (its size is known
/// only then), so at most one level's worth is ever uncharged. Small
/// vectors still get exactly their room; larger ones grow by doubling,
/// each element charged for it.
const HINT_MAX: usize = 16;

impl<'a, 'de, L: crate::Layout> Seq<'a, 'de, L> {
    #[inline]
    fn visit<V: Visitor<'de>>(
        r: &'a mut Reader<'de, L>,
        len: usize,
        packs: bool,
        visitor: V,
    ) -> Result<V::Value> {
        nested(r, |r| {
            let mut seq = Seq {
                r,
                left: len,
                state: packs.then_some(SeqState {
                    mode: Mode::Start,
                    unread: len,
                }),
                // Only collections (whose elements may pack) preallocate.
                hinted: if packs { len.min(HINT_MAX) } else { 0 },
                read: 0,
            };
            let value = visitor.visit_seq(&mut seq)?;
            match seq.left {
                0 => Ok(value),
                left => Err(unread(seq.r, "sequence", left)),
            }
        })
    }
}

impl<'a, 'de, L: crate::Layout> Seq<'a, 'de, L> {
    /// A struct's or struct variant's fields. serde's list of field names
    /// also holds their aliases, so it is only an upper bound: the visitor
    /// reads each field it has once, and what it does not ask for was
    /// never written.
    #[inline]
    fn fields<V: Visitor<'de>>(
        r: &'a mut Reader<'de, L>,
        names: usize,
        visitor: V,
    ) -> Result<V::Value> {
        nested(r, |r| {
            visitor.visit_seq(&mut Seq {
                r,
                left: names,
                state: None,
                hinted: 0,
                read: 0,
            })
        })
    }
}

impl<'de, L: crate::Layout> de::SeqAccess<'de> for Seq<'_, 'de, L> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let size = core::mem::size_of::<T::Value>();
        if self.state.is_none() {
            // A tuple's or struct's field: stored inline, charged once.
            charge(self.r, size)?;
        } else if self.read == 0 && self.hinted > 0 {
            // A collection's first element pays for what the visitor may
            // have preallocated from the hint.
            charge(self.r, self.hinted.saturating_mul(size))?;
        } else if self.read >= self.hinted {
            // Past the hint, twice the element: serde's collections grow
            // by doubling, to up to twice their length.
            charge(self.r, 2 * size)?;
        }
        self.read += 1;
        let de = Deserializer {
            r: self.r,
            seq: self.state.as_mut(),
        };
        deeper(size, || seed.deserialize(de)).map(Some)
    }

    /// At most [`HINT_MAX`]: serde's collections preallocate from the hint
    /// before the first element is charged (the element's size is known
    /// only then), so a hint of the declared length let nested lying
    /// lengths each build up to 1 MiB unseen (224 MiB from 20 KB).
    #[inline]
    fn size_hint(&self) -> Option<usize> {
        (self.hinted > 0).then_some(self.hinted)
    }
}

/// The entries of a map.
struct Map<'a, 'de, L: crate::Layout> {
    r: &'a mut Reader<'de, L>,
    left: usize,
}

impl<'de, L: crate::Layout> de::MapAccess<'de> for Map<'_, 'de, L> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        // The key's share of its entry in a table grown by doubling (up to
        // 2.3 slots an entry, as `crate::impls::collections` charges) or
        // in a tree's node; the value charges its own.
        charge(
            self.r,
            3 * core::mem::size_of::<K::Value>() + core::mem::size_of::<usize>(),
        )?;
        let de = Deserializer::new(self.r);
        deeper(core::mem::size_of::<K::Value>(), || seed.deserialize(de)).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let size = core::mem::size_of::<V::Value>();
        charge(self.r, 3 * size)?;
        let de = Deserializer::new(self.r);
        deeper(size, || seed.deserialize(de))
    }

    /// None, as for sequences: nothing preallocated before it is charged.
    #[inline]
    fn size_hint(&self) -> Option<usize> {
        None
    }
}

/// An enum whose variant index has been read.
struct Enum<'a, 'de, L: crate::Layout> {
    r: &'a mut Reader<'de, L>,
    tag: u32,
}

impl<'a, 'de, L: crate::Layout> de::EnumAccess<'de> for Enum<'a, 'de, L> {
    type Error = Error;
    type Variant = Self;

    #[inline]
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let index: de::value::U32Deserializer<Error> = self.tag.into_deserializer();
        Ok((seed.deserialize(index)?, self))
    }
}

impl<'de, L: crate::Layout> de::VariantAccess<'de> for Enum<'_, 'de, L> {
    type Error = Error;

    #[inline]
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        nested(self.r, |r| seed.deserialize(Deserializer::new(r)))
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        Seq::visit(self.r, len, false, visitor)
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        Seq::fields(self.r, fields.len(), visitor)
    }
}
