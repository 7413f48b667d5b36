//! The `Encoding` impl: the plain-data marker, the unrolled layout behind
//! the fingerprint (as the canonical text of `docs/format.md` §14, split
//! around the field types, whose values the compiler fills in), and
//! `describe`. Every hash is computed by the runtime's `const fn`s.

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

/// The canonical text around the field types, and the field types (or
/// `with` paths) in the same order.
struct Canonical<'f, 'a> {
    pieces: Vec<String>,
    fields: Vec<&'f Field<'a>>,
    text: String,
    /// An enum's variants in the text's order (by tag): their indices in
    /// the declaration and how many fields each has.
    variants: Vec<(usize, usize)>,
}

impl<'f, 'a> Canonical<'f, 'a> {
    fn push_fields(&mut self, fields: &'f [Field<'a>]) {
        for f in by_tag(fields) {
            self.text
                .push_str(&format!("{} {} ", f.tag, compact_tokens(&f.member)));
            self.pieces.push(std::mem::take(&mut self.text));
            self.fields.push(f);
            self.text.push(';');
        }
    }
}

fn canonical<'f, 'a>(cont: &'f Container<'a>) -> Canonical<'f, 'a> {
    let mode = if cont.is_tolerant() {
        "tolerant"
    } else {
        "compact"
    };
    let kind = match cont.body {
        Body::Struct(..) => "struct",
        Body::Enum(_) => "enum",
    };
    let mut out = Canonical {
        pieces: Vec::new(),
        fields: Vec::new(),
        text: format!("{kind} {} {mode} {{", type_ident(cont)),
        variants: Vec::new(),
    };
    match &cont.body {
        Body::Struct(_, fields) => out.push_fields(fields),
        Body::Enum(variants) => {
            let mut sorted: Vec<_> = variants.iter().enumerate().collect();
            sorted.sort_by_key(|(_, v)| v.tag);
            for (index, v) in sorted {
                let before = out.fields.len();
                let other = if v.attrs.other.is_some() {
                    " other"
                } else {
                    ""
                };
                out.text
                    .push_str(&format!("{} {}{other} {{", v.tag, v.ident));
                out.push_fields(&v.fields);
                out.text.push_str("};");
                out.variants.push((index, out.fields.len() - before));
            }
        }
    }
    out.text.push('}');
    let mut reserved: Vec<u32> = reserved_tags(cont);
    reserved.sort_unstable();
    reserved.dedup();
    for (i, tag) in reserved.iter().enumerate() {
        out.text.push_str(if i == 0 { " reserved " } else { "," });
        out.text.push_str(&tag.to_string());
    }
    out.pieces.push(std::mem::take(&mut out.text));
    out
}

fn reserved_tags(cont: &Container) -> Vec<u32> {
    cont.attrs
        .reserved
        .as_ref()
        .map(|r| r.value.iter().map(|(t, _)| *t).collect())
        .unwrap_or_default()
}

