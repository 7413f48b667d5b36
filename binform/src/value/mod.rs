//! [`Value`]: any binform payload as a document, read with its schema
//! instead of its Rust type.
//!
//! A self-describing payload ([`Options::self_describing`]) carries its
//! schema; [`from_slice`] reads it into a [`Value`] tree, [`to_vec`] writes
//! the tree back to the same bytes, and `Display` prints it indented. A
//! plain payload is read with a schema from elsewhere (a lock file parsed
//! by [`schema::parse`](crate::schema::parse)) by [`from_slice_with`].
//!
//! ```
//! use binform::{Options, Packable, Value};
//!
//! #[derive(Packable)]
//! struct Person { name: String, age: u8, tags: Vec<String> }
//!
//! let bytes = Options::new()
//!     .self_describing(true)
//!     .to_vec(&Person { name: "Ada".into(), age: 36, tags: vec!["math".into()] })?;
//! let value = binform::value::from_slice(&bytes)?;
//! let text = value.to_string();
//! assert!(text.contains("Person"));
//! assert!(text.contains("name: \"Ada\""));
//! assert_eq!(binform::value::to_vec(&value)?, bytes);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! Reading a `Value` is as safe as decoding a typed value: every limit of
//! [`Options`] applies, shared values stay shared (a reference is a
//! [`Value::Reference`] to an id, so a small graph that expands to an
//! exponential tree stays small), and dropping a deep tree does not
//! recurse on the stack. The payload chooses only shapes, never code.
//!
//! Fields encoded by `with` modules and hand-written impls without a
//! schema of their own are reported as
//! [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported): their bytes
//! do not follow a schema `Value` can read. In a version-tolerant type, a
//! field whose tag the schema does not list is skipped (it is not part of
//! the document).

mod builtin;
mod conform;
mod decode;
mod deep;
mod encode;
mod resolve;
mod scalar;
mod show;
mod text;
mod walk;

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use crate::layout::Compact;
use crate::read::UnpackOwned;
use crate::schema::Schema;
use crate::{Layout, Options, Result};

/// What one `Value` costs the memory budget, however it is built
/// (decoded, or resolved against another schema).
pub(crate) const VALUE_SIZE: usize = core::mem::size_of::<Value>();

/// What a field of a record, struct or variant costs besides its name:
/// the `(String, Value)` pair.
pub(crate) const PAIR_SIZE: usize = core::mem::size_of::<(String, Value)>();

/// A binform value without its Rust type: what a schema says the bytes
/// hold. Integers keep their width (`u64` also stands for `usize`, `i64`
/// for `isize`, as the format does not tell them apart).
#[non_exhaustive]
pub enum Value {
    /// `()`, `PhantomData`.
    Unit,
    /// A `bool`.
    Bool(bool),
    /// A `u8`.
    U8(u8),
    /// A `u16`.
    U16(u16),
    /// A `u32`.
    U32(u32),
    /// A `u64` or `usize`.
    U64(u64),
    /// A `u128`.
    U128(u128),
    /// An `i8`.
    I8(i8),
    /// An `i16`.
    I16(i16),
    /// An `i32`.
    I32(i32),
    /// An `i64` or `isize`.
    I64(i64),
    /// An `i128`.
    I128(i128),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A `char`.
    Char(char),
    /// A string.
    String(String),
    /// A byte string: a sequence or array of `u8`, a `CString`.
    Bytes(Vec<u8>),
    /// A sequence, set, tuple or array.
    Seq(Vec<Value>),
    /// A map's entries, in the payload's order.
    Map(Vec<(Value, Value)>),
    /// An `Option`. (Not named `Option`: a variant of that name would make
    /// rustc spell `std::option::Option` in full in every error message of
    /// crates that depend on binform.)
    Optional(Option<Box<Value>>),
    /// A struct (derived, or a built-in such as `duration`): its type name
    /// and its fields by name (`0`, `1`, … for tuple fields).
    Struct {
        /// The type's name.
        name: String,
        /// The fields, in the schema's order.
        fields: Vec<(String, Value)>,
    },
    /// An enum variant (derived, or `Result`, `Bound`, `IpAddr`, …).
    Variant {
        /// The enum's name.
        name: String,
        /// The variant's name.
        variant: String,
        /// Its fields by name.
        fields: Vec<(String, Value)>,
    },
    /// The first occurrence of a shared value (`Rc`, `Arc`, a live
    /// `Weak`): its id (0, 1, … in order of appearance) and the value.
    Shared {
        /// The id later references use.
        id: u64,
        /// The value.
        value: Box<Value>,
    },
    /// Another reference to the shared value with this id.
    Reference(u64),
    /// A `Weak` whose value was gone when it was written.
    Dangling,
    /// A value with the schema of its type: what [`from_slice`] returns,
    /// and what [`to_vec`] needs to write a payload back.
    Document {
        /// The schema of the root type.
        schema: Box<Schema>,
        /// The root value.
        value: Box<Value>,
    },
}

