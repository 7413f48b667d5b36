//! The compact generator: fields in declaration order with no tags or
//! lengths, an enum as its variant index and the variant's fields.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Lifetime;

use crate::ast::{Body, Field, Style, Variant};
use crate::fields::{self, binding, pack_cursor_stmt, pack_variants, unpack_cursor_field, Out};
use crate::layout::{Gen, Layout};

/// Statements that write each encoded field from its binding through the
/// cursor `__c`, each by one `pack_next` call: a field with no bound (a
/// string, a vector) with checks; a bounded one with no check of its own,
/// in room made for it and every bounded field after it (and the slack of
/// their stores) by the first bounded field of its run, which makes it
/// when the field before it had no bound. `__room{k}` is that room from
/// the k-th field on, computed from the last backwards. Which fields are
/// bounded is known only once the types are, so each choice is a test on
/// constants, which folds away.
///
/// The first field counts as following `first_prev`'s `MAX_SIZE`: no bound
/// (`usize::MAX`) for an enum's variant, which makes its own room; the
/// struct's own `MAX_SIZE` in its `pack_reserved`, whose caller made room
/// for all of it when that is a bound (a parent, or its `pack_cursor`), and
/// nothing otherwise, so that the first field makes it.
fn pack_fields(krate: &TokenStream, fields: &[Field], first_prev: TokenStream) -> TokenStream {
    let encoded = crate::ast::wire_order(fields);
    let room = |k: usize| format_ident!("__room{}", k);
    let n = encoded.len();
    let last = room(n);
    let mut rooms =
        vec![quote!(let #last: ::core::primitive::usize = #krate::__private::RESERVE_SLACK;)];
    for (k, (_, f)) in encoded.iter().enumerate().rev() {
        let (this, next) = (room(k), room(k + 1));
        let share = share(krate, f);
        rooms.push(quote!(let #this: ::core::primitive::usize = #next + #share;));
    }
    let stmts = encoded.iter().enumerate().map(|(k, (i, f))| {
        let b = binding(*i);
        // Only the function path carries the user's span (so a missing
        // impl is reported at the field); identifiers stay call-site so
        // that hygiene resolves them inside `macro_rules!` expansions too.
        if f.attrs.with.is_some() {
            return pack_cursor_stmt(krate, f, &b);
        }
        let this = room(k);
        let prev_max = match k.checked_sub(1).and_then(|p| encoded.get(p)) {
            Some((_, prev)) => max_size(krate, prev),
            None => first_prev.clone(),
        };
        let next = if f.concrete {
            fields::via(krate, f, quote!(), quote!(pack_next))
        } else {
            let ty = f.ty;
            quote_spanned!(ty.span()=> #krate::__private::pack_next::<#ty, __L>)
        };
        let call = fields::try_result(quote!(unsafe { #next(#b, __c, #prev_max, #this) }));
        quote! {
            // SAFETY: room was made for this field's `MAX_SIZE` and every
            // bounded field after it, and the slack (by the caller, or by
            // `pack_next` after a field with no bound); each bounded field
            // since wrote at most its own `MAX_SIZE`.
            #call
        }
    });
    quote! {
        #(#rooms)*
        #(#stmts)*
    }
}

/// A field's `Pack::MAX_SIZE`: a `with` field has no bound.
fn max_size(krate: &TokenStream, f: &Field) -> TokenStream {
    match &f.attrs.with {
        Some(_) => quote!(::core::primitive::usize::MAX),
        None => fields::via(krate, f, quote!(#krate::Pack), quote!(MAX_SIZE)),
    }
}

/// A field's share of its type's room: its `MAX_SIZE` if bounded, else 0.
fn share(krate: &TokenStream, f: &Field) -> TokenStream {
    let max = max_size(krate, f);
    quote!(#krate::__private::bounded(#max))
}

/// `Pack::MAX_SIZE` of a compact struct: its fields' sum.
fn max_size_struct(krate: &TokenStream, fields: &[Field]) -> TokenStream {
    let sizes = field_max_sizes(krate, fields);
    quote!(#krate::__private::max_size_sum(&[#(#sizes),*]))
}

/// `Pack::MAX_SIZE` of a compact enum: its tag and its largest variant.
fn max_size_enum(krate: &TokenStream, variants: &[Variant]) -> TokenStream {
    let sums = variants.iter().map(|v| {
        let sizes = field_max_sizes(krate, &v.fields);
        quote!(#krate::__private::max_size_sum(&[#(#sizes),*]))
    });
    quote!(#krate::__private::max_size_enum(&[#(#sums),*]))
}

/// Each encoded field's `MAX_SIZE`.
fn field_max_sizes(krate: &TokenStream, fields: &[Field]) -> Vec<TokenStream> {
    fields
        .iter()
        .filter(|f| f.is_encoded())
        .map(|f| max_size(krate, f))
        .collect()
}

/// `Pack::pack` of a compact type: its fields through a cursor, which
/// keeps the buffer's end in registers from the first field to the last.
fn pack(krate: &TokenStream) -> TokenStream {
    quote!(#krate::__private::pack_through_cursor(self, __w))
}

/// `Pack::pack_cursor` of a compact struct (a compact type nested in
/// another writes through its parent's cursor): room for all of it when
/// its `MAX_SIZE` is a bound, then its `pack_reserved`.
fn pack_struct(krate: &TokenStream) -> TokenStream {
    quote! {
        // SAFETY: `pack_reserved` is this derive's, for a compact struct.
        unsafe { #krate::__private::pack_struct_cursor(self, __c) }
    }
}

/// `Pack::pack_reserved` of a compact struct: its fields, with room made
/// by its caller (its own `pack_cursor`, or a parent's room, which counts
/// this struct's `MAX_SIZE`).
fn pack_reserved_struct(krate: &TokenStream, style: Style, fields: &[Field]) -> TokenStream {
    let bind = fields::bind_struct(style, fields);
    let body = pack_fields(krate, fields, quote!(<Self as #krate::Pack>::MAX_SIZE));
    quote!(#bind #body)
}

/// `Pack::pack_cursor` of a compact enum: the variant's index, its fields.
fn pack_enum(krate: &TokenStream, variants: &[Variant]) -> TokenStream {
    let tags = 0u32..;
    pack_variants(
        variants.iter().zip(tags).map(|(v, tag)| {
            let body = pack_fields(krate, &v.fields, quote!(::core::primitive::usize::MAX));
            (v, tag, body)
        }),
        Out::Cursor,
    )
}

/// `Self { a: ..., b: ... }` / `Self::V { 0: ..., 1: ... }`, fields in
/// declaration order, which is also the order of evaluation.
///
/// A field's error gets its path segment (`.name`, or `::Variant.name` in
/// an enum, `prefix`) on its way out.
fn construct(
    krate: &TokenStream,
    de: &Lifetime,
    path: TokenStream,
    style: Style,
    fields: &[Field],
    prefix: &str,
) -> TokenStream {
    if style == Style::Unit {
        return path;
    }
    let inits = fields.iter().map(|f| {
        let member = &f.member;
        let segment = format!("{prefix}.{}", crate::encoding::compact_tokens(member));
        let value = unpack_cursor_field(krate, de, f, &segment);
        quote!(#member: #value)
    });
    quote!(#path { #(#inits,)* })
}

/// `Unpack::unpack` of a compact type: its fields through a cursor, which
/// keeps the input's position in registers from the first field to the
/// last.
fn unpack(krate: &TokenStream) -> TokenStream {
    quote!(#krate::__private::unpack_through_cursor::<Self, __L>(__r))
}

/// `Unpack::unpack_cursor` of a compact struct (a compact type nested in
/// another reads through its parent's cursor).
fn unpack_struct(
    krate: &TokenStream,
    de: &Lifetime,
    style: Style,
    fields: &[Field],
) -> TokenStream {
    let value = construct(krate, de, quote!(Self), style, fields, "");
    quote!(::core::result::Result::Ok(#value))
}

/// `Unpack::unpack_cursor` of a compact enum: the variant's index, its
/// fields.
fn unpack_enum(
    krate: &TokenStream,
    de: &Lifetime,
    name: &str,
    variants: &[Variant],
) -> TokenStream {
    let arms = variants.iter().enumerate().map(|(tag, v)| {
        let ident = v.ident;
        let tag = tag as u32;
        let prefix = format!("::{ident}");
        let value = construct(krate, de, quote!(Self::#ident), v.style, &v.fields, &prefix);
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
    quote!(#krate::__private::min_size_sum(&[#(#parts),*]))
}

/// One tag byte plus the smallest variant.
fn min_size_enum(krate: &TokenStream, de: &Lifetime, variants: &[Variant]) -> TokenStream {
    let sizes = variants.iter().map(|v| min_size_of(krate, de, &v.fields));
    quote!(#krate::__private::min_size_enum(&[#(#sizes),*]))
}

/// The compact layout: fields in declaration order through a cursor, an
/// enum as its variant index and the variant's fields.
pub struct Compact;

impl Layout for Compact {
    fn pack(&self, gen: &Gen) -> TokenStream {
        pack(gen.krate)
    }

    fn pack_items(&self, gen: &Gen) -> TokenStream {
        let (krate, inline) = (gen.krate, &gen.inline);
        let (max_size, cursor_body, reserved) = match &gen.cont.body {
            Body::Struct(style, fields) => {
                let body = pack_reserved_struct(krate, *style, fields);
                let reserved = quote! {
                    #inline
                    unsafe fn pack_reserved<__L: #krate::Layout>(
                        &self,
                        __c: &mut #krate::__private::Cursor<'_, '_, __L>,
                    ) -> ::core::result::Result<#krate::__private::Kept<Self>, #krate::Error> {
                        #body
                        // SAFETY: each field kept the room it was given (its
                        // own `Kept`), and together they take at most this
                        // struct's `MAX_SIZE`, the sum of theirs.
                        ::core::result::Result::Ok(unsafe { #krate::__private::Kept::promise() })
                    }
                };
                (max_size_struct(krate, fields), pack_struct(krate), reserved)
            }
            Body::Enum(variants) => (
                max_size_enum(krate, variants),
                pack_enum(krate, variants),
                quote!(),
            ),
        };
        let columns = crate::columns::pack_items(krate, &gen.cont.body);
        quote! {
            const MAX_SIZE: ::core::primitive::usize = #max_size;
            #reserved
            #columns

            #inline
            fn pack_cursor<__L: #krate::Layout>(
                &self,
                __c: &mut #krate::__private::Cursor<'_, '_, __L>,
            ) -> ::core::result::Result<(), #krate::Error> {
                #cursor_body
            }
        }
    }

    fn unpack(&self, gen: &Gen) -> TokenStream {
        unpack(gen.krate)
    }

    fn unpack_items(&self, gen: &Gen) -> TokenStream {
        let (krate, de, inline) = (gen.krate, gen.de, &gen.inline);
        let body = match &gen.cont.body {
            Body::Struct(style, fields) => unpack_struct(krate, de, *style, fields),
            Body::Enum(variants) => unpack_enum(krate, de, gen.name, variants),
        };
        let captures = crate::columns::captures(gen.cont.generics, de);
        let columns =
            crate::columns::unpack_items(krate, de, (gen.name, inline, &captures), &gen.cont.body);
        quote! {
            #inline
            fn unpack_cursor<__L: #krate::Layout>(
                __c: &mut #krate::__private::ReadCursor<'_, #de, __L>,
            ) -> ::core::result::Result<Self, #krate::Error> {
                #body
            }

            #columns
        }
    }

    fn min_size(&self, gen: &Gen) -> TokenStream {
        match &gen.cont.body {
            Body::Struct(_, fields) => min_size_of(gen.krate, gen.de, fields),
            Body::Enum(variants) => min_size_enum(gen.krate, gen.de, variants),
        }
    }
}
