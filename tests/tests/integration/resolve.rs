//! `binform::value::from_slice_as`: a self-describing payload written by
//! one version of a type, read as another, matched by name (or, between
//! tolerant types, by tag).

use binform::value::from_slice_as;
use binform::{ErrorKind, Options};

fn described<T: binform::Pack>(v: &T) -> Vec<u8> {
    Options::new().self_describing(true).to_vec(v).unwrap()
}

mod v1 {
    use binform::Packable;

    #[derive(Packable, Debug, PartialEq)]
    pub struct Order {
        pub id: u32,
        pub customer: String,
        pub quantity: u8,
        pub items: Vec<Item>,
        pub status: Status,
        pub dropped: bool,
    }

    #[derive(Packable, Debug, PartialEq)]
    pub struct Item {
        pub sku: String,
        pub price: i32,
    }

    #[derive(Packable, Debug, PartialEq)]
    pub enum Status {
        Open,
        Shipped { tracking: String },
        Lost,
    }

    #[derive(Packable, Debug, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub struct Profile {
        #[binform(tag = 0)]
        pub id: u64,
        #[binform(tag = 1)]
        pub name: String,
        #[binform(tag = 2)]
        pub age: u8,
    }
}

mod v2 {
    use binform::Packable;

    /// Reordered, `quantity` widened, `dropped` removed, `note` added.
    #[derive(Packable, Debug, PartialEq)]
    pub struct Order {
        pub customer: String,
        pub note: Option<String>,
        pub id: u64,
        pub items: Vec<Item>,
        pub quantity: i64,
        pub status: Status,
        pub rank: u16,
    }

    #[derive(Packable, Debug, PartialEq)]
    pub struct Item {
        pub price: i64,
        pub sku: String,
    }

    /// `Lost` removed, `Returned` new.
    #[derive(Packable, Debug, PartialEq)]
    pub enum Status {
        Returned,
        Open,
        Shipped { tracking: String },
    }

    /// `name` renamed `full_name` under its tag; `email` new with a default.
    #[derive(Packable, Debug, PartialEq)]
    #[binform(version_tolerant)]
    pub struct Profile {
        #[binform(tag = 1)]
        pub full_name: String,
        #[binform(tag = 0)]
        pub id: u64,
        #[binform(tag = 3, default = "unknown")]
        pub email: String,
    }

    fn unknown() -> String {
        "unknown".into()
    }

    /// `age` can no longer hold what v1 wrote.
    #[derive(Packable, Debug, PartialEq)]
    pub struct Narrow {
        pub id: u8,
    }

    /// `customer` is no longer a string.
    #[derive(Packable, Debug, PartialEq)]
    pub struct Retyped {
        pub customer: u32,
    }
}

fn order() -> v1::Order {
    v1::Order {
        id: 70_000,
        customer: "Kate".into(),
        quantity: 3,
        items: vec![
            v1::Item {
                sku: "a".into(),
                price: -5,
            },
            v1::Item {
                sku: "b".into(),
                price: 9,
            },
        ],
        status: v1::Status::Shipped {
            tracking: "T1".into(),
        },
        dropped: true,
    }
}

#[test]
fn fields_added_removed_reordered_and_widened() {
    let new: v2::Order = from_slice_as(&described(&order())).unwrap();
    assert_eq!(
        new,
        v2::Order {
            customer: "Kate".into(),
            note: None,
            id: 70_000,
            items: vec![
                v2::Item {
                    price: -5,
                    sku: "a".into()
                },
                v2::Item {
                    price: 9,
                    sku: "b".into()
                },
            ],
            quantity: 3,
            status: v2::Status::Shipped {
                tracking: "T1".into()
            },
            rank: 0,
        }
    );
}

#[test]
fn variants_match_by_name_and_a_removed_one_is_an_error() {
    let mut o = order();
    o.status = v1::Status::Open;
    let new: v2::Order = from_slice_as(&described(&o)).unwrap();
    assert_eq!(new.status, v2::Status::Open);
    o.status = v1::Status::Lost;
    let err = from_slice_as::<v2::Order>(&described(&o)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownVariant);
    assert_eq!(err.path(), ".status", "{err}");
}

