//! A compact struct's sums over its fields (`Pack::MAX_SIZE`,
//! `Unpack::MIN_SIZE`, `Unpack::COLUMN_MIN` and whether every field's
//! column is rows, `Encoding::COLUMNS`) from one const of the impls'
//! block, `__SIZES`: each field's `Field::SIZES` summed once. A compact
//! enum's `__SIZES` holds each variant's sums, of which its `MAX_SIZE`
//! and `MIN_SIZE` are made.
//!
//! Why: written as four sums, a field's type was named in four
//! projections, each resolved through `Field` and evaluated at compile
//! time on its own; those were about a fifth of what rustc's check spent
//! on the derive's output (`docs/compile-time.md`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Body, Container, Field, Variant};
use crate::fields::{via, Trait};

/// Whether a compact struct of `fields` takes its sums from `__SIZES`:
/// at least one field is encoded, and every encoded field's type is
/// concrete (a const of the impls' block sees none of the type's
/// generics) and has no `with` module (which has no `Field` impl to ask).
pub fn shared(fields: &[Field]) -> bool {
    let mut encoded = fields.iter().filter(|f| f.is_encoded()).peekable();
    encoded.peek().is_some() && encoded.all(|f| f.concrete && f.attrs.with.is_none())
}

/// Whether a compact enum of `variants` takes its sums from `__SIZES`:
/// it has a variant, and every encoded field of every variant is as
/// [`shared`] asks (a variant may have none).
pub fn shared_enum(variants: &[Variant]) -> bool {
    let mut fields = variants.iter().flat_map(|v| &v.fields);
    !variants.is_empty()
        && fields.all(|f| !f.is_encoded() || (f.concrete && f.attrs.with.is_none()))
}

/// The const `__SIZES` for a compact struct or enum whose sums it gives
/// ([`shared`], [`shared_enum`]); nothing otherwise.
pub fn item(cont: &Container) -> TokenStream {
    match &cont.body {
        _ if cont.is_tolerant() => quote!(),
        Body::Struct(_, fields) if shared(fields) => {
            let sum = sum(fields);
            quote!(const __SIZES: __bf::Sizes = #sum;)
        }
        Body::Enum(variants) if shared_enum(variants) => {
            let n = variants.len();
            let sums = variants.iter().map(|v| sum(&v.fields));
            quote!(const __SIZES: [__bf::Sizes; #n] = [#(#sums),*];)
        }
        _ => quote!(),
    }
}

/// The sums of the encoded `fields`' sizes.
fn sum(fields: &[Field]) -> TokenStream {
    let sizes = fields
        .iter()
        .filter(|f| f.is_encoded())
        .map(|f| via(f, Trait::Field, "SIZES"));
    quote!(__bf::sizes_sum(&[#(#sizes),*]))
}

/// The sum `part` (`max`, `min`, `column_min` or `rows`) of a struct's
/// `__SIZES`.
pub fn get(part: &str) -> TokenStream {
    let part = syn::Ident::new(part, proc_macro2::Span::call_site());
    quote!(__SIZES.#part)
}
