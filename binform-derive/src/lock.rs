//! `#[binform(schema_lock = "path")]`: the type checked at compile time
//! against the lock file `binform::schema::assert_compatible` writes.
//!
//! The derive reads the file (relative to the crate's `Cargo.toml`; an
//! `include_str!` makes editing it rebuild), finds the type's block, and
//! reports each breaking change of the type's own definition on the span
//! it concerns: a compact type's fields renamed, reordered, added or
//! removed; a tolerant field or variant removed without reserving its tag;
//! a reserved tag reused; a variant added to a tolerant enum whose locked
//! version has no `other`; a kind or mode changed. Field types are checked
//! by the compiler: the lock's type of each field becomes the constant
//! computation of its shape (its fingerprint at level 0: built-ins and the
//! names of the derived types it reaches) that the runtime does
//! (`Unrolled`), and a `const` assertion on the field's type compares the
//! two, failing with a message that says what the lock file has. Changes
//! inside a derived type a field reaches are that type's own: locked where
//! it is (`schema_lock` on it, or `assert_compatible` for a whole graph),
//! so a compatible change to a recursive or nested tolerant type compiles.

use std::collections::BTreeMap;

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

use crate::ast::{Body, Container, Field};
use crate::ctxt::Ctxt;

/// One type's block of a lock file.
struct Locked {
    is_enum: bool,
    tolerant: bool,
    reserved: Vec<u32>,
    fields: Vec<LockedField>,
    variants: Vec<LockedVariant>,
}

struct LockedField {
    tag: u32,
    name: String,
    ty: String,
}

struct LockedVariant {
    tag: u32,
    name: String,
    other: bool,
    fields: Vec<LockedField>,
}

/// The type blocks of a lock file's text (the `Display` of a schema).
fn parse(text: &str) -> Result<BTreeMap<String, Locked>, String> {
    let mut types: BTreeMap<String, Locked> = BTreeMap::new();
    let mut current: Option<(String, Locked)> = None;
    for (n, line) in text.lines().enumerate() {
        let bad = |what: &str| format!("line {}: {what}", n + 1);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("root ") {
            continue;
        }
        let mut words = trimmed.splitn(4, ' ');
        let keyword = words.next().unwrap_or_default();
        match keyword {
            "struct" | "enum" => {
                if let Some((name, def)) = current.take() {
                    if types.insert(name.clone(), def).is_some() {
                        return Err(bad(&format!("a second block for `{name}`")));
                    }
                }
                let name = words.next().ok_or_else(|| bad("a type without a name"))?;
                let mode = words.next().unwrap_or_default();
                current = Some((
                    name.to_string(),
                    Locked {
                        is_enum: keyword == "enum",
                        tolerant: mode == "tolerant",
                        reserved: Vec::new(),
                        fields: Vec::new(),
                        variants: Vec::new(),
                    },
                ));
            }
            "reserved" => {
                let (_, def) = current
                    .as_mut()
                    .ok_or_else(|| bad("`reserved` outside a type"))?;
                for tag in trimmed.split(' ').skip(1) {
                    def.reserved.push(
                        tag.parse()
                            .map_err(|_| bad("a reserved tag that is no number"))?,
                    );
                }
            }
            "field" => {
                let (_, def) = current
                    .as_mut()
                    .ok_or_else(|| bad("`field` outside a type"))?;
                let tag = words
                    .next()
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| bad("a field without a tag"))?;
                let name = words.next().ok_or_else(|| bad("a field without a name"))?;
                let ty = words.next().ok_or_else(|| bad("a field without a type"))?;
                let field = LockedField {
                    tag,
                    name: name.to_string(),
                    ty: ty.to_string(),
                };
                match def.variants.last_mut() {
                    Some(v) if line.starts_with("    ") => v.fields.push(field),
                    _ => def.fields.push(field),
                }
            }
            "variant" => {
                let (_, def) = current
                    .as_mut()
                    .ok_or_else(|| bad("`variant` outside a type"))?;
                let tag = words
                    .next()
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| bad("a variant without a tag"))?;
                let name = words
                    .next()
                    .ok_or_else(|| bad("a variant without a name"))?;
                def.variants.push(LockedVariant {
                    tag,
                    name: name.to_string(),
                    other: words.next() == Some("other"),
                    fields: Vec::new(),
                });
            }
            other => return Err(bad(&format!("`{other}` is not a lock-file keyword"))),
        }
    }
    if let Some((name, def)) = current {
        if types.insert(name.clone(), def).is_some() {
            return Err(format!("a second block for `{name}`"));
        }
    }
    Ok(types)
}

