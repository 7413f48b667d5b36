//! A compact type's `Pack::MAX_SIZE` and `Unpack::MIN_SIZE` from one
//! const of its impls' block, `__bf_sizes`: each field's `Field::SIZES`
//! (both bounds) summed once, a struct's as one sum, an enum's as one a
//! variant.
//!
//! Why: written as two sums, every field's type was named in two
//! projections, each resolved through `Field` and evaluated at compile
//! time on its own (with `COLUMN_MIN` and `COLUMNS`, 325 M of the
//! 4,069 M instructions rustc's check of the 100 types of
//! `docs/compile-time.md` spent on the derive's output).
//!
//! Only the two bounds go together. A const that needs one bound of a
//! field now evaluates both, so the two must not reach back to the type
//! through different paths: neither does through the heap (`Box`, `Vec`,
//! `Rc`, maps use neither bound of their contents), and a type that holds
//! itself must go through the heap. `COLUMN_MIN` and `COLUMNS` pass
//! through a `Box` and end elsewhere (at an enum, an `Option`); joined to
//! the bounds they would close a loop (`struct Expr { kind: ExprKind }`,
//! `enum ExprKind { Neg(Box<Expr>) }`), so they keep their own sums.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Body, Container, Field, Variant};
use crate::fields::{via, Trait};

/// Whether a compact struct of `fields` takes its bounds from `__bf_sizes`:
/// at least one field is encoded, and every encoded field's type is
/// concrete (a const of the impls' block sees none of the type's
/// generics) and has no `with` module (which has no `Field` impl to ask).
pub fn shared(fields: &[Field]) -> bool {
    let mut encoded = fields.iter().filter(|f| f.is_encoded()).peekable();
    encoded.peek().is_some() && encoded.all(|f| f.concrete && f.attrs.with.is_none())
}

/// Whether a compact enum of `variants` takes its bounds from `__bf_sizes`:
/// it has a variant, and every encoded field of every variant is as
/// [`shared`] asks (a variant may have none).
pub fn shared_enum(variants: &[Variant]) -> bool {
    let mut fields = variants.iter().flat_map(|v| &v.fields);
    !variants.is_empty()
        && fields.all(|f| !f.is_encoded() || (f.concrete && f.attrs.with.is_none()))
}

/// The const `__bf_sizes` for a compact struct or enum whose bounds it gives
/// ([`shared`], [`shared_enum`]); nothing otherwise.
pub fn item(cont: &Container) -> TokenStream {
    match &cont.body {
        _ if cont.is_tolerant() => quote!(),
        Body::Struct(_, fields) if shared(fields) => {
            let sum = sum(fields);
            quote!(const __bf_sizes: __bf::Sizes = #sum;)
        }
        Body::Enum(variants) if shared_enum(variants) => {
            let n = variants.len();
            let sums = variants.iter().map(|v| sum(&v.fields));
            quote!(const __bf_sizes: [__bf::Sizes; #n] = [#(#sums),*];)
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

/// A struct's `MAX_SIZE` from its `__bf_sizes`.
pub fn max() -> TokenStream {
    quote!(__bf_sizes.max)
}

/// A struct's `MIN_SIZE` from its `__bf_sizes`.
pub fn min() -> TokenStream {
    quote!(__bf_sizes.min)
}

/// An enum's `MAX_SIZE` from its `__bf_sizes`.
pub fn max_enum() -> TokenStream {
    quote!(__bf::max_size_enum_of(&__bf_sizes))
}

/// An enum's `MIN_SIZE` from its `__bf_sizes`.
pub fn min_enum() -> TokenStream {
    quote!(__bf::min_size_enum_of(&__bf_sizes))
}