impl Value {
    /// The root value of a [`Value::Document`], else the value itself:
    /// what to match on. (`Value` implements `Drop`, to drop deep trees
    /// without recursion, so match on a reference rather than moving out.)
    ///
    /// ```
    /// use binform::{Options, Packable, Value};
    ///
    /// #[derive(Packable)]
    /// struct Point { x: i32, y: i32 }
    ///
    /// let bytes = Options::new().self_describing(true).to_vec(&Point { x: 1, y: 2 })?;
    /// let doc = binform::value::from_slice(&bytes)?;
    /// match doc.root() {
    ///     Value::Struct { name, fields } => {
    ///         assert_eq!(name, "Point");
    ///         assert_eq!(fields[1], ("y".to_string(), Value::I32(2)));
    ///     }
    ///     other => panic!("{other}"),
    /// }
    /// # Ok::<(), binform::Error>(())
    /// ```
    pub fn root(&self) -> &Value {
        match self {
            Value::Document { value, .. } => value,
            other => other,
        }
    }

    /// The schema of a [`Value::Document`].
    pub fn schema(&self) -> Option<&Schema> {
        match self {
            Value::Document { schema, .. } => Some(schema),
            _ => None,
        }
    }

    /// The field `name` of a struct or variant.
    pub fn field(&self, name: &str) -> Option<&Value> {
        match self.root() {
            Value::Struct { fields, .. } | Value::Variant { fields, .. } => {
                fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
            }
            _ => None,
        }
    }

    /// Whether it is an integer zero (what a `NonZero` cannot be).
    pub(crate) fn is_zero_integer(&self) -> bool {
        matches!(
            self,
            Value::U8(0)
                | Value::U16(0)
                | Value::U32(0)
                | Value::U64(0)
                | Value::U128(0)
                | Value::I8(0)
                | Value::I16(0)
                | Value::I32(0)
                | Value::I64(0)
                | Value::I128(0)
        )
    }
}

/// Looks fields up by name: at their position first (a document's fields
/// are in its schema's order), else through an index built on the first
/// miss, so a struct of many fields costs a logarithm a field, never a
/// scan.
pub(crate) struct ByName<'v> {
    fields: &'v [(String, Value)],
    index: Option<alloc::collections::BTreeMap<&'v str, usize>>,
}

impl<'v> ByName<'v> {
    pub(crate) fn new(fields: &'v [(String, Value)]) -> Self {
        ByName {
            fields,
            index: None,
        }
    }

    /// The field `name`, expected at position `at`.
    pub(crate) fn get(&mut self, at: usize, name: &str) -> Option<&'v Value> {
        if let Some((n, v)) = self.fields.get(at) {
            if n == name {
                return Some(v);
            }
        }
        let fields = self.fields;
        let index = self.index.get_or_insert_with(|| {
            let mut index = alloc::collections::BTreeMap::new();
            for (i, (n, _)) in fields.iter().enumerate() {
                index.entry(n.as_str()).or_insert(i);
            }
            index
        });
        index.get(name).and_then(|&i| fields.get(i)).map(|(_, v)| v)
    }
}

