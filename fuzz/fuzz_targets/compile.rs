//! Any bytes as a game file: parse, check, compile and explore without panicking.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    regula::selfcheck::compile_anything(data);
});
