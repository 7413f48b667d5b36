//! The benchmark workloads' types, defined once by [`define_models!`] and
//! instantiated with whatever derives a crate needs: the library instantiates
//! them with binform's and serde's derives, the criterion suite with every
//! peer's derive too (peers are only dev-dependencies, so their derives
//! cannot appear here). Every generator is deterministic.

/// A small deterministic generator (xorshift64*), so every run and every
/// crate sees the same data.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a fixed seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Random bits of a random width up to `max_bits`: small values are as
    /// common as large ones, as in real data (counts, ids, prices).
    pub fn magnitude(&mut self, max_bits: u32) -> u64 {
        let bits = self.below(max_bits as u64 + 1) as u32;
        if bits == 0 {
            0
        } else {
            self.next_u64() >> (64 - bits)
        }
    }

    /// A signed value of random magnitude up to `max_bits`.
    pub fn signed(&mut self, max_bits: u32) -> i64 {
        let v = self.magnitude(max_bits) as i64;
        if self.next_u64() & 1 == 0 {
            v
        } else {
            -v
        }
    }

    /// A float in [-1e6, 1e6).
    pub fn float(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2e6 - 1e6
    }

    /// A lowercase word of `len` letters.
    pub fn word(&mut self, len: usize) -> String {
        (0..len)
            .map(|_| (b'a' + self.below(26) as u8) as char)
            .collect()
    }
}

/// A deterministic GUID-shaped string (8-4-4-4-12 lowercase hex digits).
pub fn guid(seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0xD1B5_4A32_D192_ED03);
    let mut text = String::with_capacity(36);
    for i in 0..32 {
        if matches!(i, 8 | 12 | 16 | 20) {
            text.push('-');
        }
        text.push(char::from_digit(rng.below(16) as u32, 16).unwrap_or('0'));
    }
    text
}

/// 1986-02-01T00:00:00Z, Kate's birth date in the BinaryFormatter article.
pub const KATE_BIRTH: i64 = 507_600_000;
/// 2012-12-24T00:00:00Z, the cards' expiry date in the article.
pub const CARD_EXPIRES: i64 = 1_356_307_200;

