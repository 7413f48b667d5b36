//! The column generator (`docs/format.md` §27): a compact type's
//! sequences, written a field at a time. A struct writes each encoded
//! field's column in wire order; an enum its variant indexes, then each
//! variant's fields' columns over the elements of that variant. A field's
//! column is its type's own (`Pack::pack_all` / `Unpack::unpack_vec`),
//! so strings, options, integers and nested derived types recurse; a
//! `with` field is its module's values one after another. The fixed
//! layout keeps rows, and so do version-tolerant types (no items here).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Lifetime;

use crate::ast::{Body, Field, Style, Variant};
use crate::fields::{default_value, try_result, via};

/// The statement that writes field `f`'s column: `get` borrows it from
/// an element (`variant`: from an element of one variant, or `None`).
fn pack_field(krate: &TokenStream, f: &Field, get: TokenStream, variant: bool) -> TokenStream {
    let items = match variant {
        false => quote!(__items.iter().map(#get)),
        true => quote!(__items.iter().filter_map(#get)),
    };
    let call = match &f.attrs.with {
        Some(with) => {
            let path = &with.value;
            quote!(#krate::__private::pack_rows_with(#items, __w, |__v, __w| #path::pack(__v, __w)))
        }
        None if f.concrete => {
            // Through `Field`, spanned on the type: a missing encoding is
            // one error, at the field.
            let func = via(krate, f, quote!(), quote!(pack_column));
            quote!(#func(#items, __w))
        }
        None => {
            let ty = f.ty;
            quote!(#krate::__private::pack_column::<#ty, __L>(#items, __w))
        }
    };
    let call = try_result(call);
    quote!(#call;)
}

/// The expression that reads field `f`'s column of `n` values, as an
/// iterator, its error given the path `segment`.
fn unpack_field(krate: &TokenStream, f: &Field, n: TokenStream, segment: &str) -> TokenStream {
    match &f.attrs.with {
        Some(with) => {
            let path = &with.value;
            quote!(#krate::__private::rows_with(__r, #n, #segment, |__r| #path::unpack(__r)))
        }
        None if f.concrete => {
            let func = via(krate, f, quote!(), quote!(unpack_column));
            quote!(#func(__r, #n, #segment))
        }
        None => {
            let ty = f.ty;
            quote!(#krate::__private::column_iter::<#ty, __L>(__r, #n, #segment))
        }
    }
}

/// A field's `COLUMN_MIN`; a `with` field counts nothing.
fn column_min(krate: &TokenStream, de: &Lifetime, f: &Field) -> TokenStream {
    if f.attrs.with.is_some() {
        return quote!(0);
    }
    via(krate, f, quote!(#krate::Unpack<#de>), quote!(COLUMN_MIN))
}

/// Binding of the decoded column of field `i` of variant `v`.
fn column_ident(v: usize, i: usize) -> syn::Ident {
    format_ident!("__c{}_{}", v, i)
}

/// Reads the columns of `fields` (of variant `v`, `n` values each) into
/// bindings, each error given its path segment.
fn read_columns(
    krate: &TokenStream,
    v: usize,
    fields: &[Field],
    n: TokenStream,
    prefix: &str,
) -> TokenStream {
    let reads = crate::ast::wire_order(fields).into_iter().map(|(i, f)| {
        let c = column_ident(v, i);
        let segment = format!("{prefix}.{}", crate::encoding::compact_tokens(&f.member));
        let read = try_result(unpack_field(krate, f, n.clone(), &segment));
        quote!(let mut #c = #read;)
    });
    quote!(#(#reads)*)
}

/// `path { a: next(c0)?, .. }`: one element from its fields' columns.
fn take_element(
    krate: &TokenStream,
    v: usize,
    path: TokenStream,
    style: Style,
    fields: &[Field],
) -> TokenStream {
    if style == Style::Unit {
        return path;
    }
    let inits = fields.iter().enumerate().map(|(i, f)| {
        let member = &f.member;
        if !f.is_encoded() {
            let value = default_value(f);
            return quote!(#member: #value);
        }
        let c = column_ident(v, i);
        let next = try_result(quote!(#krate::__private::next(__r, &mut #c)));
        quote!(#member: #next)
    });
    quote!(#path { #(#inits,)* })
}

/// The `Pack` items of a compact struct or enum: `pack_all` (its
/// columns, gathered once, in the compact layout) and `pack_columns`,
/// which writes them; `pack_slice`'s default calls the latter too.
pub fn pack_items(krate: &TokenStream, body: &Body) -> TokenStream {
    let columns = match body {
        Body::Struct(_, fields) => struct_columns(krate, fields),
        Body::Enum(variants) => enum_columns(krate, variants),
    };
    quote! {
        #[inline]
        fn pack_all<'__a, __L: #krate::Layout>(
            __items: impl ::core::iter::Iterator<Item = &'__a Self> + ::core::clone::Clone,
            __w: &mut #krate::Writer<'_, __L>,
        ) -> ::core::result::Result<(), #krate::Error>
        where
            Self: '__a,
        {
            #krate::__private::pack_all(__items, __w)
        }

        fn pack_columns<__L: #krate::Layout>(
            __items: #krate::__private::Rows<'_, Self>,
            __w: &mut #krate::Writer<'_, __L>,
        ) -> ::core::result::Result<(), #krate::Error> {
            #columns
            ::core::result::Result::Ok(())
        }
    }
}

/// A struct's columns: each encoded field over every element.
fn struct_columns(krate: &TokenStream, fields: &[Field]) -> TokenStream {
    let stmts = crate::ast::wire_order(fields).into_iter().map(|(_, f)| {
        let member = &f.member;
        pack_field(krate, f, quote!(|__x: &Self| &__x.#member), false)
    });
    quote!(#(#stmts)*)
}

/// An enum's columns: the variant indexes, then each variant's fields
/// over the elements of that variant.
fn enum_columns(krate: &TokenStream, variants: &[Variant]) -> TokenStream {
    if variants.is_empty() {
        return quote!(let _ = __items;);
    }
    let tag_arms = variants.iter().enumerate().map(|(tag, v)| {
        let ident = v.ident;
        let tag = tag as u32;
        let pat = match v.style {
            Style::Unit => quote!(),
            Style::Named | Style::Tuple => quote!({ .. }),
        };
        quote!(Self::#ident #pat => #tag,)
    });
    let columns = variants.iter().flat_map(|v| {
        let ident = v.ident;
        crate::ast::wire_order(&v.fields)
            .into_iter()
            .map(move |(_, f)| {
                let member = &f.member;
                let get = quote! {
                    |__x: &Self| match __x {
                        Self::#ident { #member: __v, .. } => ::core::option::Option::Some(__v),
                        #[allow(unreachable_patterns)]
                        _ => ::core::option::Option::None,
                    }
                };
                pack_field(krate, f, get, true)
            })
    });
    let tags = try_result(quote! {
        #krate::__private::tag_column(__items, |__x| match __x { #(#tag_arms)* }, __w)
    });
    quote! {
        #tags;
        #(#columns)*
    }
}

/// The `Unpack` items of a compact struct or enum: `COLUMN_MIN` and
/// `unpack_vec` as columns in the compact layout.
pub fn unpack_items(krate: &TokenStream, de: &Lifetime, name: &str, body: &Body) -> TokenStream {
    let (min, columns) = match body {
        Body::Struct(style, fields) => {
            let mins = fields
                .iter()
                .filter(|f| f.is_encoded())
                .map(|f| column_min(krate, de, f));
            let read = read_columns(krate, 0, fields, quote!(__n), "");
            let element = take_element(krate, 0, quote!(Self), *style, fields);
            // The columns' vectors, freed once the elements are built.
            let sizes = fields.iter().filter(|f| f.is_encoded()).map(|f| {
                let ty = f.ty;
                quote!(::core::mem::size_of::<#ty>())
            });
            let body = rows_loop(
                krate,
                quote! {
                    let __v = #element;
                },
                quote! {
                    #krate::__private::refund_columns(__r, __spent, __n, 0 #(+ #sizes)*);
                },
            );
            let body = quote! {
                let __mark = #krate::__private::memory_mark(__r);
                #read
                let __spent = __mark.saturating_sub(#krate::__private::memory_mark(__r));
                #body
            };
            (
                quote!(#krate::__private::column_min_sum(&[#(#mins),*])),
                body,
            )
        }
        Body::Enum(variants) => (quote!(2), unpack_enum(krate, name, variants)),
    };
    quote! {
        const COLUMN_MIN: ::core::primitive::usize = #min;

        fn unpack_vec<__L: #krate::Layout>(
            __r: &mut #krate::Reader<#de, __L>,
            __n: ::core::primitive::usize,
        ) -> ::core::result::Result<#krate::__private::Vec<Self>, #krate::Error> {
            if <__L as #krate::Layout>::FIXED {
                return #krate::__private::unpack_rows(__r, __n);
            }
            // No elements, no columns (nor a recursion through them).
            if __n == 0 {
                return ::core::result::Result::Ok(#krate::__private::Vec::new());
            }
            // The elements are built in this frame: a stack with room for
            // them, but no level (the rows inside count theirs).
            __r.growing_for::<Self, _>(|__r| { #columns })
        }
    }
}

/// An enum's `unpack_vec` body: the indexes, each variant's columns (its
/// count checked against the input), then the elements in order.
fn unpack_enum(krate: &TokenStream, name: &str, variants: &[Variant]) -> TokenStream {
    let k = variants.len();
    let reads = variants.iter().enumerate().map(|(v, var)| {
        let prefix = format!("::{}", var.ident);
        read_columns(krate, v, &var.fields, quote!(__counts[#v]), &prefix)
    });
    let arms = variants.iter().enumerate().map(|(v, var)| {
        let ident = var.ident;
        let tag = v as u32;
        let element = take_element(krate, v, quote!(Self::#ident), var.style, &var.fields);
        quote!(::core::option::Option::Some(#tag) => #element,)
    });
    let tags = try_result(quote!(#krate::__private::unpack_tags::<#k, __L>(__r, __n, #name)));
    if variants.is_empty() {
        // No variant: any index is unknown (`unpack_tags` says so).
        return quote! {
            let _ = #tags;
            ::core::result::Result::Ok(#krate::__private::Vec::new())
        };
    }
    let rows = rows_loop(
        krate,
        quote! {
            let __v = match __tags.get(__i).copied() {
                #(#arms)*
                _ => return ::core::result::Result::Err(#krate::__private::short_column(__r)),
            };
        },
        quote!(),
    );
    quote! {
        let (__tags, __counts) = #tags;
        #(#reads)*
        #rows
    }
}

/// The loop that builds the `__n` elements, each `__v` made by `make`
/// (element `__i`) from the columns' iterators, then `done`: a plain loop,
/// where a closure handed to a helper cost `cargo check` a generic
/// instance each.
fn rows_loop(krate: &TokenStream, make: TokenStream, done: TokenStream) -> TokenStream {
    let out = try_result(quote!(__r.vec_with_capacity::<Self>(__n)));
    let push = try_result(quote!(#krate::__private::push_row(__r, &mut __out, __v, __i, __n)));
    quote! {
        let mut __out = #out;
        for __i in 0..__n {
            #make
            #push;
        }
        #done
        ::core::result::Result::Ok(__out)
    }
}
