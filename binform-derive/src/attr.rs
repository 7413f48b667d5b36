//! `#[binform(...)]` attributes, parsed into typed values that keep their
//! spans. Unknown keys, repeated keys and malformed values are errors.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Attribute, LitStr, Path, Token, WherePredicate};

use crate::ctxt::Ctxt;
use crate::symbol::{
    self, Symbol, BINFORM, BOUND, BOUND_KEYS, CONTAINER_KEYS, CRATE, DEFAULT, ENCODING, FIELD_KEYS,
    OTHER, PACK, REMOTE, REQUIRED, RESERVED, SCHEMA_LOCK, SERDE, SKIP, TAG, UNPACK, VARIANT_KEYS,
    VERSION_TOLERANT, WITH,
};

/// A value given by an attribute, with the span of its key for errors.
/// (Not `Spanned`: that name is `syn::spanned::Spanned`'s.)
pub struct Attr<T> {
    pub value: T,
    pub span: Span,
}

/// One attribute slot: remembers the first value and reports repeats.
struct Slot<'c, T> {
    cx: &'c Ctxt,
    /// The key, and the key it is nested in (`bound(pack)`), if any.
    key: Symbol,
    parent: Option<Symbol>,
    value: Option<Attr<T>>,
}

impl<'c, T> Slot<'c, T> {
    fn new(cx: &'c Ctxt, key: Symbol) -> Self {
        Slot {
            cx,
            key,
            parent: None,
            value: None,
        }
    }

    /// A slot for `key` inside `parent(...)`.
    fn nested(cx: &'c Ctxt, parent: Symbol, key: Symbol) -> Self {
        Slot {
            parent: Some(parent),
            ..Slot::new(cx, key)
        }
    }

    /// The key as written: `tag`, `bound(pack)`.
    fn name(&self) -> String {
        match self.parent {
            Some(parent) => format!("{parent}({})", self.key),
            None => self.key.to_string(),
        }
    }

    /// Whether `meta` is this slot's key.
    fn is(&self, meta: &ParseNestedMeta) -> bool {
        meta.path == self.key
    }

    fn set(&mut self, meta: &ParseNestedMeta, value: T) {
        if self.value.is_some() {
            self.cx.error_spanned_by(
                &meta.path,
                format!("duplicate binform attribute `{}`", self.name()),
            );
        } else {
            self.value = Some(Attr {
                value,
                span: meta_span(meta),
            });
        }
    }

    /// Reads the key's value with `read` (given the key, for its errors)
    /// and records it.
    fn read(
        &mut self,
        meta: &ParseNestedMeta,
        read: impl FnOnce(&ParseNestedMeta, Symbol) -> syn::Result<T>,
    ) -> syn::Result<()> {
        let value = read(meta, self.key)?;
        self.set(meta, value);
        Ok(())
    }

    fn get(self) -> Option<Attr<T>> {
        self.value
    }
}

fn meta_span(meta: &ParseNestedMeta) -> Span {
    meta.path
        .segments
        .first()
        .map(|s| s.ident.span())
        .unwrap_or_else(Span::call_site)
}

/// Accepts a key that takes no value (`skip`, `other`, `version_tolerant`)
/// and records it in `slot`.
fn flag(meta: &ParseNestedMeta, slot: &mut Slot<'_, ()>) -> syn::Result<()> {
    if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        return Err(meta.error(format!("`{}` takes no value", slot.name())));
    }
    slot.set(meta, ());
    Ok(())
}

/// Reads `= "string"` after a key.
fn string_value(meta: &ParseNestedMeta, key: Symbol) -> syn::Result<LitStr> {
    let expr = meta.value()?;
    match expr.parse::<syn::Lit>()? {
        syn::Lit::Str(s) => Ok(s),
        other => Err(syn::Error::new_spanned(
            other,
            format!("expected `{key} = \"...\"` with a string literal"),
        )),
    }
}

/// Reads `= 7` (a `u32` literal).
fn u32_value(meta: &ParseNestedMeta, key: Symbol) -> syn::Result<(u32, Span)> {
    let expr = meta.value()?;
    match expr.parse::<syn::Lit>()? {
        syn::Lit::Int(i) => i.base10_parse::<u32>().map(|v| (v, i.span())).map_err(|_| {
            syn::Error::new(
                i.span(),
                format!("`{key}` expects a number from 0 to 2^32 - 1"),
            )
        }),
        other => Err(syn::Error::new_spanned(
            other,
            format!("expected `{key} = <number>`"),
        )),
    }
}

