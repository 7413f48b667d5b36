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
use crate::fields::{default_value, via, Trait};

/// A placeholder as an `Option<Self>` expression: each encoded field's own
/// placeholder in turn (each charges the budget), the value built if every
/// one has one, skipped fields their default. `None` if a field has no
/// placeholder at all (`with`). A labelled block, not a `?` a field (whose
/// `Try` resolutions cost type checking) nor a closure a variant.
fn placeholder_value(
    de: &Lifetime,
    path: TokenStream,
    style: Style,
    fields: &[Field],
) -> Option<TokenStream> {
    if style == Style::Unit {
        return Some(quote!(__bf::Some(#path)));
    }
    if let Some(row) = crate::row::Row::of(fields) {
        return Some(row.placeholder(path, style, fields));
    }
    let (mut tries, mut inits) = (Vec::new(), Vec::new());
    for (i, f) in fields.iter().enumerate() {
        let member = &f.member;
        if !f.is_encoded() {
            let value = default_value(f);
            inits.push(quote!(#member: #value));
            continue;
        }
        if f.attrs.with.is_some() {
            return None;
        }
        let func = via(f, Trait::Unpack(de), "placeholder");
        let b = quote::format_ident!("__p{}", i);
        tries.push(quote! {
            let __bf::Some(#b) = #func(__work) else {
                break '__placeholder __bf::None;
            };
        });
        inits.push(quote!(#member: #b));
    }
    // The first field without a placeholder ends the attempt, before the
    // fields after it spend the budget.
    Some(quote! {
        '__placeholder: {
            #(#tries)*
            __bf::Some(#path { #(#inits,)* })
        }
    })
}

pub fn placeholder_struct(de: &Lifetime, style: Style, fields: &[Field]) -> TokenStream {
    placeholder_value(de, quote!(Self), style, fields).unwrap_or_else(|| quote!(__bf::None))
}

/// The cheapest variant that has a placeholder, then the others in tag
/// order until one succeeds or the work budget runs out. No closures: the
/// attempts are arms of one `match`, which keeps the derive's output (and
/// `cargo check`) small.
pub fn placeholder_enum(de: &Lifetime, variants: &[Variant]) -> TokenStream {
    // Tag order: the order of the schema, in which the runtime names the
    // cheapest variant.
    let mut order: Vec<&Variant> = variants.iter().collect();
    order.sort_by_key(|v| v.tag);
    let arms = order.iter().enumerate().filter_map(|(k, v)| {
        let ident = v.ident;
        let value = placeholder_value(de, quote!(Self::#ident), v.style, &v.fields)?;
        Some(quote!(#k => #value,))
    });
    let n = order.len();
    quote! {
        let __first: __bf::usize = __bf::cheapest_variant::<Self>();
        for __k in 0..=#n {
            let __v = match __k {
                0 => __first,
                _ if __k - 1 == __first => continue,
                _ => __k - 1,
            };
            let __value: __bf::Option<Self> = match __v {
                #(#arms)*
                _ => __bf::None,
            };
            if __value.is_some() {
                return __value;
            }
        }
        __bf::None
    }
}
