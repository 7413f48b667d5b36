//! The interface between `expand` and the generators of the layouts
//! (`compact`, `tolerant`): what each is given, and what each generates.

use proc_macro2::TokenStream;
use syn::Lifetime;

use crate::ast::Container;

/// What the generators of one layout are given: the checked input and the
/// names the impls use.
pub struct Gen<'g, 'a> {
    pub cont: &'g Container<'a>,
    /// The input's lifetime in `Unpack<'de>`.
    pub de: &'g Lifetime,
    /// The type's name, as errors and schemas spell it.
    pub name: &'g str,
    /// The inline attribute of the generated methods.
    pub inline: TokenStream,
}

/// One wire layout of derived types: the `Pack` and `Unpack` bodies and
/// items it generates, for structs and enums alike. The compact and the
/// tolerant generators each implement it once; `expand` asks whichever
/// the type chose, so a further layout is one more implementation.
pub trait Layout {
    /// `Pack::pack`'s body.
    fn pack(&self, gen: &Gen) -> TokenStream;
    /// Further items of the `Pack` impl.
    fn pack_items(&self, gen: &Gen) -> TokenStream;
    /// `Unpack::unpack`'s body.
    fn unpack(&self, gen: &Gen) -> TokenStream;
    /// Further items of the `Unpack` impl.
    fn unpack_items(&self, gen: &Gen) -> TokenStream;
    /// `Unpack::MIN_SIZE`: the fewest bytes a value takes.
    fn min_size(&self, gen: &Gen) -> TokenStream;
}