/// A lock file's type text as a tree: a built-in with arguments, or a
/// derived type by name (its own generic arguments part of the name).
enum Ty {
    Builtin(String, Vec<Ty>),
    Named(String),
}

fn parse_ty(text: &str, depth: usize) -> Result<Ty, String> {
    if depth > 256 {
        return Err("types nest deeper than 256 levels".into());
    }
    let text = text.trim();
    if text.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Ok(Ty::Named(text.replace(' ', "")));
    }
    let Some(open) = text.find('<') else {
        return Ok(Ty::Builtin(text.to_string(), Vec::new()));
    };
    let inner = text[open + 1..]
        .strip_suffix('>')
        .ok_or_else(|| format!("`{text}` is not a type"))?;
    // Split the arguments at top-level commas.
    let mut args = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in inner.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                args.push(parse_ty(&inner[start..i], depth + 1)?);
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(parse_ty(&inner[start..], depth + 1)?);
    Ok(Ty::Builtin(text[..open].to_string(), args))
}

/// The identifier of a derived type's name (as `schema::type_ident`).
fn type_ident(name: &str) -> &str {
    name.split(['<', '#']).next().unwrap_or(name)
}

/// A constant expression for a locked field type's shape: its value at
/// level 0 of the fingerprint (format.md §14), where built-ins are
/// themselves and a derived type is `ref Name`. A name without a block in
/// the file is a hand-written impl's own name (a built-in to the hash).
fn expr(krate: &TokenStream, ty: &Ty, types: &BTreeMap<String, Locked>) -> TokenStream {
    match ty {
        Ty::Builtin(name, args) => {
            let args = args.iter().map(|a| expr(krate, a, types));
            quote!(#krate::__private::Unrolled::builtin(#name, &[#(#args),*]))
        }
        Ty::Named(name) if types.contains_key(name) => {
            let ident = type_ident(name);
            quote!(#krate::__private::Unrolled::reference(#ident))
        }
        Ty::Named(name) => quote!(#krate::__private::Unrolled::builtin(#name, &[])),
    }
}

/// The bare name of a built-in node, whose hand-written impl may hash by
/// name alone (`Encoding::NAME`) while describing itself with arguments.
fn bare(krate: &TokenStream, ty: &Ty) -> TokenStream {
    let name = match ty {
        Ty::Builtin(name, _) | Ty::Named(name) => name,
    };
    quote!(#krate::__private::Unrolled::builtin(#name, &[]))
}

/// `type` with `Self` replaced by the type's name: the checks sit outside
/// the impls, where `Self` means nothing.
fn without_self(tokens: TokenStream, ident: &syn::Ident) -> TokenStream {
    tokens
        .into_iter()
        .map(|t| match t {
            proc_macro2::TokenTree::Ident(i) if i == "Self" => {
                proc_macro2::TokenTree::Ident(syn::Ident::new(&ident.to_string(), i.span()))
            }
            proc_macro2::TokenTree::Group(g) => {
                let mut out =
                    proc_macro2::Group::new(g.delimiter(), without_self(g.stream(), ident));
                out.set_span(g.span());
                proc_macro2::TokenTree::Group(out)
            }
            other => other,
        })
        .collect()
}

/// Checks `cont` against its lock file; returns what the expansion adds:
/// the file's tracking and the field types' assertions.
pub fn check(cx: &Ctxt, cont: &Container, krate: &TokenStream) -> TokenStream {
    let Some(attr) = &cont.attrs.schema_lock else {
        return TokenStream::new();
    };
    let span = attr.span;
    let fail = |message: String| {
        cx.syn_error(syn::Error::new(span, message));
        TokenStream::new()
    };
    if !cont.generics.params.is_empty() {
        return fail(
            "`schema_lock` needs a type without generic parameters: a lock file holds one instance"
                .into(),
        );
    }
    let rel = attr.value.value();
    let base = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let path = std::path::Path::new(&base).join(&rel);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            return fail(format!(
                "cannot read the lock file `{rel}` ({e}); write it with `binform::schema::assert_compatible::<{}>` in a test",
                cont.ident
            ))
        }
    };
    let types = match parse(&text) {
        Ok(types) => types,
        Err(e) => return fail(format!("the lock file `{rel}` is not one: {e}")),
    };
    let name = cont.ident.to_string();
    let Some(locked) = types.get(&name) else {
        return fail(format!("the lock file `{rel}` has no type `{name}`"));
    };
    let mut asserts = Vec::new();
    compare(cx, cont, locked, &rel, &mut asserts);
    let mut checks = Vec::new();
    for (field, locked_ty) in asserts {
        let member = crate::encoding::compact_tokens(&field.member);
        // A `with` (or `serde`) field is its module's path on the wire's
        // schema: compared as text.
        if let Some(with) = &field.attrs.with {
            let now = format!("with<{}>", crate::encoding::compact_tokens(&with.value));
            if now != locked_ty.replace(' ', "") {
                cx.syn_error(syn::Error::new(
                    with.span,
                    format!("field `{member}` changed encoding: the lock file `{rel}` has `{locked_ty}`, this is `{now}`"),
                ));
            }
            continue;
        }
        let parsed = match parse_ty(&locked_ty, 0) {
            Ok(parsed) => parsed,
            Err(e) => {
                cx.syn_error(syn::Error::new(span, format!("the lock file `{rel}`: {e}")));
                continue;
            }
        };
        // The field type's shape: built-ins and the names of the derived
        // types it reaches. Changes inside those types are theirs to lock.
        let lock_value = expr(krate, &parsed, &types);
        let lock_bare = bare(krate, &parsed);
        let ty = without_self(field.ty.to_token_stream(), cont.ident);
        let current = if field.concrete {
            quote_spanned!(field.ty.span()=> <#ty as #krate::__private::Field>::UNROLLED_0)
        } else {
            quote_spanned!(field.ty.span()=> <#ty as #krate::Encoding>::UNROLLED_0)
        };
        let message =
            format!("field `{member}` changed type: the lock file `{rel}` has `{locked_ty}`")
                .replace('{', "{{")
                .replace('}', "}}");
        checks.push(quote_spanned! {field.ty.span()=>
            const _: () = ::core::assert!(
                #current.fingerprint == #lock_value.fingerprint
                    || #current.fingerprint == #lock_bare.fingerprint,
                #message
            );
        });
    }
    let full = path.to_string_lossy().into_owned();
    quote! {
        // Editing the lock file rebuilds the type.
        const _: &str = ::core::include_str!(#full);
        #(#checks)*
    }
}

/// The breaking changes of the type's own definition, each reported on
/// its span; the fields whose types the compiler then compares.
fn compare<'c, 'a>(
    cx: &Ctxt,
    cont: &'c Container<'a>,
    locked: &Locked,
    rel: &str,
    asserts: &mut Vec<(&'c Field<'a>, String)>,
) {
    let tolerant = cont.is_tolerant();
    let ident = cont.ident;
    let err = |span: Span, message: String| cx.syn_error(syn::Error::new(span, message));
    let is_enum = matches!(cont.body, Body::Enum(_));
    if is_enum != locked.is_enum {
        let (was, now) = if locked.is_enum {
            ("an enum", "a struct")
        } else {
            ("a struct", "an enum")
        };
        return err(
            ident.span(),
            format!("`{ident}` is {now}; the lock file `{rel}` has {was}"),
        );
    }
    if tolerant != locked.tolerant {
        let mode = |t: bool| if t { "version_tolerant" } else { "compact" };
        return err(
            ident.span(),
            format!(
                "`{ident}` is {}; the lock file `{rel}` has it {}: its bytes changed completely",
                mode(tolerant),
                mode(locked.tolerant)
            ),
        );
    }
    let reserved: Vec<u32> = cont
        .attrs
        .reserved
        .as_ref()
        .map(|r| r.value.iter().map(|(t, _)| *t).collect())
        .unwrap_or_default();
    match &cont.body {
        Body::Struct(_, fields) => {
            let place = ident.to_string();
            compare_fields(
                cx,
                tolerant,
                &place,
                ident.span(),
                fields,
                &locked.fields,
                &reserved,
                &locked.reserved,
                rel,
                asserts,
            );
        }
        Body::Enum(variants) => {
            if tolerant {
                for lv in &locked.variants {
                    if !variants.iter().any(|v| v.tag == lv.tag) && !reserved.contains(&lv.tag) {
                        err(ident.span(), format!("variant {} `{}` of the lock file `{rel}` was removed without reserving its tag (add `reserved = [{}]`)", lv.tag, lv.name, lv.tag));
                    }
                }
                for v in variants {
                    if locked.reserved.contains(&v.tag) {
                        err(v.ident.span(), format!("variant `{}` reuses tag {}, which the lock file `{rel}` reserves for a removed variant", v.ident, v.tag));
                    } else if !locked.variants.iter().any(|lv| lv.tag == v.tag)
                        && !locked.variants.iter().any(|lv| lv.other)
                    {
                        err(v.ident.span(), format!("variant `{}` is new, and the locked enum has no `other` variant: readers of the lock file's version cannot read it", v.ident));
                    }
                }
            } else {
                for (i, v) in variants.iter().enumerate() {
                    match locked.variants.get(i) {
                        Some(lv) if v.ident != lv.name.as_str() => err(v.ident.span(), format!("variant {i} is `{}` in the lock file `{rel}`: a compact enum's variants are numbered by position", lv.name)),
                        Some(_) => {}
                        None => err(v.ident.span(), format!("variant `{}` is new: the lock file `{rel}` has {} variants, and a compact enum's readers know no more", v.ident, locked.variants.len())),
                    }
                }
                if let Some(lv) = locked.variants.get(variants.len()) {
                    err(
                        ident.span(),
                        format!(
                            "variant {} `{}` of the lock file `{rel}` was removed",
                            variants.len(),
                            lv.name
                        ),
                    );
                }
            }
            for v in variants {
                let matched = if tolerant {
                    locked.variants.iter().find(|lv| lv.tag == v.tag)
                } else {
                    locked
                        .variants
                        .iter()
                        .find(|lv| v.ident == lv.name.as_str())
                };
                if let Some(lv) = matched {
                    let place = format!("{ident}::{}", v.ident);
                    // A variant's fields have no reserved tags of their
                    // own (the enum's are its variants').
                    compare_fields(
                        cx,
                        tolerant,
                        &place,
                        v.ident.span(),
                        &v.fields,
                        &lv.fields,
                        &[],
                        &[],
                        rel,
                        asserts,
                    );
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn compare_fields<'c, 'a>(
    cx: &Ctxt,
    tolerant: bool,
    place: &str,
    span: Span,
    fields: &'c [Field<'a>],
    locked: &[LockedField],
    reserved: &[u32],
    locked_reserved: &[u32],
    rel: &str,
    asserts: &mut Vec<(&'c Field<'a>, String)>,
) {
    let err = |span: Span, message: String| cx.syn_error(syn::Error::new(span, message));
    let encoded: Vec<&Field> = fields.iter().filter(|f| f.is_encoded()).collect();
    let name = |f: &Field| crate::encoding::compact_tokens(&f.member);
    if !tolerant {
        for (i, f) in encoded.iter().enumerate() {
            match locked.get(i) {
                Some(l) if l.name != name(f) => err(f.member.span(), format!(
                    "field {i} of `{place}` is `{}: {}` in the lock file `{rel}`: a compact type's fields are positional, so renaming or reordering breaks readers",
                    l.name, l.ty
                )),
                Some(l) => asserts.push((f, l.ty.clone())),
                None => err(f.member.span(), format!(
                    "field `{}` is new: the lock file `{rel}` has {} fields, and a compact type's readers read exactly those (add fields to a version_tolerant type)",
                    name(f), locked.len()
                )),
            }
        }
        if let Some(l) = locked.get(encoded.len()) {
            err(
                span,
                format!(
                    "field {} `{}: {}` of `{place}` in the lock file `{rel}` was removed",
                    encoded.len(),
                    l.name,
                    l.ty
                ),
            );
        }
        return;
    }
    for l in locked {
        match encoded.iter().find(|f| f.tag == l.tag) {
            Some(f) => asserts.push((f, l.ty.clone())),
            None if reserved.contains(&l.tag) => {}
            None => err(span, format!(
                "field {} `{}` of `{place}` in the lock file `{rel}` was removed without reserving its tag (add `reserved = [{}]`)",
                l.tag, l.name, l.tag
            )),
        }
    }
    for f in &encoded {
        if locked_reserved.contains(&f.tag) {
            let at = f
                .attrs
                .tag
                .as_ref()
                .map_or_else(|| f.member.span(), |t| t.span);
            err(at, format!(
                "field `{}` reuses tag {}, which the lock file `{rel}` reserves for a removed field: old payloads' bytes would land in it",
                name(f), f.tag
            ));
        }
    }
}
