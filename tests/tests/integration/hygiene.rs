//! Derived code keeps working when the user's scope shadows the names it
//! could have relied on.
#![allow(dead_code, non_camel_case_types)]

mod shadowed {
    // Everything the generated code might name, shadowed with junk.
    struct Result;
    struct Ok;
    struct Err;
    struct Option;
    struct Some;
    struct None;
    struct Default;
    struct Vec;
    struct Box;
    struct String;
    struct usize;
    struct bool;
    struct u64;
    struct Iterator;
    struct Clone;
    struct Layout;
    struct Encoding;
    struct Error;
    struct Writer;
    struct Reader;
    // The alias the derived code opens with (`use ::binform::__private as
    // __bf;`) shadows this one inside that code only.
    mod __bf {}
    mod core {}
    mod std {}
    mod binform {}
    trait Pack {}
    trait Unpack {}
    fn unpack() {}
    fn pack() {}

    #[derive(::binform::Packable, Debug, PartialEq)]
    pub struct Hygienic {
        pub a: u32,
        pub b: ::std::string::String,
        #[binform(skip)]
        pub c: u8,
    }

    #[derive(::binform::Packable, Debug, PartialEq)]
    pub enum HygienicEnum {
        A,
        B(u8),
        C { x: ::std::vec::Vec<u8> },
    }
}

#[test]
fn derive_is_hygienic() {
    use shadowed::{Hygienic, HygienicEnum};
    let v = Hygienic {
        a: 1,
        b: "b".into(),
        c: 0,
    };
    crate::round_trip(&v);
    crate::round_trip(&HygienicEnum::C { x: vec![1] });
    crate::round_trip(&HygienicEnum::B(2));
}

/// Types written by a `macro_rules!` macro: their tokens carry the macro's
/// hygiene, which the derive's own identifiers must not inherit.
macro_rules! define {
    ($name:ident, $t:ty) => {
        #[derive(::binform::Packable, Debug, PartialEq)]
        pub struct $name {
            pub a: $t,
            pub b: ::std::vec::Vec<$t>,
            #[binform(skip)]
            pub c: $t,
        }
    };
}

define!(FromMacro, u16);

#[test]
fn derive_inside_macro_rules() {
    crate::round_trip(&FromMacro {
        a: 1,
        b: vec![2, 3],
        c: 0,
    });
}
