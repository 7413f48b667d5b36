//! The schema model's encoding: the model itself (its types, its text and
//! its compatibility rules) lives in the `binform-schema` crate, shared with
//! the derive; binform encodes it for self-describing headers
//! (`docs/format.md` §25). Each definition here restates one of the
//! model's, and the derive's `remote` makes the impls for the model's own
//! type: the compiler checks every field against it.

#![allow(dead_code)]

use alloc::string::String;
use alloc::vec::Vec;

pub use binform_schema::{
    short_type_name, Body, FieldDef, Schema, TypeDef, TypeRef, Types, VariantDef,
};

#[derive(binform_derive::Packable)]
#[binform(crate = "crate", remote = "binform_schema::TypeRef")]
enum TypeRefEncoding {
    Builtin { name: String, args: Vec<TypeRef> },
    Named(String),
}

#[derive(binform_derive::Packable)]
#[binform(crate = "crate", remote = "binform_schema::TypeDef")]
struct TypeDefEncoding {
    name: String,
    tolerant: bool,
    body: Body,
    reserved: Vec<u32>,
}

#[derive(binform_derive::Packable)]
#[binform(crate = "crate", remote = "binform_schema::Body")]
enum BodyEncoding {
    Struct(Vec<FieldDef>),
    Enum(Vec<VariantDef>),
}

#[derive(binform_derive::Packable)]
#[binform(crate = "crate", remote = "binform_schema::FieldDef")]
struct FieldDefEncoding {
    tag: u32,
    name: String,
    schema: TypeRef,
}

#[derive(binform_derive::Packable)]
#[binform(crate = "crate", remote = "binform_schema::VariantDef")]
struct VariantDefEncoding {
    tag: u32,
    name: String,
    other: bool,
    fields: Vec<FieldDef>,
}

#[derive(binform_derive::Packable)]
#[binform(crate = "crate", remote = "binform_schema::Schema")]
struct SchemaEncoding {
    root: TypeRef,
    types: Types,
}
