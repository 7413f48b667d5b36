//! The `Encoding` impl: the plain-data marker, the shape a `schema_lock`
//! check compares, and `describe`, from which the runtime computes the
//! fingerprint (`docs/format.md` §14) on first use.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

use crate::ast::{Body, Container, Field};

/// Tokens as text without white space, so formatting never changes a name.
pub(crate) fn compact_tokens(tokens: impl ToTokens) -> String {
    tokens
        .to_token_stream()
        .to_string()
        .split_whitespace()
        .collect()
}

/// The type's name as `core::any::type_name` spells it (no `r#`): the
/// last segment of a `remote` path, whose type the impls are for.
pub fn type_ident(cont: &Container) -> String {
    let ident = match &cont.attrs.remote {
        Some(remote) => remote.value.segments.last().map(|s| &s.ident),
        None => None,
    }
    .unwrap_or(cont.ident);
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

/// The encoded fields in the order on the wire.
fn by_tag<'f, 'a>(fields: &'f [Field<'a>]) -> impl Iterator<Item = &'f Field<'a>> {
    crate::ast::wire_order(fields).into_iter().map(|(_, f)| f)
}

fn reserved_tags(cont: &Container) -> Vec<u32> {
    cont.attrs
        .reserved
        .as_ref()
        .map(|r| r.value.iter().map(|(t, _)| *t).collect())
        .unwrap_or_default()
}

