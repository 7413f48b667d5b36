//! The integers a sequence packs (format.md §22), as the bridge meets
//! them: one value at a time. serde hands a `Vec<i32>` over as a length
//! and then `serialize_i32` per element, so the bridge gathers a block of
//! them and writes it as the derive's `Vec<i32>` would, and reads a block
//! back before handing its values out. Which integer a sequence holds is
//! decided by its first element, as the derive decides it by the type.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::packed::layout::BLOCK;
use crate::packed::{unpack_into, Lane};
use crate::{Error, ErrorKind, Pack, Reader, Result, Writer};

/// One integer type's block, as [`Column`] holds it.
pub(super) trait PackedInt:
    Lane + Pack + for<'de> crate::Unpack<'de> + Copy + Default
{
    /// The column of this type, or `None` if `column` holds another.
    fn values(column: &mut Column) -> Option<&mut Vec<Self>>;
    /// An empty column of this type.
    fn column() -> Column;
}

macro_rules! columns {
    ($($variant:ident $ty:ident),*) => {
        /// Up to one block of one integer type.
        pub(super) enum Column {
            $($variant(Vec<$ty>),)*
        }

        $(impl PackedInt for $ty {
            #[inline]
            fn values(column: &mut Column) -> Option<&mut Vec<Self>> {
                match column {
                    Column::$variant(values) => Some(values),
                    _ => None,
                }
            }

            fn column() -> Column {
                Column::$variant(Vec::new())
            }
        })*

        impl Column {
            /// The type the column holds, for errors.
            fn type_name(&self) -> &'static str {
                match self {
                    $(Column::$variant(_) => stringify!($ty),)*
                }
            }

            /// Writes the values gathered as one block (fewer than a full
            /// block only at the end) and empties the column.
            pub(super) fn flush<L: crate::Layout>(&mut self, w: &mut Writer<'_, L>) -> Result<()> {
                match self {
                    $(Column::$variant(values) => {
                        <$ty as Pack>::pack_slice(values, w)?;
                        values.clear();
                    })*
                }
                Ok(())
            }
        }
    };
}

columns!(U16 u16, I16 i16, U32 u32, I32 i32, U64 u64, I64 i64, U128 u128, I128 i128);

/// How a sequence's elements are written or read: not known before the
/// first, then either one by one or packed.
pub(super) enum Mode {
    /// No element yet.
    Start,
    /// Elements one after another, each its own encoding.
    Plain,
    /// Integers of one type in packed blocks; on the decode side, `next`
    /// is the index of the next value in the block held. Boxed: every
    /// sequence carries a `Mode`, few of them are packed, and a small
    /// `Mode` keeps a sequence of strings as cheap as a derived one.
    Packed(Box<(Column, usize)>),
}

impl Mode {
    /// Marks the sequence as one of plain elements: an error once it has
    /// packed integers, whose blocks a plain element cannot join.
    #[inline]
    pub(super) fn plain(&mut self) -> Result<()> {
        match self {
            Mode::Plain => Ok(()),
            Mode::Start => {
                *self = Mode::Plain;
                Ok(())
            }
            Mode::Packed(packed) => Err(mixed(packed.0.type_name(), "another type")),
        }
    }

    /// The block of `T` being gathered or read, starting it on the first
    /// element; `None` in a sequence of plain elements.
    #[inline]
    pub(super) fn packed<T: PackedInt>(&mut self) -> Result<Option<(&mut Vec<T>, &mut usize)>> {
        if let Mode::Start = self {
            *self = Mode::Packed(Box::new((T::column(), 0)));
        }
        match self {
            Mode::Plain | Mode::Start => Ok(None),
            Mode::Packed(packed) => {
                let (column, next) = &mut **packed;
                let name = column.type_name();
                match T::values(column) {
                    Some(values) => Ok(Some((values, next))),
                    None => Err(mixed(name, core::any::type_name::<T>())),
                }
            }
        }
    }

    /// Writes the last, partial block of a packed sequence.
    pub(super) fn finish<L: crate::Layout>(&mut self, w: &mut Writer<'_, L>) -> Result<()> {
        match self {
            Mode::Packed(packed) => packed.0.flush(w),
            _ => Ok(()),
        }
    }
}

/// Adds `value` to the block being gathered, writing the block once full.
#[inline]
pub(super) fn push<T: PackedInt, L: crate::Layout>(
    values: &mut Vec<T>,
    value: T,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    if values.capacity() == 0 {
        values.reserve_exact(BLOCK);
    }
    values.push(value);
    if values.len() == BLOCK {
        T::pack_slice(values, w)?;
        values.clear();
        w.checkpoint();
    }
    Ok(())
}

/// The next value of a packed sequence whose blocks still hold `unread`
/// values on the wire, reading the next block when the one held is spent.
#[inline]
pub(super) fn pop<T: PackedInt, L: crate::Layout>(
    values: &mut Vec<T>,
    next: &mut usize,
    unread: &mut usize,
    r: &mut Reader<'_, L>,
) -> Result<T> {
    if *next == values.len() {
        let n = (*unread).min(BLOCK);
        if n == 0 {
            return Err(r.error(
                ErrorKind::Unsupported,
                "a sequence read more elements than it declared",
            ));
        }
        values.clear();
        values.resize(n, T::default());
        unpack_into(r, values)?;
        *unread -= n;
        *next = 0;
    }
    let value = values.get(*next).copied().unwrap_or_default();
    *next += 1;
    Ok(value)
}

#[cold]
fn mixed(first: &str, then: &str) -> Error {
    Error::new(
        ErrorKind::Unsupported,
        alloc::format!(
            "a sequence of `{first}` (packed in blocks) has an element of {then}; \
             the serde bridge packs a sequence's integers by its first element's type, \
             so every element must have that type"
        ),
    )
}
