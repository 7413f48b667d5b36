//! Helpers that derived code calls. Not a public API: anything here may
//! change in any release.

pub use alloc::boxed::Box;
pub use alloc::format;
pub use alloc::rc::Rc;
pub use alloc::string::String;
pub use alloc::sync::Arc;
pub use alloc::vec;
pub use alloc::vec::Vec;
pub use core;

pub use crate::columns::lazy::{rows_of, ReadFields, ReadOne};
pub use crate::columns::variants::{
    pack_enum_columns, read_tags, tag_column, NoVariant, PackVariantOf, PackVariantWith,
    ReadVariants, VariantUnit, VariantWith,
};
pub use crate::impls::SharedUnpack;
pub use crate::plain::Plain;
pub use crate::read::ReadCursor;
pub use crate::row::{DescribeRow, PackRow, UnpackRow};
pub use crate::schema::hash::{builtin_value, number_value, reference_value};
pub use crate::tolerant::wire::Wire;
pub use crate::tolerant::Fields;
pub use crate::write::{Cursor, Kept, PackFields, Rows, RESERVE_SLACK};

// Every name the derive's code uses, one segment after the alias that
// code opens with (`use ::binform::__private as __bf;`): a path such as
// `__bf::Ok` is three tokens where `::core::result::Result::Ok` is twelve,
// and each token the derive makes crosses the compiler's proc-macro bridge
// (unoptimized code in every build; binform-derive's `expand.rs`).
pub use crate::schema::{Builder, TypeRef};
pub use crate::{Encoding, Error, Layout, Pack, Reader, Unpack, Writer};
pub use core::any::type_name;
pub use core::clone::Clone;
pub use core::convert::identity;
pub use core::default::Default;
pub use core::iter::{empty, from_fn, Iterator};
pub use core::mem::size_of;
pub use core::option::Option::{self, None, Some};
pub use core::primitive::{bool, u32, u64, usize};
pub use core::result::Result::{self, Err, Ok};

/// The position (in tag order) of the variant of the enum `T` whose
/// placeholder costs least: where a derived enum's placeholder starts.
pub fn cheapest_variant<T: crate::Encoding + ?Sized>() -> usize {
    crate::schema::facts::facts_of::<T>().cheapest_variant as usize
}

/// How a derived type's field is described: through its type's
/// `describe`, or as a `with` module's path.
pub enum FieldSchema {
    /// The field type's `Encoding::describe`.
    Of(fn(&mut crate::schema::Builder) -> crate::TypeRef),
    /// `with<path>`.
    With(&'static str),
}

/// A field as the derive lists it: tag, name, schema.
pub type FieldEntry<'a> = (u32, &'a str, FieldSchema);

/// A variant as the derive lists it: tag, name, whether it is the `other`
/// catch-all, fields.
pub type VariantEntry<'a> = (u32, &'a str, bool, &'a [FieldEntry<'a>]);

/// A derived type's fields or variants as the derive lists them.
pub enum Shape<'a> {
    /// A struct's fields, by tag.
    Struct(&'a [FieldEntry<'a>]),
    /// An enum's variants.
    Enum(&'a [VariantEntry<'a>]),
}

/// A derived type's `Encoding::describe`, from the tables the derive
/// writes: one call a type in the derive's output, instead of a
/// `TypeDef` built field by field.
pub fn describe_derived(
    b: &mut crate::schema::Builder,
    type_name: &str,
    tolerant: bool,
    shape: Shape<'_>,
    reserved: &[u32],
) -> crate::TypeRef {
    use crate::schema::{Body, FieldDef, TypeDef, TypeRef, VariantDef};
    fn fields(b: &mut crate::schema::Builder, list: &[FieldEntry<'_>]) -> Vec<FieldDef> {
        list.iter()
            .map(|(tag, name, schema)| FieldDef {
                tag: *tag,
                name: String::from(*name),
                schema: match schema {
                    FieldSchema::Of(describe) => describe(b),
                    FieldSchema::With(path) => {
                        TypeRef::builtin_of("with", vec![TypeRef::builtin(path)])
                    }
                },
            })
            .collect()
    }
    b.named(type_name, |b| TypeDef {
        name: String::new(),
        tolerant,
        body: match shape {
            Shape::Struct(list) => Body::Struct(fields(b, list)),
            Shape::Enum(variants) => Body::Enum(
                variants
                    .iter()
                    .map(|(tag, name, other, list)| VariantDef {
                        tag: *tag,
                        name: String::from(*name),
                        other: *other,
                        fields: fields(b, list),
                    })
                    .collect(),
            ),
        },
        reserved: reserved.to_vec(),
    })
}

/// The value of a version-tolerant type's field that a payload lacks: its
/// type's `Default`, through a trait whose error says what else to write.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no `Default`, so a version-tolerant field of it cannot be left out of a payload",
    label = "`{Self}` has no `Default`",
    note = "mark the field `#[binform(required)]` (a payload without it is an error), or give it `#[binform(default = \"path\")]` (a function that makes the value), or implement `Default` for `{Self}`"
)]
pub trait TolerantDefault {
    /// The value.
    fn missing() -> Self;
}