/// The items of the `Encoding` impl: the plain-data marker, the shape
/// (`ref Name`, the type at level 0 of the fingerprint) and `describe`.
/// The fingerprint itself is the runtime's, computed from `describe`.
pub fn items(cont: &Container) -> TokenStream {
    let name = type_ident(cont);
    let plain = match &cont.body {
        Body::Struct(_, fields) if !cont.is_tolerant() => plain_const(fields),
        _ => quote!(),
    };
    let describe = describe_body(cont);
    // Computed here: a literal costs the compiler nothing to evaluate.
    let shape = binform_schema::hash::reference_value(&name);
    // A compact type's sequences are columns (§27); a tolerant type's
    // stay rows, each value framed field by field.
    let columns = match &cont.body {
        _ if cont.is_tolerant() => quote!(),
        // A struct whose fields' columns would all be rows (floats, bytes,
        // structs of them) is rows: the same bytes, in the order plain
        // data lies in memory. Not with a `with` field, whose encoding the
        // schema does not show.
        Body::Struct(_, fields)
            if fields.iter().any(|f| f.is_encoded())
                && fields.iter().all(|f| f.attrs.with.is_none()) =>
        {
            let rows = fields.iter().filter(|f| f.is_encoded()).map(|f| {
                let ty = f.ty;
                match f.concrete {
                    true => crate::fields::via(f, crate::fields::Trait::Field, "ROWS")
                        .into_token_stream(),
                    false => quote!((!<#ty as __bf::Encoding>::COLUMNS
                        && !<#ty as __bf::Encoding>::PACKED)),
                }
            });
            quote!(const COLUMNS: __bf::bool = !(#(#rows)&&*);)
        }
        Body::Struct(..) | Body::Enum(_) => quote!(
            const COLUMNS: __bf::bool = true;
        ),
    };
    quote! {
        #plain
        #columns
        const SHAPE: __bf::u64 = #shape;

        fn describe(__b: &mut __bf::Builder) -> __bf::TypeRef {
            #describe
        }
    }
}

/// `const PLAIN` for a struct: plain in a layout when every field is
/// plain in it and the fields lie in memory exactly as on the wire
/// (declaration order, no padding), checked by the compiler through
/// `offset_of!` and `size_of`. Structs with skipped or `with` fields are
/// never plain; structs with integers wider than a byte only in the fixed
/// layout.
fn plain_const(fields: &[Field]) -> TokenStream {
    if fields
        .iter()
        .any(|f| !f.is_encoded() || f.attrs.with.is_some() || surely_not_plain(f.ty))
    {
        return quote!();
    }
    let compact_possible = !fields.iter().any(|f| surely_wide_integer(f.ty));
    let mut fits = Vec::new();
    let mut compact = Vec::new();
    let mut fixed = Vec::new();
    let mut offset = quote!(0);
    for f in fields {
        let (ty, member) = (f.ty, &f.member);
        if f.concrete {
            compact.push(
                crate::fields::via(f, crate::fields::Trait::Field, "PLAIN").into_token_stream(),
            );
            fixed.push(
                crate::fields::via(f, crate::fields::Trait::Field, "FIXED_PLAIN")
                    .into_token_stream(),
            );
        } else {
            compact.push(quote!(<#ty as __bf::Encoding>::PLAIN.get()));
            fixed.push(quote!(<#ty as __bf::Encoding>::PLAIN.fixed()));
        }
        fits.push(quote!(::core::mem::offset_of!(Self, #member) == #offset));
        offset = quote!(#offset + __bf::size_of::<#ty>());
    }
    fits.push(quote!(__bf::size_of::<Self>() == #offset));
    let compact = if compact_possible {
        quote!(__fits #(&& #compact)*)
    } else {
        quote!(false)
    };
    quote! {
        // SAFETY: every field is plain data in the layout whose flag this
        // is, and `__fits` checks that they fill the struct in declaration
        // order with no padding, so the struct's memory is its encoding
        // there and any bit pattern is valid; plain in the compact layout
        // (no wide integers) implies plain in the fixed one.
        const PLAIN: __bf::Plain<Self> = {
            let __fits = #(#fits)&&*;
            unsafe { __bf::Plain::in_layouts_unchecked(#compact, __fits #(&& #fixed)*) }
        };
    }
}

/// Whether a field's type, as written, is one no plain struct can hold:
/// then the struct is not plain, and the derive skips the constant whose
/// checks (an `offset_of!` a field) were a tenth of `cargo check`'s time
/// on typical structs, which mostly hold a string, a vector or an option.
/// Only ever turns plain data off, which is always correct: a type alias
/// named like a std type costs a slower slice encoding, never a wrong one.
/// (Integers wider than a byte are plain in the fixed layout only; see
/// [`surely_wide_integer`].)
fn surely_not_plain(ty: &syn::Type) -> bool {
    const NEVER: &[&str] = &[
        "String",
        "str",
        "Vec",
        "VecDeque",
        "LinkedList",
        "BinaryHeap",
        "Option",
        "Result",
        "Box",
        "Rc",
        "Arc",
        "Weak",
        "Cow",
        "Cell",
        "RefCell",
        "HashMap",
        "BTreeMap",
        "HashSet",
        "BTreeSet",
        "PathBuf",
        "OsString",
        "CString",
        "Duration",
        "SystemTime",
        "bool",
        "char",
    ];
    match element(ty) {
        syn::Type::Path(p) => named_one_of(p, NEVER),
        // Tuples (the unit type too) are never plain.
        syn::Type::Reference(_)
        | syn::Type::Tuple(_)
        | syn::Type::Slice(_)
        | syn::Type::Ptr(_)
        | syn::Type::TraitObject(_)
        | syn::Type::BareFn(_) => true,
        _ => false,
    }
}

/// Whether a field's type, as written, is an integer wider than a byte
/// (or an array of them): plain in the fixed layout, a varint in the
/// compact one, so a struct holding one is plain only in the fixed layout.
fn surely_wide_integer(ty: &syn::Type) -> bool {
    const WIDE: &[&str] = &[
        "u16", "u32", "u64", "u128", "usize", "i16", "i32", "i64", "i128", "isize",
    ];
    match element(ty) {
        syn::Type::Path(p) => named_one_of(p, WIDE),
        _ => false,
    }
}

/// The type itself, or the element of an array of it (at any depth),
/// through parentheses and invisible groups: what decides plainness.
fn element(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Array(a) => element(&a.elem),
        syn::Type::Paren(p) => element(&p.elem),
        syn::Type::Group(g) => element(&g.elem),
        _ => ty,
    }
}

/// Whether the path's last segment is one of `names`.
fn named_one_of(p: &syn::TypePath, names: &[&str]) -> bool {
    p.path
        .segments
        .last()
        .is_some_and(|s| names.iter().any(|n| s.ident == n))
}

/// The fields' entries for the runtime's `describe_derived`: tag, name
/// and how to describe the type, as data (one table a type, not a
/// `FieldDef` built by hand for each field).
fn field_entries(fields: &[Field]) -> TokenStream {
    let entries = by_tag(fields).map(|f| {
        let tag = f.tag;
        let name = compact_tokens(&f.member);
        let schema = match &f.attrs.with {
            Some(with) => {
                let path = compact_tokens(&with.value);
                quote!(__bf::FieldSchema::With(#path))
            }
            None => {
                let func = crate::fields::via(f, crate::fields::Trait::Encoding, "describe");
                quote!(__bf::FieldSchema::Of(#func))
            }
        };
        quote!((#tag, #name, #schema))
    });
    quote!(&[#(#entries),*])
}

/// Whether a struct's table of fields is built by the runtime
/// (`DescribeRow`) from the tuple of their types: 2 to 16 encoded fields,
/// none `with` (whose entry names its module, not a type), as a row. Only
/// for a compact struct, whose `COLUMNS` names every field's encoding
/// under the same bounds: a field type the bounds leave without one is
/// an error there, where the selector would fall back to `NoFields` and
/// describe no fields. A tolerant struct's table names them itself.
fn described_by_row(fields: &[Field]) -> bool {
    let encoded: Vec<_> = by_tag(fields).collect();
    (2..=16).contains(&encoded.len()) && encoded.iter().all(|f| f.attrs.with.is_none())
}

fn describe_body(cont: &Container) -> TokenStream {
    let tolerant = cont.is_tolerant();
    let reserved = reserved_tags(cont);
    let body = match &cont.body {
        Body::Struct(_, fields) if !tolerant && described_by_row(fields) => {
            let encoded: Vec<_> = by_tag(fields).collect();
            let tys = encoded.iter().map(|f| f.ty);
            let entries = encoded.iter().map(|f| {
                let (tag, name) = (f.tag, compact_tokens(&f.member));
                quote!((#tag, #name))
            });
            return quote! {
                (&__bf::FieldsOf::<(#(#tys,)*)>::NEW).__binform_describe(
                    __b,
                    __bf::type_name::<Self>(),
                    #tolerant,
                    &[#(#entries),*],
                    &[#(#reserved),*],
                )
            };
        }
        Body::Struct(_, fields) => {
            let entries = field_entries(fields);
            quote!(__bf::Shape::Struct(#entries))
        }
        Body::Enum(variants) => {
            let vs = variants.iter().map(|v| {
                let (tag, name, other) = (v.tag, v.ident.to_string(), v.attrs.other.is_some());
                let entries = field_entries(&v.fields);
                quote!((#tag, #name, #other, #entries))
            });
            quote!(__bf::Shape::Enum(&[#(#vs),*]))
        }
    };
    quote! {
        __bf::describe_derived(
            __b,
            __bf::type_name::<Self>(),
            #tolerant,
            #body,
            &[#(#reserved),*],
        )
    }
}
