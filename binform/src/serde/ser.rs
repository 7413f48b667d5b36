//! The serde `Serializer`: serde's data model written as the derive
//! writes the same shapes (format.md §3–§9, §22).

use alloc::boxed::Box;
use alloc::vec::Vec;

use ::serde::ser::{self, Serialize};

use super::ints::{push, Mode, PackedInt};
use crate::write::SEQUENCE_CHUNK;
use crate::{Error, ErrorKind, Pack, Result, Writer};

/// Writes one serde value to a [`Writer`]. Inside a sequence or tuple it
/// also carries the sequence's [`Mode`], so that integer elements join
/// packed blocks.
pub(crate) struct Serializer<'a, 'w, L: crate::Layout> {
    w: &'a mut Writer<'w, L>,
    seq: Option<&'a mut Mode>,
}

impl<'a, 'w, L: crate::Layout> Serializer<'a, 'w, L> {
    /// A serializer for a value on its own (not a sequence element).
    pub(crate) fn new(w: &'a mut Writer<'w, L>) -> Self {
        Serializer { w, seq: None }
    }

    /// The writer, for a value that is not a packed integer: in a
    /// sequence, that makes the sequence one of plain elements.
    #[inline]
    fn plain(self) -> Result<&'a mut Writer<'w, L>> {
        if let Some(mode) = self.seq {
            mode.plain()?;
        }
        Ok(self.w)
    }

    /// An integer that sequences pack (in the compact layout; the fixed
    /// one writes each as it comes, as the derive does).
    #[inline]
    fn int<T: PackedInt>(self, v: T) -> Result<()> {
        if L::FIXED {
            return v.pack(self.w);
        }
        if let Some(mode) = self.seq {
            if let Some((values, _)) = mode.packed::<T>()? {
                return push(values, v, self.w);
            }
        }
        v.pack(self.w)
    }
}

/// Serializes `value` one nesting level deeper (an `Option`'s or a
/// newtype's contents), so that a value whose `Serialize` recurses
/// without end fails at the depth limit instead of the stack's.
#[inline]
fn nested<T: Serialize + ?Sized, L: crate::Layout>(w: &mut Writer<'_, L>, value: &T) -> Result<()> {
    w.nested(|w| value.serialize(Serializer::new(w)))
}

/// Serializes `value` at the writer's level (inside a compound, which
/// entered a level of its own).
#[inline]
fn put<T: Serialize + ?Sized, L: crate::Layout>(w: &mut Writer<'_, L>, value: &T) -> Result<()> {
    value.serialize(Serializer::new(w))
}

/// Writes a variant's tag: a byte for the std enums that have one, else
/// the varint index.
#[inline]
fn variant_tag<L: crate::Layout>(w: &mut Writer<'_, L>, name: &str, index: u32, variant: &str) {
    let known = super::byte_enum(name)
        .and_then(|e| e.variants.get(index as usize))
        .is_some_and(|(name, _)| *name == variant);
    if known {
        w.write_u8(index as u8)
    } else {
        w.write_tag(index)
    }
}

/// Enters the nesting level of a compound (sequence, tuple, map, struct,
/// variant), which the compound leaves when it is dropped (ended or not,
/// so a caller that goes on after an error keeps its depth): the decoder
/// nests the same way.
#[inline]
fn open<'a, 'w, L: crate::Layout>(w: &'a mut Writer<'w, L>) -> Result<&'a mut Writer<'w, L>> {
    w.enter()?;
    Ok(w)
}

/// The scalar methods: written by their `Pack` impl, or (integers that
/// sequences pack) through [`Serializer::int`].
macro_rules! scalars {
    (plain: $($p:ident $pt:ty),*; packed: $($q:ident $qt:ty),*;) => {
        $(
            #[inline]
            fn $p(self, v: $pt) -> Result<()> {
                v.pack(self.plain()?)
            }
        )*
        $(
            #[inline]
            fn $q(self, v: $qt) -> Result<()> {
                self.int(v)
            }
        )*
    };
}

