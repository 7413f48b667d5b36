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
