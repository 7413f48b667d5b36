//! Code generation from the checked IR: the `Encoding`, `Pack` and
//! `Unpack<'de>` impls, wrapped in `const _: () = { ... };`, which opens
//! with `use <crate>::__private as __bf;`. Every name the generated code
//! uses is `__bf::Name` (the runtime re-exports `core`'s too; only a few
//! macros, `::core::unreachable!` and the like, keep their full paths), so
//! nothing in the user's scope can change its meaning (`check` rejects a
//! type parameter or field type that names `__bf`), and a path is three tokens,
//! not the dozen of `::core::result::Result::Ok`: each token the derive
//! makes crosses the compiler's proc-macro bridge, in unoptimized code in
//! every build (the derive's own run was 14% of checking 100 types).
//! The bodies come from the compact or the tolerant generator.

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::{DeriveInput, Lifetime, LifetimeParam};

use crate::ast::{Body, Container};
use crate::ctxt::Ctxt;
use crate::layout::{Gen, Layout};
use crate::{bound, check, compact, encoding, lock, placeholder, tolerant};

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::default();
    let cont = Container::from_ast(&cx, input);
    let mut locked = TokenStream::new();
    if let Some(cont) = &cont {
        check::check(&cx, cont);
        locked = lock::check(&cx, cont);
    }
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => expand(&cont, locked),
        (Err(err), cont) => {
            let (krate, self_ty) = match &cont {
                Some(cont) => (cont.krate.to_token_stream(), cont.self_ty()),
                None => (
                    crate::ast::default_krate().to_token_stream(),
                    input.ident.to_token_stream(),
                ),
            };
            with_fallback(input, err, &krate, &self_ty)
        }
        (Ok(()), None) => unreachable!("a container that failed to parse reported an error"),
    }
}

/// On error, the messages plus impls whose bodies never run, so the user
/// sees the real mistake and not a cascade of "Pack is not implemented".
fn with_fallback(
    input: &DeriveInput,
    err: syn::Error,
    krate: &TokenStream,
    ident: &TokenStream,
) -> TokenStream {
    let errors = err.to_compile_error();
    if let syn::Data::Union(_) = input.data {
        return errors;
    }
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    // A lifetime and a layout parameter no user writes, so that a misused
    // `'de` or `__L` in the input is reported once, by the check, and not
    // again here.
    let de = Lifetime::new("'__binform_de", Span::call_site());
    let de_generics = with_lifetime(&input.generics, de.clone());
    let (de_impl_generics, _, _) = de_generics.split_for_impl();
    quote! {
        #errors
        const _: () = {
            use #krate::__private as __bf;
            impl #impl_generics __bf::Encoding for #ident #ty_generics #where_clause {}
            impl #impl_generics __bf::Pack for #ident #ty_generics #where_clause {
                fn pack<__FallbackL: __bf::Layout>(&self, _: &mut __bf::Writer<'_, __FallbackL>) -> __bf::Result<(), __bf::Error> {
                    ::core::unreachable!()
                }
            }
            impl #de_impl_generics __bf::Unpack<#de> for #ident #ty_generics #where_clause {
                fn unpack<__FallbackL: __bf::Layout>(_: &mut __bf::Reader<#de, __FallbackL>) -> __bf::Result<Self, __bf::Error> {
                    ::core::unreachable!()
                }
            }
        };
    }
}

/// The generics with `de` added first, outliving every lifetime of the
/// type, so borrowed fields (`&'a str`) can come from the input.
fn with_lifetime(generics: &syn::Generics, de: Lifetime) -> syn::Generics {
    let mut de_param = LifetimeParam::new(de);
    for lt in generics.lifetimes() {
        de_param.bounds.push(lt.lifetime.clone());
    }
    let mut out = generics.clone();
    out.params.insert(0, syn::GenericParam::Lifetime(de_param));
    out
}

/// The generics with `predicates` added to their where-clause.
fn with_predicates(
    mut generics: syn::Generics,
    predicates: Vec<syn::WherePredicate>,
) -> syn::Generics {
    generics.make_where_clause().predicates.extend(predicates);
    generics
}

