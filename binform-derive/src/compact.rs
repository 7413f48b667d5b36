//! The compact generator: fields in declaration order with no tags or
//! lengths, an enum as its variant index and the variant's fields.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::Lifetime;

use crate::ast::{Body, Field, Style, Variant};
use crate::fields::{
    self, binding, pack_cursor_stmt, pack_variants, unpack_cursor_field, Out, Trait, ViaOr,
};
use crate::layout::{Gen, Layout};
use crate::row::Row;

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
fn pack_fields(fields: &[Field], first_prev: TokenStream) -> TokenStream {
    if let Some(row) = Row::of(fields) {
        return row.pack(first_prev);
    }
    let encoded = crate::ast::wire_order(fields);
    let room = |k: usize| format_ident!("__room{}", k);
    let n = encoded.len();
    let last = room(n);
    let mut rooms = vec![quote!(let #last: __bf::usize = __bf::RESERVE_SLACK;)];
    for (k, (_, f)) in encoded.iter().enumerate().rev() {
        let (this, next) = (room(k), room(k + 1));
        let max = max_size(f);
        rooms.push(quote!(let #this: __bf::usize = __bf::bounded_plus(#next, #max);));
    }
    let stmts = encoded.iter().enumerate().map(|(k, (i, f))| {
        let b = binding(*i);
        // Only the function path carries the user's span (so a missing
        // impl is reported at the field); identifiers stay call-site so
        // that hygiene resolves them inside `macro_rules!` expansions too.
        if f.attrs.with.is_some() {
            return pack_cursor_stmt(f, &b);
        }
        let this = room(k);
        let prev_max = match k.checked_sub(1).and_then(|p| encoded.get(p)) {
            Some((_, prev)) => max_size(prev),
            None => ViaOr::Else(first_prev.clone()),
        };
        let next = if f.concrete {
            fields::via(f, Trait::Field, "pack_next").into_token_stream()
        } else {
            let ty = f.ty;
            quote_spanned!(f.span=> __bf::pack_next::<#ty, __L>)
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
fn max_size<'a>(f: &Field<'a>) -> ViaOr<'a> {
    match &f.attrs.with {
        Some(_) => ViaOr::Else(quote!(__bf::usize::MAX)),
        None => ViaOr::Via(fields::via(f, Trait::Pack, "MAX_SIZE")),
    }
}

/// `Pack::MAX_SIZE` of a compact struct: its fields' sum.
fn max_size_struct(fields: &[Field]) -> TokenStream {
    let sizes = field_max_sizes(fields);
    quote!(__bf::max_size_sum(&[#(#sizes),*]))
}

/// `Pack::MAX_SIZE` of a compact enum: its tag and its largest variant.
fn max_size_enum(variants: &[Variant]) -> TokenStream {
    let sums = variants.iter().map(|v| {
        let sizes = field_max_sizes(&v.fields);
        quote!(__bf::max_size_sum(&[#(#sizes),*]))
    });
    quote!(__bf::max_size_enum(&[#(#sums),*]))
}

/// Each encoded field's `MAX_SIZE`.
fn field_max_sizes<'a>(fields: &[Field<'a>]) -> Vec<ViaOr<'a>> {
    fields
        .iter()
        .filter(|f| f.is_encoded())
        .map(|f| max_size(f))
        .collect()
}

/// `Pack::pack` of a compact type: its fields through a cursor, which
/// keeps the buffer's end in registers from the first field to the last.
fn pack() -> TokenStream {
    quote!(__bf::pack_through_cursor(self, __w))
}

/// `Pack::pack_cursor` of a compact struct (a compact type nested in
/// another writes through its parent's cursor): room for all of it when
/// its `MAX_SIZE` is a bound, then its `pack_reserved`.
fn pack_struct() -> TokenStream {
    quote! {
        // SAFETY: `pack_reserved` is this derive's, for a compact struct.
        unsafe { __bf::pack_struct_cursor(self, __c) }
    }
}

/// `Pack::pack_reserved` of a compact struct: its fields, with room made
/// by its caller (its own `pack_cursor`, or a parent's room, which counts
/// this struct's `MAX_SIZE`).
fn pack_reserved_struct(style: Style, fields: &[Field]) -> TokenStream {
    let bind = fields::bind_struct(style, fields);
    let body = pack_fields(fields, quote!(<Self as __bf::Pack>::MAX_SIZE));
    quote!(#bind #body)
}

/// `Pack::pack_cursor` of a compact enum: the variant's index, its fields.
fn pack_enum(variants: &[Variant]) -> TokenStream {
    let tags = 0u32..;
    pack_variants(
        variants.iter().zip(tags).map(|(v, tag)| {
            let body = pack_fields(&v.fields, quote!(__bf::usize::MAX));
            (v, tag, body)
        }),
        Out::Cursor,
    )
}

/// `Self { a: ..., b: ... }` / `Self::V { 0: ..., 1: ... }`, fields in
/// declaration order, which is also the order of evaluation; or the
/// fields read as one row ([`Row`]), then the value built of them.
///
/// A field's error gets its path segment (`.name`, or `::Variant.name` in
/// an enum, `prefix`) on its way out.
fn construct(
    de: &Lifetime,
    path: TokenStream,
    style: Style,
    fields: &[Field],
    prefix: &str,
) -> TokenStream {
    if style == Style::Unit {
        return path;
    }
    if let Some(row) = Row::of(fields) {
        return row.unpack(path, style, fields, prefix);
    }
    let inits = fields.iter().map(|f| {
        let member = &f.member;
        let segment = format!("{prefix}.{}", crate::encoding::compact_tokens(member));
        let value = unpack_cursor_field(de, f, &segment);
        quote!(#member: #value)
    });
    quote!(#path { #(#inits,)* })
}

/// `Unpack::unpack` of a compact type: its fields through a cursor, which
/// keeps the input's position in registers from the first field to the
/// last.
fn unpack() -> TokenStream {
    quote!(__bf::unpack_through_cursor::<Self, __L>(__r))
}

/// `Unpack::unpack_cursor` of a compact struct (a compact type nested in
/// another reads through its parent's cursor).
fn unpack_struct(de: &Lifetime, style: Style, fields: &[Field]) -> TokenStream {
    let value = construct(de, quote!(Self), style, fields, "");
    quote!(__bf::Ok(#value))
}

/// `Unpack::unpack_cursor` of a compact enum: the variant's index, its
/// fields.
fn unpack_enum(de: &Lifetime, name: &str, variants: &[Variant]) -> TokenStream {
    let arms = variants.iter().enumerate().map(|(tag, v)| {
        let ident = v.ident;
        let tag = tag as u32;
        let prefix = format!("::{ident}");
        let value = construct(de, quote!(Self::#ident), v.style, &v.fields, &prefix);
        quote!(#tag => __bf::Ok(#value),)
    });
    let tag = fields::try_result(quote!(__c.read_tag()));
    quote! {
        let __tag = #tag;
        match __tag {
            #(#arms)*
            _ => __bf::Err(__c.fail(|__r| __r.unknown_variant(__tag, #name))),
        }
    }
}

/// The sum of the encoded fields' minimum sizes (`with` fields count 0).
pub fn min_size_of(de: &Lifetime, fields: &[Field]) -> TokenStream {
    let parts = fields
        .iter()
        .filter(|f| f.is_encoded() && f.attrs.with.is_none())
        .map(|f| fields::via(f, Trait::Unpack(de), "MIN_SIZE"));
    quote!(__bf::min_size_sum(&[#(#parts),*]))
}

/// One tag byte plus the smallest variant.
fn min_size_enum(de: &Lifetime, variants: &[Variant]) -> TokenStream {
    let sizes = variants.iter().map(|v| min_size_of(de, &v.fields));
    quote!(__bf::min_size_enum(&[#(#sizes),*]))
}

/// The compact layout: fields in declaration order through a cursor, an
/// enum as its variant index and the variant's fields.
pub struct Compact;

impl Layout for Compact {
    fn pack(&self, _: &Gen) -> TokenStream {
        pack()
    }

    fn pack_items(&self, gen: &Gen) -> TokenStream {
        let inline = &gen.inline;
        let (max_size, cursor_body, reserved) = match &gen.cont.body {
            Body::Struct(style, fields) => {
                let body = pack_reserved_struct(*style, fields);
                let reserved = quote! {
                    #inline
                    unsafe fn pack_reserved<__L: __bf::Layout>(
                        &self,
                        __c: &mut __bf::Cursor<'_, '_, __L>,
                    ) -> __bf::Result<__bf::Kept<Self>, __bf::Error> {
                        #body
                        // SAFETY: each field kept the room it was given (its
                        // own `Kept`), and together they take at most this
                        // struct's `MAX_SIZE`, the sum of theirs.
                        __bf::Ok(unsafe { __bf::Kept::promise() })
                    }
                };
                (max_size_struct(fields), pack_struct(), reserved)
            }
            Body::Enum(variants) => (max_size_enum(variants), pack_enum(variants), quote!()),
        };
        let named = crate::columns::named(gen.cont);
        let columns = crate::columns::pack_items(named.as_ref(), &gen.cont.body);
        quote! {
            const MAX_SIZE: __bf::usize = #max_size;
            #reserved
            #columns

            #inline
            fn pack_cursor<__L: __bf::Layout>(
                &self,
                __c: &mut __bf::Cursor<'_, '_, __L>,
            ) -> __bf::Result<(), __bf::Error> {
                #cursor_body
            }
        }
    }

    fn unpack(&self, _: &Gen) -> TokenStream {
        unpack()
    }

    fn unpack_items(&self, gen: &Gen) -> TokenStream {
        let (de, inline) = (gen.de, &gen.inline);
        let body = match &gen.cont.body {
            Body::Struct(style, fields) => unpack_struct(de, *style, fields),
            Body::Enum(variants) => unpack_enum(de, gen.name, variants),
        };
        let captures = crate::columns::captures(gen.cont.generics, de);
        let named = crate::columns::named(gen.cont);
        let columns = crate::columns::unpack_items(
            de,
            (gen.name, inline, &captures),
            named.as_ref(),
            &gen.cont.body,
        );
        quote! {
            #inline
            fn unpack_cursor<__L: __bf::Layout>(
                __c: &mut __bf::ReadCursor<'_, #de, __L>,
            ) -> __bf::Result<Self, __bf::Error> {
                #body
            }

            #columns
        }
    }

    fn min_size(&self, gen: &Gen) -> TokenStream {
        match &gen.cont.body {
            Body::Struct(_, fields) => min_size_of(gen.de, fields),
            Body::Enum(variants) => min_size_enum(gen.de, variants),
        }
    }
}