/// Reads `= [1, 2, 3]` (a list of `u32` literals).
fn u32_list_value(meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Vec<(u32, Span)>> {
    let input = meta.value()?;
    let content;
    syn::bracketed!(content in input);
    let items = Punctuated::<syn::LitInt, Token![,]>::parse_terminated(&content)
        .map_err(|e| syn::Error::new(e.span(), format!("expected `{key} = [1, 2, ...]`")))?;
    items
        .iter()
        .map(|i| {
            i.base10_parse::<u32>()
                .map(|v| (v, i.span()))
                .map_err(|_| syn::Error::new(i.span(), "expected a number from 0 to 2^32 - 1"))
        })
        .collect()
}

/// Reads `= "path::to::item"`.
fn path_value(meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Path> {
    let lit = string_value(meta, key)?;
    lit.parse::<Path>().map_err(|_| {
        syn::Error::new(
            lit.span(),
            format!("`{key}` expects a path, such as \"my_module\" or \"crate::codecs::name\""),
        )
    })
}

/// Reads `= "T: Trait, U: Other"`.
fn predicates_value(meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Vec<WherePredicate>> {
    let lit = string_value(meta, key)?;
    let parsed = lit
        .parse_with(Punctuated::<WherePredicate, Token![,]>::parse_terminated)
        .map_err(|e| {
            syn::Error::new(
                lit.span(),
                format!("`{key}` expects where-clause predicates: {e}"),
            )
        })?;
    Ok(parsed.into_iter().collect())
}

/// Calls `each` for every item in every `#[binform(...)]` attribute.
fn for_each_meta(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut each: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| *a.path() == BINFORM) {
        if let syn::Meta::Path(_) = attr.meta {
            cx.error_spanned_by(attr, "expected `#[binform(...)]` with arguments");
            continue;
        }
        if let Err(err) = attr.parse_nested_meta(|meta| each(&meta)) {
            cx.syn_error(err);
        }
    }
}

fn unknown(meta: &ParseNestedMeta, place: &str, known: &[Symbol]) -> syn::Error {
    let known = symbol::list(known);
    let name = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_else(|| {
            let path = &meta.path;
            quote::quote!(#path).to_string()
        });
    meta.error(format!(
        "unknown binform {place} attribute `{name}` (expected one of: {known})"
    ))
}

/// Attributes on the struct or enum itself.
pub struct Container {
    /// `crate = "path"`: where the runtime crate lives, for re-exports.
    pub krate: Option<Attr<Path>>,
    /// `bound = "..."`: replaces the inferred bounds of both impls.
    pub bound: Option<Attr<Vec<WherePredicate>>>,
    /// `bound(pack = "...")`: replaces the inferred bounds of `Pack`.
    pub pack_bound: Option<Attr<Vec<WherePredicate>>>,
    /// `bound(unpack = "...")`: replaces the inferred bounds of `Unpack`
    /// (the lifetime of the input is `'de`).
    pub unpack_bound: Option<Attr<Vec<WherePredicate>>>,
    /// `bound(encoding = "...")`: replaces the inferred bounds of
    /// `Encoding` (`T: Encoding` for each parameter fields use).
    pub encoding_bound: Option<Attr<Vec<WherePredicate>>>,
    /// `version_tolerant`: fields (or variants) are tagged and length
    /// prefixed, so peers with other versions of the type can read it.
    pub version_tolerant: Option<Attr<()>>,
    /// `reserved = [3, 5]`: tags of removed fields or variants, never to be
    /// reused.
    pub reserved: Option<Attr<Vec<(u32, Span)>>>,
    /// `schema_lock = "path"`: the lock file the type is checked against at
    /// compile time (see `lock.rs`).
    pub schema_lock: Option<Attr<LitStr>>,
    /// `remote = "path"`: the impls are for the type at `path`, whose
    /// definition this one restates; the compiler checks every field and
    /// variant against it. For binform itself (its schema model lives in
    /// `binform-schema`, whose types binform's traits may be implemented
    /// for there): in a user's crate the orphan rule allows only the
    /// user's own types, which need no restating.
    pub remote: Option<Attr<Path>>,
}

impl Container {
    pub fn parse(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut krate = Slot::new(cx, CRATE);
        let mut bound = Slot::new(cx, BOUND);
        let mut pack_bound = Slot::nested(cx, BOUND, PACK);
        let mut unpack_bound = Slot::nested(cx, BOUND, UNPACK);
        let mut encoding_bound = Slot::nested(cx, BOUND, ENCODING);
        let mut version_tolerant = Slot::new(cx, VERSION_TOLERANT);
        let mut reserved = Slot::new(cx, RESERVED);
        let mut schema_lock = Slot::new(cx, SCHEMA_LOCK);
        let mut remote = Slot::new(cx, REMOTE);
        for_each_meta(cx, attrs, |meta| {
            if version_tolerant.is(meta) {
                flag(meta, &mut version_tolerant)?;
            } else if reserved.is(meta) {
                reserved.read(meta, u32_list_value)?;
            } else if krate.is(meta) {
                krate.read(meta, path_value)?;
            } else if schema_lock.is(meta) {
                schema_lock.read(meta, string_value)?;
            } else if remote.is(meta) {
                remote.read(meta, path_value)?;
            } else if bound.is(meta) {
                if meta.input.peek(Token![=]) {
                    bound.read(meta, predicates_value)?;
                } else {
                    meta.parse_nested_meta(|inner| {
                        for slot in [&mut pack_bound, &mut unpack_bound, &mut encoding_bound] {
                            if slot.is(&inner) {
                                return slot.read(&inner, predicates_value);
                            }
                        }
                        Err(unknown(&inner, "bound", BOUND_KEYS))
                    })?;
                }
            } else {
                return Err(unknown(meta, "container", CONTAINER_KEYS));
            }
            Ok(())
        });
        Container {
            krate: krate.get(),
            bound: bound.get(),
            pack_bound: pack_bound.get(),
            unpack_bound: unpack_bound.get(),
            encoding_bound: encoding_bound.get(),
            version_tolerant: version_tolerant.get(),
            reserved: reserved.get(),
            schema_lock: schema_lock.get(),
            remote: remote.get(),
        }
    }
}

/// Attributes on one field.
pub struct Field {
    /// `skip`: not encoded; decoded as `default` or `Default::default()`.
    pub skip: Option<Attr<()>>,
    /// `default = "path"`: a function returning the value to use when the
    /// field is not in the payload.
    pub default: Option<Attr<Path>>,
    /// `with = "module"`: `module::pack` and `module::unpack` encode the
    /// field. `serde` sets it to the runtime's `serde` module (see
    /// [`Field::resolve_serde`]).
    pub with: Option<Attr<Path>>,
    /// `serde`: the field goes through its serde impls.
    pub serde: Option<Attr<()>>,
    /// `required`: in a tolerant type, a payload without the field is an
    /// error (`MissingField`) instead of taking a default.
    pub required: Option<Attr<()>>,
    /// `tag = N`: the field's stable tag in a version-tolerant type.
    pub tag: Option<Attr<u32>>,
}

impl Field {
    pub fn parse(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut skip = Slot::new(cx, SKIP);
        let mut default = Slot::new(cx, DEFAULT);
        let mut with = Slot::new(cx, WITH);
        let mut serde = Slot::new(cx, SERDE);
        let mut required = Slot::new(cx, REQUIRED);
        let mut tag = Slot::new(cx, TAG);
        for_each_meta(cx, attrs, |meta| {
            if tag.is(meta) {
                tag.read(meta, |meta, key| u32_value(meta, key).map(|(v, _)| v))?;
            } else if skip.is(meta) {
                flag(meta, &mut skip)?;
            } else if default.is(meta) {
                default.read(meta, path_value)?;
            } else if with.is(meta) {
                with.read(meta, path_value)?;
            } else if serde.is(meta) {
                flag(meta, &mut serde)?;
            } else if required.is(meta) {
                flag(meta, &mut required)?;
            } else {
                return Err(unknown(meta, "field", FIELD_KEYS));
            }
            Ok(())
        });
        let (with, serde) = (with.get(), serde.get());
        if let (Some(_), Some(serde)) = (&with, &serde) {
            // Each says how to encode the field; one would be ignored.
            cx.syn_error(syn::Error::new(
                serde.span,
                "`serde` and `with` both say how to encode this field; keep one of them",
            ));
        }
        Field {
            skip: skip.get(),
            default: default.get(),
            with,
            serde,
            required: required.get(),
            tag: tag.get(),
        }
    }

    /// Turns `serde` into `with = "<krate>::serde"`: the runtime's serde
    /// module has the `pack`/`unpack` pair a `with` module has, so the
    /// field is then encoded, described and framed as any `with` field.
    /// Given both (an error reported by `parse`), `with` stays.
    pub fn resolve_serde(&mut self, krate: &Path) {
        if let (Some(serde), None) = (&self.serde, &self.with) {
            let mut path = krate.clone();
            path.segments
                .push(syn::Ident::new(SERDE.as_str(), serde.span).into());
            self.with = Some(Attr {
                value: path,
                span: serde.span,
            });
        }
    }
}

/// Attributes on one enum variant.
pub struct Variant {
    /// `tag = N`: the variant's stable tag in a version-tolerant enum.
    pub tag: Option<Attr<u32>>,
    /// `other`: the catch-all for variants this reader does not know.
    pub other: Option<Attr<()>>,
}

impl Variant {
    pub fn parse(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut tag = Slot::new(cx, TAG);
        let mut other = Slot::new(cx, OTHER);
        for_each_meta(cx, attrs, |meta| {
            if tag.is(meta) {
                tag.read(meta, |meta, key| u32_value(meta, key).map(|(v, _)| v))?;
            } else if other.is(meta) {
                flag(meta, &mut other)?;
            } else {
                return Err(unknown(meta, "variant", VARIANT_KEYS));
            }
            Ok(())
        });
        Variant {
            tag: tag.get(),
            other: other.get(),
        }
    }
}
