//! The derive input as a typed IR: the container, its variants and fields,
//! each with parsed attributes and the spans errors point at.

use syn::{Data, DeriveInput, Fields, Generics, Ident, Member, Type};

use crate::attr;
use crate::ctxt::Ctxt;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub attrs: attr::Container,
    pub body: Body<'a>,
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
    #[allow(dead_code)] // parsed so that misuse is reported
    pub attrs: attr::Variant,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub member: Member,
    pub ty: &'a Type,
    pub attrs: attr::Field,
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
            Data::Enum(data) => Body::Enum(
                data.variants
                    .iter()
                    .map(|v| {
                        let (style, fields) = fields_from_ast(cx, &v.fields);
                        Variant {
                            ident: &v.ident,
                            attrs: attr::Variant::parse(cx, &v.attrs),
                            style,
                            fields,
                        }
                    })
                    .collect(),
            ),
            Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "binform cannot derive Packable for a union: which field is live \
                     is not known; wrap it in a struct or enum with a manual impl",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            attrs,
            body,
        })
    }

    /// Every field of every variant.
    pub fn all_fields(&self) -> Box<dyn Iterator<Item = &Field<'a>> + '_> {
        match &self.body {
            Body::Struct(_, fields) => Box::new(fields.iter()),
            Body::Enum(variants) => Box::new(variants.iter().flat_map(|v| v.fields.iter())),
        }
    }
}

fn fields_from_ast<'a>(cx: &Ctxt, fields: &'a Fields) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    };
    let fields = fields
        .iter()
        .enumerate()
        .map(|(i, f)| Field {
            member: match &f.ident {
                Some(ident) => Member::Named(ident.clone()),
                None => Member::Unnamed(i.into()),
            },
            ty: &f.ty,
            attrs: attr::Field::parse(cx, &f.attrs),
        })
        .collect();
    (style, fields)
}

impl Field<'_> {
    /// Whether the field is in the payload.
    pub fn is_encoded(&self) -> bool {
        self.attrs.skip.is_none()
    }
}
