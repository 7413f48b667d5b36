//! The placeholder a derived type offers while a shared value that refers
//! to itself is decoded: every field's own placeholder, an enum's cheapest
//! variant first (chosen from the field types' costs, which the runtime
//! computes from the type's schema once).
//! Each derived placeholder spends one unit of the caller's work budget, so
//! no type shape can make one cost more than a constant.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Lifetime;

use crate::ast::{Field, Style, Variant};
use crate::fields::{unpack_field, via};

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
        let member = &f.member;
        let value = if !f.is_encoded() {
            unpack_field(krate, de, f)
        } else if f.attrs.with.is_some() {
            return None;
        } else {
            let func = via(krate, f, quote!(#krate::Unpack<#de>), quote!(placeholder));
            quote!(#func(__work)?)
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

/// A variant's placeholder as an `Option<Self>` expression: its fields'
/// placeholders all tried (each charges the budget), the variant built if
/// every one has one. `None` if a field has none at all (`with`).
fn variant_value(krate: &TokenStream, de: &Lifetime, v: &Variant) -> Option<TokenStream> {
    let ident = v.ident;
    if v.style == Style::Unit {
        return Some(quote!(::core::option::Option::Some(Self::#ident)));
    }
    let (mut tries, mut pats, mut inits) = (Vec::new(), Vec::new(), Vec::new());
    for (i, f) in v.fields.iter().enumerate() {
        let member = &f.member;
        if !f.is_encoded() {
            let value = unpack_field(krate, de, f);
            inits.push(quote!(#member: #value));
            continue;
        }
        if f.attrs.with.is_some() {
            return None;
        }
        let func = via(krate, f, quote!(#krate::Unpack<#de>), quote!(placeholder));
        let b = quote::format_ident!("__p{}", i);
        tries.push(quote!(#func(__work)));
        pats.push(quote!(::core::option::Option::Some(#b)));
        inits.push(quote!(#member: #b));
    }
    Some(quote! {
        match (#(#tries,)*) {
            (#(#pats,)*) => ::core::option::Option::Some(Self::#ident { #(#inits,)* }),
            #[allow(unreachable_patterns)]
            _ => ::core::option::Option::None,
        }
    })
}

/// The cheapest variant that has a placeholder, then the others in tag
/// order until one succeeds or the work budget runs out. No closures: the
/// attempts are arms of one `match`, which keeps the derive's output (and
/// `cargo check`) small.
pub fn placeholder_enum(krate: &TokenStream, de: &Lifetime, variants: &[Variant]) -> TokenStream {
    // Tag order: the order of the schema, in which the runtime names the
    // cheapest variant.
    let mut order: Vec<&Variant> = variants.iter().collect();
    order.sort_by_key(|v| v.tag);
    let arms = order.iter().enumerate().filter_map(|(k, v)| {
        let value = variant_value(krate, de, v)?;
        Some(quote!(#k => #value,))
    });
    let n = order.len();
    quote! {
        let __first: ::core::primitive::usize = #krate::__private::cheapest_variant::<Self>();
        for __k in 0..=#n {
            let __v = match __k {
                0 => __first,
                _ if __k - 1 == __first => continue,
                _ => __k - 1,
            };
            let __value: ::core::option::Option<Self> = match __v {
                #(#arms)*
                _ => ::core::option::Option::None,
            };
            if __value.is_some() {
                return __value;
            }
        }
        ::core::option::Option::None
    }
}
