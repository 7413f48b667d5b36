//! Trait objects through an explicit, closed registration.

/// Makes `Box<dyn Trait>`, `Rc<dyn Trait>` and `Arc<dyn Trait>` encodable
/// by listing, once, every concrete type that may stand behind the trait
/// object, each with a stable tag.
///
/// The payload carries the tag, never a type name: decoding reads the tag,
/// and only a type registered for that tag in that trait is ever
/// constructed; an unknown tag is an [`ErrorKind::UnknownVariant`] error.
/// This is the safe form of what `BinaryFormatter` did with type names in
/// the payload, which let an attacker pick the type. Encoding a value whose
/// type is not registered fails with [`ErrorKind::UnregisteredType`].
///
/// The trait must have `Any` as a supertrait (`trait Shape: Any`), which is
/// how the encoder finds the concrete type. Tags are `u32` and must be
/// unique (a repeated tag is a compile error). Keep them stable: they are
/// the wire format.
///
/// ```
/// use std::any::Any;
/// use std::rc::Rc;
/// use binform::Packable;
///
/// trait Shape: Any {
///     fn area(&self) -> f64;
/// }
///
/// #[derive(Packable)]
/// struct Circle { r: f64 }
/// #[derive(Packable)]
/// struct Square { side: f64 }
///
/// impl Shape for Circle { fn area(&self) -> f64 { 3.14159 * self.r * self.r } }
/// impl Shape for Square { fn area(&self) -> f64 { self.side * self.side } }
///
/// binform::polymorphic!(dyn Shape { 1 => Circle, 2 => Square });
///
/// let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Circle { r: 1.0 }), Box::new(Square { side: 2.0 })];
/// let bytes = binform::to_vec(&shapes)?;
/// let back: Vec<Box<dyn Shape>> = binform::from_slice(&bytes)?;
/// assert_eq!(back[1].area(), 4.0);
///
/// let shared: Rc<dyn Shape> = Rc::new(Square { side: 3.0 });
/// let pair = (shared.clone(), shared);
/// let (a, b): (Rc<dyn Shape>, Rc<dyn Shape>) = binform::from_slice(&binform::to_vec(&pair)?)?;
/// assert!(Rc::ptr_eq(&a, &b));
/// # Ok::<(), binform::Error>(())
/// ```
///
/// [`ErrorKind::UnknownVariant`]: crate::ErrorKind::UnknownVariant
/// [`ErrorKind::UnregisteredType`]: crate::ErrorKind::UnregisteredType
#[macro_export]
macro_rules! polymorphic {
    (dyn $($trait:ident)::+ $(+ $extra:ident)* { $($tag:literal => $ty:ty),+ $(,)? }) => {
        $crate::polymorphic!(@impl (dyn $($trait)::+ $(+ $extra)*), ::core::stringify!(dyn $($trait)::+), { $($tag => $ty),+ });
    };
    (@impl $dyn:ty, $name:expr, { $first_tag:literal => $first:ty $(, $tag:literal => $ty:ty)* }) => {
        $crate::polymorphic!(@impl2 $dyn, $name, $first, { $first_tag => $first $(, $tag => $ty)* });
    };
    (@impl2 $dyn:ty, $name:expr, $first:ty, { $($tag:literal => $ty:ty),+ }) => {
        const _: () = {
            // Two equal tags would make two arms of this match overlap.
            #[deny(unreachable_patterns)]
            #[allow(dead_code)]
            const fn __binform_unique_tags(tag: u32) -> u32 {
                match tag {
                    $($tag => $tag,)+
                    _ => 0,
                }
            }

            impl $crate::Encoding for $dyn {
                const SHAPE: u64 = $crate::__private::builtin_value(
                    "dyn",
                    &[$($crate::__private::number_value($tag as u64), <$ty as $crate::Encoding>::SHAPE),+],
                );

                fn describe(b: &mut $crate::schema::Builder) -> $crate::schema::TypeRef {
                    $crate::schema::TypeRef::builtin_of(
                        "dyn",
                        $crate::__private::vec![$(
                            $crate::schema::TypeRef::builtin(
                                &$crate::__private::format!("{}", $tag as u64),
                            ),
                            b.describe::<$ty>()
                        ),+],
                    )
                }
            }

            impl $crate::Pack for $dyn {
                fn pack<__L: $crate::Layout>(&self, w: &mut $crate::Writer<'_, __L>) -> $crate::Result<()> {
                    let any: &dyn ::core::any::Any = self;
                    $(
                        if let ::core::option::Option::Some(value) = any.downcast_ref::<$ty>() {
                            w.write_tag($tag);
                            return <$ty as $crate::Pack>::pack(value, w);
                        }
                    )+
                    ::core::result::Result::Err($crate::__private::unregistered_type($name))
                }
            }

            impl<'de> $crate::Unpack<'de> for $crate::__private::Box<$dyn> {
                const MIN_SIZE: usize = 1;

                fn unpack<__L: $crate::Layout>(r: &mut $crate::Reader<'de, __L>) -> $crate::Result<Self> {
                    let tag = r.read_tag()?;
                    match tag {
                        $(
                            $tag => r.charge_memory(::core::mem::size_of::<$ty>()).and_then(|()| r.nested_holding::<$ty, _>(|r| {
                                <$ty as $crate::Unpack<'de>>::unpack(r)
                                    .map(|v| $crate::__private::Box::new(v) as $crate::__private::Box<$dyn>)
                            })),
                        )+
                        _ => ::core::result::Result::Err(r.unknown_variant(tag, $name)),
                    }
                }
            }

            impl<'de> $crate::__private::SharedUnpack<'de> for $dyn {
                fn build_rc<__L: $crate::Layout>(
                    r: &mut $crate::Reader<'de, __L>,
                    id: usize,
                ) -> $crate::Result<$crate::__private::Rc<Self>> {
                    let tag = r.read_tag()?;
                    match tag {
                        $(
                            $tag => <$ty as $crate::__private::SharedUnpack<'de>>::build_rc(r, id)
                                .map(|v| v as $crate::__private::Rc<Self>),
                        )+
                        _ => ::core::result::Result::Err(r.unknown_variant(tag, $name)),
                    }
                }

                fn build_arc<__L: $crate::Layout>(
                    r: &mut $crate::Reader<'de, __L>,
                    id: usize,
                ) -> $crate::Result<$crate::__private::Arc<Self>> {
                    let tag = r.read_tag()?;
                    match tag {
                        $(
                            $tag => <$ty as $crate::__private::SharedUnpack<'de>>::build_arc(r, id)
                                .map(|v| v as $crate::__private::Arc<Self>),
                        )+
                        _ => ::core::result::Result::Err(r.unknown_variant(tag, $name)),
                    }
                }

                fn placeholder_rc(work: &mut u32) -> ::core::option::Option<$crate::__private::Rc<Self>> {
                    <$first as $crate::__private::SharedUnpack<'de>>::placeholder_rc(work)
                        .map(|v| v as $crate::__private::Rc<Self>)
                }

                fn placeholder_arc(work: &mut u32) -> ::core::option::Option<$crate::__private::Arc<Self>> {
                    <$first as $crate::__private::SharedUnpack<'de>>::placeholder_arc(work)
                        .map(|v| v as $crate::__private::Arc<Self>)
                }
            }
        };
    };
}