/// Dropping walks the tree with a heap stack, not the call stack, so a
/// value nested a million deep (built by hand: decoding stops at the depth
/// limit) drops like a flat one. The stack holds the child lists being
/// emptied, not their children: a node's children are never copied out
/// (a wide document dropped by moving its elements onto a stack of their
/// own doubled its memory for a moment), and a list whose last child is
/// next leaves the stack first, so chains take no room.
impl Drop for Value {
    fn drop(&mut self) {
        let mut pending: Vec<Children> = Vec::new();
        let mut next = Children::of(self);
        loop {
            let child = match next.as_mut().and_then(Children::next) {
                Some(child) => child,
                None => match pending.pop() {
                    Some(list) => {
                        next = Some(list);
                        continue;
                    }
                    None => return,
                },
            };
            let mut child = child;
            let grandchildren = Children::of(&mut child);
            if grandchildren.is_some() {
                if let Some(list) = next.take().filter(|l| !l.is_empty()) {
                    pending.push(list);
                }
                next = grandchildren;
            }
            // `child` is childless now: its own drop does not recurse.
        }
    }
}

/// The children of a value being dropped, moved out of it as a list.
enum Children {
    One(Option<Value>),
    Values(alloc::vec::IntoIter<Value>),
    Pairs(alloc::vec::IntoIter<(Value, Value)>, Option<Value>),
    Fields(alloc::vec::IntoIter<(String, Value)>),
}

impl Children {
    /// `v`'s children, leaving it childless; `None` if it has none.
    fn of(v: &mut Value) -> Option<Self> {
        let list = match v {
            Value::Seq(items) if !items.is_empty() => {
                Children::Values(core::mem::take(items).into_iter())
            }
            Value::Map(entries) if !entries.is_empty() => {
                Children::Pairs(core::mem::take(entries).into_iter(), None)
            }
            Value::Struct { fields, .. } | Value::Variant { fields, .. } if !fields.is_empty() => {
                Children::Fields(core::mem::take(fields).into_iter())
            }
            // (A box already emptied holds `Unit`: nothing to take.)
            Value::Optional(Some(inner)) if !matches!(**inner, Value::Unit) => {
                Children::One(Some(core::mem::replace(&mut **inner, Value::Unit)))
            }
            Value::Shared { value, .. } | Value::Document { value, .. }
                if !matches!(**value, Value::Unit) =>
            {
                Children::One(Some(core::mem::replace(&mut **value, Value::Unit)))
            }
            _ => return None,
        };
        Some(list)
    }

    fn next(&mut self) -> Option<Value> {
        match self {
            Children::One(only) => only.take(),
            Children::Values(items) => items.next(),
            Children::Pairs(entries, value) => match value.take() {
                Some(v) => Some(v),
                None => {
                    let (k, v) = entries.next()?;
                    *value = Some(v);
                    Some(k)
                }
            },
            Children::Fields(fields) => fields.next().map(|(_, v)| v),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Children::One(only) => only.is_none(),
            Children::Values(items) => items.len() == 0,
            Children::Pairs(entries, value) => value.is_none() && entries.len() == 0,
            Children::Fields(fields) => fields.len() == 0,
        }
    }
}

/// Reads a self-describing payload ([`Options::self_describing`]) into a
/// [`Value::Document`], with default [`Options`].
pub fn from_slice(bytes: &[u8]) -> Result<Value> {
    from_slice_options(bytes, &Options::new())
}

/// [`from_slice`] under the limits of `options`. The value is read in the
/// layout the payload's header states, whichever `options` has.
pub fn from_slice_options(bytes: &[u8], options: &Options<impl Layout>) -> Result<Value> {
    decode::document(bytes, options)
}

/// Reads a plain payload (no header) whose type has `schema` (for example
/// parsed from a lock file with [`schema::parse`](crate::schema::parse)),
/// with default [`Options`]. The result is a [`Value::Document`], so
/// [`to_vec`] writes it as a self-describing payload.
pub fn from_slice_with(schema: &Schema, bytes: &[u8]) -> Result<Value> {
    from_slice_with_options(schema, bytes, &Options::new())
}