/// The fields in the canonical text's order, as the runtime's level macro
/// takes them: `ty (Type)` or `with ("path")`.
fn entries(canon: &Canonical) -> Vec<TokenStream> {
    canon
        .fields
        .iter()
        .map(|f| match &f.attrs.with {
            Some(with) => {
                let path = compact_tokens(&with.value);
                quote!(with (#path))
            }
            None if f.concrete => {
                let ty = f.ty;
                quote!(field (#ty))
            }
            None => {
                let ty = f.ty;
                quote!(ty (#ty))
            }
        })
        .collect()
}

/// For an enum's placeholder: a `const` expression for the position (in
/// the returned order of declaration indices) of the variant whose
/// placeholder costs least, computed from the field types' constants.
pub fn cheapest_variant(cont: &Container, krate: &TokenStream) -> (TokenStream, Vec<usize>) {
    let canon = canonical(cont);
    let entries = entries(&canon);
    let counts = canon.variants.iter().map(|(_, n)| n);
    let order = canon.variants.iter().map(|(i, _)| *i).collect();
    let expr = quote! {
        #krate::__private::Unrolled::cheapest_variant(
            &#krate::__binform_derived_levels!(@fields UNROLLED_15 (#(#entries),*)),
            &[#(#counts),*],
        )
    };
    (expr, order)
}

/// The items of the `Encoding` impl, and the constants they share (placed
/// beside the impl: the canonical text's pieces and an enum's field count
/// per variant).
pub fn items(cont: &Container, krate: &TokenStream) -> (TokenStream, TokenStream) {
    let canon = canonical(cont);
    let pieces = &canon.pieces;
    let name = type_ident(cont);
    let entries = entries(&canon);
    let counts = canon.variants.iter().map(|(_, n)| n);
    let shared = quote! {
        const __BINFORM_PIECES: &[&::core::primitive::str] = &[#(#pieces),*];
        const __BINFORM_VARIANTS: &[::core::primitive::usize] = &[#(#counts),*];
    };
    let plain = match &cont.body {
        Body::Struct(_, fields) if !cont.is_tolerant() => plain_const(krate, fields),
        _ => quote!(),
    };
    let describe = describe_body(cont, krate);
    let items = quote! {
        #plain
        #krate::__binform_derived_levels!(#name, __BINFORM_PIECES, __BINFORM_VARIANTS, (#(#entries),*));

        fn describe(__b: &mut #krate::schema::Builder) -> #krate::schema::TypeRef {
            #describe
        }
    };
    (items, shared)
}

/// `const PLAIN` for a struct: plain when every field is plain and the
/// fields lie in memory exactly as on the wire (declaration order, no
/// padding), checked by the compiler through `offset_of!` and `size_of`.
/// Structs with skipped or `with` fields are never plain.
fn plain_const(krate: &TokenStream, fields: &[Field]) -> TokenStream {
    if fields
        .iter()
        .any(|f| !f.is_encoded() || f.attrs.with.is_some())
    {
        return quote!();
    }
    let mut conds = Vec::new();
    let mut offset = quote!(0);
    for f in fields {
        let (ty, member) = (f.ty, &f.member);
        conds.push(if f.concrete {
            crate::fields::via(krate, f, quote!(), quote!(PLAIN))
        } else {
            quote!(<#ty as #krate::Encoding>::PLAIN.get())
        });
        conds.push(quote!(::core::mem::offset_of!(Self, #member) == #offset));
        offset = quote!(#offset + ::core::mem::size_of::<#ty>());
    }
    conds.push(quote!(::core::mem::size_of::<Self>() == #offset));
    quote! {
        // SAFETY: every field is plain data and the conditions check that
        // they fill the struct in declaration order with no padding, so the
        // struct's memory is its encoding and any bit pattern is valid.
        const PLAIN: #krate::__private::Plain<Self> = unsafe { #krate::__private::Plain::new_unchecked(#(#conds)&&*) };
    }
}

fn field_defs(fields: &[Field], krate: &TokenStream) -> TokenStream {
    let defs = by_tag(fields).map(|f| {
        let tag = f.tag;
        let name = compact_tokens(&f.member);
        let schema = match &f.attrs.with {
            Some(with) => {
                let path = compact_tokens(&with.value);
                quote!(#krate::schema::TypeRef::builtin_of("with", #krate::__private::vec![#krate::schema::TypeRef::builtin(#path)]))
            }
            None => {
                let func = crate::fields::via(krate, f, quote!(#krate::Encoding), quote!(describe));
                quote!(#func(__b))
            }
        };
        quote!(#krate::schema::FieldDef { tag: #tag, name: #krate::__private::String::from(#name), schema: #schema })
    });
    quote!(#krate::__private::vec![#(#defs),*])
}

fn describe_body(cont: &Container, krate: &TokenStream) -> TokenStream {
    let tolerant = cont.is_tolerant();
    let reserved = reserved_tags(cont);
    let body = match &cont.body {
        Body::Struct(_, fields) => {
            let defs = field_defs(fields, krate);
            quote!(#krate::schema::Body::Struct(#defs))
        }
        Body::Enum(variants) => {
            let vs = variants.iter().map(|v| {
                let (tag, name, other) = (v.tag, v.ident.to_string(), v.attrs.other.is_some());
                let defs = field_defs(&v.fields, krate);
                quote!(#krate::schema::VariantDef {
                    tag: #tag,
                    name: #krate::__private::String::from(#name),
                    other: #other,
                    fields: #defs,
                })
            });
            quote!(#krate::schema::Body::Enum(#krate::__private::vec![#(#vs),*]))
        }
    };
    quote! {
        __b.named(::core::any::type_name::<Self>(), |__b| #krate::schema::TypeDef {
            name: #krate::__private::String::new(),
            tolerant: #tolerant,
            body: #body,
            reserved: #krate::__private::vec![#(#reserved),*],
        })
    }
}
