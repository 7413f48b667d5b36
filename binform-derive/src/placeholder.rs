//! The placeholder a derived type offers while a shared value that refers
//! to itself is decoded: every field's own placeholder.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Lifetime;

use crate::ast::{Field, Style, Variant};
use crate::fields::unpack_field;

/// The placeholder's construction: every field's own placeholder (skipped
/// fields their default); `None` if any field has none. Used only while a
/// shared value that refers to itself is decoded.
fn placeholder_value(
    krate: &TokenStream,
    de: &Lifetime,
    path: TokenStream,
    style: Style,
    fields: &[Field],
) -> Option<TokenStream> {
    if style == Style::Unit {
        return Some(path);
    }
    let mut inits = Vec::new();
    for f in fields {
        let (member, ty) = (&f.member, f.ty);
        let value = if !f.is_encoded() {
            unpack_field(krate, de, f)
        } else if f.attrs.with.is_some() {
            return None;
        } else {
            quote!(<#ty as #krate::Unpack<#de>>::placeholder(__budget)?)
        };
        inits.push(quote!(#member: #value));
    }
    Some(quote!(#path { #(#inits,)* }))
}

pub fn placeholder_struct(
    krate: &TokenStream,
    de: &Lifetime,
    style: Style,
    fields: &[Field],
) -> TokenStream {
    match placeholder_value(krate, de, quote!(Self), style, fields) {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

/// The first variant that has a placeholder.
pub fn placeholder_enum(krate: &TokenStream, de: &Lifetime, variants: &[Variant]) -> TokenStream {
    let attempts = variants.iter().filter_map(|v| {
        let ident = v.ident;
        let value = placeholder_value(krate, de, quote!(Self::#ident), v.style, &v.fields)?;
        Some(quote! {
            let __attempt = || -> ::core::option::Option<Self> { ::core::option::Option::Some(#value) };
            if let ::core::option::Option::Some(__value) = __attempt() {
                return ::core::option::Option::Some(__value);
            }
        })
    });
    quote! {
        #(#attempts)*
        ::core::option::Option::None
    }
}
