//! The column generator (`docs/format.md` §27): a compact type's
//! sequences, written a field at a time. A struct writes each encoded
//! field's column in wire order; an enum its variant indexes, then each
//! variant's fields' columns over the elements of that variant (for most
//! enums a recipe a variant, given to the runtime's generic code,
//! `columns/variants.rs`). The fields go in runs of up to 16, each one
//! call on a tuple of their types
//! (`__private::ReadFields` / `PackFields`, generic code of the runtime,
//! where each field's column is its type's `Unpack::read_column` /
//! `Pack::pack_all`), so strings, options, integers and nested derived
//! types recurse; a `with` field is its module's values one after
//! another, a run of its own. The fixed layout keeps rows, and so do
//! version-tolerant types (no items here).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};
use syn::Lifetime;

use crate::ast::{Body, Field, Style, Variant};
use crate::fields::{binding, default_value, try_option, try_result, via, Trait, ViaOr};

/// Fields whose columns are read and written together, in wire order.
enum Run<'f, 'a> {
    /// Up to 16 fields: one column of tuples of them (`ReadFields`,
    /// `PackFields`), so that a type's columns are a call and a pattern
    /// for every 16 fields, not code for each (`docs/compile-time.md`).
    Tuple(Vec<(usize, &'f Field<'a>)>),
    /// A `with` field: its module's values one after another.
    With(usize, &'f Field<'a>),
}

/// The type whose elements a column makes, or one of its enum's
/// variants.
#[derive(Clone, Copy)]
struct Owner<'t> {
    /// The type's path when a fn item nested in a method can name it
    /// ([`named`]), else `None`.
    named: Option<&'t TokenStream>,
    variant: Option<&'t syn::Ident>,
}

impl Owner<'_> {
    /// `Self` or `Self::Variant`, for code inside the impl.
    fn closure_path(&self) -> TokenStream {
        match self.variant {
            Some(v) => quote!(Self::#v),
            None => quote!(Self),
        }
    }

    /// The type's path `ty`, or its variant's.
    fn path(&self, ty: &TokenStream) -> TokenStream {
        match self.variant {
            Some(v) => quote!(#ty::#v),
            None => ty.clone(),
        }
    }
}

/// The type's path, if a fn item nested in one of its impl's methods can
/// name it and build it: the type has no generic parameters, no field's
/// type or `default` path says `Self` (a nested fn item sees neither),
/// and its path has no generic arguments (a `remote` path such as
/// `other::Thing<u8>` cannot start a struct expression).
pub fn named(cont: &crate::ast::Container) -> Option<TokenStream> {
    if !cont.generics.params.is_empty() {
        return None;
    }
    let says_self_anywhere = cont.all_fields().any(|f| {
        says_self(f.ty.to_token_stream())
            || f.attrs
                .default
                .as_ref()
                .is_some_and(|d| says_self(d.value.to_token_stream()))
    });
    let remote_arguments = cont.attrs.remote.as_ref().is_some_and(|r| {
        r.value
            .segments
            .iter()
            .any(|s| !matches!(s.arguments, syn::PathArguments::None))
    });
    if says_self_anywhere || remote_arguments {
        return None;
    }
    Some(cont.self_ty())
}

/// Whether `tokens` hold the identifier `Self`, in groups too.
fn says_self(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == "Self",
        proc_macro2::TokenTree::Group(g) => says_self(g.stream()),
        _ => false,
    })
}

/// The most fields in one run: the longest tuple with the runtime's
/// column impls.
const RUN: usize = 16;

