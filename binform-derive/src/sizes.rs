//! A compact struct's sums over its fields (`Pack::MAX_SIZE`,
//! `Unpack::MIN_SIZE`, `Unpack::COLUMN_MIN` and whether every field's
//! column is rows, `Encoding::COLUMNS`) from one const of the impls'
//! block, `__SIZES`: each field's `Field::SIZES` summed once.
//!
//! Why: written as four sums, a field's type was named in four
//! projections, each resolved through `Field` and evaluated at compile
//! time on its own; those were about a fifth of what rustc's check spent
//! on the derive's output (`docs/compile-time.md`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Body, Container, Field};
use crate::fields::{via, Trait};

/// Whether a compact struct of `fields` takes its sums from `__SIZES`:
/// at least one field is encoded, and every encoded field's type is
/// concrete (a const of the impls' block sees none of the type's
/// generics) and has no `with` module (which has no `Field` impl to ask).
pub fn shared(fields: &[Field]) -> bool {
    let mut encoded = fields.iter().filter(|f| f.is_encoded()).peekable();
    encoded.peek().is_some() && encoded.all(|f| f.concrete && f.attrs.with.is_none())
}

/// The const `__SIZES` for a compact struct whose sums it gives
/// ([`shared`]); nothing otherwise.
pub fn item(cont: &Container) -> TokenStream {
    match &cont.body {
        Body::Struct(_, fields) if !cont.is_tolerant() && shared(fields) => {
            let sizes = fields
                .iter()
                .filter(|f| f.is_encoded())
                .map(|f| via(f, Trait::Field, "SIZES"));
            quote!(const __SIZES: __bf::Sizes = __bf::sizes_sum(&[#(#sizes),*]);)
        }
        _ => quote!(),
    }
}

/// The sum `part` (`max`, `min`, `column_min` or `rows`) of `__SIZES`.
pub fn get(part: &str) -> TokenStream {
    let part = syn::Ident::new(part, proc_macro2::Span::call_site());
    quote!(__SIZES.#part)
}
