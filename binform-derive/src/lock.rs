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
//! (`Encoding::SHAPE`), and a `const` assertion on the field's type compares the
//! two, failing with a message that says what the lock file has. Changes
//! inside a derived type a field reaches are that type's own: locked where
//! it is (`schema_lock` on it, or `assert_compatible` for a whole graph),
//! so a compatible change to a recursive or nested tolerant type compiles.

use binform_schema::{Body as LockedBody, FieldDef, Schema, TypeDef, TypeRef};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

use crate::ast::{Body, Container, Field};
use crate::ctxt::Ctxt;

/// A locked field type's shape: its value at level 0 of the fingerprint
/// (format.md §14), where built-ins are themselves and a derived type is
/// `ref Name`, computed here with the runtime's hash. (The lock file's
/// parser bounds the nesting, so this recursion is too.)
fn shape(ty: &TypeRef) -> u64 {
    use binform_schema::hash::{builtin_value, reference_value};
    match ty {
        TypeRef::Builtin { name, args } => {
            let args: Vec<u64> = args.iter().map(shape).collect();
            builtin_value(name, &args)
        }
        TypeRef::Named(name) => reference_value(binform_schema::type_ident(name)),
    }
}

/// The bare name of a built-in node, whose hand-written impl may hash by
/// name alone (`Encoding::NAME`) while describing itself with arguments.
fn bare(ty: &TypeRef) -> u64 {
    let name = match ty {
        TypeRef::Builtin { name, .. } | TypeRef::Named(name) => name,
    };
    binform_schema::hash::hash_str(name)
}

/// `type` with `Self` replaced by the type the impls are for: the checks
/// sit outside the impls, where `Self` means nothing.
fn without_self(tokens: TokenStream, self_ty: &TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .flat_map(|t| match t {
            proc_macro2::TokenTree::Ident(i) if i == "Self" => self_ty.clone(),
            proc_macro2::TokenTree::Group(g) => {
                let mut out =
                    proc_macro2::Group::new(g.delimiter(), without_self(g.stream(), self_ty));
                out.set_span(g.span());
                proc_macro2::TokenTree::Group(out).into()
            }
            other => other.into(),
        })
        .collect()
}

/// The lock file `rel` names: relative to the crate's `Cargo.toml`, or,
/// when no file is there, to the source file that holds the attribute
/// (as `include_str!` would read it). The second place makes a crate
/// whose manifest lives elsewhere (a generated test project, as trybuild
/// builds inside the target directory) find files beside its sources.
fn find(rel: &str) -> (std::path::PathBuf, std::io::Result<String>) {
    let base = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let path = std::path::Path::new(&base).join(rel);
    let read = std::fs::read_to_string(&path);
    if read.is_ok() {
        return (path, read);
    }
    // The derive's call site is in the file that holds the attribute.
    let source = proc_macro::is_available()
        .then(|| proc_macro::Span::call_site().local_file())
        .flatten();
    let beside = source
        .and_then(|file| file.parent().map(|dir| dir.join(rel)))
        .filter(|beside| beside.is_file());
    match beside {
        Some(beside) => {
            let read = std::fs::read_to_string(&beside);
            (beside, read)
        }
        None => (path, read),
    }
}