/// The runs of `fields`' encoded fields, in wire order.
fn runs<'f, 'a>(fields: &'f [Field<'a>]) -> Vec<Run<'f, 'a>> {
    let mut runs = Vec::new();
    let mut tuple = Vec::new();
    for (i, f) in crate::ast::wire_order(fields) {
        if (f.attrs.with.is_some() || tuple.len() == RUN) && !tuple.is_empty() {
            runs.push(Run::Tuple(core::mem::take(&mut tuple)));
        }
        match f.attrs.with {
            Some(_) => runs.push(Run::With(i, f)),
            None => tuple.push((i, f)),
        }
    }
    if !tuple.is_empty() {
        runs.push(Run::Tuple(tuple));
    }
    runs
}

/// Binding of the column of run `c` of variant `v`.
fn run_ident(v: usize, c: usize) -> syn::Ident {
    format_ident!("__k{}_{}", v, c)
}

/// A type's or a variant's columns: the statements that read its runs
/// (of variant `v`, `n` values each) into bindings, each field's error
/// given its path segment, and the expression of its next element, the
/// owner's value of its fields.
///
/// One run of up to 16 fields (most types) is one column of tuples, the
/// element made in its iterator (`ReadFields`); a struct's rows
/// are read there too. More runs read a column of tuples each, and the
/// element is made from them here.
fn read_runs(
    v: usize,
    (owner, style, fields): (Owner, Style, &[Field]),
    n: TokenStream,
    prefix: &str,
) -> (TokenStream, TokenStream) {
    let runs = runs(fields);
    // A lone field goes through the loop below (`read_one`): its column
    // with no tuple around it nests no deeper than it (`recursion_limit`).
    if let [Run::Tuple(one)] = runs.as_slice() {
        if one.len() > 1 {
            let k = run_ident(v, 0);
            let read = try_result(read_one_run((owner, style, fields), one, n, prefix));
            return (
                quote!(let mut #k = #read;),
                try_option(quote!(__bf::Iterator::next(&mut #k))),
            );
        }
    }
    let mut reads = Vec::new();
    let mut takes = Vec::new();
    for (c, run) in runs.into_iter().enumerate() {
        let k = run_ident(v, c);
        let (read, pat) = match run {
            Run::Tuple(fields) if fields.len() == 1 => {
                let (i, f) = fields[0];
                (read_one(f, &n, prefix), binding(i).to_token_stream())
            }
            Run::Tuple(fields) => {
                let tys = fields.iter().map(|(_, f)| f.ty);
                let binds = fields.iter().map(|(i, _)| binding(*i));
                let same = quote!(__bf::identity);
                let read = read_tuple(&fields, &n, prefix, quote!((#(#tys,)*)), same);
                (read, quote!((#(#binds,)*)))
            }
            Run::With(i, f) => {
                let path = &f.attrs.with.as_ref().map(|w| &w.value);
                let name = segment(prefix, f);
                let b = binding(i);
                let read = quote!(__bf::rows_with(__r, #n, #name, |__r| #path::unpack(__r)));
                (read, quote!(#b))
            }
        };
        let read = try_result(read);
        reads.push(quote!(let mut #k = #read;));
        let take = try_option(quote!(__bf::Iterator::next(&mut #k)));
        takes.push(quote!(let #pat = #take;));
    }
    let element = construct(owner.closure_path(), style, fields);
    (
        quote!(#(#reads)*),
        quote!({
            #(#takes)*
            #element
        }),
    )
}

/// The column of a type or variant whose encoded fields are one run
/// `one`: one column of tuples, each made into the owner's value of them,
/// or into the struct's rows when they are rows (`ReadFields`).
///
/// The element is made by a fn item where the type can be named from
/// one ([`named`]), else by a closure: rustc checks a closure as part of
/// the method around it, its types and regions with the method's, and a
/// fn item on its own (150 M fewer instructions in the check of the 100
/// types of `docs/compile-time.md`, of 5,200 M the derive adds).
fn read_one_run(
    (owner, style, fields): (Owner, Style, &[Field]),
    one: &[(usize, &Field)],
    n: TokenStream,
    prefix: &str,
) -> TokenStream {
    let make = element_maker(owner, (style, fields), one, Lone::InTuple);
    read_tuple(one, &n, prefix, quote!(Self), make)
}

/// The column of the lone field `f` (`n` values; `ReadOne`).
fn read_one(f: &Field, n: &TokenStream, prefix: &str) -> TokenStream {
    let ty = f.ty;
    let name = segment(prefix, f);
    quote!((&__bf::FieldsOf::<(#ty,)>::NEW).__binform_read_one(__r, #n, #name))
}

/// The column of tuples of the fields `run` (`n` values), each made into
/// an `out` by `make` (`ReadFields`).
fn read_tuple(
    run: &[(usize, &Field)],
    n: &TokenStream,
    prefix: &str,
    out: TokenStream,
    make: TokenStream,
) -> TokenStream {
    let tys = run.iter().map(|(_, f)| f.ty);
    let names = run.iter().map(|(_, f)| segment(prefix, f));
    quote! {
        (&__bf::FieldsOf::<(#(#tys,)*)>::NEW).__binform_read_as::<#out, __L, _>(
            __r, #n, &[#(#names),*], #make,
        )
    }
}

/// A field's path segment in errors: `prefix.member`.
pub fn segment(prefix: &str, f: &Field) -> String {
    format!("{prefix}.{}", crate::encoding::compact_tokens(&f.member))
}

/// `path { a: __f0, .. }`: an element of the fields bound by their
/// runs' patterns, fields that are not encoded at their defaults.
pub fn construct(path: TokenStream, style: Style, fields: &[Field]) -> TokenStream {
    if style == Style::Unit {
        return path;
    }
    let inits = fields.iter().enumerate().map(|(i, f)| {
        let member = &f.member;
        if !f.is_encoded() {
            let value = default_value(f);
            return quote!(#member: #value);
        }
        let b = binding(i);
        quote!(#member: #b)
    });
    quote!(#path { #(#inits,)* })
}

/// The statements that write the runs of `fields`: `get(pattern, values)`
/// makes the iterator of an element's fields bound by `pattern` as
/// `values`, of the type `ty`.
fn pack_runs(
    fields: &[Field],
    get: impl Fn(TokenStream, TokenStream, TokenStream) -> TokenStream,
) -> TokenStream {
    let stmts = runs(fields).into_iter().map(|run| {
        let call = match run {
            Run::Tuple(fields) => {
                let tys: Vec<_> = fields.iter().map(|(_, f)| f.ty).collect();
                let members = fields.iter().map(|(_, f)| &f.member);
                let binds: Vec<_> = fields.iter().map(|(i, _)| binding(*i)).collect();
                let items = get(
                    quote!(#(#members: #binds,)*),
                    quote!((#(#binds,)*)),
                    quote!((#(&#tys,)*)),
                );
                quote!((&__bf::FieldsOf::<(#(&#tys,)*)>::NEW).__binform_pack_fields(#items, __w))
            }
            Run::With(i, f) => {
                let path = &f.attrs.with.as_ref().map(|w| &w.value);
                let member = &f.member;
                let b = binding(i);
                let ty = f.ty;
                let items = get(quote!(#member: #b,), quote!(#b), quote!(&#ty));
                quote!(__bf::pack_rows_with(#items, __w, |__v, __w| #path::pack(__v, __w)))
            }
        };
        let call = try_result(call);
        quote!(#call;)
    });
    quote!(#(#stmts)*)
}

/// The `Pack` items of a compact struct or enum: `pack_all` (its
/// columns, gathered once, in the compact layout) and `pack_columns`,
/// which writes them; `pack_slice`'s default calls the latter too.
pub fn pack_items(named: Option<&TokenStream>, body: &Body) -> TokenStream {
    let columns = match body {
        Body::Struct(_, fields) => struct_columns(named, fields),
        Body::Enum(variants) if by_recipes(variants) => {
            return pack_items_of(enum_recipes_pack(named, variants));
        }
        Body::Enum(variants) => enum_columns(variants),
    };
    pack_items_of(quote! {
        #columns
        __bf::Ok(())
    })
}

/// `pack_all` and `pack_columns` of the body `columns`.
fn pack_items_of(columns: TokenStream) -> TokenStream {
    quote! {
        #[inline]
        fn pack_all<'__a, __L: __bf::Layout>(
            __items: impl __bf::Iterator<Item = &'__a Self> + __bf::Clone,
            __w: &mut __bf::Writer<'_, __L>,
        ) -> __bf::Result<(), __bf::Error>
        where
            Self: '__a,
        {
            __bf::pack_all(__items, __w)
        }

        fn pack_columns<__L: __bf::Layout>(
            __items: __bf::Rows<'_, Self>,
            __w: &mut __bf::Writer<'_, __L>,
        ) -> __bf::Result<(), __bf::Error> {
            #columns
        }
    }
}

/// A struct's columns: its runs over every element.
///
/// Each run's fields are taken from an element by a fn item naming the
/// type where one can ([`named`]), else by a closure, which rustc checks
/// with the method around it (as [`element_maker`]'s).
fn struct_columns(named: Option<&TokenStream>, fields: &[Field]) -> TokenStream {
    pack_runs(fields, |pat, values, ty| match named {
        Some(named) => quote! {
            __items.iter().map({
                fn __bf_take(__x: &#named) -> #ty {
                    let #named { #pat .. } = __x;
                    #values
                }
                __bf_take
            })
        },
        None => quote!(__items.iter().map(|__x: &Self| { let Self { #pat .. } = __x; #values })),
    })
}

/// An enum's columns: the variant indexes, then each variant's runs
/// over the elements of that variant.
fn enum_columns(variants: &[Variant]) -> TokenStream {
    if variants.is_empty() {
        return quote!(let _ = __items;);
    }
    let tag_arms = tag_arms(variants);
    let columns = variants.iter().map(variant_runs);
    let tags = try_result(quote! {
        __bf::tag_column(__items, |__x| match __x { #(#tag_arms)* }, __w)
    });
    quote! {
        #tags;
        #(#columns)*
    }
}

/// A field's `COLUMN_MIN`; a `with` field counts nothing.
fn column_min<'a>(de: &'a Lifetime, f: &Field<'a>) -> ViaOr<'a> {
    if f.attrs.with.is_some() {
        return ViaOr::Else(quote!(0));
    }
    ViaOr::Via(via(f, Trait::Unpack(de), "COLUMN_MIN"))
}

/// The `Unpack` items of a compact struct or enum: `COLUMN_MIN`,
/// `LAZY_COLUMN` (so that `unpack_vec`'s default builds the elements
/// from the lazy column) and `read_column`, that lazy column.
pub fn unpack_items(
    de: &Lifetime,
    (name, inline, captures): (&str, &TokenStream, &TokenStream),
    named: Option<&TokenStream>,
    body: &Body,
) -> TokenStream {
    let min = match body {
        Body::Struct(_, fields) => {
            let mins = fields
                .iter()
                .filter(|f| f.is_encoded())
                .map(|f| column_min(de, f));
            quote!(__bf::column_min_sum(&[#(#mins),*]))
        }
        Body::Enum(_) => quote!(2),
    };
    let read_column = read_column(de, name, named, body);
    quote! {
        const COLUMN_MIN: __bf::usize = #min;
        const LAZY_COLUMN: __bf::bool = true;

        #inline
        fn read_column<__L: __bf::Layout>(
            __r: &mut __bf::Reader<#de, __L>,
            __n: __bf::usize,
        ) -> __bf::Result<
            impl __bf::Iterator<Item = Self> + use<#captures>,
            __bf::Error,
        > {
            #read_column
        }
    }
}

/// The body of a compact struct's or enum's `Unpack::read_column`: its
/// fields' columns read in wire order (an enum's after its variant
/// indexes), and an iterator that makes each element from them.
fn read_column(de: &Lifetime, name: &str, named: Option<&TokenStream>, body: &Body) -> TokenStream {
    let (reads, next) = match body {
        Body::Struct(style, fields) => {
            let owner = Owner {
                named,
                variant: None,
            };
            let this = (owner, *style, fields.as_slice());
            if let [Run::Tuple(one)] = runs(fields).as_slice() {
                return read_one_run(this, one, quote!(__n), "");
            }
            read_runs(0, this, quote!(__n), "")
        }
        Body::Enum(variants) if variants.is_empty() => {
            // No variant: any index is unknown (`read_tags` says so).
            let tags = try_result(quote!(__bf::read_tags::<0, __L>(__r, __n, #name)));
            return quote! {
                let _ = #tags;
                __bf::Ok(__bf::empty())
            };
        }
        Body::Enum(variants) if by_recipes(variants) => {
            return enum_recipes_read(de, name, named, variants);
        }
        Body::Enum(variants) => enum_column(name, named, variants),
    };
    let rows = try_result(quote!(__bf::rows_of::<Self, __L>(__r, __n)));
    let columns = match body {
        // A struct whose fields' columns would all be rows is rows
        // (`Encoding::COLUMNS`, decided with its fields' types): its
        // fields' columns are then empty, and each element is the next
        // row. The test is a constant: each instance keeps one branch.
        Body::Struct(_, fields) if fields.iter().any(|f| f.is_encoded()) => quote! {
            let mut __rows = #rows;
            let __n = match <Self as __bf::Encoding>::COLUMNS {
                true => __n,
                false => 0,
            };
            #reads
            __bf::from_fn(move || {
                if !<Self as __bf::Encoding>::COLUMNS {
                    return __bf::Iterator::next(&mut __rows);
                }
                __bf::Some(#next)
            })
        },
        _ => quote! {
            #reads
            __bf::from_fn(move || __bf::Some(#next))
        },
    };
    quote!(__bf::Ok({ #columns }))
}

/// An enum's column reads (the indexes, then each variant's columns, its
/// count checked against the input) and the expression of its next
/// element.
fn enum_column(
    name: &str,
    named: Option<&TokenStream>,
    variants: &[Variant],
) -> (TokenStream, TokenStream) {
    let k = variants.len();
    let reads = variants.iter().enumerate().map(|(v, var)| {
        let prefix = format!("::{}", var.ident);
        let owner = Owner {
            named,
            variant: Some(var.ident),
        };
        let this = (owner, var.style, var.fields.as_slice());
        read_runs(v, this, quote!(__counts[#v]), &prefix)
    });
    let (reads, elements): (Vec<_>, Vec<_>) = reads.unzip();
    let arms = elements.iter().enumerate().map(|(v, element)| {
        let tag = v as u32;
        quote!(#tag => #element,)
    });
    let tags = try_result(quote!(__bf::read_tags::<#k, __L>(__r, __n, #name)));
    let reads = quote! {
        let (mut __tags, __counts) = #tags;
        #(#reads)*
    };
    // Every index was checked below the variants' count: another one is
    // a short column to the reader of the elements.
    let tag = try_option(quote!(__bf::Iterator::next(&mut __tags)));
    let next = quote! {
        match #tag {
            #(#arms)*
            _ => return __bf::None,
        }
    };
    (reads, next)
}

/// What a lazy column's iterator captures: `de`, every parameter of the
/// type (lifetimes first) and the layout `__L`.
pub fn captures(generics: &syn::Generics, de: &Lifetime) -> TokenStream {
    let lifetimes = generics.lifetimes().map(|l| l.lifetime.to_token_stream());
    let others = generics.params.iter().filter_map(|p| match p {
        syn::GenericParam::Type(t) => Some(t.ident.to_token_stream()),
        syn::GenericParam::Const(c) => Some(c.ident.to_token_stream()),
        syn::GenericParam::Lifetime(_) => None,
    });
    quote!(#de, #(#lifetimes,)* #(#others,)* __L)
}

/// Whether an enum's columns are the runtime's generic code
/// (`__private::ReadVariants`, `pack_enum_columns`) given a recipe a
/// variant: up to `MAX_VARIANTS` variants, one with encoded fields at
/// least. rustc checks that code once, where it checked the columns
/// written out here in every enum (an enum of four data variants: 43 M
/// instructions of the check, 20 M with recipes). Otherwise they are
/// written out below: an enum of unit variants reads and writes its
/// indexes alone, and an enum of more variants writes out every one.
fn by_recipes(variants: &[Variant]) -> bool {
    variants.len() <= MAX_VARIANTS && variants.iter().any(|v| !runs(&v.fields).is_empty())
}

/// The longest tuple of recipes the runtime takes (`columns/variants.rs`'
/// `variants!`).
const MAX_VARIANTS: usize = 16;

/// How an element maker takes a lone field: as itself (`ReadOne`, an
/// enum's recipe) or as a tuple of one (`ReadFields`).
#[derive(Clone, Copy, PartialEq)]
enum Lone {
    Value,
    InTuple,
}

/// What makes an element (the type's, or its variant's) of the values of
/// its encoded fields `one` (a tuple of them, or a lone field's value as
/// `lone` says; nothing for none): a fn item naming the type where one
/// can ([`named`]), else a closure.
fn element_maker(
    owner: Owner,
    (style, fields): (Style, &[Field]),
    one: &[(usize, &Field)],
    lone: Lone,
) -> TokenStream {
    let binds: Vec<_> = one.iter().map(|(i, _)| binding(*i)).collect();
    let tys: Vec<_> = one.iter().map(|(_, f)| f.ty).collect();
    let (pattern, ty) = match (binds.as_slice(), tys.as_slice()) {
        ([b], [t]) if lone == Lone::Value => (quote!(#b), quote!(#t)),
        _ => (quote!((#(#binds,)*)), quote!((#(#tys,)*))),
    };
    match owner.named {
        Some(named) => {
            let element = construct(owner.path(named), style, fields);
            match one {
                [] => quote!({ fn __bf_make() -> #named { #element } __bf_make }),
                _ => quote!({ fn __bf_make(#pattern: #ty) -> #named { #element } __bf_make }),
            }
        }
        None => {
            let element = construct(owner.closure_path(), style, fields);
            match one {
                [] => quote!(|| #element),
                _ => quote!(|#pattern: #ty| #element),
            }
        }
    }
}

/// An enum's `read_column` by the runtime (`__private::ReadVariants`):
/// a recipe a variant.
fn enum_recipes_read(
    de: &Lifetime,
    name: &str,
    named: Option<&TokenStream>,
    variants: &[Variant],
) -> TokenStream {
    let recipes = variants.iter().enumerate().map(|(v, var)| {
        let prefix = format!("::{}", var.ident);
        let owner = Owner {
            named,
            variant: Some(var.ident),
        };
        let this = (var.style, var.fields.as_slice());
        match runs(&var.fields).as_slice() {
            [] => {
                let make = element_maker(owner, this, &[], Lone::Value);
                quote!(__bf::VariantUnit(#make))
            }
            [Run::Tuple(one)] if one.len() == 1 => {
                let (_, f) = one[0];
                let ty = f.ty;
                let field = segment(&prefix, f);
                let make = element_maker(owner, this, one, Lone::Value);
                quote!((&__bf::FieldsOf::<(#ty,)>::NEW).__binform_variant_one(#field, #make))
            }
            [Run::Tuple(one)] => {
                let tys = one.iter().map(|(_, f)| f.ty);
                let fields = one.iter().map(|(_, f)| segment(&prefix, f));
                let make = element_maker(owner, this, one, Lone::Value);
                quote! {
                    (&__bf::FieldsOf::<(#(#tys,)*)>::NEW).__binform_variant(&[#(#fields),*], #make)
                }
            }
            // More than 16 fields, or a `with` field: the variant's runs,
            // read by a closure.
            _ => {
                let (reads, next) =
                    read_runs(v, (owner, var.style, &var.fields), quote!(__n), &prefix);
                quote! {
                    __bf::VariantWith(|__r: &mut __bf::Reader<#de, __L>, __n: __bf::usize| {
                        #reads
                        __bf::Ok(__bf::from_fn(move || __bf::Some(#next)))
                    })
                }
            }
        }
    });
    quote! {
        __bf::ReadVariants::<#de, Self, __L>::read_variants((#(#recipes,)*), __r, __n, #name)
    }
}

/// An enum's `pack_columns` by the runtime (`__private::pack_enum_columns`):
/// the variant indexes, then a recipe for each variant with encoded
/// fields.
fn enum_recipes_pack(named: Option<&TokenStream>, variants: &[Variant]) -> TokenStream {
    let recipes = variants.iter().filter_map(|var| {
        let ident = var.ident;
        match runs(&var.fields).as_slice() {
            [] => None,
            [Run::Tuple(one)] => {
                let tys: Vec<_> = one.iter().map(|(_, f)| f.ty).collect();
                let members = one.iter().map(|(_, f)| &f.member);
                let binds: Vec<_> = one.iter().map(|(i, _)| binding(*i)).collect();
                let arms = |path: TokenStream| {
                    quote! {
                        match __x {
                            #path { #(#members: #binds,)* .. } => __bf::Some((#(#binds,)*)),
                            #[allow(unreachable_patterns)]
                            _ => __bf::None,
                        }
                    }
                };
                let project = match named {
                    Some(ty) => {
                        let arms = arms(quote!(#ty::#ident));
                        quote!({
                            fn __bf_project(__x: &#ty) -> __bf::Option<(#(&#tys,)*)> { #arms }
                            __bf_project
                        })
                    }
                    None => {
                        let arms = arms(quote!(Self::#ident));
                        quote!(|__x: &Self| #arms)
                    }
                };
                Some(quote! {
                    (&__bf::FieldsOf::<(#(&#tys,)*)>::NEW).__binform_pack_variant(__items, #project)
                })
            }
            // More than 16 fields, or a `with` field: the variant's runs,
            // written by a closure.
            _ => {
                let stmts = variant_runs(var);
                Some(quote! {
                    __bf::PackVariantWith(|__items: __bf::Rows<'_, Self>, __w: &mut __bf::Writer<'_, __L>| {
                        #stmts
                        __bf::Ok(())
                    })
                })
            }
        }
    });
    let tag_arms = tag_arms(variants);
    quote! {
        __bf::pack_enum_columns(__items, __w, |__x| match __x { #(#tag_arms)* }, (#(#recipes,)*))
    }
}

/// The statements that write a variant's runs over the elements of that
/// variant.
fn variant_runs(var: &Variant) -> TokenStream {
    let ident = var.ident;
    pack_runs(&var.fields, |pat, values, _| {
        quote! {
            __items.iter().filter_map(|__x: &Self| match __x {
                Self::#ident { #pat .. } => __bf::Some(#values),
                #[allow(unreachable_patterns)]
                _ => __bf::None,
            })
        }
    })
}

/// `Self::Variant { .. } => index,` for each variant.
fn tag_arms(variants: &[Variant]) -> Vec<TokenStream> {
    variants
        .iter()
        .enumerate()
        .map(|(tag, v)| {
            let ident = v.ident;
            let tag = tag as u32;
            let pat = match v.style {
                Style::Unit => quote!(),
                Style::Named | Style::Tuple => quote!({ .. }),
            };
            quote!(Self::#ident #pat => #tag,)
        })
        .collect()
}
