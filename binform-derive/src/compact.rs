//! The compact generator: fields in declaration order with no tags or
//! lengths, an enum as its variant index and the variant's fields.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Lifetime;

use crate::ast::{Field, Style, Variant};
use crate::fields::{self, binding, pack_cursor_stmt, pack_variants, unpack_cursor_field, Out};

/// Statements that write each encoded field from its binding through the
/// cursor `__c`.
fn pack_fields(krate: &TokenStream, fields: &[Field]) -> TokenStream {
    let stmts = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_encoded())
        // Only the function path carries the user's span (so a missing
        // impl is reported at the field); identifiers stay call-site so
        // that hygiene resolves them inside `macro_rules!` expansions too.
        .map(|(i, f)| pack_cursor_stmt(krate, f, &binding(i)));
    quote!(#(#stmts)*)
}

/// `Pack::pack` of a compact type: its fields through a cursor, which
/// keeps the buffer's end in registers from the first field to the last.
pub fn pack(krate: &TokenStream) -> TokenStream {
    quote!(__w.with_cursor(|__c| <Self as #krate::Pack>::pack_cursor(self, __c)))
}

/// `Pack::pack_cursor` of a compact struct (a compact type nested in
/// another writes through its parent's cursor).
pub fn pack_struct(krate: &TokenStream, style: Style, fields: &[Field]) -> TokenStream {
    fields::pack_struct(style, fields, pack_fields(krate, fields))
}

/// `Pack::pack_cursor` of a compact enum: the variant's index, its fields.
pub fn pack_enum(krate: &TokenStream, variants: &[Variant]) -> TokenStream {
    let tags = 0u32..;
    pack_variants(
        variants
            .iter()
            .zip(tags)
            .map(|(v, tag)| (v, tag, pack_fields(krate, &v.fields))),
        Out::Cursor,
    )
}

/// `Self { a: ..., b: ... }` / `Self::V { 0: ..., 1: ... }`, fields in
/// declaration order, which is also the order of evaluation.
fn construct(
    krate: &TokenStream,
    de: &Lifetime,
    path: TokenStream,
    style: Style,
    fields: &[Field],
) -> TokenStream {
    if style == Style::Unit {
        return path;
    }
    let inits = fields.iter().map(|f| {
        let member = &f.member;
        let value = unpack_cursor_field(krate, de, f);
        quote!(#member: #value)
    });
    quote!(#path { #(#inits,)* })
}

/// `Unpack::unpack` of a compact type: its fields through a cursor, which
/// keeps the input's position in registers from the first field to the
/// last.
pub fn unpack(krate: &TokenStream, de: &Lifetime) -> TokenStream {
    quote!(__r.with_cursor(|__c| <Self as #krate::Unpack<#de>>::unpack_cursor(__c)))
}

/// `Unpack::unpack_cursor` of a compact struct (a compact type nested in
/// another reads through its parent's cursor).
pub fn unpack_struct(
    krate: &TokenStream,
    de: &Lifetime,
    style: Style,
    fields: &[Field],
) -> TokenStream {
    let value = construct(krate, de, quote!(Self), style, fields);
    quote!(::core::result::Result::Ok(#value))
}

/// `Unpack::unpack_cursor` of a compact enum: the variant's index, its
/// fields.
pub fn unpack_enum(
    krate: &TokenStream,
    de: &Lifetime,
    name: &str,
    variants: &[Variant],
) -> TokenStream {
    let arms = variants.iter().enumerate().map(|(tag, v)| {
        let ident = v.ident;
        let tag = tag as u32;
        let value = construct(krate, de, quote!(Self::#ident), v.style, &v.fields);
        quote!(#tag => ::core::result::Result::Ok(#value),)
    });
    quote! {
        let __tag = __c.read_tag()?;
        match __tag {
            #(#arms)*
            _ => ::core::result::Result::Err(__c.fail(|__r| __r.unknown_variant(__tag, #name))),
        }
    }
}

/// The sum of the encoded fields' minimum sizes (`with` fields count 0).
pub fn min_size_of(krate: &TokenStream, de: &Lifetime, fields: &[Field]) -> TokenStream {
    let parts = fields
        .iter()
        .filter(|f| f.is_encoded() && f.attrs.with.is_none())
        .map(|f| fields::via(krate, f, quote!(#krate::Unpack<#de>), quote!(MIN_SIZE)));
    quote!(0 #(+ #parts)*)
}

/// One tag byte plus the smallest variant.
pub fn min_size_enum(krate: &TokenStream, de: &Lifetime, variants: &[Variant]) -> TokenStream {
    let mut sizes = variants.iter().map(|v| min_size_of(krate, de, &v.fields));
    let Some(first) = sizes.next() else {
        return quote!(1);
    };
    let folded = sizes.fold(
        first,
        |acc, next| quote!(#krate::__private::min_size(#acc, #next)),
    );
    quote!(1 + #folded)
}
