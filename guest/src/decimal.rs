//! Numbers as text: read as people type them, shown as Rust's `Display` shows them.
//!
//! The component carries one float formatter and one float parser, serde_json's (`zmij`'s
//! shortest digits out, serde_json's decimal reader in), instead of a second pair from `core`:
//! `f64`'s own `Display` and `FromStr` bring Grisu, Dragon4, a big-number type and Eisel-Lemire
//! with its 11 KB table of powers of five, about a tenth of the component. So no `f64` is
//! formatted with `{}` or parsed with `str::parse` in this crate: [`Decimal`] and [`parse`] do it.

use std::fmt::{self, Write};

use serde_json::Value as Json;

/// Shows a number as `f64`'s `Display` does: the shortest digits that read back as the same
/// number, never an exponent, no `.0` on a whole number (`3`, `0.1`, `-0`,
/// `1000000000000000000000`, `0.0000001`, `inf`, `NaN`). Where two shortest forms are equally
/// near, it has the even digit, as the result JSON has it, where `Display` rounds up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decimal(pub f64);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buffer = zmij::Buffer::new();
        // `zmij` writes what `Display` writes for NaN and the infinities, and otherwise the
        // shortest digits with a point: `3.0`, `0.001`, and past some size in scientific
        // notation with one digit before the point, `1.5e-7`, `1e21`.
        let written = buffer.format(self.0);
        let Some((mantissa, exponent)) = written.split_once('e') else {
            return f.write_str(written.strip_suffix(".0").unwrap_or(written));
        };
        let (sign, mantissa) = match mantissa.strip_prefix('-') {
            Some(unsigned) => ("-", unsigned),
            None => ("", mantissa),
        };
        let digits = mantissa.replace('.', "");
        // Where the point goes among the digits: after the first, moved by the exponent.
        let point = exponent.parse::<i32>().unwrap_or(0) + 1;
        f.write_str(sign)?;
        match usize::try_from(point) {
            Ok(point) if point >= digits.len() => {
                f.write_str(&digits)?;
                zeros(f, point - digits.len())
            }
            Ok(point) => {
                f.write_str(&digits[..point])?;
                f.write_char('.')?;
                f.write_str(&digits[point..])
            }
            Err(_) => {
                f.write_str("0.")?;
                zeros(f, point.unsigned_abs() as usize)?;
                f.write_str(&digits)
            }
        }
    }
}

fn zeros(f: &mut fmt::Formatter<'_>, count: usize) -> fmt::Result {
    (0..count).try_for_each(|_| f.write_char('0'))
}

/// A number as people type it, in the syntax `f64`'s `FromStr` reads: an optional sign, digits
/// with or without a point (`42`, `-3.5`, `.5`, `5.`), an optional exponent (`1e3`, `2.5E-2`).
/// `None` for anything else and for numbers too large for `f64`. Read by serde_json's decimal
/// reader, as every number in a request is: exact for up to 15 significant digits within
/// `1e±22`, and otherwise within one unit in the last place.
pub fn parse(text: &str) -> Option<f64> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return None;
    }
    if let Some(exponent) = exponent {
        let exponent_digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        if exponent_digits.is_empty() || !digits(exponent_digits) {
            return None;
        }
    }
    // The same number in JSON's stricter syntax: no `+`, no leading zeros, digits on both
    // sides of a point.
    let whole = whole.trim_start_matches('0');
    let mut json = String::with_capacity(text.len() + 3);
    if negative {
        json.push('-');
    }
    json.push_str(if whole.is_empty() { "0" } else { whole });
    if !fraction.is_empty() {
        json.push('.');
        json.push_str(fraction);
    }
    if let Some(exponent) = exponent {
        json.push('e');
        json.push_str(exponent);
    }
    serde_json::from_str::<Json>(&json).ok()?.as_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_every_kind_of_number_as_display_does() {
        let mut samples = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.5,
            3.25,
            100.0,
            123456.789,
            1e15,
            1e16,
            1e21,
            1.5e22,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e-7,
            1.5e-7,
            0.000123,
            9007199254740993.0,
            2f64.powi(53),
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        // Bit patterns from a fixed-seed generator: every exponent, odd mantissas.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            samples.push(f64::from_bits(state));
        }
        for n in samples {
            let (shown, displayed) = (Decimal(n).to_string(), n.to_string());
            if shown != displayed {
                // A tie between two shortest forms (`…562.25` is `…562.2` or `…562.3`):
                // `Display` rounds it up, `zmij` to even, as serde_json's JSON has it.
                assert_eq!(
                    shown.len(),
                    displayed.len(),
                    "{n:e}: {shown} for {displayed}"
                );
                assert_eq!(
                    shown.parse::<f64>(),
                    Ok(n),
                    "{n:e}: {shown} for {displayed}"
                );
            }
        }
    }

    #[test]
    fn reads_what_from_str_reads() {
        for text in [
            "0",
            "-0",
            "+0",
            "42",
            "-3.5",
            "+2",
            ".5",
            "-.5",
            "5.",
            "007",
            "00.25",
            "1e3",
            "1E3",
            "2.5e-2",
            "2.5E+2",
            "1e0",
            "0.1",
            "0.3",
            "123456789012345",
            "1e22",
            "1e-22",
            "18446744073709551615",
            "18446744073709551616",
            "1e308",
            "4.9e-324",
            "1e-400",
        ] {
            let expected: f64 = text.parse().unwrap();
            let read = parse(text).unwrap_or_else(|| panic!("{text} was not read"));
            assert_eq!(read.to_bits(), expected.to_bits(), "{text}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_finite_number() {
        for text in [
            "", "-", "+", ".", "-.", "e3", "1e", "1e+", "1.2.3", "1,5", "1 000", "0x10", "--1",
            "+-1", "1e3.5", "abc", "inf", "NaN", "infinity", "1e400", "-1e400", " 1", "1 ", "١",
        ] {
            assert_eq!(parse(text), None, "{text}");
        }
    }

    #[test]
    fn reads_long_numbers_within_one_unit_in_the_last_place() {
        for text in [
            "3.141592653589793238462643383279",
            "0.1234567890123456789",
            "98765432109876543210.123",
            "2.2250738585072011e-308",
        ] {
            let expected: f64 = text.parse().unwrap();
            let read = parse(text).unwrap();
            assert!(read.to_bits().abs_diff(expected.to_bits()) <= 1, "{text}");
        }
    }
}
