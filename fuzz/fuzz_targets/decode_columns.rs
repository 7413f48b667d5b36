#![no_main]
//! Fuzz target: see `binform_tests::fuzz::decode_columns`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    binform_tests::fuzz::decode_columns(data);
});