/// Defines the workload types with the given extra attributes on each, and
/// their generators. Invoke inside a module.
#[macro_export]
macro_rules! define_models {
    ($(#[$meta:meta])*) => {
        use std::collections::HashMap;
        use $crate::models::{guid, Rng, CARD_EXPIRES, KATE_BIRTH};

        /// The MemoryPack article's record.
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct Person {
            pub name: String,
            pub age: i32,
            pub programming_keywords: Vec<String>,
        }

        /// The BinaryFormatter article's credit card: a 36-character GUID
        /// text and an expiry date as Unix seconds.
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct CreditCard {
            pub number: String,
            pub expires: i64,
        }

        /// The BinaryFormatter article's person: name, birth date (Unix
        /// seconds), cards.
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct CardHolder {
            pub name: String,
            pub birth: i64,
            pub cards: Vec<CreditCard>,
        }

        /// KrakenSerializer's "fairly large object": arrays, lists and
        /// dictionaries.
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct LargeObject {
            pub id: u64,
            pub title: String,
            pub ratings: Vec<f64>,
            pub counts: Vec<u32>,
            pub tags: Vec<String>,
            pub members: Vec<Person>,
            pub lookup: HashMap<String, i64>,
            pub index: HashMap<u32, String>,
            pub matrix: Vec<Vec<i32>>,
        }

        /// KrakenSerializer's object with one field of every primitive type.
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct Primitives {
            pub flag: bool,
            pub byte: u8,
            pub sbyte: i8,
            pub short: i16,
            pub ushort: u16,
            pub int: i32,
            pub uint: u32,
            pub long: i64,
            pub ulong: u64,
            pub single: f32,
            pub double: f64,
            pub decimal: i128,
            pub letter: char,
            pub text: String,
        }

        /// KrakenSerializer's "large struct of many fields".
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct LargeStruct {
            pub f00: u32, pub f01: i64, pub f02: f64, pub f03: String,
            pub f04: bool, pub f05: Option<u32>, pub f06: u16, pub f07: i32,
            pub f08: u32, pub f09: i64, pub f10: f64, pub f11: String,
            pub f12: bool, pub f13: Option<u32>, pub f14: u16, pub f15: i32,
            pub f16: u32, pub f17: i64, pub f18: f64, pub f19: String,
            pub f20: bool, pub f21: Option<u32>, pub f22: u16, pub f23: i32,
            pub f24: u32, pub f25: i64, pub f26: f64, pub f27: String,
            pub f28: bool, pub f29: Option<u32>, pub f30: u16, pub f31: i32,
        }

        /// KrakenSerializer's small message.
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct SmallMessage {
            pub id: u64,
            pub kind: u8,
            pub sender: u32,
            pub body: String,
        }

        /// A 3D vector of `f32`.
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Vec3 {
            pub x: f32,
            pub y: f32,
            pub z: f32,
        }

        /// A triangle: three vertices and a normal.
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Triangle {
            pub v0: Vec3,
            pub v1: Vec3,
            pub v2: Vec3,
            pub normal: Vec3,
        }

        /// A mesh of triangles.
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct Mesh {
            pub triangles: Vec<Triangle>,
        }

        /// The MemoryPack article's list of ten people.
        pub fn ten_people() -> Vec<Person> {
            let rows = [
                ("John", 20, "F#"), ("Mary", 25, "VB.NET"), ("Bob", 30, "C++"),
                ("Alice", 35, "Java"), ("Mark", 40, "JavaScript"), ("Carol", 45, "Python"),
                ("Peter", 50, "Go"), ("Alex", 55, "Ruby"), ("Simon", 60, "PHP"),
                ("Jane", 65, "Perl"),
            ];
            rows.iter()
                .map(|&(name, age, second)| Person {
                    name: name.into(),
                    age,
                    programming_keywords: vec!["C#".into(), second.into()],
                })
                .collect()
        }

        /// Kate with `cards` cards, as in the BinaryFormatter article.
        pub fn kate(cards: usize) -> CardHolder {
            CardHolder {
                name: "Kate".into(),
                birth: KATE_BIRTH,
                cards: (0..cards as u64)
                    .map(|i| CreditCard { number: guid(i), expires: CARD_EXPIRES })
                    .collect(),
            }
        }

        /// The large object, about 40 KB encoded.
        pub fn large_object() -> LargeObject {
            let mut rng = Rng::new(1);
            LargeObject {
                id: rng.next_u64(),
                title: rng.word(40),
                ratings: (0..500).map(|_| rng.float()).collect(),
                counts: (0..1000).map(|_| rng.magnitude(32) as u32).collect(),
                tags: (0..200).map(|i| rng.word(4 + i % 12)).collect(),
                members: (0..100)
                    .map(|_| Person {
                        name: rng.word(8),
                        age: rng.below(100) as i32,
                        programming_keywords: (0..3).map(|_| rng.word(5)).collect(),
                    })
                    .collect(),
                lookup: (0..300).map(|i| (format!("key{i}"), rng.signed(40))).collect(),
                index: (0..300).map(|i| (i, rng.word(10))).collect(),
                matrix: (0..20).map(|_| (0..20).map(|_| rng.signed(31) as i32).collect()).collect(),
            }
        }

        /// One value of every primitive type.
        pub fn primitives() -> Primitives {
            Primitives {
                flag: true,
                byte: 200,
                sbyte: -100,
                short: -30_000,
                ushort: 60_000,
                int: -2_000_000,
                uint: 4_000_000_000,
                long: -9_000_000_000_000,
                ulong: 18_000_000_000_000_000_000,
                single: 3.25,
                double: std::f64::consts::E,
                decimal: 123_456_789_012_345,
                letter: 'é',
                text: "a primitive string".into(),
            }
        }

        /// A struct of 32 fields of mixed types.
        pub fn large_struct() -> LargeStruct {
            let s = |i: u32| format!("field number {i}");
            LargeStruct {
                f00: 1, f01: -2, f02: 3.5, f03: s(3), f04: true, f05: Some(5), f06: 600, f07: -7,
                f08: 80_000, f09: -90_000_000, f10: 10.25, f11: s(11), f12: false, f13: None, f14: 14, f15: 1500,
                f16: 16, f17: 17_000_000_000, f18: -18.5, f19: s(19), f20: true, f21: Some(21_000), f22: 22, f23: -23,
                f24: 24, f25: 25, f26: 26.0, f27: s(27), f28: false, f29: Some(29), f30: 30_000, f31: -31_000_000,
            }
        }

        /// A small chat-style message.
        pub fn small_message() -> SmallMessage {
            SmallMessage { id: 1_234_567, kind: 3, sender: 42, body: "hello, world! see you soon".into() }
        }

        /// A mesh of `n` triangles with random coordinates.
        pub fn mesh(n: usize) -> Mesh {
            let mut rng = Rng::new(7);
            let mut v = || Vec3 { x: rng.float() as f32, y: rng.float() as f32, z: rng.float() as f32 };
            Mesh {
                triangles: (0..n).map(|_| Triangle { v0: v(), v1: v(), v2: v(), normal: v() }).collect(),
            }
        }
    };
}

/// Plain std data shared by every crate's benchmark.
pub mod plain {
    use std::collections::HashMap;

    use super::Rng;

    /// 100,000 `i32` of mixed magnitudes.
    pub fn ints(n: usize) -> Vec<i32> {
        let mut rng = Rng::new(2);
        (0..n).map(|_| rng.signed(31) as i32).collect()
    }

    /// 100,000 `f64`.
    pub fn floats(n: usize) -> Vec<f64> {
        let mut rng = Rng::new(3);
        (0..n).map(|_| rng.float()).collect()
    }

    /// 100,000 decimals as `i128`: amounts with four decimal places, up to
    /// about 10^15.
    pub fn decimals(n: usize) -> Vec<i128> {
        let mut rng = Rng::new(4);
        (0..n).map(|_| rng.signed(50) as i128).collect()
    }

    /// `HashMap<i32, i32>` of `n` entries.
    pub fn int_map(n: usize) -> HashMap<i32, i32> {
        let mut rng = Rng::new(5);
        (0..n as i32).map(|k| (k, rng.signed(31) as i32)).collect()
    }

    /// `HashMap<String, i32>` of `n` entries.
    pub fn string_map(n: usize) -> HashMap<String, i32> {
        let mut rng = Rng::new(6);
        (0..n)
            .map(|k| (format!("key-{k}"), rng.signed(31) as i32))
            .collect()
    }

    /// A string of 1,000 characters.
    pub fn text(n: usize) -> String {
        let mut rng = Rng::new(8);
        let mut s = String::with_capacity(n);
        while s.len() < n {
            let len = 1 + rng.below(9) as usize;
            s.push_str(&rng.word(len));
            s.push(' ');
        }
        s.truncate(n);
        s
    }

    /// `n` bytes.
    pub fn bytes(n: usize) -> Vec<u8> {
        let mut rng = Rng::new(9);
        (0..n).map(|_| rng.next_u64() as u8).collect()
    }
}

/// Object graphs: a DAG with heavy sharing, and a tree of the same node
/// count, to measure what reference tracking costs (binform only: the
/// peers copy shared values or reject them).
pub mod graph {
    use std::rc::Rc;

    use binform::Packable;

    use super::Rng;

    /// A node of a DAG: its children are shared with other parents.
    #[derive(Packable, Debug)]
    pub struct DagNode {
        pub id: u32,
        pub children: Vec<Rc<DagNode>>,
    }

    /// A node of a tree: its children are its own.
    #[derive(Packable, Debug, PartialEq)]
    pub struct TreeNode {
        pub id: u32,
        pub children: Vec<TreeNode>,
    }

    /// `layers` layers of `width` nodes; each node points at two random
    /// nodes of the layer below, so every node has about two parents.
    /// Returns the top layer.
    pub fn dag(layers: usize, width: usize) -> Vec<Rc<DagNode>> {
        let mut rng = Rng::new(11);
        let mut below: Vec<Rc<DagNode>> = Vec::new();
        let mut id = 0u32;
        for _ in 0..layers {
            let layer: Vec<Rc<DagNode>> = (0..width)
                .map(|_| {
                    let children = if below.is_empty() {
                        Vec::new()
                    } else {
                        (0..2)
                            .map(|_| below[rng.below(below.len() as u64) as usize].clone())
                            .collect()
                    };
                    id += 1;
                    Rc::new(DagNode { id, children })
                })
                .collect();
            below = layer;
        }
        below
    }

    /// A node of a tree whose nodes are each their own allocation, as the
    /// DAG's are.
    #[derive(Packable, Debug, PartialEq)]
    pub struct LayeredNode {
        pub id: u32,
        pub children: Vec<Box<LayeredNode>>,
    }

    /// The tree counterpart of [`dag`]: the same layers of `width` nodes,
    /// built bottom-up in the same order, but every node of a layer is the
    /// child of exactly one random node of the layer above (so parents
    /// have 0 to a few children, one on average). Node count, allocation
    /// pattern and the scatter of children in memory match the DAG; only
    /// the sharing is gone. Returns the top layer.
    pub fn layered_tree(layers: usize, width: usize) -> Vec<Box<LayeredNode>> {
        let mut rng = Rng::new(11);
        let mut below: Vec<Box<LayeredNode>> = Vec::new();
        let mut id = 0u32;
        for _ in 0..layers {
            let mut children: Vec<Vec<Box<LayeredNode>>> = (0..width).map(|_| Vec::new()).collect();
            for child in below.drain(..) {
                children[rng.below(width as u64) as usize].push(child);
            }
            below = children
                .into_iter()
                .map(|children| {
                    id += 1;
                    Box::new(LayeredNode { id, children })
                })
                .collect();
        }
        below
    }

    /// A complete binary tree of `n` nodes (ids in breadth-first order).
    pub fn tree(n: u32) -> TreeNode {
        fn build(i: u32, n: u32) -> TreeNode {
            let children = [2 * i + 1, 2 * i + 2]
                .into_iter()
                .filter(|&c| c < n)
                .map(|c| build(c, n))
                .collect();
            TreeNode { id: i, children }
        }
        build(0, n)
    }
}

/// Version-tolerant twins of two workloads, to measure what tolerance costs
/// against the compact forms (binform only).
pub mod tolerant {
    use binform::Packable;

    /// `Person`, version-tolerant.
    #[derive(Packable, Debug, Clone, PartialEq, Default)]
    #[binform(version_tolerant)]
    pub struct Person {
        pub name: String,
        pub age: i32,
        pub programming_keywords: Vec<String>,
    }

    /// `LargeStruct`, version-tolerant.
    #[derive(Packable, Debug, Clone, PartialEq, Default)]
    #[binform(version_tolerant)]
    #[rustfmt::skip]
    pub struct LargeStruct {
        pub f00: u32, pub f01: i64, pub f02: f64, pub f03: String,
        pub f04: bool, pub f05: Option<u32>, pub f06: u16, pub f07: i32,
        pub f08: u32, pub f09: i64, pub f10: f64, pub f11: String,
        pub f12: bool, pub f13: Option<u32>, pub f14: u16, pub f15: i32,
        pub f16: u32, pub f17: i64, pub f18: f64, pub f19: String,
        pub f20: bool, pub f21: Option<u32>, pub f22: u16, pub f23: i32,
        pub f24: u32, pub f25: i64, pub f26: f64, pub f27: String,
        pub f28: bool, pub f29: Option<u32>, pub f30: u16, pub f31: i32,
    }

    /// The ten people, as tolerant records.
    pub fn ten_people() -> Vec<Person> {
        crate::seed::ten_people()
            .into_iter()
            .map(|p| Person {
                name: p.name,
                age: p.age,
                programming_keywords: p.programming_keywords,
            })
            .collect()
    }

    /// The large struct, as a tolerant record.
    pub fn large_struct() -> LargeStruct {
        let c = crate::seed::large_struct();
        LargeStruct {
            f00: c.f00,
            f01: c.f01,
            f02: c.f02,
            f03: c.f03,
            f04: c.f04,
            f05: c.f05,
            f06: c.f06,
            f07: c.f07,
            f08: c.f08,
            f09: c.f09,
            f10: c.f10,
            f11: c.f11,
            f12: c.f12,
            f13: c.f13,
            f14: c.f14,
            f15: c.f15,
            f16: c.f16,
            f17: c.f17,
            f18: c.f18,
            f19: c.f19,
            f20: c.f20,
            f21: c.f21,
            f22: c.f22,
            f23: c.f23,
            f24: c.f24,
            f25: c.f25,
            f26: c.f26,
            f27: c.f27,
            f28: c.f28,
            f29: c.f29,
            f30: c.f30,
            f31: c.f31,
        }
    }
}
