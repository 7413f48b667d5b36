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

/// The cheapest variant that has a placeholder, then the others in tag
/// order until one succeeds or the work budget runs out.
pub fn placeholder_enum(krate: &TokenStream, de: &Lifetime, variants: &[Variant]) -> TokenStream {
    // Tag order: the order of the schema, in which the runtime names the
    // cheapest variant.
    let mut order: Vec<&Variant> = variants.iter().collect();
    order.sort_by_key(|v| v.tag);
    let arms = order.iter().enumerate().filter_map(|(k, v)| {
        let ident = v.ident;
        let value = placeholder_value(krate, de, quote!(Self::#ident), v.style, &v.fields)?;
        Some(quote! {
            #k => {
                let __attempt = |__work: &mut ::core::primitive::u32| -> ::core::option::Option<Self> {
                    ::core::option::Option::Some(#value)
                };
                if let ::core::option::Option::Some(__value) = __attempt(__work) {
                    return ::core::option::Option::Some(__value);
                }
            }
        })
    });
    let n = order.len();
    quote! {
        let mut __order: [::core::primitive::usize; #n] = ::core::array::from_fn(|__k| __k);
        let __cheapest: ::core::primitive::usize = #krate::__private::cheapest_variant::<Self>();
        if let ::core::option::Option::Some(__front) = __order.get_mut(..=__cheapest) {
            __front.rotate_right(1);
        }
        for __k in __order {
            #[allow(unreachable_patterns)]
            match __k {
                #(#arms)*
                _ => {}
            }
        }
        ::core::option::Option::None
    }
}
