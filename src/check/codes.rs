//! The catalogue of diagnostic codes, shown by `regula explain CODE` and listed in
//! docs/ERRORS.md.

/// (code, explanation with a wrong and a corrected example)
pub const CODES: &[(&str, &str)] = &[];

pub fn explain(code: &str) -> Option<&'static str> {
    CODES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, t)| *t)
}
