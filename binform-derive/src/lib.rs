//! `#[derive(Packable)]` for binform. Use it through `binform::Packable`.
//!
//! The macro runs in three steps, each in its own module: [`ast`] parses the
//! input and its `#[binform(...)]` attributes ([`attr`]) into a typed IR that
//! keeps spans, [`check`] applies the rules that span several fields, and
//! [`expand`] generates `Encoding`, `Pack` and `Unpack` from the checked IR:
//! [`encoding`] the facts both directions share, [`compact`] or [`tolerant`]
//! the bodies, over what they share in [`fields`]. Errors from every step
//! are collected ([`ctxt`]) and reported together, each on its span.

mod ast;
mod attr;
mod bound;
mod check;
mod columns;
mod compact;
mod ctxt;
mod encoding;
mod expand;
mod fields;
mod layout;
mod lock;
mod placeholder;
mod row;
mod symbol;
mod tolerant;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Implements `binform::Encoding`, `binform::Pack` and `binform::Unpack`
/// for a struct or an enum.
///
/// Attributes, `#[binform(...)]`: on the type `version_tolerant`,
/// `reserved = [..]`, `bound = ".."`, `crate = ".."`, `schema_lock = ".."`;
/// on a field `skip`, `default = ".."`, `with = ".."`, `serde`, `tag = N`,
/// `required`; on a variant `tag = N`, `other`. The reference, with an
/// example of each, follows (on `binform::Packable`'s page), and is the
/// module `binform::attributes`.
#[proc_macro_derive(Packable, attributes(binform))]
pub fn derive_packable(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