/// Checks `cont` against its lock file; returns what the expansion adds:
/// the file's tracking and the field types' assertions.
pub fn check(cx: &Ctxt, cont: &Container) -> TokenStream {
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
    let (path, read) = find(&rel);
    let text = match read {
        Ok(text) => text,
        Err(e) => {
            return fail(format!(
                "cannot read the lock file `{rel}` ({e}); write it with `binform::schema::assert_compatible::<{}>` in a test",
                crate::encoding::compact_tokens(cont.self_ty())
            ))
        }
    };
    let schema: Schema = match binform_schema::parse(&text) {
        Ok(schema) => schema,
        Err(e) => return fail(format!("the lock file `{rel}` is not one: {e}")),
    };
    let name = crate::encoding::type_ident(cont);
    let self_ty = cont.self_ty();
    let Some(locked) = schema.types.get(&name) else {
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
            if now != locked_ty.to_string().replace(' ', "") {
                cx.syn_error(syn::Error::new(
                    with.span,
                    format!("field `{member}` changed encoding: the lock file `{rel}` has `{locked_ty}`, this is `{now}`"),
                ));
            }
            continue;
        }
        // The field type's shape: built-ins and the names of the derived
        // types it reaches. Changes inside those types are theirs to lock.
        let lock_value = shape(locked_ty);
        let lock_bare = bare(locked_ty);
        let ty = without_self(field.ty.to_token_stream(), &self_ty);
        let current = if field.concrete {
            quote_spanned!(field.span=> <#ty as __bf::Field>::SHAPE)
        } else {
            quote_spanned!(field.span=> <#ty as __bf::Encoding>::SHAPE)
        };
        let message =
            format!("field `{member}` changed type: the lock file `{rel}` has `{locked_ty}`")
                .replace('{', "{{")
                .replace('}', "}}");
        // The assertion itself on the type's own span: its failure is the
        // user's mistake, reported there without the derive's notes.
        checks.push(quote_spanned! {field.ty.span()=>
            const _: () = ::core::assert!(
                #current == #lock_value || #current == #lock_bare,
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
    locked: &'c TypeDef,
    rel: &str,
    asserts: &mut Vec<(&'c Field<'a>, &'c TypeRef)>,
) {
    let tolerant = cont.is_tolerant();
    let ident = cont.ident;
    let err = |span: Span, message: String| cx.syn_error(syn::Error::new(span, message));
    let is_enum = matches!(cont.body, Body::Enum(_));
    let (locked_fields, locked_variants): (&[FieldDef], &[_]) = match &locked.body {
        LockedBody::Struct(fields) => (fields, &[]),
        LockedBody::Enum(variants) => (&[], variants),
    };
    let locked_is_enum = matches!(locked.body, LockedBody::Enum(_));
    if is_enum != locked_is_enum {
        let (was, now) = if locked_is_enum {
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
                locked_fields,
                &reserved,
                &locked.reserved,
                rel,
                asserts,
            );
        }
        Body::Enum(variants) => {
            if tolerant {
                for lv in locked_variants {
                    if !variants.iter().any(|v| v.tag == lv.tag) && !reserved.contains(&lv.tag) {
                        err(ident.span(), format!("variant {} `{}` of the lock file `{rel}` was removed without reserving its tag (add `reserved = [{}]`)", lv.tag, lv.name, lv.tag));
                    }
                }
                for v in variants {
                    if locked.reserved.contains(&v.tag) {
                        err(v.ident.span(), format!("variant `{}` reuses tag {}, which the lock file `{rel}` reserves for a removed variant", v.ident, v.tag));
                    } else if !locked_variants.iter().any(|lv| lv.tag == v.tag)
                        && !locked_variants.iter().any(|lv| lv.other)
                    {
                        err(v.ident.span(), format!("variant `{}` is new, and the locked enum has no `other` variant: readers of the lock file's version cannot read it", v.ident));
                    }
                }
            } else {
                for (i, v) in variants.iter().enumerate() {
                    match locked_variants.get(i) {
                        Some(lv) if v.ident != lv.name.as_str() => err(v.ident.span(), format!("variant {i} is `{}` in the lock file `{rel}`: a compact enum's variants are numbered by position", lv.name)),
                        Some(_) => {}
                        None => err(v.ident.span(), format!("variant `{}` is new: the lock file `{rel}` has {} variants, and a compact enum's readers know no more", v.ident, locked_variants.len())),
                    }
                }
                if let Some(lv) = locked_variants.get(variants.len()) {
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
                    locked_variants.iter().find(|lv| lv.tag == v.tag)
                } else {
                    locked_variants
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
    locked: &'c [FieldDef],
    reserved: &[u32],
    locked_reserved: &[u32],
    rel: &str,
    asserts: &mut Vec<(&'c Field<'a>, &'c TypeRef)>,
) {
    let err = |span: Span, message: String| cx.syn_error(syn::Error::new(span, message));
    let encoded: Vec<&Field> = fields.iter().filter(|f| f.is_encoded()).collect();
    let name = |f: &Field| crate::encoding::compact_tokens(&f.member);
    if !tolerant {
        for (i, f) in encoded.iter().enumerate() {
            match locked.get(i) {
                Some(l) if l.name != name(f) => err(f.member.span(), format!(
                    "field {i} of `{place}` is `{}: {}` in the lock file `{rel}`: a compact type's fields are positional, so renaming or reordering breaks readers",
                    l.name, l.schema
                )),
                Some(l) => asserts.push((f, &l.schema)),
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
                    l.schema
                ),
            );
        }
        return;
    }
    for l in locked {
        match encoded.iter().find(|f| f.tag == l.tag) {
            Some(f) => asserts.push((f, &l.schema)),
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
