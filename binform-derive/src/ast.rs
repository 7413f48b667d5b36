//! The derive input as a typed IR: the container, its variants and fields,
//! each with parsed attributes and the spans errors point at.

use proc_macro2::{Span, TokenTree};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Generics, Ident, Member, Type};

use crate::attr;
use crate::ctxt::Ctxt;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub attrs: attr::Container,
    pub body: Body<'a>,
    /// Where the runtime crate is: `crate = "path"`, else
    /// [`default_krate`].
    pub krate: syn::Path,
}

impl Container<'_> {
    /// The type the impls are for: this one, or the type its `remote`
    /// path names (whose definition this one restates).
    pub fn self_ty(&self) -> proc_macro2::TokenStream {
        match &self.attrs.remote {
            Some(remote) => remote.value.to_token_stream(),
            None => self.ident.to_token_stream(),
        }
    }
}

/// The encoded fields with their index in the declaration, in the order
/// they are on the wire: ascending tags (for a compact type, whose tags
/// are positions, the declaration order). The one home of field order,
/// for the encoders, the decoders and the schema alike.
pub fn wire_order<'f, 'a>(fields: &'f [Field<'a>]) -> Vec<(usize, &'f Field<'a>)> {
    let mut encoded: Vec<(usize, &Field)> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_encoded())
        .collect();
    encoded.sort_by_key(|(_, f)| f.tag);
    encoded
}

/// The runtime crate's path when no `crate = "..."` says otherwise.
pub fn default_krate() -> syn::Path {
    syn::parse_quote!(::binform)
}

pub enum Body<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

/// How fields are written in source: `{ a, b }`, `(a, b)` or nothing.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Named,
    Tuple,
    Unit,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub attrs: attr::Variant,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    /// The stable tag in a version-tolerant enum (see [`assign_tags`]).
    pub tag: u32,
}

pub struct Field<'a> {
    pub member: Member,
    pub ty: &'a Type,
    /// Where the generated code that names the field's type points: at
    /// the type, so that a missing impl is reported there, but resolving
    /// names as the derive's own tokens do (`__bf`, `__L`), whatever
    /// hygiene the type's tokens carry. Taken once: `Spanned::span` walks
    /// the type's tokens through the compiler's proc-macro bridge (two
    /// calls each time), and the generated code is spanned on it a dozen
    /// times a field.
    pub span: Span,
    /// Whether the type names no generic parameter, lifetime or `Self`:
    /// derived code then reaches its encoding through the runtime's one
    /// `Field` trait, so a type without one is a single error (see
    /// `fields::via`).
    pub concrete: bool,
    pub attrs: attr::Field,
    /// The stable tag in a version-tolerant type (see [`assign_tags`]).
    pub tag: u32,
}

/// The implicit tag rule: an explicit `tag = N` wins; otherwise one more
/// than the previous field's (or variant's) tag, starting at 0. Without any
/// `tag` attributes, tags are positions.
fn assign_tags(explicit: impl Iterator<Item = Option<u32>>, mut set: impl FnMut(usize, u32)) {
    let mut next = 0u32;
    for (i, tag) in explicit.enumerate() {
        let tag = tag.unwrap_or(next);
        set(i, tag);
        next = tag.wrapping_add(1);
    }
}

