//! What the compact and the tolerant generators share: how a field is
//! bound, encoded, decoded and defaulted, and the `match` over variants.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::Lifetime;

use crate::ast::{Field, Style, Variant};

/// Binding names `__f0, __f1, ...` for destructuring.
pub fn binding(i: usize) -> syn::Ident {
    format_ident!("__f{}", i)
}

/// `{ a: __f0, b: __f1, .. }` / `(__f0, __f1, ..)` pattern for the encoded fields.
pub fn pattern(style: Style, fields: &[Field]) -> TokenStream {
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

/// `match self` with one arm per variant that writes the variant's tag and
/// then `body`: the encoder of compact and of tolerant enums alike.
pub fn pack_variants<'a, 'b: 'a>(
    variants: impl Iterator<Item = (&'a Variant<'b>, u32, TokenStream)>,
    out: Out,
) -> TokenStream {
    let arms: Vec<TokenStream> = variants
        .map(|(v, tag, body)| {
            let ident = v.ident;
            let pat = pattern(v.style, &v.fields);
            let write_tag = match out {
                Out::Writer => quote!(__w.write_tag(#tag);),
                // A `u64` literal: a cast would name `u64`, which the
                // user's scope may shadow.
                Out::Cursor => {
                    let tag = u64::from(tag);
                    quote!(__c.write_varint(#tag);)
                }
            };
            quote! {
                Self::#ident #pat => {
                    #write_tag
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
        __bf::Ok(())
    }
}

/// The value of a field that is not in the payload: `default = "path"`,
/// else `Default::default()` spanned on the type, so a type without
/// `Default` is reported at the field.
pub fn default_value(field: &Field) -> TokenStream {
    let ty = field.ty;
    match &field.attrs.default {
        Some(path) => {
            let path = &path.value;
            quote_spanned!(path.span()=> #path())
        }
        None => quote_spanned!(field.span=> <#ty as __bf::Default>::default()),
    }
}

/// The value of a version-tolerant type's field that a payload lacks: as
/// [`default_value`], but an encoded field's `Default` goes through the
/// runtime's `TolerantDefault`, whose error says what to write instead
/// (`required`, or `default = "..."`).
pub fn missing_value(field: &Field) -> TokenStream {
    if field.attrs.default.is_some() || !field.is_encoded() {
        return default_value(field);
    }
    let ty = field.ty;
    quote_spanned!(field.span=> <#ty as __bf::TolerantDefault>::missing())
}

/// The trait whose item [`via`] names when the field's type is not
/// concrete.
#[derive(Clone, Copy)]
pub enum Trait<'a> {
    /// The runtime's `Field` (a concrete type's items, whatever the trait).
    Field,
    Encoding,
    Pack,
    Unpack(&'a Lifetime),
}

/// `item` of the trait `tr` for the field's type, as a path spanned on the
/// type: through the runtime's `Field` trait for a concrete type, so that
/// every use of a type without an encoding fails the same bound at the
/// same span, which rustc reports once.
pub fn via<'a>(field: &Field<'a>, tr: Trait<'a>, item: &'static str) -> Via<'a> {
    Via {
        ty: field.ty,
        span: field.span,
        tr: if field.concrete { Trait::Field } else { tr },
        item,
    }
}

/// A path made by [`via`]: `<ty as Trait>::item`, written straight into
/// the tokens it is interpolated in. Made by `quote!` and then
/// interpolated, each such path cost three calls across the compiler's
/// proc-macro bridge (its tokens, then joining them to the parent's), and
/// the derive writes about a dozen a field.
pub struct Via<'a> {
    ty: &'a syn::Type,
    span: proc_macro2::Span,
    tr: Trait<'a>,
    item: &'static str,
}

impl ToTokens for Via<'_> {
    fn to_tokens(&self, out: &mut TokenStream) {
        use proc_macro2::{Ident, Punct, Spacing, TokenTree};
        let span = self.span;
        let punct = |c, spacing| {
            let mut p = Punct::new(c, spacing);
            p.set_span(span);
            TokenTree::from(p)
        };
        let ident = |name: &str| TokenTree::from(Ident::new(name, span));
        let colons = || [punct(':', Spacing::Joint), punct(':', Spacing::Alone)];
        out.extend([punct('<', Spacing::Alone)]);
        self.ty.to_tokens(out);
        let tr = match self.tr {
            Trait::Field => "Field",
            Trait::Encoding => "Encoding",
            Trait::Pack => "Pack",
            Trait::Unpack(_) => "Unpack",
        };
        out.extend([ident("as"), ident("__bf")]);
        out.extend(colons());
        out.extend([ident(tr)]);
        if let Trait::Unpack(de) = self.tr {
            out.extend([punct('<', Spacing::Alone)]);
            de.to_tokens(out);
            out.extend([punct('>', Spacing::Alone)]);
        }
        out.extend([punct('>', Spacing::Alone)]);
        out.extend(colons());
        out.extend([ident(self.item)]);
    }
}

/// A [`Via`] path, or other tokens in its place (a `with` field's).
pub enum ViaOr<'a> {
    Via(Via<'a>),
    Else(TokenStream),
}

impl ToTokens for ViaOr<'_> {
    fn to_tokens(&self, out: &mut TokenStream) {
        match self {
            ViaOr::Via(via) => via.to_tokens(out),
            ViaOr::Else(tokens) => tokens.to_tokens(out),
        }
    }
}

/// The function that decodes one field: the `with` module's or `Unpack`'s.
/// Only the path carries the user's span (see `pack_fields`).
pub fn unpack_fn(de: &Lifetime, field: &Field) -> TokenStream {
    match &field.attrs.with {
        Some(with) => {
            let path = &with.value;
            quote_spanned!(with.span=> #path::unpack)
        }
        None => via(field, Trait::Unpack(de), "unpack").into_token_stream(),
    }
}

/// Where generated encoders write: the writer `__w`, or the cursor `__c`
/// that keeps the buffer's end in registers across a compact type's
/// fields (`binform::__private::Cursor`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Out {
    Writer,
    Cursor,
}

/// The statement that encodes one field (bound to `b`) through the cursor
/// `__c`: the type's own `pack_cursor`, or a `with` module's `pack`
/// handed the writer.
pub fn pack_cursor_stmt(field: &Field, b: &syn::Ident) -> TokenStream {
    match &field.attrs.with {
        Some(with) => {
            let path = &with.value;
            let func = quote_spanned!(with.span=> #path::pack);
            let write = try_result(quote!(__c.writer(|__w| #func(#b, __w))));
            quote!(#write;)
        }
        None => {
            let func = via(field, Trait::Pack, "pack_cursor");
            let write = try_result(quote!(#func(#b, __c)));
            quote!(#write;)
        }
    }
}

/// The function that encodes one field.
pub fn pack_fn(field: &Field) -> TokenStream {
    match &field.attrs.with {
        Some(with) => {
            let path = &with.value;
            quote_spanned!(with.span=> #path::pack)
        }
        None => via(field, Trait::Pack, "pack").into_token_stream(),
    }
}

/// `expr?` written out as its `match`: the same code where `expr`'s error
/// is already `binform::Error` (as every runtime call's is), but without
/// the `Try` and `From` resolutions that `?` costs type checking at each
/// use (one a field, in every derived type).
pub fn try_result(expr: TokenStream) -> TokenStream {
    quote! {
        match #expr {
            __bf::Ok(__v) => __v,
            __bf::Err(__e) => return __bf::Err(__e),
        }
    }
}

/// `expr?` of an `Option`, written out as [`try_result`] writes a
/// `Result`'s.
pub fn try_option(expr: TokenStream) -> TokenStream {
    quote! {
        match #expr {
            __bf::Some(__v) => __v,
            __bf::None => return __bf::None,
        }
    }
}

/// The expression that produces one field's value when decoding through
/// the cursor `__c` (the fields of a compact type): the type's own
/// `unpack_cursor`, or a `with` module's `unpack` handed the reader.
/// Its error is given the path `segment` (`.name`) on the way out.
pub fn unpack_cursor_field(de: &Lifetime, field: &Field, segment: &str) -> TokenStream {
    if !field.is_encoded() {
        return default_value(field);
    }
    let read = match &field.attrs.with {
        Some(_) => {
            let func = unpack_fn(de, field);
            quote!(__bf::in_field(__c.reader(|__r| #func(__r)), #segment))
        }
        // One call, which gives the error its path (`Field`'s).
        None if field.concrete => {
            let func = via(field, Trait::Field, "unpack_cursor_in");
            quote!(#func(__c, #segment))
        }
        None => {
            let func = via(field, Trait::Unpack(de), "unpack_cursor");
            quote!(__bf::in_field(#func(__c), #segment))
        }
    };
    try_result(read)
}

/// A struct's encoder: bind the encoded fields (`let Self { .. } = self`),
/// then `body` writes them.
pub fn pack_struct(style: Style, fields: &[Field], body: TokenStream) -> TokenStream {
    let bind = bind_struct(style, fields);
    quote! {
        #bind
        #body
        __bf::Ok(())
    }
}

/// `let Self { a: __f0, .. } = self;`: the encoded fields as bindings.
pub fn bind_struct(style: Style, fields: &[Field]) -> TokenStream {
    let pat = pattern(style, fields);
    quote!(let Self #pat = self;)
}
