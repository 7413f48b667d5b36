//! Rules that involve more than one attribute or field. Each rule is one
//! function; all report into the context so every mistake shows at once.

use std::collections::BTreeMap;

use proc_macro2::Span;
use quote::ToTokens;

use crate::ast::{Body, Container, Field};
use crate::ctxt::Ctxt;

/// Where to point at a field: its `tag` attribute if it has one, else its
/// name (or type, for tuple fields).
fn field_span(field: &Field) -> Span {
    match (&field.attrs.tag, &field.member) {
        (Some(tag), _) => tag.span,
        (None, syn::Member::Named(ident)) => ident.span(),
        (None, syn::Member::Unnamed(_)) => field.span,
    }
}

/// Every tag, with where it was given, per tag space: the struct's fields,
/// each variant's fields, and the variants themselves.
fn tag_spaces(cont: &Container) -> Vec<Vec<(u32, Span, String)>> {
    let fields = |fields: &[Field]| {
        fields
            .iter()
            .filter(|f| f.is_encoded())
            .map(|f| {
                (
                    f.tag,
                    field_span(f),
                    format!("field `{}`", f.member.to_token_stream()),
                )
            })
            .collect::<Vec<_>>()
    };
    match &cont.body {
        Body::Struct(_, fs) => vec![fields(fs)],
        Body::Enum(variants) => {
            let mut spaces: Vec<_> = variants.iter().map(|v| fields(&v.fields)).collect();
            spaces.push(
                variants
                    .iter()
                    .map(|v| {
                        let span = v.attrs.tag.as_ref().map_or(v.ident.span(), |t| t.span);
                        (v.tag, span, format!("variant `{}`", v.ident))
                    })
                    .collect(),
            );
            spaces
        }
    }
}

/// `tag`, `reserved` and `other` describe the tolerant wire form; on a
/// compact type they would silently mean nothing.
fn tolerant_attributes_need_tolerant_type(cx: &Ctxt, cont: &Container) {
    if cont.is_tolerant() {
        return;
    }
    const HINT: &str = "only has meaning on a `#[binform(version_tolerant)]` type";
    for field in cont.all_fields() {
        if let Some(tag) = &field.attrs.tag {
            cx.syn_error(syn::Error::new(tag.span, format!("`tag` {HINT}")));
        }
        if let Some(required) = &field.attrs.required {
            cx.syn_error(syn::Error::new(
                required.span,
                format!("`required` {HINT}: a compact type's fields are always in the payload"),
            ));
        }
    }
    if let Body::Enum(variants) = &cont.body {
        for v in variants {
            if let Some(tag) = &v.attrs.tag {
                cx.syn_error(syn::Error::new(tag.span, format!("`tag` {HINT}")));
            }
            if let Some(other) = &v.attrs.other {
                cx.syn_error(syn::Error::new(other.span, format!("`other` {HINT}")));
            }
        }
    }
    if let Some(reserved) = &cont.attrs.reserved {
        cx.syn_error(syn::Error::new(reserved.span, format!("`reserved` {HINT}")));
    }
}

/// Two fields with one tag would make a reader put one field's bytes into
/// the other (the bug MemoryPack once shipped): never allowed.
fn tags_are_unique(cx: &Ctxt, cont: &Container) {
    for space in tag_spaces(cont) {
        let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
        for (tag, span, what) in &space {
            if let Some(first) = seen.get(tag) {
                cx.syn_error(syn::Error::new(
                    *span,
                    format!("tag {tag} of {what} is already used by {first}"),
                ));
            } else {
                seen.insert(*tag, what);
            }
        }
    }
}

/// A reserved tag belonged to a removed field: reusing it would make old
/// payloads decode into the wrong field.
fn reserved_tags_are_unused(cx: &Ctxt, cont: &Container) {
    let Some(reserved) = &cont.attrs.reserved else {
        return;
    };
    for space in tag_spaces(cont) {
        for (tag, span, what) in &space {
            if reserved.value.iter().any(|(r, _)| r == tag) {
                cx.syn_error(syn::Error::new(
                    *span,
                    format!("tag {tag} of {what} is reserved (it belonged to a removed field or variant)"),
                ));
            }
        }
    }
}

/// One catch-all is all a reader can map unknown variants to.
fn other_at_most_once(cx: &Ctxt, cont: &Container) {
    let Body::Enum(variants) = &cont.body else {
        return;
    };
    let mut first: Option<&syn::Ident> = None;
    for v in variants {
        if let Some(other) = &v.attrs.other {
            match first {
                Some(f) => cx.syn_error(syn::Error::new(
                    other.span,
                    format!("`other` is already on variant `{f}`; an enum has one catch-all"),
                )),
                None => first = Some(v.ident),
            }
        }
    }
}

pub fn check(cx: &Ctxt, cont: &Container) {
    tolerant_attributes_need_tolerant_type(cx, cont);
    if cont.is_tolerant() {
        tags_are_unique(cx, cont);
        reserved_tags_are_unused(cx, cont);
        other_at_most_once(cx, cont);
    }
    skip_and_with_conflict(cx, cont);
    required_excludes_skip_and_default(cx, cont);
    required_not_in_other(cx, cont);
    bound_forms_conflict(cx, cont);
    de_lifetime_reserved(cx, cont);
    generated_names_reserved(cx, cont);
    name_is_no_builtins(cx, cont);
}

