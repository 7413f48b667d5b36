#![doc = include_str!("attributes.md")]
