//! Code generation for schemas: the type's `SHAPE` hash (computed here, from
//! the definition's tokens), its `FINGERPRINT` (mixed at compile time with
//! the field types' shapes) and its `describe` function.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

use crate::ast::{Body, Container, Field};

/// FNV-1a, the same function as `binform::schema::hash_bytes`.
fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// Tokens as text without white space, so formatting never changes a hash.
fn compact_tokens(tokens: impl ToTokens) -> String {
    tokens
        .to_token_stream()
        .to_string()
        .split_whitespace()
        .collect()
}

fn encoded<'f, 'a>(fields: &'f [Field<'a>]) -> Vec<&'f Field<'a>> {
    let mut out: Vec<&Field> = fields.iter().filter(|f| f.is_encoded()).collect();
    out.sort_by_key(|f| f.tag);
    out
}

/// The canonical text of the definition that `SHAPE` hashes.
fn shape_text(cont: &Container) -> String {
    let mode = if cont.is_tolerant() {
        "tolerant"
    } else {
        "compact"
    };
    let field_text = |fields: &[Field]| {
        encoded(fields)
            .iter()
            .map(|f| {
                let with = if f.attrs.with.is_some() { " with" } else { "" };
                format!(
                    "field {} {} {}{with};",
                    f.tag,
                    compact_tokens(&f.member),
                    compact_tokens(f.ty)
                )
            })
            .collect::<String>()
    };
    let mut text = match &cont.body {
        Body::Struct(_, fields) => format!("struct {} {mode};{}", cont.ident, field_text(fields)),
        Body::Enum(variants) => {
            let mut t = format!("enum {} {mode};", cont.ident);
            for v in variants {
                let other = if v.attrs.other.is_some() {
                    " other"
                } else {
                    ""
                };
                t.push_str(&format!(
                    "variant {} {}{other};{}",
                    v.tag,
                    v.ident,
                    field_text(&v.fields)
                ));
            }
            t
        }
    };
    if let Some(reserved) = &cont.attrs.reserved {
        for (tag, _) in &reserved.value {
            text.push_str(&format!("reserved {tag};"));
        }
    }
    text
}

/// `const SHAPE` and `const FINGERPRINT` through `trait_path` (`Pack` or
/// `Unpack<'de>`: both compute the same values).
fn shape_consts(cont: &Container, krate: &TokenStream, trait_path: &TokenStream) -> TokenStream {
    let shape = fnv(&shape_text(cont));
    let field_types: Vec<&syn::Type> = cont
        .all_fields()
        .filter(|f| f.is_encoded() && f.attrs.with.is_none())
        .map(|f| f.ty)
        .collect();
    quote! {
        const SHAPE: u64 = #shape;

        const FINGERPRINT: u64 = {
            let mut __h = #shape;
            #( __h = #krate::schema::mix(__h, <#field_types as #trait_path>::SHAPE); )*
            __h
        };
    }
}

/// The schema items of the `Pack` impl.
pub fn pack_items(cont: &Container, krate: &TokenStream) -> TokenStream {
    let consts = shape_consts(cont, krate, &quote!(#krate::Pack));
    let describe = describe_body(cont, krate);
    quote! {
        #consts

        fn describe(__b: &mut #krate::schema::Builder) -> #krate::schema::TypeRef {
            #describe
        }
    }
}

/// The schema items of the `Unpack` impl.
pub fn unpack_items(cont: &Container, krate: &TokenStream, de: &syn::Lifetime) -> TokenStream {
    shape_consts(cont, krate, &quote!(#krate::Unpack<#de>))
}

fn field_defs(fields: &[Field], krate: &TokenStream) -> TokenStream {
    let defs = encoded(fields).into_iter().map(|f| {
        let tag = f.tag;
        let name = compact_tokens(&f.member);
        let schema = match &f.attrs.with {
            Some(with) => {
                let path = compact_tokens(&with.value);
                quote!(#krate::schema::TypeRef::builtin_of("with", #krate::__private::vec![#krate::schema::TypeRef::builtin(#path)]))
            }
            None => {
                let ty = f.ty;
                let func = quote::quote_spanned!(syn::spanned::Spanned::span(ty)=> <#ty as #krate::Pack>::describe);
                quote!(#func(__b))
            }
        };
        quote!(#krate::schema::FieldDef { tag: #tag, name: #krate::__private::String::from(#name), schema: #schema })
    });
    quote!(#krate::__private::vec![#(#defs),*])
}

fn describe_body(cont: &Container, krate: &TokenStream) -> TokenStream {
    let tolerant = cont.is_tolerant();
    let reserved: Vec<u32> = cont
        .attrs
        .reserved
        .as_ref()
        .map(|r| r.value.iter().map(|(t, _)| *t).collect())
        .unwrap_or_default();
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
        let __name = #krate::schema::short_type_name(::core::any::type_name::<Self>());
        __b.named(&__name, |__b| #krate::schema::TypeDef {
            name: __name.clone(),
            tolerant: #tolerant,
            body: #body,
            reserved: #krate::__private::vec![#(#reserved),*],
        })
    }
}