#[diagnostic::do_not_recommend]
impl<T: Default> TolerantDefault for T {
    #[inline]
    fn missing() -> Self {
        T::default()
    }
}

/// A compact type's `Pack::pack`: its `pack_cursor` through a cursor over
/// the writer. One call in the derive's output instead of a closure in
/// every derived type.
#[inline(always)]
pub fn pack_through_cursor<T: crate::Pack + ?Sized, L: crate::Layout>(
    value: &T,
    w: &mut crate::Writer<'_, L>,
) -> crate::Result<()> {
    w.with_cursor(|c| value.pack_cursor(c))
}

/// A compact struct's `Pack::pack_cursor`: room for all of it when its
/// `MAX_SIZE` is a bound, then its derived `pack_reserved`, whose first
/// bounded field makes room itself otherwise (see [`pack_next`]).
///
/// # Safety
/// `T::pack_reserved` must be the derive's for a compact struct: one whose
/// first field, told that the field before had `T::MAX_SIZE`, makes room
/// when that is no bound.
#[inline(always)]
#[allow(unsafe_code)]
pub unsafe fn pack_struct_cursor<T: crate::Pack + ?Sized, L: crate::Layout>(
    value: &T,
    c: &mut Cursor<'_, '_, L>,
) -> crate::Result<()> {
    if is_bounded(T::MAX_SIZE) {
        c.reserve(T::MAX_SIZE + RESERVE_SLACK);
    }
    // SAFETY: room for `MAX_SIZE` and the slack when that is a bound;
    // otherwise the derived body makes its own (the caller's promise).
    match unsafe { value.pack_reserved(c) } {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// A compact type's `Unpack::unpack`: its `unpack_cursor` through a cursor
/// over the reader.
#[inline(always)]
pub fn unpack_through_cursor<'de, T: crate::Unpack<'de>, L: crate::Layout>(
    r: &mut crate::Reader<'de, L>,
) -> crate::Result<T> {
    r.with_cursor(|c| T::unpack_cursor(c))
}

/// Writes one field of a compact type through the cursor, the field
/// before it having had the `MAX_SIZE` `prev_max` (0 for the first field):
/// with checks if this field has no bound; else into the room made before
/// it, which is made again first (`room`: this field's `MAX_SIZE`, the
/// bounded fields' after it, and the slack) when the field before had no
/// bound, so that its checked writes used up the room. One call a field
/// keeps the derive's output small; inlined, the tests on constants fold.
///
/// # Safety
/// When `T::MAX_SIZE` and `prev_max` are both bounds, the cursor's room
/// left is at least `T::MAX_SIZE` + [`RESERVE_SLACK`] (the caller made room
/// for this field and the bounded fields after it, and each bounded field
/// since wrote at most its own `MAX_SIZE`).
#[inline(always)]
#[allow(unsafe_code)]
pub unsafe fn pack_next<T: crate::Pack + ?Sized, L: crate::Layout>(
    value: &T,
    c: &mut Cursor<'_, '_, L>,
    prev_max: usize,
    room: usize,
) -> crate::Result<()> {
    if !is_bounded(T::MAX_SIZE) {
        return value.pack_cursor(c);
    }
    if !is_bounded(prev_max) {
        c.reserve(room);
    }
    // SAFETY: room for `T::MAX_SIZE` and the slack: the caller's (when
    // the field before was bounded) or just made.
    match unsafe { value.pack_reserved(c) } {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Whether a value of `T` may (transitively) hold a `Weak`: what decides
/// how shared values of it are built. For tests.
pub fn may_hold_weak<T: crate::Encoding + ?Sized>() -> bool {
    crate::schema::facts::facts_of::<T>().holds_weak
}

/// A compact struct's (or variant's) `MIN_SIZE`: its fields' sum,
/// saturating, in one `const fn` call rather than an overflow-checked `+`
/// a field in every derived type.
pub const fn min_size_sum(fields: &[usize]) -> usize {
    let mut sum = 0usize;
    let mut i = 0;
    while i < fields.len() {
        sum = sum.saturating_add(fields[i]);
        i += 1;
    }
    sum
}

/// A compact enum's `MIN_SIZE`: its tag byte and its smallest variant (one
/// byte alone without variants).
pub const fn min_size_enum(variants: &[usize]) -> usize {
    let mut min = if variants.is_empty() { 0 } else { usize::MAX };
    let mut i = 0;
    while i < variants.len() {
        if variants[i] < min {
            min = variants[i];
        }
        i += 1;
    }
    min.saturating_add(1)
}

/// The error for encoding a trait object whose type was not registered.
#[cold]
pub fn unregistered_type(trait_name: &str) -> crate::Error {
    crate::Error::new(
        crate::ErrorKind::UnregisteredType,
        alloc::format!(
            "the concrete type behind this {trait_name} is not registered with polymorphic!"
        ),
    )
}

/// Everything derived code asks of a field whose type names no generic
/// parameter, through one trait: a type without an encoding then fails
/// one bound, `Field`, at the field, and rustc prints that one error (the
/// same diagnostic from every use is shown once) with the ways out,
/// instead of one error per trait with a list of unrelated impls. Fields
/// of generic types keep the real traits, whose bounds the impls carry.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no binform encoding, so it cannot be a field of a `Packable` type",
    label = "`{Self}` has no binform encoding",
    note = "a type from another crate: mark the field `#[binform(with = \"module\")]`, where `module::pack` and `module::unpack` encode it, or `#[binform(serde)]` if the type implements serde's `Serialize` and `Deserialize` (feature `serde`)",
    note = "a type of your own crate: derive `binform::Packable` for `{Self}` (or for the type in it that has no encoding)"
)]
///
/// # Safety
/// Derived code trusts an implementation as it trusts the field type's
/// `Pack` and `Unpack` (which the one implementation below forwards to):
/// `pack_next` writes no more than `MAX_SIZE` into room made for it. Only that blanket implementation is meant to exist; the
/// trait is `unsafe` so that no other can be written in safe code.
#[allow(unsafe_code)]
pub unsafe trait Field: Sized {
    /// [`Encoding::PLAIN`](crate::Encoding::PLAIN), as a flag.
    const PLAIN: bool;
    /// [`Encoding::PLAIN`](crate::Encoding::PLAIN) in the fixed layout.
    const FIXED_PLAIN: bool;
    /// [`Encoding::WIRE`](crate::Encoding::WIRE).
    const WIRE: crate::tolerant::wire::Wire;
    /// [`Encoding::FIXED_WIRE`](crate::Encoding::FIXED_WIRE).
    const FIXED_WIRE: crate::tolerant::wire::Wire;
    /// [`Unpack::MIN_SIZE`](crate::Unpack::MIN_SIZE).
    const MIN_SIZE: usize;
    /// [`Encoding::SHAPE`](crate::Encoding::SHAPE).
    const SHAPE: u64;
    /// Whether the type's column is rows (neither columns nor packed): a
    /// struct of such fields is written as rows in its columns (§27).
    const ROWS: bool;
    /// [`Encoding::describe`](crate::Encoding::describe).
    fn describe(b: &mut crate::schema::Builder) -> crate::TypeRef;
    /// [`Pack::pack`](crate::Pack::pack).
    fn pack<L: crate::Layout>(&self, w: &mut crate::Writer<'_, L>) -> crate::Result<()>;
    /// [`Pack::pack_cursor`](crate::Pack::pack_cursor).
    fn pack_cursor<L: crate::Layout>(&self, c: &mut Cursor<'_, '_, L>) -> crate::Result<()>;
    /// [`Pack::MAX_SIZE`](crate::Pack::MAX_SIZE).
    const MAX_SIZE: usize;
    /// [`pack_next`] of the value.
    ///
    /// # Safety
    /// As [`pack_next`]'s.
    #[allow(unsafe_code)]
    unsafe fn pack_next<L: crate::Layout>(
        &self,
        c: &mut Cursor<'_, '_, L>,
        prev_max: usize,
        room: usize,
    ) -> crate::Result<()>;
    /// [`Writer::write_field`](crate::Writer::write_field) of the value.
    fn write_field<L: crate::Layout>(
        &self,
        gap: u32,
        w: &mut crate::Writer<'_, L>,
    ) -> crate::Result<()>;
    /// [`Unpack::unpack`](crate::Unpack::unpack).
    fn unpack<L: crate::Layout>(r: &mut crate::Reader<'_, L>) -> crate::Result<Self>;
    /// [`Unpack::unpack_cursor`](crate::Unpack::unpack_cursor).
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, '_, L>) -> crate::Result<Self>;
    /// [`unpack_cursor`](Field::unpack_cursor), its error given the path
    /// `segment` ([`in_field`]): a field of a derived type is one call,
    /// not two, for rustc to check in every derived type.
    fn unpack_cursor_in<L: crate::Layout>(
        c: &mut ReadCursor<'_, '_, L>,
        segment: &'static str,
    ) -> crate::Result<Self>;
    /// [`Unpack::unpack_field`](crate::Unpack::unpack_field).
    fn unpack_field<L: crate::Layout>(
        r: &mut crate::Reader<'_, L>,
        tag: u32,
        wire: crate::tolerant::wire::Wire,
    ) -> crate::Result<Self>;
    /// [`Unpack::placeholder`](crate::Unpack::placeholder).
    fn placeholder(work: &mut u32) -> Option<Self>;
    /// [`Unpack::COLUMN_MIN`](crate::Unpack::COLUMN_MIN).
    const COLUMN_MIN: usize;
}

/// Every encodable type is a [`Field`]. Not recommended in errors, so that
/// rustc reports `Field` itself (with its message) rather than the bound
/// of this impl that failed.
#[diagnostic::do_not_recommend]
// SAFETY: every method forwards to the type's own `Pack` and `Unpack`,
// whose `pack_reserved` returns a `Kept` (its implementer's promise).
#[allow(unsafe_code)]
unsafe impl<T: crate::Pack + for<'de> crate::Unpack<'de>> Field for T {
    const PLAIN: bool = <T as crate::Encoding>::PLAIN.get();
    const FIXED_PLAIN: bool = <T as crate::Encoding>::PLAIN.fixed();
    const WIRE: crate::tolerant::wire::Wire = <T as crate::Encoding>::WIRE;
    const FIXED_WIRE: crate::tolerant::wire::Wire = <T as crate::Encoding>::FIXED_WIRE;
    const MIN_SIZE: usize = <T as crate::Unpack<'static>>::MIN_SIZE;
    const MAX_SIZE: usize = <T as crate::Pack>::MAX_SIZE;
    const SHAPE: u64 = <T as crate::Encoding>::SHAPE;
    const ROWS: bool = !<T as crate::Encoding>::COLUMNS && !<T as crate::Encoding>::PACKED;
    #[inline]
    fn describe(b: &mut crate::schema::Builder) -> crate::TypeRef {
        <T as crate::Encoding>::describe(b)
    }
    #[inline(always)]
    fn pack<L: crate::Layout>(&self, w: &mut crate::Writer<'_, L>) -> crate::Result<()> {
        crate::Pack::pack(self, w)
    }
    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(&self, c: &mut Cursor<'_, '_, L>) -> crate::Result<()> {
        crate::Pack::pack_cursor(self, c)
    }
    #[inline(always)]
    #[allow(unsafe_code)]
    unsafe fn pack_next<L: crate::Layout>(
        &self,
        c: &mut Cursor<'_, '_, L>,
        prev_max: usize,
        room: usize,
    ) -> crate::Result<()> {
        // SAFETY: the caller's room is `pack_next`'s.
        unsafe { pack_next(self, c, prev_max, room) }
    }
    #[inline(always)]
    fn write_field<L: crate::Layout>(
        &self,
        gap: u32,
        w: &mut crate::Writer<'_, L>,
    ) -> crate::Result<()> {
        w.write_field(gap, self)
    }
    #[inline(always)]
    fn unpack<L: crate::Layout>(r: &mut crate::Reader<'_, L>) -> crate::Result<Self> {
        <T as crate::Unpack<'_>>::unpack(r)
    }
    #[inline(always)]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, '_, L>) -> crate::Result<Self> {
        <T as crate::Unpack<'_>>::unpack_cursor(c)
    }
    #[inline(always)]
    fn unpack_cursor_in<L: crate::Layout>(
        c: &mut ReadCursor<'_, '_, L>,
        segment: &'static str,
    ) -> crate::Result<Self> {
        in_field(<T as crate::Unpack<'_>>::unpack_cursor(c), segment)
    }
    #[inline(always)]
    fn unpack_field<L: crate::Layout>(
        r: &mut crate::Reader<'_, L>,
        tag: u32,
        wire: crate::tolerant::wire::Wire,
    ) -> crate::Result<Self> {
        <T as crate::Unpack<'_>>::unpack_field(r, tag, wire)
    }
    #[inline(always)]
    fn placeholder(work: &mut u32) -> Option<Self> {
        <T as crate::Unpack<'static>>::placeholder(work)
    }
    const COLUMN_MIN: usize = <T as crate::Unpack<'static>>::COLUMN_MIN;
}

/// A column of `n` values read one at a time by `read` (a `with`
/// field's module, which has no columns of its own), as an iterator, its
/// error given the path `segment`.
pub fn rows_with<'de, T, L: crate::Layout>(
    r: &mut crate::Reader<'de, L>,
    n: usize,
    segment: &'static str,
    mut read: impl FnMut(&mut crate::Reader<'de, L>) -> crate::Result<T>,
) -> crate::Result<alloc::vec::IntoIter<T>> {
    match build(r, n, |r, _| read(r)) {
        Ok(values) => {
            r.note_transient(&values);
            Ok(values.into_iter())
        }
        Err(e) => Err(e.in_field(segment)),
    }
}

/// Writes a column of values one at a time with `write` (a `with`
/// field's module).
pub fn pack_rows_with<'a, S: 'a, L: crate::Layout>(
    items: impl Iterator<Item = &'a S>,
    w: &mut crate::Writer<'_, L>,
    mut write: impl FnMut(&'a S, &mut crate::Writer<'_, L>) -> crate::Result<()>,
) -> crate::Result<()> {
    for item in items {
        write(item, w)?;
    }
    Ok(())
}

/// `n` values, the `i`-th made by `make(r, i)`, into a vector charged
/// to the budget and grown toward `n`, each written where it is stored
/// (`read::push_made`): a `with` field's column.
#[inline(always)]
pub fn build<'de, T, L: crate::Layout>(
    r: &mut crate::Reader<'de, L>,
    n: usize,
    mut make: impl FnMut(&mut crate::Reader<'de, L>, usize) -> crate::Result<T>,
) -> crate::Result<Vec<T>> {
    let mut out = r.vec_with_capacity::<T>(n)?;
    for i in 0..n {
        if out.len() == out.capacity() {
            r.grow_toward(&mut out, i + 1, n)?;
        }
        crate::read::push_made(&mut out, || make(r, i))?;
    }
    Ok(out)
}

/// A derived type's `COLUMN_MIN`: its fields' sum.
pub const fn column_min_sum(fields: &[usize]) -> usize {
    let mut sum = 0usize;
    let mut i = 0;
    while i < fields.len() {
        sum = sum.saturating_add(fields[i]);
        i += 1;
    }
    sum
}

/// A derived type's [`Pack::pack_all`](crate::Pack::pack_all): its
/// columns (§27) in the compact layout, gathered once; rows in the fixed.
#[inline(always)]
pub fn pack_all<'a, T: crate::Pack + 'a, L: crate::Layout>(
    items: impl Iterator<Item = &'a T>,
    w: &mut crate::Writer<'_, L>,
) -> crate::Result<()> {
    // Rows in the fixed layout, and for a struct whose fields' columns
    // would all be rows (its `COLUMNS`).
    if L::FIXED || !T::COLUMNS {
        return crate::write::pack_each_of(items, w);
    }
    crate::write::pack_columns_of(items, w)
}

/// The largest encoding a derived type counts as bounded: above it, room
/// made up front could be most of a small value's allocation.
pub const MAX_RESERVED: usize = 1024;

/// Whether a `MAX_SIZE` counts as a bound: at most [`MAX_RESERVED`]. The
/// one test of it, for the derive's choice of a field's path, its room
/// sums and `Option`'s bound: a hand-written `MAX_SIZE` of any size is
/// then written with checks, and no sum of bounds can overflow.
#[inline(always)]
pub const fn is_bounded(max_size: usize) -> bool {
    max_size <= MAX_RESERVED
}

/// A field's share of a derived type's room: its `MAX_SIZE`, or 0 for an
/// unbounded field (which is written with checks, after which the next
/// bounded field makes room again).
#[inline(always)]
pub const fn bounded(max_size: usize) -> usize {
    if is_bounded(max_size) {
        max_size
    } else {
        0
    }
}

/// `room` and a field's share ([`bounded`]): the room of a compact
/// type's fields from this one on, one call a field.
#[inline(always)]
pub const fn bounded_plus(room: usize, max_size: usize) -> usize {
    room + bounded(max_size)
}

/// A derived struct's `MAX_SIZE` from its fields': their sum, unless one
/// is unbounded or the sum passes [`MAX_RESERVED`].
pub const fn max_size_sum(fields: &[usize]) -> usize {
    let mut sum = 0usize;
    let mut i = 0;
    while i < fields.len() {
        if !is_bounded(fields[i]) {
            return usize::MAX;
        }
        sum += fields[i];
        i += 1;
    }
    if !is_bounded(sum) {
        usize::MAX
    } else {
        sum
    }
}

/// A derived enum's `MAX_SIZE` from its variants' (each a
/// [`max_size_sum`]): its tag's varint and the largest, unless one is
/// unbounded.
pub const fn max_size_enum(variants: &[usize]) -> usize {
    let tag = crate::varint::len_u64(variants.len().saturating_sub(1) as u64);
    let mut largest = 0usize;
    let mut i = 0;
    while i < variants.len() {
        if !is_bounded(variants[i]) {
            return usize::MAX;
        }
        if variants[i] > largest {
            largest = variants[i];
        }
        i += 1;
    }
    if !is_bounded(tag + largest) {
        usize::MAX
    } else {
        tag + largest
    }
}

/// A tolerant field's wire type in the layout `L`: `compact` or `fixed`
/// (its type's `WIRE` and `FIXED_WIRE`), chosen at compile time.
#[inline(always)]
pub const fn pick_wire<L: crate::Layout>(
    compact: crate::tolerant::wire::Wire,
    fixed: crate::tolerant::wire::Wire,
) -> crate::tolerant::wire::Wire {
    crate::encoding::pick_wire::<L>(compact, fixed)
}

pub use crate::error::{in_element, in_field};
pub use crate::read::short_column;

/// The selector of a derived type's columns of up to 16 fields `F` (a
/// tuple of their types, or of references to them):
/// `(&FieldsOf::<F>::NEW).__binform_read_as(..)` finds [`ReadFields`]
/// (`__binform_pack_fields`: [`PackFields`](crate::write::PackFields))
/// when every field's type has an encoding. When one has none, method
/// resolution moves on to [`NoFields`], whose methods ask nothing of the
/// types: the field's other uses report it (`Field`, at the field), and
/// the columns add no error of their own at the derive.
pub struct FieldsOf<'de, F>(core::marker::PhantomData<fn(&'de ()) -> F>);

// By hand: a derive would ask `F: Copy`. Copied, not moved, out of the
// reference when method resolution reaches `NoFields`.
impl<F> Clone for FieldsOf<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F> Copy for FieldsOf<'_, F> {}

impl<F> FieldsOf<'_, F> {
    /// The selector.
    pub const NEW: Self = FieldsOf(core::marker::PhantomData);
}

/// [`FieldsOf`] of fields of which one has no encoding: never called
/// (the crate does not compile), only there to end method resolution
/// quietly.
pub trait NoFields<'de, F> {
    /// No values.
    fn __binform_read_as<Out, L: crate::Layout, Make: FnMut(F) -> Out>(
        self,
        r: &mut crate::Reader<'de, L>,
        n: usize,
        names: &'static [&'static str],
        make: Make,
    ) -> crate::Result<core::iter::Empty<Out>>;

    /// No values.
    fn __binform_read_one<T, L: crate::Layout>(
        self,
        r: &mut crate::Reader<'de, L>,
        n: usize,
        name: &'static str,
    ) -> crate::Result<core::iter::Empty<T>>;

    /// Writes nothing.
    fn __binform_pack_fields<L: crate::Layout>(
        self,
        items: impl Iterator<Item = F> + Clone,
        w: &mut crate::Writer<'_, L>,
    ) -> crate::Result<()>;

    /// No variant.
    fn __binform_variant<Make>(self, names: &'static [&'static str], make: Make) -> NoVariant;

    /// No variant.
    fn __binform_variant_one<Make>(self, name: &'static str, make: Make) -> NoVariant;

    /// No variant.
    fn __binform_pack_variant<'r, T, P>(self, items: Rows<'r, T>, project: P) -> NoVariant
    where
        P: Fn(&'r T) -> Option<F>;

    /// Writes nothing.
    ///
    /// # Safety
    /// None needed: it writes nothing. `unsafe` as `PackRow`'s method is,
    /// which the derive calls in the same words.
    #[allow(unsafe_code)]
    unsafe fn __binform_pack_row<L: crate::Layout>(
        self,
        row: F,
        c: &mut Cursor<'_, '_, L>,
        first_prev: usize,
    ) -> crate::Result<()>;

    /// No value: an error.
    fn __binform_unpack_row<L: crate::Layout>(
        self,
        c: &mut ReadCursor<'_, 'de, L>,
        names: &'static [&'static str],
    ) -> crate::Result<F>;

    /// No placeholder.
    fn __binform_placeholder_row(self, work: &mut u32) -> Option<F>;

    /// A struct of no fields.
    fn __binform_describe(
        self,
        b: &mut crate::schema::Builder,
        type_name: &str,
        tolerant: bool,
        fields: &[(u32, &'static str)],
        reserved: &[u32],
    ) -> crate::TypeRef;
}

impl<'de, F> NoFields<'de, F> for FieldsOf<'de, F> {
    fn __binform_read_as<Out, L: crate::Layout, Make: FnMut(F) -> Out>(
        self,
        _: &mut crate::Reader<'de, L>,
        _: usize,
        _: &'static [&'static str],
        _: Make,
    ) -> crate::Result<core::iter::Empty<Out>> {
        Ok(core::iter::empty())
    }

    fn __binform_read_one<T, L: crate::Layout>(
        self,
        _: &mut crate::Reader<'de, L>,
        _: usize,
        _: &'static str,
    ) -> crate::Result<core::iter::Empty<T>> {
        Ok(core::iter::empty())
    }

    fn __binform_pack_fields<L: crate::Layout>(
        self,
        _: impl Iterator<Item = F> + Clone,
        _: &mut crate::Writer<'_, L>,
    ) -> crate::Result<()> {
        Ok(())
    }

    fn __binform_variant<Make>(self, _: &'static [&'static str], _: Make) -> NoVariant {
        NoVariant
    }

    fn __binform_variant_one<Make>(self, _: &'static str, _: Make) -> NoVariant {
        NoVariant
    }

    fn __binform_pack_variant<'r, T, P>(self, _: Rows<'r, T>, _: P) -> NoVariant
    where
        P: Fn(&'r T) -> Option<F>,
    {
        NoVariant
    }

    #[allow(unsafe_code)]
    unsafe fn __binform_pack_row<L: crate::Layout>(
        self,
        _: F,
        _: &mut Cursor<'_, '_, L>,
        _: usize,
    ) -> crate::Result<()> {
        Err(no_fields())
    }

    fn __binform_unpack_row<L: crate::Layout>(
        self,
        _: &mut ReadCursor<'_, 'de, L>,
        _: &'static [&'static str],
    ) -> crate::Result<F> {
        Err(no_fields())
    }

    fn __binform_placeholder_row(self, _: &mut u32) -> Option<F> {
        None
    }

    fn __binform_describe(
        self,
        b: &mut crate::schema::Builder,
        type_name: &str,
        tolerant: bool,
        _: &[(u32, &'static str)],
        reserved: &[u32],
    ) -> crate::TypeRef {
        describe_derived(b, type_name, tolerant, Shape::Struct(&[]), reserved)
    }
}

/// The error of [`NoFields`]' rows, which no compiled crate reaches (a
/// field without an encoding fails to compile at the field).
#[cold]
fn no_fields() -> crate::Error {
    crate::Error::new(
        crate::ErrorKind::Custom,
        "a field of this type has no encoding",
    )
}
