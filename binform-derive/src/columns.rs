//! The column generator (`docs/format.md` §27): a compact type's
//! sequences, written a field at a time. A struct writes each encoded
//! field's column in wire order; an enum its variant indexes, then each
//! variant's fields' columns over the elements of that variant. A field's
//! column is its type's own (`Pack::pack_all` / `Unpack::unpack_vec`),
//! so strings, options, integers and nested derived types recurse; a
//! `with` field is its module's values one after another. The fixed
//! layout keeps rows, and so do version-tolerant types (no items here).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
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
/// iterator, its error given the path `segment`: lazily when its type has
/// a lazy column (`Columnar`), else its decoded vector's.
fn unpack_field(krate: &TokenStream, f: &Field, n: TokenStream, segment: &str) -> TokenStream {
    match &f.attrs.with {
        Some(with) => {
            let path = &with.value;
            quote!(#krate::__private::rows_with(__r, #n, #segment, |__r| #path::unpack(__r)))
        }
        None if f.concrete => {
            // Method resolution picks the path (`ColumnOf`); spanned on
            // the type, so that a type without an encoding fails `Field`
            // at the field, as its other uses do.
            let ty = f.ty;
            let vector = via(krate, f, quote!(), quote!(unpack_column));

            let r = quote!(__r);
            quote_spanned!(ty.span()=>
                (&&#krate::__private::ColumnOf::<#ty>::NEW).__binform_read_column(#r, #n, #segment, #vector)
            )
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
fn take_element(v: usize, path: TokenStream, style: Style, fields: &[Field]) -> TokenStream {
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
        quote!(#member: ::core::iter::Iterator::next(&mut #c)?)
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
/// `unpack_vec`, which builds its lazy column's elements (`read_column`).
pub fn unpack_items(krate: &TokenStream, de: &Lifetime, body: &Body) -> TokenStream {
    let min = match body {
        Body::Struct(_, fields) => {
            let mins = fields
                .iter()
                .filter(|f| f.is_encoded())
                .map(|f| column_min(krate, de, f));
            quote!(#krate::__private::column_min_sum(&[#(#mins),*]))
        }
        Body::Enum(_) => quote!(2),
    };
    quote! {
        const COLUMN_MIN: ::core::primitive::usize = #min;

        fn unpack_vec<__L: #krate::Layout>(
            __r: &mut #krate::Reader<#de, __L>,
            __n: ::core::primitive::usize,
        ) -> ::core::result::Result<#krate::__private::Vec<Self>, #krate::Error> {
            #krate::__private::unpack_lazy::<Self, __L>(__r, __n)
        }
    }
}

/// The body of a compact struct's or enum's `Columnar::read_column`: its
/// fields' columns read in wire order (an enum's after its variant
/// indexes), and an iterator that makes each element from them.
pub fn read_column(krate: &TokenStream, name: &str, body: &Body) -> TokenStream {
    let (reads, next) = match body {
        Body::Struct(style, fields) => {
            let reads = read_columns(krate, 0, fields, quote!(__n), "");
            let element = take_element(0, quote!(Self), *style, fields);
            (reads, element)
        }
        Body::Enum(variants) if variants.is_empty() => {
            // No variant: any index is unknown (`read_tags` says so).
            let tags = try_result(quote!(#krate::__private::read_tags::<0, __L>(__r, __n, #name)));
            return quote! {
                let _ = #tags;
                ::core::result::Result::Ok(::core::iter::empty())
            };
        }
        Body::Enum(variants) => enum_column(krate, name, variants),
    };
    let columns = match body {
        // A struct whose fields' columns would all be rows is rows
        // (`Encoding::COLUMNS`, decided with its fields' types): its
        // fields' columns are then empty, and each element is the next
        // row. The test is a constant: each instance keeps one branch.
        Body::Struct(_, fields) if fields.iter().any(|f| f.is_encoded()) => quote! {
            let mut __rows = #krate::__private::rows_of::<Self, __L>(__r, __n)?;
            let __n = match <Self as #krate::Encoding>::COLUMNS {
                true => __n,
                false => 0,
            };
            #reads
            ::core::iter::from_fn(move || {
                if !<Self as #krate::Encoding>::COLUMNS {
                    return ::core::iter::Iterator::next(&mut __rows);
                }
                ::core::option::Option::Some(#next)
            })
        },
        _ => quote! {
            #reads
            ::core::iter::from_fn(move || ::core::option::Option::Some(#next))
        },
    };
    quote! {
        #[allow(unused_imports)]
        use #krate::__private::{LazyColumn as _, VecColumn as _};
        ::core::result::Result::Ok({ #columns })
    }
}

/// An enum's column reads (the indexes, then each variant's columns, its
/// count checked against the input) and the expression of its next
/// element.
fn enum_column(
    krate: &TokenStream,
    name: &str,
    variants: &[Variant],
) -> (TokenStream, TokenStream) {
    let k = variants.len();
    let reads = variants.iter().enumerate().map(|(v, var)| {
        let prefix = format!("::{}", var.ident);
        read_columns(krate, v, &var.fields, quote!(__counts[#v]), &prefix)
    });
    let arms = variants.iter().enumerate().map(|(v, var)| {
        let ident = var.ident;
        let tag = v as u32;
        let element = take_element(v, quote!(Self::#ident), var.style, &var.fields);
        quote!(#tag => #element,)
    });
    let tags = try_result(quote!(#krate::__private::read_tags::<#k, __L>(__r, __n, #name)));
    let reads = quote! {
        let (mut __tags, __counts) = #tags;
        #(#reads)*
    };
    // Every index was checked below the variants' count: another one is
    // a short column to the reader of the elements.
    let next = quote! {
        match ::core::iter::Iterator::next(&mut __tags)? {
            #(#arms)*
            _ => return ::core::option::Option::None,
        }
    };
    (reads, next)
}