impl<'a, 'w, L: crate::Layout> ser::Serializer for Serializer<'a, 'w, L> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Seq<'a, 'w, L>;
    type SerializeTuple = Seq<'a, 'w, L>;
    type SerializeTupleStruct = Fields<'a, 'w, L>;
    type SerializeTupleVariant = Fields<'a, 'w, L>;
    type SerializeMap = Map<'a, 'w, L>;
    type SerializeStruct = Fields<'a, 'w, L>;
    type SerializeStructVariant = Fields<'a, 'w, L>;

    #[inline]
    fn is_human_readable(&self) -> bool {
        false
    }

    scalars! {
        plain: serialize_bool bool, serialize_i8 i8, serialize_u8 u8, serialize_f32 f32,
            serialize_f64 f64, serialize_char char, serialize_str &str, serialize_bytes &[u8];
        packed: serialize_i16 i16, serialize_u16 u16, serialize_i32 i32, serialize_u32 u32,
            serialize_i64 i64, serialize_u64 u64, serialize_i128 i128, serialize_u128 u128;
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.plain()?.write_u8(0);
        Ok(())
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        let w = self.plain()?;
        w.write_u8(1);
        nested(w, value)
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.plain().map(drop)
    }
    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.plain().map(drop)
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        variant_tag(self.plain()?, name, index, variant);
        Ok(())
    }
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        // A derived newtype is not an integer: its sequences are not packed.
        nested(self.plain()?, value)
    }
    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let w = self.plain()?;
        variant_tag(w, name, index, variant);
        nested(w, value)
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'a, 'w, L>> {
        let w = open(self.plain()?)?;
        if let Some(len) = len {
            w.write_len(len);
        }
        Ok(Seq::new(w, len, len.is_none()))
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Seq<'a, 'w, L>> {
        // `[T; N]` arrives here too, but so do tuples of mixed types, and
        // nothing says which before the elements: a tuple's integers are
        // never packed (arrays of 8 or more integers differ from the
        // derive's, see the module documentation).
        let mut seq = Seq::new(open(self.plain()?)?, Some(len), false);
        seq.mode = Mode::Plain;
        Ok(seq)
    }
    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Fields<'a, 'w, L>> {
        Ok(Fields {
            w: open(self.plain()?)?,
        })
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Fields<'a, 'w, L>> {
        let w = self.plain()?;
        variant_tag(w, name, index, variant);
        Ok(Fields { w: open(w)? })
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Map<'a, 'w, L>> {
        let w = open(self.plain()?)?;
        if let Some(len) = len {
            w.write_len(len);
        }
        Ok(Map {
            w,
            len,
            count: 0,
            side: len.is_none().then(Vec::new),
        })
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'a, 'w, L>> {
        Ok(Fields {
            w: open(self.plain()?)?,
        })
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Fields<'a, 'w, L>> {
        let w = self.plain()?;
        variant_tag(w, name, index, variant);
        Ok(Fields { w: open(w)? })
    }
}

/// A sequence or tuple being written: its elements, a sequence's
/// integers packed.
/// A sequence whose length serde did not give up front is written to a
/// side buffer and copied after its count.
pub(crate) struct Seq<'a, 'w, L: crate::Layout> {
    w: &'a mut Writer<'w, L>,
    /// The element count declared, checked at the end.
    len: Option<usize>,
    count: usize,
    mode: Mode,
    /// Boxed: a sequence of known length (nearly all) carries one word,
    /// which measurably cheapens every sequence's setup.
    #[allow(clippy::box_collection)]
    side: Option<Box<Vec<u8>>>,
}

impl<'a, 'w, L: crate::Layout> Seq<'a, 'w, L> {
    #[inline]
    fn new(w: &'a mut Writer<'w, L>, len: Option<usize>, side: bool) -> Self {
        Seq {
            w,
            len,
            count: 0,
            mode: Mode::Start,
            side: side.then(Box::default),
        }
    }

    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.count += 1;
        if self.side.is_some() {
            return self.side_element(value);
        }
        if self.count.is_multiple_of(SEQUENCE_CHUNK) {
            // Long sequences hand a streaming encode what is complete.
            self.w.checkpoint();
        }
        value.serialize(Serializer {
            w: self.w,
            seq: Some(&mut self.mode),
        })
    }

    /// An element of a sequence of unknown length, into the side buffer.
    #[cold]
    #[inline(never)]
    fn side_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let depth = self.w.depth_left();
        let side = &mut **self.side.get_or_insert_with(Box::default);
        value.serialize(Serializer {
            w: &mut Writer::<L>::with_depth(side, depth),
            seq: Some(&mut self.mode),
        })
    }

    #[inline]
    fn end(mut self) -> Result<()> {
        if let Some(len) = self.len.filter(|&len| len != self.count) {
            return Err(count_error("sequence", len, self.count));
        }
        if self.side.is_some() {
            return self.side_end();
        }
        if let Mode::Packed(_) = self.mode {
            self.mode.finish(self.w)?;
        }
        self.w.checkpoint();
        Ok(())
    }

    /// The count, then the side buffer.
    #[cold]
    #[inline(never)]
    fn side_end(&mut self) -> Result<()> {
        let mut side = *self.side.take().unwrap_or_default();
        self.mode
            .finish(&mut Writer::<L>::with_depth(&mut side, self.w.depth_left()))?;
        self.w.write_len(self.count);
        self.w.write_bytes(&side);
        self.w.checkpoint();
        Ok(())
    }
}

#[cold]
fn count_error(what: &str, declared: usize, written: usize) -> Error {
    Error::new(
        ErrorKind::InvalidValue,
        alloc::format!("the {what} declared {declared} elements to serde and had {written}"),
    )
}

impl<L: crate::Layout> ser::SerializeSeq for Seq<'_, '_, L> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        Seq::end(self)
    }
}

