//! Where-clauses for the generated impls: a bound only for the type
//! parameters that encoded fields actually use, so `PhantomData<T>` or a
//! skipped field does not force `T: Pack`.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;
use syn::visit::{self, Visit};
use syn::{Generics, Ident, Type, WherePredicate};

use crate::ast::{Container, Field};

/// The names of `generics`' type parameters that appear in `ty`, outside
/// `PhantomData<...>`.
fn params_in(generics: &Generics, ty: &Type) -> BTreeSet<Ident> {
    struct Finder<'a> {
        params: &'a BTreeSet<Ident>,
        found: BTreeSet<Ident>,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_path(&mut self, path: &'ast syn::Path) {
            if path
                .segments
                .last()
                .is_some_and(|s| s.ident == "PhantomData")
            {
                return;
            }
            if let Some(first) = path.segments.first() {
                if self.params.contains(&first.ident) {
                    self.found.insert(first.ident.clone());
                }
            }
            visit::visit_path(self, path);
        }
        fn visit_macro(&mut self, _: &'ast syn::Macro) {}
    }
    let params = generics.type_params().map(|p| p.ident.clone()).collect();
    let mut finder = Finder {
        params: &params,
        found: BTreeSet::new(),
    };
    finder.visit_type(ty);
    finder.found
}

/// Inferred predicates: `T: <trait>` for each parameter used by an encoded
/// field that is not handled by a `with` module.
fn inferred(cont: &Container, trait_path: &TokenStream) -> Vec<WherePredicate> {
    let mut used = BTreeSet::new();
    for field in cont
        .all_fields()
        .filter(|f| f.is_encoded() && f.attrs.with.is_none())
    {
        used.extend(params_in(cont.generics, field.ty));
    }
    used.into_iter()
        .map(|p| syn::parse_quote!(#p: #trait_path))
        .collect()
}

/// `FieldType: Default` for skipped fields without `default = ...` whose
/// type mentions a parameter; concrete types are checked at the field.
fn skipped_defaults(cont: &Container) -> Vec<WherePredicate> {
    cont.all_fields()
        .filter(|f: &&Field| !f.is_encoded() && f.attrs.default.is_none())
        .filter(|f| !params_in(cont.generics, f.ty).is_empty())
        .map(|f| {
            let ty = f.ty;
            syn::parse_quote!(#ty: __bf::Default)
        })
        .collect()
}

/// The where-clause predicates of the `Encoding` impl: an explicit `bound` (shared by every impl) or
/// `bound(encoding)`, else `T: Encoding` for the parameters fields use,
/// which the bounds of both directions imply whenever they name `Pack` or
/// `Unpack`. (Not `bound(pack)`: the `Unpack` impl needs `Encoding` too.)
pub fn encoding_predicates(cont: &Container) -> Vec<WherePredicate> {
    given(cont, &cont.attrs.encoding_bound)
        .unwrap_or_else(|| inferred(cont, &quote!(__bf::Encoding)))
}

/// The predicates written by hand for one impl: `bound` (every impl's) or
/// that impl's own `bound(...)`.
fn given(
    cont: &Container,
    per_impl: &Option<crate::attr::Attr<Vec<WherePredicate>>>,
) -> Option<Vec<WherePredicate>> {
    cont.attrs
        .bound
        .as_ref()
        .or(per_impl.as_ref())
        .map(|b| b.value.clone())
}

/// The where-clause predicates of the `Pack` impl.
pub fn pack_predicates(cont: &Container) -> Vec<WherePredicate> {
    given(cont, &cont.attrs.pack_bound).unwrap_or_else(|| inferred(cont, &quote!(__bf::Pack)))
}

/// The where-clause predicates of the `Unpack<'de>` impl.
pub fn unpack_predicates(cont: &Container, de: &syn::Lifetime) -> Vec<WherePredicate> {
    if let Some(given) = given(cont, &cont.attrs.unpack_bound) {
        return given;
    }
    let mut preds = inferred(cont, &quote!(__bf::Unpack<#de>));
    preds.extend(skipped_defaults(cont));
    preds
}
