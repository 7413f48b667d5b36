//! Code generation from the checked IR: one `Pack` and one `Unpack<'de>`
//! impl, wrapped in `const _: () = { ... };` with fully qualified paths so
//! nothing in the user's scope can change their meaning.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Lifetime, LifetimeParam};

use crate::ast::{Body, Container, Field, Style, Variant};
use crate::ctxt::Ctxt;
use crate::{bound, check, schema, tolerant, weak};

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::default();
    let cont = Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => expand(&cont),
        (Err(err), _) => with_fallback(input, err),
        (Ok(()), None) => unreachable!("a container that failed to parse reported an error"),
    }
}

/// On error, the messages plus impls whose bodies never run, so the user
/// sees the real mistake and not a cascade of "Pack is not implemented".
fn with_fallback(input: &DeriveInput, err: syn::Error) -> TokenStream {
    let errors = err.to_compile_error();
    if let syn::Data::Union(_) = input.data {
        return errors;
    }
    let ident = &input.ident;
    let krate = quote!(::binform);
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    // A lifetime name no user writes, so that a misused `'de` in the input
    // is reported once, by the check, and not again here.
    let de = Lifetime::new("'__binform_de", Span::call_site());
    let de_generics = with_lifetime(&input.generics, de.clone());
    let (de_impl_generics, _, _) = de_generics.split_for_impl();
    quote! {
        #errors
        const _: () = {
            impl #impl_generics #krate::Pack for #ident #ty_generics #where_clause {
                fn pack(&self, _: &mut #krate::Writer<'_>) -> #krate::Result<()> {
                    ::core::unreachable!()
                }
            }
            impl #de_impl_generics #krate::Unpack<#de> for #ident #ty_generics #where_clause {
                fn unpack(_: &mut #krate::Reader<#de>) -> #krate::Result<Self> {
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

fn expand(cont: &Container) -> TokenStream {
    let krate = match &cont.attrs.krate {
        Some(path) => {
            let path = &path.value;
            quote!(#path)
        }
        None => quote!(::binform),
    };
    let ident = cont.ident;
    let name = ident.to_string();
    let de = Lifetime::new("'de", Span::call_site());

    let mut pack_generics = cont.generics.clone();
    pack_generics
        .make_where_clause()
        .predicates
        .extend(bound::pack_predicates(cont, &krate));
    let (impl_generics, ty_generics, pack_where) = pack_generics.split_for_impl();

    let mut unpack_generics = with_lifetime(cont.generics, de.clone());
    unpack_generics
        .make_where_clause()
        .predicates
        .extend(bound::unpack_predicates(cont, &krate, &de));
    let (de_impl_generics, _, unpack_where) = unpack_generics.split_for_impl();

    let placeholder_body = match &cont.body {
        Body::Struct(style, fields) => placeholder_struct(&krate, &de, *style, fields),
        Body::Enum(variants) => placeholder_enum(&krate, &de, variants),
    };
    let (pack_body, unpack_body, min_size) = match (&cont.body, cont.is_tolerant()) {
        (Body::Struct(style, fields), false) => (
            pack_struct(&krate, *style, fields),
            unpack_struct(&krate, &de, *style, fields),
            min_size_of(&krate, &de, fields),
        ),
        (Body::Enum(variants), false) => (
            pack_enum(&krate, variants),
            unpack_enum(&krate, &de, &name, variants),
            min_size_enum(&krate, &de, variants),
        ),
        (Body::Struct(style, fields), true) => (
            tolerant::pack_struct(&krate, *style, fields),
            tolerant::unpack_struct(&krate, &de, *style, fields),
            quote!(1),
        ),
        (Body::Enum(variants), true) => (
            tolerant::pack_enum(&krate, variants),
            tolerant::unpack_enum(&krate, &de, &name, variants),
            quote!(2),
        ),
    };
    let may_hold_weak = weak::may_hold_weak(cont);
    let schema_items = schema::pack_items(cont, &krate);
    let unpack_schema_items = schema::unpack_items(cont, &krate, &de);
    let (pack_plain, unpack_plain) = match &cont.body {
        Body::Struct(..) if cont.is_tolerant() => (quote!(), quote!()),
        Body::Struct(_, fields) => (
            plain_const(&krate, fields, quote!(#krate::Pack)),
            plain_const(&krate, fields, quote!(#krate::Unpack<#de>)),
        ),
        Body::Enum(_) => (quote!(), quote!()),
    };

    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications, clippy::all)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #krate::Pack for #ident #ty_generics #pack_where {
                #pack_plain
                #schema_items

                #[inline]
                fn pack(&self, __w: &mut #krate::Writer<'_>) -> ::core::result::Result<(), #krate::Error> {
                    #pack_body
                }
            }

            #[automatically_derived]
            impl #impl_generics #ident #ty_generics #pack_where {
                /// The schema fingerprint of this type: a stable 64-bit hash of
                /// its layout and its field types' layouts (see `binform::schema`).
                #[allow(dead_code)]
                pub const FINGERPRINT: u64 = <Self as #krate::Pack>::FINGERPRINT;
            }

            #[automatically_derived]
            impl #de_impl_generics #krate::Unpack<#de> for #ident #ty_generics #unpack_where {
                const MIN_SIZE: ::core::primitive::usize = #min_size;
                const MAY_HOLD_WEAK: bool = #may_hold_weak;
                #unpack_plain
                #unpack_schema_items

                #[inline]
                fn unpack(__r: &mut #krate::Reader<#de>) -> ::core::result::Result<Self, #krate::Error> {
                    #unpack_body
                }

                #[inline]
                fn placeholder(__budget: ::core::primitive::u32) -> ::core::option::Option<Self> {
                    let _ = __budget;
                    #placeholder_body
                }
            }
        };
    }
}

/// Binding names `__f0, __f1, ...` for destructuring.
pub(crate) fn binding(i: usize) -> syn::Ident {
    format_ident!("__f{}", i)
}

/// `{ a: __f0, b: __f1, .. }` / `(__f0, __f1, ..)` pattern for the encoded fields.
pub(crate) fn pattern(style: Style, fields: &[Field]) -> TokenStream {
    let parts = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_encoded())
        .map(|(i, f)| {
            let member = &f.member;
            let b = binding(i);
            quote!(#member: #b)
        });
    match style {
        Style::Unit => quote!(),
        Style::Named | Style::Tuple => quote!({ #(#parts,)* .. }),
    }
}

/// Statements that write each encoded field from its binding.
fn pack_fields(krate: &TokenStream, fields: &[Field]) -> TokenStream {
    let stmts = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_encoded())
        .map(|(i, f)| {
            let b = binding(i);
            // Only the function path carries the user's span (so a missing
            // impl is reported at the field); identifiers stay call-site so
            // that hygiene resolves them inside `macro_rules!` expansions too.
            let func = pack_fn(krate, f);
            quote!(#func(#b, __w)?;)
        });
    quote!(#(#stmts)*)
}

fn pack_struct(krate: &TokenStream, style: Style, fields: &[Field]) -> TokenStream {
    let pat = pattern(style, fields);
    let stmts = pack_fields(krate, fields);
    quote! {
        let Self #pat = self;
        #stmts
        ::core::result::Result::Ok(())
    }
}

fn pack_enum(krate: &TokenStream, variants: &[Variant]) -> TokenStream {
    let tags = 0u32..;
    pack_variants(
        variants
            .iter()
            .zip(tags)
            .map(|(v, tag)| (v, tag, pack_fields(krate, &v.fields))),
    )
}

/// `match self` with one arm per variant that writes the variant's tag and
/// then `body`: the encoder of compact and of tolerant enums alike.
pub(crate) fn pack_variants<'a, 'b: 'a>(
    variants: impl Iterator<Item = (&'a Variant<'b>, u32, TokenStream)>,
) -> TokenStream {
    let arms: Vec<TokenStream> = variants
        .map(|(v, tag, body)| {
            let ident = v.ident;
            let pat = pattern(v.style, &v.fields);
            quote! {
                Self::#ident #pat => {
                    __w.write_tag(#tag);
                    #body
                }
            }
        })
        .collect();
    if arms.is_empty() {
        return quote!(match *self {});
    }
    quote! {
        match self {
            #(#arms)*
        }
        ::core::result::Result::Ok(())
    }
}

/// The value of a field that is not in the payload: `default = "path"`,
/// else `Default::default()` spanned on the type, so a type without
/// `Default` is reported at the field.
pub(crate) fn default_value(field: &Field) -> TokenStream {
    let ty = field.ty;
    match &field.attrs.default {
        Some(path) => {
            let path = &path.value;
            quote_spanned!(path.span()=> #path())
        }
        None => quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default()),
    }
}

/// The function that decodes one field: the `with` module's or `Unpack`'s.
/// Only the path carries the user's span (see `pack_fields`).
pub(crate) fn unpack_fn(krate: &TokenStream, de: &Lifetime, field: &Field) -> TokenStream {
    let ty = field.ty;
    match &field.attrs.with {
        Some(with) => {
            let path = &with.value;
            quote_spanned!(with.span=> #path::unpack)
        }
        None => quote_spanned!(ty.span()=> <#ty as #krate::Unpack<#de>>::unpack),
    }
}

/// The function that encodes one field.
pub(crate) fn pack_fn(krate: &TokenStream, field: &Field) -> TokenStream {
    match &field.attrs.with {
        Some(with) => {
            let path = &with.value;
            quote_spanned!(with.span=> #path::pack)
        }
        None => {
            let ty = field.ty;
            quote_spanned!(ty.span()=> <#ty as #krate::Pack>::pack)
        }
    }
}

/// The expression that produces one field's value when decoding.
pub(crate) fn unpack_field(krate: &TokenStream, de: &Lifetime, field: &Field) -> TokenStream {
    if !field.is_encoded() {
        return default_value(field);
    }
    let func = unpack_fn(krate, de, field);
    quote!(#func(__r)?)
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
        let value = unpack_field(krate, de, f);
        quote!(#member: #value)
    });
    quote!(#path { #(#inits,)* })
}

fn unpack_struct(
    krate: &TokenStream,
    de: &Lifetime,
    style: Style,
    fields: &[Field],
) -> TokenStream {
    let value = construct(krate, de, quote!(Self), style, fields);
    quote!(::core::result::Result::Ok(#value))
}

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
        let __tag = __r.read_tag()?;
        match __tag {
            #(#arms)*
            _ => ::core::result::Result::Err(__r.unknown_variant(__tag, #name)),
        }
    }
}

/// The sum of the encoded fields' minimum sizes (`with` fields count 0).
fn min_size_of(krate: &TokenStream, de: &Lifetime, fields: &[Field]) -> TokenStream {
    let parts = fields
        .iter()
        .filter(|f| f.is_encoded() && f.attrs.with.is_none())
        .map(|f| {
            let ty = f.ty;
            quote!(<#ty as #krate::Unpack<#de>>::MIN_SIZE)
        });
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

/// `const PLAIN` for a struct: plain when every field is plain and the
/// fields lie in memory exactly as on the wire (declaration order, no
/// padding), checked by the compiler through `offset_of!` and `size_of`.
/// Structs with skipped or `with` fields are never plain.
fn plain_const(krate: &TokenStream, fields: &[Field], trait_path: TokenStream) -> TokenStream {
    if fields
        .iter()
        .any(|f| !f.is_encoded() || f.attrs.with.is_some())
    {
        return quote!();
    }
    let mut conds = Vec::new();
    let mut offset = quote!(0);
    for f in fields {
        let (ty, member) = (f.ty, &f.member);
        conds.push(quote!(<#ty as #trait_path>::PLAIN.get()));
        conds.push(quote!(::core::mem::offset_of!(Self, #member) == #offset));
        offset = quote!(#offset + ::core::mem::size_of::<#ty>());
    }
    conds.push(quote!(::core::mem::size_of::<Self>() == #offset));
    quote! {
        // SAFETY: every field is plain data and the conditions check that
        // they fill the struct in declaration order with no padding, so the
        // struct's memory is its encoding and any bit pattern is valid.
        const PLAIN: #krate::Plain<Self> = unsafe { #krate::Plain::new_unchecked(#(#conds)&&*) };
    }
}

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
        let (member, ty) = (&f.member, f.ty);
        let value = if !f.is_encoded() {
            unpack_field(krate, de, f)
        } else if f.attrs.with.is_some() {
            return None;
        } else {
            quote!(<#ty as #krate::Unpack<#de>>::placeholder(__budget)?)
        };
        inits.push(quote!(#member: #value));
    }
    Some(quote!(#path { #(#inits,)* }))
}

fn placeholder_struct(
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

/// The first variant that has a placeholder.
fn placeholder_enum(krate: &TokenStream, de: &Lifetime, variants: &[Variant]) -> TokenStream {
    let attempts = variants.iter().filter_map(|v| {
        let ident = v.ident;
        let value = placeholder_value(krate, de, quote!(Self::#ident), v.style, &v.fields)?;
        Some(quote! {
            let __attempt = || -> ::core::option::Option<Self> { ::core::option::Option::Some(#value) };
            if let ::core::option::Option::Some(__value) = __attempt() {
                return ::core::option::Option::Some(__value);
            }
        })
    });
    quote! {
        #(#attempts)*
        ::core::option::Option::None
    }
}
