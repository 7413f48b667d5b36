//! A struct's (or an enum variant's) fields as one row written, read and
//! stood in for by the runtime (its `row` module): one call on a tuple of
//! the fields' types, which rustc checks once a type, in place of a call
//! a field. Compact types write and read their rows so, and every
//! derived type (tolerant ones too) makes its placeholder so, when the
//! struct or variant has 2 to 16 encoded fields, none of them `with`; the
//! others keep the statement a field of `compact` and `placeholder`.
//!
//! The fields are taken in declaration order, which is a compact type's
//! wire order (its tags are positions). Fields that are not encoded take
//! their defaults after the row is read, not between its fields.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Field, Style};
use crate::fields::{binding, try_result};

/// The most fields in a row: the longest tuple with the runtime's impls.
const MAX_FIELDS: usize = 16;

/// A struct's encoded fields in declaration order, with their indices,
/// when they can be one row.
pub struct Row<'f, 'a> {
    fields: Vec<(usize, &'f Field<'a>)>,
}

impl<'f, 'a> Row<'f, 'a> {
    /// The row of `fields`, if they make one: 2 to 16 encoded fields (one
    /// field is one call either way), none written by a `with` module,
    /// which has no `Pack` or `Unpack` of its type to give the tuple.
    pub fn of(fields: &'f [Field<'a>]) -> Option<Self> {
        let fields: Vec<_> = fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.is_encoded())
            .collect();
        let fits = (2..=MAX_FIELDS).contains(&fields.len())
            && fields.iter().all(|(_, f)| f.attrs.with.is_none());
        fits.then_some(Row { fields })
    }

    /// `(__f0, __f1, ..)`: the fields' bindings as a tuple (or its
    /// pattern).
    fn bindings(&self) -> TokenStream {
        let binds = self.fields.iter().map(|(i, _)| binding(*i));
        quote!((#(#binds,)*))
    }

    /// The selector of the fields' types (`refs`: of references to
    /// them), whose methods are the runtime's row.
    fn selector(&self, refs: bool) -> TokenStream {
        let tys = self.fields.iter().map(|(_, f)| f.ty);
        match refs {
            true => quote!((&__bf::FieldsOf::<(#(&#tys,)*)>::NEW)),
            false => quote!((&__bf::FieldsOf::<(#(#tys,)*)>::NEW)),
        }
    }

    /// The statement that writes the fields from their bindings in one
    /// call, the first as if after a field of `MAX_SIZE` `first_prev`:
    /// the struct's own, for which its caller made room when it is a
    /// bound; no bound for an enum's variant, which makes its own.
    pub fn pack(&self, first_prev: TokenStream) -> TokenStream {
        let select = self.selector(true);
        let row = self.bindings();
        let call = try_result(quote! {
            // SAFETY: when `first_prev` is a bound, the caller made room
            // for it (the fields' sum) and the slack.
            unsafe { #select.__binform_pack_row(#row, __c, #first_prev) }
        });
        quote!(#call;)
    }

    /// The value `path { .. }` of the fields read in one call, each error
    /// given its path (`prefix.name`), fields that are not encoded at
    /// their defaults.
    pub fn unpack(
        &self,
        path: TokenStream,
        style: Style,
        all: &[Field],
        prefix: &str,
    ) -> TokenStream {
        let select = self.selector(false);
        let names = self
            .fields
            .iter()
            .map(|(_, f)| crate::columns::segment(prefix, f));
        let row = self.bindings();
        let read = try_result(quote!(#select.__binform_unpack_row(__c, &[#(#names),*])));
        let value = crate::columns::construct(path, style, all);
        quote!({
            let #row = #read;
            #value
        })
    }

    /// The placeholder `Some(path { .. })` of each field's placeholder
    /// taken in one call, `None` at the first field without one, fields
    /// that are not encoded at their defaults.
    pub fn placeholder(&self, path: TokenStream, style: Style, all: &[Field]) -> TokenStream {
        let select = self.selector(false);
        let row = self.bindings();
        let value = crate::columns::construct(path, style, all);
        quote! {
            match #select.__binform_placeholder_row(__work) {
                __bf::Some(#row) => __bf::Some(#value),
                __bf::None => __bf::None,
            }
        }
    }
}
