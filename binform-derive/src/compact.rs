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
/// cursor `__c`, with one room check for all the bounded ones: room is
/// made up front for the sum of their `MAX_SIZE`s (and the slack of their
/// stores), and each is written by `pack_reserved`, with no check of its
/// own. A field with no bound (a string, a vector, a `with` field) is
/// written with checks, and the next bounded field makes room again for
/// the bounded fields still to come. Which fields are bounded is known
/// only once the types are, so each field's choice is an `if` on
/// constants, which folds away.
///
/// `reserve`: whether the statements make the first room themselves (an
/// enum's variant), or their caller has (a struct's `pack_cursor`, or the
/// parent whose room covers it, through `pack_reserved`).
fn pack_fields(krate: &TokenStream, fields: &[Field], reserve: bool) -> TokenStream {
    let encoded = crate::ast::wire_order(fields);
    // The room still needed before each field: `__room{k}` covers the
    // bounded fields from the k-th on, computed from the last backwards.
    let room = |k: usize| format_ident!("__room{}", k);
    let n = encoded.len();
    let last = room(n);
    let mut rooms =
        vec![quote!(let #last: ::core::primitive::usize = #krate::__private::RESERVE_SLACK;)];
    // The first field's room is `first_room`'s; the others' are made only
    // after an unbounded field.
    for (k, (_, f)) in encoded.iter().enumerate().skip(1).rev() {
        let (this, next) = (room(k), room(k + 1));
        let share = share(krate, f);
        rooms.push(quote!(let #this: ::core::primitive::usize = #next + #share;));
    }
    let first = if reserve {
        let fields: Vec<&Field> = encoded.iter().map(|(_, f)| *f).collect();
        first_room(krate, &fields)
    } else {
        quote!()
    };
    let stmts = encoded.iter().enumerate().map(|(k, (i, f))| {
        let b = binding(*i);
        // Only the function path carries the user's span (so a missing
        // impl is reported at the field); identifiers stay call-site so
        // that hygiene resolves them inside `macro_rules!` expansions too.
        let checked = pack_cursor_stmt(krate, f, &b);
        if f.attrs.with.is_some() {
            return checked;
        }
        // After an unbounded field, the room left is unknown: the first
        // bounded field of a run makes it again, for itself and all the
        // bounded fields after it (one check a run, none after a string
        // followed by another string): `pack_next` does, from the field
        // before's `MAX_SIZE`.
        let (prev_max, this) = match k.checked_sub(1).and_then(|p| encoded.get(p)) {
            Some((_, prev)) => {
                let this = room(k);
                (max_size(krate, prev), quote!(#this))
            }
            // The first field's room is its caller's.
            None => (quote!(0), quote!(0)),
        };
        let next = if f.concrete {
            fields::via(krate, f, quote!(), quote!(pack_next))
        } else {
            let ty = f.ty;
            quote_spanned!(ty.span()=> #krate::__private::pack_next::<#ty>)
        };
        let call = fields::try_result(quote!(unsafe { #next(#b, __c, #prev_max, #this) }));
        quote! {
            // SAFETY: room was made for this field's `MAX_SIZE` and every
            // bounded field after it, and the slack (up front, or by
            // `pack_next` after an unbounded field); each bounded field
            // since wrote at most its own `MAX_SIZE`.
            #call
        }
    });
    quote! {
        #(#rooms)*
        #first
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

/// Whether a field is written with checks (its `MAX_SIZE` is no bound):
/// a constant once the types are known.
fn unbounded(krate: &TokenStream, f: &Field) -> TokenStream {
    let max = max_size(krate, f);
    quote!(!#krate::__private::is_bounded(#max))
}

/// A field's share of its type's room: its `MAX_SIZE` if bounded, else 0.
fn share(krate: &TokenStream, f: &Field) -> TokenStream {
    let max = max_size(krate, f);
    quote!(#krate::__private::bounded(#max))
}

/// The room a list of fields makes before its first: the bounded ones'
/// shares and the slack, made only when the first field is bounded
/// (otherwise the first bounded field makes it, after the unbounded ones
/// before it; a list with no field makes none).
fn first_room(krate: &TokenStream, encoded: &[&Field]) -> TokenStream {
    let Some(first) = encoded.first() else {
        return quote!();
    };
    let unbounded = unbounded(krate, first);
    let shares = encoded.iter().map(|f| share(krate, f));
    quote! {
        if !#unbounded {
            __c.reserve(#krate::__private::RESERVE_SLACK #(+ #shares)*);
        }
    }
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
/// another writes through its parent's cursor): room for its bounded
/// fields, then its `pack_reserved`.
fn pack_struct(krate: &TokenStream, fields: &[Field]) -> TokenStream {
    let encoded: Vec<&Field> = crate::ast::wire_order(fields)
        .into_iter()
        .map(|(_, f)| f)
        .collect();
    let reserve = first_room(krate, &encoded);
    quote! {
        #reserve
        // SAFETY: the room just made is what the fields need: the
        // bounded ones' `MAX_SIZE`s and the slack, when the first field is
        // bounded (for a struct with an unbounded field, less than its
        // `MAX_SIZE`, but all its own `pack_reserved` counts on: the first
        // bounded field after an unbounded one makes room again).
        unsafe { <Self as #krate::Pack>::pack_reserved(self, __c) }?;
        ::core::result::Result::Ok(())
    }
}

/// `Pack::pack_reserved` of a compact struct: its fields, with room made
/// by its caller (its own `pack_cursor`, or a parent's room, which counts
/// this struct's `MAX_SIZE`).
fn pack_reserved_struct(krate: &TokenStream, style: Style, fields: &[Field]) -> TokenStream {
    let bind = fields::bind_struct(style, fields);
    let body = pack_fields(krate, fields, false);
    quote!(#bind #body)
}

/// `Pack::pack_cursor` of a compact enum: the variant's index, its fields.
fn pack_enum(krate: &TokenStream, variants: &[Variant]) -> TokenStream {
    let tags = 0u32..;
    pack_variants(
        variants
            .iter()
            .zip(tags)
            .map(|(v, tag)| (v, tag, pack_fields(krate, &v.fields, true))),
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
fn unpack(krate: &TokenStream) -> TokenStream {
    quote!(#krate::__private::unpack_through_cursor::<Self>(__r))
}

/// `Unpack::unpack_cursor` of a compact struct (a compact type nested in
/// another reads through its parent's cursor).
fn unpack_struct(
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
fn unpack_enum(
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
fn min_size_enum(krate: &TokenStream, de: &Lifetime, variants: &[Variant]) -> TokenStream {
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
                    unsafe fn pack_reserved(
                        &self,
                        __c: &mut #krate::__private::Cursor<'_, '_>,
                    ) -> ::core::result::Result<#krate::__private::Kept<Self>, #krate::Error> {
                        #body
                        // SAFETY: each field kept the room it was given (its
                        // own `Kept`), and together they take at most this
                        // struct's `MAX_SIZE`, the sum of theirs.
                        ::core::result::Result::Ok(unsafe { #krate::__private::Kept::promise() })
                    }
                };
                (
                    max_size_struct(krate, fields),
                    pack_struct(krate, fields),
                    reserved,
                )
            }
            Body::Enum(variants) => (
                max_size_enum(krate, variants),
                pack_enum(krate, variants),
                quote!(),
            ),
        };
        quote! {
            const MAX_SIZE: ::core::primitive::usize = #max_size;
            #reserved

            #inline
            fn pack_cursor(
                &self,
                __c: &mut #krate::__private::Cursor<'_, '_>,
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
        quote! {
            #inline
            fn unpack_cursor(
                __c: &mut #krate::__private::ReadCursor<'_, #de>,
            ) -> ::core::result::Result<Self, #krate::Error> {
                #body
            }
        }
    }

    fn min_size(&self, gen: &Gen) -> TokenStream {
        match &gen.cont.body {
            Body::Struct(_, fields) => min_size_of(gen.krate, gen.de, fields),
            Body::Enum(variants) => min_size_enum(gen.krate, gen.de, variants),
        }
    }
}