/// `skip` removes a field from the payload, `with` says how to encode it:
/// asking for both is a contradiction, not a preference.
fn skip_and_with_conflict(cx: &Ctxt, cont: &Container) {
    for field in cont.all_fields() {
        if let (Some(_), Some(with)) = (&field.attrs.skip, &field.attrs.with) {
            cx.syn_error(syn::Error::new(
                with.span,
                "`with` has no effect on a `skip` field, which is never encoded; remove one of them",
            ));
        }
    }
}

/// `required` says a payload must carry the field; `skip` that it never
/// does, `default` what to use when it does not: each pair contradicts.
fn required_excludes_skip_and_default(cx: &Ctxt, cont: &Container) {
    for field in cont.all_fields() {
        let Some(required) = &field.attrs.required else {
            continue;
        };
        if field.attrs.skip.is_some() {
            cx.syn_error(syn::Error::new(
                required.span,
                "a `skip` field is never in the payload, so it cannot be `required`; remove one of them",
            ));
        }
        if field.attrs.default.is_some() {
            cx.syn_error(syn::Error::new(
                required.span,
                "a `required` field has no default: a payload without it is an error; remove `default` or `required`",
            ));
        }
    }
}

/// The `other` catch-all is produced without its payload, so its fields
/// always take their defaults: a `required` one could never be filled.
fn required_not_in_other(cx: &Ctxt, cont: &Container) {
    if let Body::Enum(variants) = &cont.body {
        for v in variants.iter().filter(|v| v.attrs.other.is_some()) {
            for f in &v.fields {
                if let Some(required) = &f.attrs.required {
                    cx.syn_error(syn::Error::new(
                        required.span,
                        "a field of the `other` variant is never read (the variant stands for ones this reader does not know), so it cannot be `required`",
                    ));
                }
            }
        }
    }
}

/// `bound = "..."` sets every impl's bounds, so it cannot be combined with
/// the per-impl `bound(pack = ...)` / `bound(unpack = ...)` /
/// `bound(encoding = ...)`.
fn bound_forms_conflict(cx: &Ctxt, cont: &Container) {
    if cont.attrs.bound.is_some() {
        for per_direction in [
            &cont.attrs.pack_bound,
            &cont.attrs.unpack_bound,
            &cont.attrs.encoding_bound,
        ]
        .into_iter()
        .flatten()
        {
            cx.syn_error(syn::Error::new(
                per_direction.span,
                "`bound = \"...\"` already sets the bounds of both directions",
            ));
        }
    }
}

/// The `Unpack` impl names the input lifetime `'de`; a type parameter of
/// the same name would collide with it.
pub fn de_lifetime_reserved(cx: &Ctxt, cont: &Container) {
    for lt in cont.generics.lifetimes() {
        if lt.lifetime.ident == "de" {
            cx.error_spanned_by(
                &lt.lifetime,
                "the lifetime name `'de` is reserved for the input of `Unpack<'de>`; rename it",
            );
        }
    }
}

/// The generated code names its layout parameter `__L`, the runtime's
/// items `__bf::Name` (`use <crate>::__private as __bf;` opens its
/// block) and its own items `__bf_...` (fn items that make or take a
/// column's elements, `__bf_make` and `__bf_take`): a type parameter of
/// such a name would hide them, and a field type naming one (a module
/// path, a const as an array's length) would name the derive's items in
/// the impls instead of the user's.
fn generated_names_reserved(cx: &Ctxt, cont: &Container) {
    let reserved = |ident: &proc_macro2::Ident| {
        let name = ident.to_string();
        (name == "__L" || name.starts_with("__bf")).then_some(name)
    };
    let message = |name: &str| {
        format!(
            "the name `{name}` is reserved for the code `#[derive(Packable)]` generates; rename it"
        )
    };
    for param in &cont.generics.params {
        let ident = match param {
            syn::GenericParam::Type(t) => &t.ident,
            syn::GenericParam::Const(c) => &c.ident,
            syn::GenericParam::Lifetime(_) => continue,
        };
        if let Some(name) = reserved(ident) {
            cx.error_spanned_by(ident, message(&name));
        }
    }
    for f in cont.all_fields() {
        if let Some(ident) = first_ident_starting(f.ty.to_token_stream(), "__bf") {
            cx.error_spanned_by(&ident, message(&ident.to_string()));
        }
    }
}

/// The first identifier beginning with `prefix` in `tokens`, however
/// deep in groups.
fn first_ident_starting(
    tokens: proc_macro2::TokenStream,
    prefix: &str,
) -> Option<proc_macro2::Ident> {
    tokens.into_iter().find_map(|tree| match tree {
        proc_macro2::TokenTree::Ident(ident) if ident.to_string().starts_with(prefix) => {
            Some(ident)
        }
        proc_macro2::TokenTree::Group(group) => first_ident_starting(group.stream(), prefix),
        _ => None,
    })
}

/// A derived type is not named like a built-in encoding (`string`,
/// `seq`): a lock file names both the same way, and the derived type's
/// block would claim every field of the built-in.
fn name_is_no_builtins(cx: &Ctxt, cont: &Container) {
    let name = crate::encoding::type_ident(cont);
    if binform_schema::is_builtin_name(&name) {
        cx.error_spanned_by(
            cont.ident,
            format!(
                "`{name}` is the schema name of a built-in encoding: a lock file could not tell this type from it; rename the type"
            ),
        );
    }
}
