//! Rules that involve more than one attribute or field. Each rule is one
//! function; all report into the context so every mistake shows at once.

use crate::ast::Container;
use crate::ctxt::Ctxt;

pub fn check(cx: &Ctxt, cont: &Container) {
    skip_and_with_conflict(cx, cont);
    bound_forms_conflict(cx, cont);
    de_lifetime_reserved(cx, cont);
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

/// `bound = "..."` sets both impls' bounds, so it cannot be combined with the
/// per-direction `bound(pack = ...)` / `bound(unpack = ...)`.
fn bound_forms_conflict(cx: &Ctxt, cont: &Container) {
    if cont.attrs.bound.is_some() {
        for per_direction in [&cont.attrs.pack_bound, &cont.attrs.unpack_bound]
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
