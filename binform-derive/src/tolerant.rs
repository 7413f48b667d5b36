//! Code generation for `#[binform(version_tolerant)]` types.
//!
//! A tolerant struct is `varint(field count)`, then per field, in ascending
//! tag order, a key `varint(gap << 3 | wire type)` (the gap counts the tags
//! skipped since the previous field) and the value, framed by its byte
//! length unless its own encoding delimits it (see the runtime's
//! `tolerant` module). A reader decodes the tags it knows, skips the others
//! by their wire type, and fills fields that are missing with their
//! default. A tolerant enum is `varint(variant tag) varint(byte length)` and
//! the variant's fields as a tolerant struct body (an empty body, length 0,
//! when it has none).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Lifetime;

use crate::ast::{Body, Field, Style, Variant};
use crate::fields::{
    self, binding, default_value, pack_fn, pack_variants, try_result, unpack_fn, Trait,
};
use crate::layout::{Gen, Layout};

/// Writes the encoded fields (bound to `__f<i>`) as a tolerant field list.
fn pack_fields(fields: &[Field]) -> TokenStream {
    let encoded = crate::ast::wire_order(fields);
    let count = encoded.len();
    let stmts = encoded.iter().zip(gaps(&encoded)).map(|((i, f), gap)| {
        let b = binding(*i);
        match &f.attrs.with {
            // A `with` module's encoding is opaque: always framed.
            Some(_) => {
                let func = pack_fn(f);
                let write = try_result(quote!(__w.write_field_with(#gap, |__w| #func(#b, __w))));
                quote!(#write;)
            }
            None if f.concrete => {
                let func = fields::via(f, Trait::Pack, "write_field");
                let write = try_result(quote!(#func(#b, #gap, __w)));
                quote!(#write;)
            }
            None => {
                let write = try_result(quote!(__w.write_field(#gap, #b)));
                quote!(#write;)
            }
        }
    });
    quote! {
        __w.write_len(#count);
        #(#stmts)*
    }
}

/// How many tags each field skips after the previous one: the gap each
/// key carries on the wire.
fn gaps(encoded: &[(usize, &Field)]) -> Vec<u32> {
    let mut next = 0u32;
    encoded
        .iter()
        .map(|(_, f)| {
            let gap = f.tag.saturating_sub(next);
            next = f.tag.saturating_add(1);
            gap
        })
        .collect()
}

fn pack_struct(style: Style, fields: &[Field]) -> TokenStream {
    fields::pack_struct(style, fields, pack_fields(fields))
}

/// Decodes a tolerant field list into `path { ... }`; fields not in the
/// payload get their default.
///
/// Two passes over one cursor: first the fields in the reader's own tag
/// order, each taken only if its key is exactly the expected one (a single
/// byte compare for the usual small tags), which is all there is when both
/// sides run the same version; then a general loop that matches any tag
/// and skips unknown ones, picking up wherever the first pass stopped.
fn unpack_fields(
    de: &Lifetime,
    path: TokenStream,
    style: Style,
    fields: &[Field],
    empty_body_ok: bool,
) -> TokenStream {
    let slot = |i: usize| format_ident!("__slot{}", i);
    let encoded = crate::ast::wire_order(fields);
    let decls = encoded.iter().map(|(i, f)| {
        let (s, ty) = (slot(*i), f.ty);
        quote!(let mut #s: __bf::Option<#ty> = __bf::None;)
    });
    // The wire type a field's type expects.
    let expected = |f: &Field| match &f.attrs.with {
        Some(_) => quote!(__bf::Wire::Framed),
        None => {
            let compact = fields::via(f, Trait::Encoding, "WIRE");
            let fixed = fields::via(f, Trait::Encoding, "FIXED_WIRE");
            quote!(__bf::pick_wire::<__L>(#compact, #fixed))
        }
    };
    // The expression that reads a field's value, given its wire type.
    // Its error gets the field's path segment (`.name`) on the way out.
    let read_as = |f: &Field, wire: TokenStream| {
        let tag = f.tag;
        let segment = format!(".{}", crate::encoding::compact_tokens(&f.member));
        let read = match &f.attrs.with {
            Some(_) => {
                let func = unpack_fn(de, f);
                quote!(__r.read_field_with(#tag, #wire, #func))
            }
            None => {
                let func = fields::via(f, Trait::Unpack(de), "unpack_field");
                quote!(#func(__r, #tag, #wire))
            }
        };
        try_result(quote!(__bf::in_field(#read, #segment)))
    };
    let read = |f: &Field| read_as(f, quote!(__wire));
    let arms = encoded.iter().map(|(i, f)| {
        let (s, tag, read) = (slot(*i), f.tag, read(f));
        quote!(#tag => #s = __bf::Some(#read),)
    });
    let value = if style == Style::Unit {
        path
    } else {
        let inits = fields.iter().enumerate().map(|(i, f)| {
            let member = &f.member;
            let default = fields::missing_value(f);
            if f.is_encoded() && f.attrs.required.is_some() {
                // No default: a payload without the field is an error.
                let (s, tag) = (slot(i), f.tag);
                let name = crate::encoding::compact_tokens(member);
                quote!(#member: match #s {
                    __bf::Some(__v) => __v,
                    __bf::None => {
                        return __bf::Err(__r.missing_field(#name, #tag));
                    }
                })
            } else if f.is_encoded() {
                let s = slot(i);
                quote!(#member: match #s {
                    __bf::Some(__v) => __v,
                    __bf::None => #default,
                })
            } else {
                quote!(#member: #default)
            }
        });
        quote!(#path { #(#inits,)* })
    };
    let tags: Vec<u32> = encoded.iter().map(|(_, f)| f.tag).collect();
    // After the fast path took `k` fields: the cursor's state, in constants.
    let resume = |k: usize| match k.checked_sub(1).map(|i| tags[i]) {
        Some(last) => quote!(__fields.resume(#k, __bf::Some(#last))),
        None => quote!(__fields.resume(0, __bf::None)),
    };
    let in_order: Vec<TokenStream> = encoded
        .iter()
        .zip(gaps(&encoded))
        .enumerate()
        .map(|(k, ((i, f), gap))| {
            let (s, read, resume, expected) = (slot(*i), read(f), resume(k), expected(f));
            // With the wire type a constant, the type's checks on it fold
            // away: the field decodes as in compact mode.
            let read_exact = read_as(f, expected.clone());
            quote! {
                if __fields.take_exact(__r, #k, #gap, #expected) {
                    #s = __bf::Some(#read_exact);
                } else {
                    let __bf::Some(__wire) = __fields.take(__r, #k, #gap) else {
                        #resume;
                        break 'in_order;
                    };
                    #s = __bf::Some(#read);
                }
            }
        })
        .collect();
    // The outer label exists only where the fast path breaks out of it.
    let label = if in_order.is_empty() {
        quote!()
    } else {
        quote!('tolerant:)
    };
    let in_order = if in_order.is_empty() {
        quote!()
    } else {
        let all = resume(encoded.len());
        quote!('in_order: {
            #(#in_order)*
            #all;
            if __fields.is_done() {
                break 'tolerant #value;
            }
        })
    };
    // A variant body may be empty (the writer's variant had no fields).
    let fields_cursor = if empty_body_ok {
        quote!(if __r.remaining() == 0 {
            __bf::Fields::none()
        } else {
            __r.read_fields()?
        })
    } else {
        quote!(__r.read_fields()?)
    };
    quote! {#label {
        #(#decls)*
        let mut __fields = #fields_cursor;
        #in_order
        while let __bf::Some((__tag, __wire)) = __fields.next(__r)? {
            #[allow(unreachable_patterns)]
            match __tag {
                #(#arms)*
                _ => __r.skip_field(__wire)?,
            }
        }
        #value
    }}
}

fn unpack_struct(de: &Lifetime, style: Style, fields: &[Field]) -> TokenStream {
    let value = unpack_fields(de, quote!(Self), style, fields, false);
    quote!(__bf::Ok(#value))
}

fn pack_enum(variants: &[Variant]) -> TokenStream {
    pack_variants(
        variants.iter().map(|v| {
            let body = if v.fields.iter().any(Field::is_encoded) {
                let fields = pack_fields(&v.fields);
                quote!(__w.write_len_prefixed(|__w| { #fields __bf::Ok(()) })?;)
            } else {
                // No fields: an empty body.
                quote!(__w.write_len(0);)
            };
            (v, v.tag, body)
        }),
        fields::Out::Writer,
    )
}

/// The variant's fields from its body of `__len` bytes.
fn unpack_variant(de: &Lifetime, v: &Variant) -> TokenStream {
    let ident = v.ident;
    let decoded = unpack_fields(de, quote!(Self::#ident), v.style, &v.fields, true);
    quote!(__r.read_within(__len, |__r| __bf::Ok(#decoded)))
}

fn unpack_enum(de: &Lifetime, name: &str, variants: &[Variant]) -> TokenStream {
    let arms = variants.iter().map(|v| {
        let tag = v.tag;
        let body = unpack_variant(de, v);
        quote!(#tag => #body,)
    });
    let fallback = match variants.iter().find(|v| v.attrs.other.is_some()) {
        Some(other) => {
            let ident = other.ident;
            let inits = other.fields.iter().map(|f| {
                let member = &f.member;
                let default = default_value(f);
                quote!(#member: #default)
            });
            let value = if other.style == Style::Unit {
                quote!(Self::#ident)
            } else {
                quote!(Self::#ident { #(#inits,)* })
            };
            quote! {{
                // A variant this reader does not know: keep the catch-all.
                __r.skip(__len)?;
                __bf::Ok(#value)
            }}
        }
        None => quote!(__bf::Err(__r.unknown_variant(__tag, #name))),
    };
    quote! {
        let __tag = __r.read_tag()?;
        let __len = __r.read_len()?;
        match __tag {
            #(#arms)*
            _ => #fallback,
        }
    }
}

/// The version-tolerant layout: tagged fields, each with a key (its tag's
/// gap and wire type), written and read through the writer and reader.
pub struct Tolerant;

impl Layout for Tolerant {
    fn pack(&self, gen: &Gen) -> TokenStream {
        match &gen.cont.body {
            Body::Struct(style, fields) => pack_struct(*style, fields),
            Body::Enum(variants) => pack_enum(variants),
        }
    }

    fn pack_items(&self, _: &Gen) -> TokenStream {
        quote!()
    }

    fn unpack(&self, gen: &Gen) -> TokenStream {
        match &gen.cont.body {
            Body::Struct(style, fields) => unpack_struct(gen.de, *style, fields),
            Body::Enum(variants) => unpack_enum(gen.de, gen.name, variants),
        }
    }

    fn unpack_items(&self, _: &Gen) -> TokenStream {
        quote!()
    }

    /// A struct's field count byte; an enum's tag and body length.
    fn min_size(&self, gen: &Gen) -> TokenStream {
        match &gen.cont.body {
            Body::Struct(..) => quote!(1),
            Body::Enum(_) => quote!(2),
        }
    }
}
