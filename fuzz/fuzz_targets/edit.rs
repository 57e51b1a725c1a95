//! Any bytes as a game file open in an editor: tokens, formatting and the language server.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    regula::selfcheck::edit_anything(data);
});