/// [`from_slice_with`] under the limits, and in the layout, of `options`
/// (a plain payload does not say which layout wrote it).
pub fn from_slice_with_options(
    schema: &Schema,
    bytes: &[u8],
    options: &Options<impl Layout>,
) -> Result<Value> {
    decode::plain(schema, bytes, options)
}

/// Writes a [`Value::Document`] as a self-describing payload: the header
/// with its schema, then the value in that schema's encoding. A document
/// read by [`from_slice`] is written back to the same bytes. A value that
/// does not fit its schema is an
/// [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue) error
/// naming where.
/// It is written in the compact layout; [`to_vec_options`] writes the
/// layout of its options.
pub fn to_vec(value: &Value) -> Result<Vec<u8>> {
    encode::document::<Compact>(value)
}

/// [`to_vec`] in the layout of `options` (`Options::new().fixed_width()`
/// for the fixed one); the header records it. Only the options' layout
/// counts: a value's tree is written to any depth it has (it was built
/// in memory already, and the depth limit is the reader's).
pub fn to_vec_options<L: Layout>(value: &Value, options: &Options<L>) -> Result<Vec<u8>> {
    let _ = options;
    encode::document::<L>(value)
}

/// Writes `value` as the plain (headerless) payload of a type with
/// `schema`, in the compact layout.
pub fn to_vec_with(schema: &Schema, value: &Value) -> Result<Vec<u8>> {
    encode::plain::<Compact>(schema, value)
}

/// [`to_vec_with`] in the layout of `options` (only the layout counts, as
/// for [`to_vec_options`]).
pub fn to_vec_with_options<L: Layout>(
    schema: &Schema,
    value: &Value,
    options: &Options<L>,
) -> Result<Vec<u8>> {
    let _ = options;
    encode::plain::<L>(schema, value)
}

/// Reads `loose`, a value written without exact types (as a JSON reader
/// produces: numbers of any width, objects as maps with string keys,
/// variants as names or one-entry maps), into the exact shapes of
/// `schema`, checking every range; the result is a [`Value::Document`]
/// ready for [`to_vec`]. The forms it accepts are the ones the `binform`
/// tool's JSON uses:
///
/// | schema | loose value |
/// |---|---|
/// | integers, floats | any number; a string of its digits (or `NaN`, `NaN:0x<bits>` for any other NaN, `inf`, `-inf`) |
/// | `char`, `string` | a string |
/// | bytes | bytes, or a sequence of numbers 0 … 255 |
/// | sequences, sets, arrays, tuples | a sequence |
/// | `map<K,V>` | a sequence of `[key, value]` pairs, or a map |
/// | `option<T>` | unit (JSON `null`) for `None`; else the value, or `{"Some": v}` when `T` is an option or unit |
/// | structs, records | a map from field names to values |
/// | variants | the name (no fields), `{"Name": v}` (one unnamed field), or `{"Name": {fields}}` |
/// | shared values | `{"$shared": id, "value": v}`, `{"$ref": id}`, `{"$dangling": true}` |
/// | UUIDs, dates and times, decimals, IP and socket addresses | also their text form, as [`Value::text`] gives it |
///
/// ```
/// use binform::{Packable, Value};
///
/// #[derive(Packable)]
/// struct Point { x: i32, y: u8 }
///
/// let schema = binform::schema_of::<Point>();
/// let loose = Value::Map(vec![
///     (Value::String("x".into()), Value::I64(-4)),
///     (Value::String("y".into()), Value::I64(200)),
/// ]);
/// let doc = binform::value::conform(&schema, &loose)?;
/// let plain = binform::value::to_vec_with(&schema, &doc)?;
/// assert_eq!(plain, binform::to_vec(&Point { x: -4, y: 200 })?);
/// # Ok::<(), binform::Error>(())
/// ```
pub fn conform(schema: &Schema, loose: &Value) -> Result<Value> {
    conform::document(schema, loose)
}

