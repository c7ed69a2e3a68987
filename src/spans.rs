//! Spans of time as people write them on a command line (`90s`, `30m`, `12h`, `7d`), and the
//! deadlines a question may have.

/// The deadlines a question may have, in ms: 1 s to 30 days (`--deadline`, and what the team
/// inbox's server takes from any asker).
pub const DEADLINES_MS: std::ops::RangeInclusive<i64> = 1_000..=30 * 86_400_000;

/// A span of time as people write it, `90s`, `30m`, `12h`, `7d`: in ms; `None` when it does
/// not read as one, or is too long to count.
pub fn span_ms(text: &str) -> Option<i64> {
    let split = text.len().checked_sub(1)?;
    let (number, unit) = text.split_at_checked(split)?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: i64 = number.parse().ok()?;
    let unit = match unit {
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return None,
    };
    number.checked_mul(unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_read_as_people_write_them() {
        assert_eq!(span_ms("90s"), Some(90_000));
        assert_eq!(span_ms("2h"), Some(7_200_000));
        for bad in [
            "",
            "m",
            "-5m",
            "+5m",
            "5",
            "5x",
            "1.5h",
            "99999999999999999d",
        ] {
            assert_eq!(span_ms(bad), None, "{bad}");
        }
    }
}