#[test]
fn tolerant_fields_renamed_under_their_tag_keep_their_value() {
    let old = v1::Profile {
        id: 9,
        name: "Ada".into(),
        age: 36,
    };
    let new: v2::Profile = from_slice_as(&described(&old)).unwrap();
    assert_eq!(
        new,
        v2::Profile {
            full_name: "Ada".into(),
            id: 9,
            email: "unknown".into()
        }
    );
}

#[test]
fn impossible_conversions_name_the_field() {
    let err = from_slice_as::<v2::Narrow>(&described(&order())).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::IntegerOverflow);
    assert_eq!(err.path(), ".id", "{err}");
    let err = from_slice_as::<v2::Retyped>(&described(&order())).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert_eq!(err.path(), ".customer", "{err}");
    assert!(err.to_string().contains("in `.customer`"), "{err}");
}

#[test]
fn the_same_version_reads_directly() {
    let bytes = described(&order());
    assert_eq!(from_slice_as::<v1::Order>(&bytes).unwrap(), order());
    // A plain payload is not self-describing.
    let err = from_slice_as::<v1::Order>(&binform::to_vec(&order()).unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
}

mod graph_v1 {
    use std::rc::Rc;

    #[derive(binform::Packable, Debug)]
    pub struct Pair {
        pub first: Rc<String>,
        pub second: Rc<String>,
        pub tail: u8,
    }
}

mod graph_v2 {
    use std::rc::Rc;

    /// `first` dropped: `second` referred to it.
    #[derive(binform::Packable, Debug)]
    pub struct Dropped {
        pub second: Rc<String>,
        pub tail: u8,
    }

    /// Reordered: the reference now comes before the definition.
    #[derive(binform::Packable, Debug)]
    pub struct Reordered {
        pub second: Rc<String>,
        pub first: Rc<String>,
        pub tail: u8,
    }
}

#[test]
fn shared_values_survive_dropped_and_reordered_fields() {
    use std::rc::Rc;
    let shared = Rc::new("s".to_string());
    let bytes = described(&graph_v1::Pair {
        first: shared.clone(),
        second: shared,
        tail: 7,
    });
    let dropped: graph_v2::Dropped = from_slice_as(&bytes).unwrap();
    assert_eq!((dropped.second.as_str(), dropped.tail), ("s", 7));
    let reordered: graph_v2::Reordered = from_slice_as(&bytes).unwrap();
    assert_eq!(reordered.first.as_str(), "s");
    assert!(
        Rc::ptr_eq(&reordered.first, &reordered.second),
        "still one shared value"
    );
}

mod wide_v1 {
    #[derive(binform::Packable, Debug, Clone)]
    pub struct Big {}
}

mod wide_v2 {
    /// Fifty fields the writer never had: each value a reader builds
    /// costs memory the payload did not pay for.
    #[derive(binform::Packable, Debug)]
    pub struct Big {
        pub a0: u64,
        pub a1: u64,
        pub a2: u64,
        pub a3: u64,
        pub a4: u64,
        pub a5: u64,
        pub a6: u64,
        pub a7: u64,
        pub a8: u64,
        pub a9: u64,
        pub b0: u64,
        pub b1: u64,
        pub b2: u64,
        pub b3: u64,
        pub b4: u64,
        pub b5: u64,
        pub b6: u64,
        pub b7: u64,
        pub b8: u64,
        pub b9: u64,
    }
}

#[test]
fn zero_filled_fields_are_charged_to_the_memory_budget() {
    let many: Vec<wide_v1::Big> = (0..200_000).map(|_| wide_v1::Big {}).collect();
    let bytes = described(&many);
    let opts = Options::new().max_memory(1 << 20);
    let err =
        binform::value::from_slice_as_options::<Vec<wide_v2::Big>>(&bytes, &opts).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    // A few are fine.
    let few: Vec<wide_v2::Big> = from_slice_as(&described(&vec![wide_v1::Big {}; 0])).unwrap();
    assert!(few.is_empty());
}
