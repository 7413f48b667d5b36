//! Whether a derived type may hold a `Weak`, decided from its field types'
//! tokens. Only a `false` that is certain matters (it lets shared values of
//! the type skip `Rc::new_cyclic`), so anything unknown counts as `true`.

use std::collections::BTreeSet;

use syn::visit::{self, Visit};

use crate::ast::Container;

/// Path segments of std types that never hold a `Weak` themselves.
const KNOWN: &[&str] = &[
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "f32",
    "f64",
    "bool",
    "char",
    "str",
    "String",
    "Vec",
    "VecDeque",
    "LinkedList",
    "BinaryHeap",
    "HashMap",
    "HashSet",
    "BTreeMap",
    "BTreeSet",
    "Option",
    "Result",
    "Box",
    "Rc",
    "Arc",
    "Cell",
    "RefCell",
    "Mutex",
    "RwLock",
    "Cow",
    "PhantomData",
    "Duration",
    "SystemTime",
    "IpAddr",
    "Ipv4Addr",
    "Ipv6Addr",
    "SocketAddr",
    "SocketAddrV4",
    "SocketAddrV6",
    "Wrapping",
    "Saturating",
    "Reverse",
    "Range",
    "RangeInclusive",
    "Bound",
    "Bytes",
    "BytesMut",
    "NonZeroU8",
    "NonZeroU16",
    "NonZeroU32",
    "NonZeroU64",
    "NonZeroU128",
    "NonZeroUsize",
    "NonZeroI8",
    "NonZeroI16",
    "NonZeroI32",
    "NonZeroI64",
    "NonZeroI128",
    "NonZeroIsize",
    "std",
    "alloc",
    "core",
    "collections",
    "rc",
    "sync",
    "cell",
    "num",
    "net",
    "time",
    "ops",
    "borrow",
    "bytes",
    "string",
    "vec",
    "boxed",
    "marker",
    "cmp",
    "hash_map",
    "btree_map",
];

/// `true` unless every field type is built only from `KNOWN` std types and
/// the type itself.
pub fn may_hold_weak(cont: &Container) -> bool {
    struct Idents(BTreeSet<String>);
    impl<'ast> Visit<'ast> for Idents {
        fn visit_path_segment(&mut self, seg: &'ast syn::PathSegment) {
            self.0.insert(seg.ident.to_string());
            visit::visit_path_segment(self, seg);
        }
        fn visit_macro(&mut self, _: &'ast syn::Macro) {
            self.0.insert("macro".into());
        }
        fn visit_type_trait_object(&mut self, _: &'ast syn::TypeTraitObject) {
            self.0.insert("dyn".into());
        }
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.0.insert("impl".into());
        }
    }
    let mut idents = Idents(BTreeSet::new());
    for field in cont.all_fields().filter(|f| f.is_encoded()) {
        if field.attrs.with.is_some() {
            return true;
        }
        idents.visit_type(field.ty);
    }
    let own = cont.ident.to_string();
    idents
        .0
        .iter()
        .any(|i| i != &own && !KNOWN.contains(&i.as_str()))
}
