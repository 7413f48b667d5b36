//! Code generation for `#[binform(version_tolerant)]` types.
//!
//! A tolerant struct is `varint(field count)`, then per field, in ascending
//! tag order, `varint(tag) varint(byte length) bytes`. A reader decodes the
//! tags it knows, skips the others by their length, and fills fields that
//! are missing with their default. A tolerant enum is `varint(variant tag)
//! varint(byte length)` and the variant's fields as a tolerant struct body
//! (an empty body, length 0, when it has none).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Lifetime;

use crate::ast::{Field, Style, Variant};
use crate::expand::{binding, default_value, pack_fn, pattern, unpack_fn};

/// Writes the encoded fields (bound to `__f<i>`) as a tolerant field list.
fn pack_fields(krate: &TokenStream, fields: &[Field]) -> TokenStream {
    let mut encoded: Vec<(usize, &Field)> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_encoded())
        .collect();
    encoded.sort_by_key(|(_, f)| f.tag);
    let count = encoded.len();
    let stmts = encoded.iter().map(|(i, f)| {
        let (b, tag, func) = (binding(*i), f.tag, pack_fn(krate, f));
        quote! {
            __w.write_tag(#tag);
            __w.write_len_prefixed(|__w| #func(#b, __w))?;
        }
    });
    quote! {
        __w.write_len(#count);
        #(#stmts)*
    }
}

pub fn pack_struct(krate: &TokenStream, style: Style, fields: &[Field]) -> TokenStream {
    let pat = pattern(style, fields);
    let body = pack_fields(krate, fields);
    quote! {
        let Self #pat = self;
        #body
        ::core::result::Result::Ok(())
    }
}

/// Decodes a tolerant field list into `path { ... }`; fields not in the
/// payload get their default.
fn unpack_fields(
    krate: &TokenStream,
    de: &Lifetime,
    path: TokenStream,
    style: Style,
    fields: &[Field],
    empty_body_ok: bool,
) -> TokenStream {
    let slot = |i: usize| format_ident!("__slot{}", i);
    let decls = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_encoded())
        .map(|(i, f)| {
            let (s, ty) = (slot(i), f.ty);
            quote!(let mut #s: ::core::option::Option<#ty> = ::core::option::Option::None;)
        });
    let arms = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_encoded())
        .map(|(i, f)| {
            let (s, tag, func) = (slot(i), f.tag, unpack_fn(krate, de, f));
            quote! {
                #tag => #s = ::core::option::Option::Some(__r.read_within(__len, #func)?),
            }
        });
    let value = if style == Style::Unit {
        path
    } else {
        let inits = fields.iter().enumerate().map(|(i, f)| {
            let member = &f.member;
            let default = default_value(f);
            if f.is_encoded() {
                let s = slot(i);
                quote!(#member: match #s {
                    ::core::option::Option::Some(__v) => __v,
                    ::core::option::Option::None => #default,
                })
            } else {
                quote!(#member: #default)
            }
        });
        quote!(#path { #(#inits,)* })
    };
    // A variant body may be empty (the writer's variant had no fields).
    let count = if empty_body_ok {
        quote!(if __r.remaining() == 0 {
            0
        } else {
            __r.read_field_count()?
        })
    } else {
        quote!(__r.read_field_count()?)
    };
    quote! {{
        #(#decls)*
        let __count = #count;
        let mut __next: u64 = 0;
        for _ in 0..__count {
            let (__tag, __len) = __r.read_field_header(&mut __next)?;
            #[allow(unreachable_patterns)]
            match __tag {
                #(#arms)*
                _ => __r.skip(__len)?,
            }
        }
        #value
    }}
}

pub fn unpack_struct(
    krate: &TokenStream,
    de: &Lifetime,
    style: Style,
    fields: &[Field],
) -> TokenStream {
    let value = unpack_fields(krate, de, quote!(Self), style, fields, false);
    quote!(::core::result::Result::Ok(#value))
}

pub fn pack_enum(krate: &TokenStream, variants: &[Variant]) -> TokenStream {
    if variants.is_empty() {
        return quote!(match *self {});
    }
    let arms = variants.iter().map(|v| {
        let (ident, tag) = (v.ident, v.tag);
        let pat = pattern(v.style, &v.fields);
        let body = if v.fields.iter().any(Field::is_encoded) {
            let fields = pack_fields(krate, &v.fields);
            quote!(__w.write_len_prefixed(|__w| { #fields ::core::result::Result::Ok(()) })?;)
        } else {
            // No fields: an empty body.
            quote!(__w.write_len(0);)
        };
        quote! {
            Self::#ident #pat => {
                __w.write_tag(#tag);
                #body
            }
        }
    });
    quote! {
        match self {
            #(#arms)*
        }
        ::core::result::Result::Ok(())
    }
}

/// The variant's fields from its body of `__len` bytes.
fn unpack_variant(krate: &TokenStream, de: &Lifetime, v: &Variant) -> TokenStream {
    let ident = v.ident;
    let decoded = unpack_fields(krate, de, quote!(Self::#ident), v.style, &v.fields, true);
    quote!(__r.read_within(__len, |__r| ::core::result::Result::Ok(#decoded)))
}

pub fn unpack_enum(
    krate: &TokenStream,
    de: &Lifetime,
    name: &str,
    variants: &[Variant],
) -> TokenStream {
    let arms = variants.iter().map(|v| {
        let tag = v.tag;
        let body = unpack_variant(krate, de, v);
        quote!(#tag => #body,)
    });
    let fallback = match variants.iter().find(|v| v.attrs.other.is_some()) {
        Some(other) => {
            let ident = other.ident;
            let inits = other.fields.iter().map(|f| {
                let member = &f.member;
                let default = default_value(f);
                quote!(#member: #default)
            });
            let value = if other.style == Style::Unit {
                quote!(Self::#ident)
            } else {
                quote!(Self::#ident { #(#inits,)* })
            };
            quote! {{
                // A variant this reader does not know: keep the catch-all.
                __r.skip(__len)?;
                ::core::result::Result::Ok(#value)
            }}
        }
        None => quote!(::core::result::Result::Err(__r.unknown_variant(__tag, #name))),
    };
    quote! {
        let __tag = __r.read_tag()?;
        let __len = __r.read_len()?;
        match __tag {
            #(#arms)*
            _ => #fallback,
        }
    }
}