/// Decodes a self-describing payload written by *another version* of `T`
/// (format.md §25), matching the writer's fields and variants to `T`'s by
/// name, as Avro resolves a writer's schema against a reader's:
///
/// - fields `T` lacks are dropped; between two version-tolerant types,
///   fields match by tag first, so a field renamed under its tag keeps
///   its value;
/// - fields the writer lacked take, in a tolerant `T`, its `Default` or
///   `default = ...` (a `required` one is `MissingField`), and in a
///   compact `T`, their type's zero value (0, `false`, `""`, empty,
///   `None`, a struct of zeros, an enum's first field-less variant);
/// - a variant `T` lacks is `UnknownVariant`, unless `T` has an `other`
///   variant;
/// - integers convert to any integer type that holds the value, `f32`
///   widens to `f64`, `T` becomes `Option<T>`; a conversion that would
///   lose information (a string to a `u32`, 300 to a `u8`) is an error
///   whose [`path`](crate::Error::path) names the field.
///
/// A payload written by `T` itself costs one fingerprint comparison more
/// than [`Options::from_slice`]. Compact types get version tolerance this
/// way without tags.
///
/// ```
/// use binform::{Options, Packable};
///
/// mod v1 {
///     #[derive(binform::Packable)]
///     pub struct Customer { pub id: u32, pub name: String, pub legacy: bool }
/// }
/// mod v2 {
///     #[derive(binform::Packable, Debug, PartialEq)]
///     pub struct Customer { pub name: String, pub id: u64, pub email: Option<String> }
/// }
///
/// let old = v1::Customer { id: 7, name: "Kate".into(), legacy: true };
/// let bytes = Options::new().self_describing(true).to_vec(&old)?;
/// let new: v2::Customer = binform::value::from_slice_as(&bytes)?;
/// assert_eq!(new, v2::Customer { name: "Kate".into(), id: 7, email: None });
/// # Ok::<(), binform::Error>(())
/// ```
pub fn from_slice_as<T: UnpackOwned>(bytes: &[u8]) -> Result<T> {
    from_slice_as_options(bytes, &Options::new())
}

/// [`from_slice_as`] under the limits of `options`. The payload is read
/// in the layout its header states, whichever `options` has.
pub fn from_slice_as_options<T: UnpackOwned>(
    bytes: &[u8],
    options: &Options<impl Layout>,
) -> Result<T> {
    let parts = crate::schema::embedded::split(bytes)?;
    if parts.fixed {
        as_in_layout(bytes, parts, &options.fixed_width())
    } else {
        as_in_layout(bytes, parts, &options.in_layout::<Compact>())
    }
}

/// [`from_slice_as_options`] in the payload's layout, `L`.
fn as_in_layout<T: UnpackOwned, L: Layout>(
    bytes: &[u8],
    parts: crate::schema::embedded::Parts<'_>,
    options: &Options<L>,
) -> Result<T> {
    let described = options.self_describing(true);
    if parts.fingerprint == crate::schema::fingerprint_of::<T>() {
        return described.from_slice(bytes);
    }
    // One memory budget for the whole call: the document and what it
    // resolves to are alive together, then the plain payload and the
    // value decoded from it (each phase with a fresh budget let 30 bytes
    // build 2.4 times the budget).
    let total = options.value_memory_limit(bytes.len());
    let (doc, left) = decode::document_within(bytes, &options.max_memory(total))?;
    let Value::Document {
        schema: writer,
        value,
    } = &doc
    else {
        return Err(crate::Error::new(
            crate::ErrorKind::InvalidValue,
            "a self-describing payload read as something other than a document",
        ));
    };
    let reader = crate::schema_of::<T>();
    let (resolved, left) = resolve::resolve(writer, &reader, value, left)?;
    drop(doc);
    let plain = encode::plain::<L>(&reader, &resolved)?;
    drop(resolved);
    let over = |what: usize| {
        crate::Error::new(
            crate::ErrorKind::LimitExceeded,
            alloc::format!(
                "the value resolved to {what} bytes, past the memory budget of {total} \
                 (Options::max_memory)"
            ),
        )
    };
    if plain.len() > left {
        return Err(over(plain.len()));
    }
    options
        .self_describing(false)
        .fingerprint(false)
        .max_memory(total - plain.len())
        .from_slice(&plain)
}