impl<L: crate::Layout> ser::SerializeTuple for Seq<'_, '_, L> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        Seq::end(self)
    }
}

/// The fields of a struct, tuple struct or variant: one after another.
pub(crate) struct Fields<'a, 'w, L: crate::Layout> {
    w: &'a mut Writer<'w, L>,
}

#[cold]
fn skipped_field(key: &str) -> Error {
    Error::new(
        ErrorKind::Unsupported,
        alloc::format!(
            "field `{key}` was skipped (`skip_serializing_if`); binform writes fields by \
             position, so a reader could not tell it is missing"
        ),
    )
}

/// The fields of structs and variants, named or not, one after another;
/// a named one skipped by `skip_serializing_if` is refused.
macro_rules! fields {
    (named: $($named:path),*; unnamed: $($unnamed:path),*;) => {
        $(
            impl<L: crate::Layout> $named for Fields<'_, '_, L> {
                type Ok = ();
                type Error = Error;
                #[inline]
                fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, value: &T) -> Result<()> {
                    put(self.w, value)
                }
                #[inline]
                fn skip_field(&mut self, key: &'static str) -> Result<()> {
                    Err(skipped_field(key))
                }
                #[inline]
                fn end(self) -> Result<()> {
                    Ok(())
                }
            }
        )*
        $(
            impl<L: crate::Layout> $unnamed for Fields<'_, '_, L> {
                type Ok = ();
                type Error = Error;
                #[inline]
                fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                    put(self.w, value)
                }
                #[inline]
                fn end(self) -> Result<()> {
                    Ok(())
                }
            }
        )*
    };
}

fields! {
    named: ser::SerializeStruct, ser::SerializeStructVariant;
    unnamed: ser::SerializeTupleStruct, ser::SerializeTupleVariant;
}

/// A map being written: its count, then key, value, key, value.
pub(crate) struct Map<'a, 'w, L: crate::Layout> {
    w: &'a mut Writer<'w, L>,
    len: Option<usize>,
    count: usize,
    /// Where the entries go when serde gave no count up front.
    side: Option<Vec<u8>>,
}

impl<L: crate::Layout> Map<'_, '_, L> {
    #[inline]
    fn put<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        match &mut self.side {
            Some(side) => put(
                &mut Writer::<L>::with_depth(side, self.w.depth_left()),
                value,
            ),
            None => put(self.w, value),
        }
    }
}

impl<L: crate::Layout> ser::SerializeMap for Map<'_, '_, L> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.count += 1;
        self.put(key)
    }
    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.put(value)
    }
    #[inline]
    fn end(mut self) -> Result<()> {
        if let Some(len) = self.len.filter(|&len| len != self.count) {
            return Err(count_error("map", len, self.count));
        }
        if let Some(side) = self.side.take() {
            self.w.write_len(self.count);
            self.w.write_bytes(&side);
        }
        self.w.checkpoint();
        Ok(())
    }
}

macro_rules! leave_on_drop {
    ($($compound:ident),*) => {$(
        impl<L: crate::Layout> Drop for $compound<'_, '_, L> {
            fn drop(&mut self) {
                self.w.leave();
            }
        }
    )*};
}

leave_on_drop!(Seq, Fields, Map);