fn expand(cont: &Container, locked: TokenStream) -> TokenStream {
    let krate = cont.krate.to_token_stream();
    let ident = cont.self_ty();
    let name = encoding::type_ident(cont);
    let de = Lifetime::new("'de", Span::call_site());

    let encoding_generics =
        with_predicates(cont.generics.clone(), bound::encoding_predicates(cont));
    let (impl_generics, ty_generics, encoding_where) = encoding_generics.split_for_impl();
    let pack_generics = with_predicates(cont.generics.clone(), bound::pack_predicates(cont));
    let (_, _, pack_where) = pack_generics.split_for_impl();
    let unpack_generics = with_predicates(
        with_lifetime(cont.generics, de.clone()),
        bound::unpack_predicates(cont, &de),
    );
    let (de_impl_generics, _, unpack_where) = unpack_generics.split_for_impl();

    // Each derived placeholder costs one unit of the budget.
    let spend = crate::fields::try_option(quote!(__work.checked_sub(1)));
    let placeholder_body = match &cont.body {
        Body::Struct(style, fields) => placeholder::placeholder_struct(&de, *style, fields),
        Body::Enum(variants) => placeholder::placeholder_enum(&de, variants),
    };
    let gen = Gen {
        cont,
        de: &de,
        name: &name,
        inline: inline_attr(&cont.body),
    };
    let layout: &dyn Layout = if cont.is_tolerant() {
        &tolerant::Tolerant
    } else {
        &compact::Compact
    };
    let pack_body = layout.pack(&gen);
    let pack_items = layout.pack_items(&gen);
    let unpack_body = layout.unpack(&gen);
    let unpack_items = layout.unpack_items(&gen);
    let min_size = layout.min_size(&gen);
    let encoding_items = encoding::items(cont);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications, unused_labels, clippy::all)]
        const _: () = {
            // The runtime's names, each one segment away (`__private`),
            // and the traits whose methods the selectors of fields
            // (`__bf::FieldsOf`) call, imported once for every method.
            use #krate::__private as __bf;
            #[allow(unused_imports)]
            use __bf::{
                DescribeRow as _, NoFields as _, PackFields as _, PackRow as _, PackVariantOf as _,
                ReadFields as _, ReadOne as _, UnpackRow as _,
            };
            #locked

            #[automatically_derived]
            impl #impl_generics __bf::Encoding for #ident #ty_generics #encoding_where {
                #encoding_items
            }

            #[automatically_derived]
            impl #impl_generics __bf::Pack for #ident #ty_generics #pack_where {
                #[inline]
                fn pack<__L: __bf::Layout>(&self, __w: &mut __bf::Writer<'_, __L>) -> __bf::Result<(), __bf::Error> {
                    #pack_body
                }

                #pack_items
            }

            #[automatically_derived]
            impl #de_impl_generics __bf::Unpack<#de> for #ident #ty_generics #unpack_where {
                const MIN_SIZE: __bf::usize = #min_size;

                #[inline]
                fn unpack<__L: __bf::Layout>(__r: &mut __bf::Reader<#de, __L>) -> __bf::Result<Self, __bf::Error> {
                    #unpack_body
                }

                #unpack_items

                #[inline]
                fn placeholder(__work: &mut __bf::u32) -> __bf::Option<Self> {
                    *__work = #spend;
                    #placeholder_body
                }
            }

        };
    }
}

/// The inline attribute of a type's generated methods. A small type's
/// fields are always written inline: called out of line (as LLVM chose
/// for the three-field items of a vector), the cursor goes to memory and
/// each element pays a call, 30% of encoding `minecraft_savedata` (perf,
/// issue 14). Large ones are left to LLVM.
fn inline_attr(body: &Body) -> TokenStream {
    const SMALL: usize = 8;
    let encoded = |fields: &[crate::ast::Field]| fields.iter().filter(|f| f.is_encoded()).count();
    let small = match body {
        Body::Struct(_, fields) => encoded(fields) <= SMALL,
        Body::Enum(variants) => variants.iter().all(|v| encoded(&v.fields) <= SMALL),
    };
    if small {
        quote!(#[inline(always)])
    } else {
        quote!(#[inline])
    }
}