impl<'a> Container<'a> {
    /// Parses the input; returns `None` (with errors in `cx`) for input the
    /// derive cannot handle at all, such as unions.
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        let attrs = attr::Container::parse(cx, &input.attrs);
        let body = match &input.data {
            Data::Struct(data) => {
                let (style, fields) = fields_from_ast(cx, &data.fields);
                Body::Struct(style, fields)
            }
            Data::Enum(data) => {
                let mut variants: Vec<Variant> = data
                    .variants
                    .iter()
                    .map(|v| {
                        let (style, fields) = fields_from_ast(cx, &v.fields);
                        Variant {
                            ident: &v.ident,
                            attrs: attr::Variant::parse(cx, &v.attrs),
                            style,
                            fields,
                            tag: 0,
                        }
                    })
                    .collect();
                let explicit: Vec<Option<u32>> = variants
                    .iter()
                    .map(|v| v.attrs.tag.as_ref().map(|t| t.value))
                    .collect();
                assign_tags(explicit.into_iter(), |i, tag| variants[i].tag = tag);
                Body::Enum(variants)
            }
            Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "binform cannot derive Packable for a union: which field is live \
                     is not known; wrap it in a struct or enum with a manual impl",
                );
                return None;
            }
        };
        let params = generic_names(&input.generics);
        let krate = attrs
            .krate
            .as_ref()
            .map_or_else(default_krate, |path| path.value.clone());
        let mut cont = Container {
            ident: &input.ident,
            generics: &input.generics,
            attrs,
            body,
            krate: krate.clone(),
        };
        cont.fields_mut(|f| {
            f.attrs.resolve_serde(&krate);
            f.concrete = is_concrete(f.ty.to_token_stream(), &params);
        });
        Some(cont)
    }

    /// Runs `f` on every field of every variant.
    fn fields_mut(&mut self, mut f: impl FnMut(&mut Field<'a>)) {
        match &mut self.body {
            Body::Struct(_, fields) => fields.iter_mut().for_each(f),
            Body::Enum(variants) => variants
                .iter_mut()
                .flat_map(|v| v.fields.iter_mut())
                .for_each(&mut f),
        }
    }

    /// Every field of every variant.
    pub fn all_fields(&self) -> Box<dyn Iterator<Item = &Field<'a>> + '_> {
        match &self.body {
            Body::Struct(_, fields) => Box::new(fields.iter()),
            Body::Enum(variants) => Box::new(variants.iter().flat_map(|v| v.fields.iter())),
        }
    }
}

/// The names of the generic type and const parameters.
fn generic_names(generics: &Generics) -> Vec<String> {
    generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Type(t) => Some(t.ident.to_string()),
            syn::GenericParam::Const(c) => Some(c.ident.to_string()),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect()
}

/// Whether a type's tokens name none of `params`, no lifetime, no `Self`
/// and no macro: such a type is the same in every instance of the
/// container, so its impls hold or fail once, for every lifetime.
fn is_concrete(tokens: proc_macro2::TokenStream, params: &[String]) -> bool {
    tokens.into_iter().all(|token| match token {
        TokenTree::Group(g) => is_concrete(g.stream(), params),
        TokenTree::Ident(i) => i != "Self" && !params.iter().any(|p| i == p),
        TokenTree::Punct(p) => p.as_char() != '\'' && p.as_char() != '!',
        TokenTree::Literal(_) => true,
    })
}

fn fields_from_ast<'a>(cx: &Ctxt, fields: &'a Fields) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    };
    let mut fields: Vec<Field> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| Field {
            member: match &f.ident {
                Some(ident) => Member::Named(ident.clone()),
                None => Member::Unnamed(i.into()),
            },
            ty: &f.ty,
            span: Span::call_site().located_at(f.ty.span()),
            concrete: false,
            attrs: attr::Field::parse(cx, &f.attrs),
            tag: 0,
        })
        .collect();
    // Skipped fields are not in the payload and take no tag.
    let explicit: Vec<(usize, Option<u32>)> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_encoded())
        .map(|(i, f)| (i, f.attrs.tag.as_ref().map(|t| t.value)))
        .collect();
    let index: Vec<usize> = explicit.iter().map(|(i, _)| *i).collect();
    assign_tags(explicit.into_iter().map(|(_, t)| t), |k, tag| {
        fields[index[k]].tag = tag
    });
    (style, fields)
}

impl Container<'_> {
    /// Whether `#[binform(version_tolerant)]` is set.
    pub fn is_tolerant(&self) -> bool {
        self.attrs.version_tolerant.is_some()
    }
}

impl Field<'_> {
    /// Whether the field is in the payload.
    pub fn is_encoded(&self) -> bool {
        self.attrs.skip.is_none()
    }
}
