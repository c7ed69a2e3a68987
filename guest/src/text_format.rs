//! The formats a text answer can be asked to have (JSON Schema's `format`, as MCP elicitation
//! uses it), checked the way the person typed them, with messages that show what would do.
//!
//! The checks are a little stricter than the validators MCP servers use, never looser:
//! anything accepted here passes both pydantic (the Python SDK) and Ajv with ajv-formats (the
//! TypeScript SDK), which CI checks value by value (`hosts/python/check_formats.py`). So there
//! are no address literals in emails (`ada@[127.0.0.1]`: pydantic refuses them), no year 0000
//! and no leap seconds (pydantic refuses both), and a typo such as `bob@gmail` is caught while
//! the person can still fix it.

use crate::model::TextFormat;

/// The format's name in requests: `email`, `uri`, `date`, `date-time`.
pub fn name(format: TextFormat) -> &'static str {
    match format {
        TextFormat::Email => "email",
        TextFormat::Uri => "uri",
        TextFormat::Date => "date",
        TextFormat::DateTime => "date-time",
    }
}

/// The format of a name, as requests spell it (`date-time`, `datetime`, `url`, ...).
pub fn named(name: &str) -> Option<TextFormat> {
    let name: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect();
    Some(match name.as_str() {
        "email" => TextFormat::Email,
        "uri" | "url" => TextFormat::Uri,
        "date" => TextFormat::Date,
        "datetime" => TextFormat::DateTime,
        _ => return None,
    })
}

/// What an answer of this format looks like, shown while the answer is empty.
pub fn example(format: TextFormat) -> &'static str {
    match format {
        TextFormat::Email => "name@example.com",
        TextFormat::Uri => "https://example.com",
        TextFormat::Date => "YYYY-MM-DD",
        TextFormat::DateTime => "YYYY-MM-DDThh:mm:ssZ",
    }
}

/// Whether `text` has `format`.
pub fn fits(format: TextFormat, text: &str) -> bool {
    match format {
        TextFormat::Email => is_email(text),
        TextFormat::Uri => is_uri(text),
        TextFormat::Date => is_date(text),
        TextFormat::DateTime => is_date_time(text),
    }
}

/// What an answer of `format` is, in words for the person: "a date as YYYY-MM-DD, like ...".
pub fn wanted(format: TextFormat) -> &'static str {
    match format {
        TextFormat::Email => "an email address, like name@example.com",
        TextFormat::Uri => "a full address with its scheme, like https://example.com/page",
        TextFormat::Date => "a date as YYYY-MM-DD, like 2026-11-21",
        TextFormat::DateTime => {
            "a date and time with its time zone, like 2026-11-21T14:30:00Z or \
             2026-11-21T14:30:00+01:00"
        }
    }
}

/// `local@domain`: a dot-atom local part and a domain name of at least two labels whose last
/// is not a number, ASCII only.
fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    let atom = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c);
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && local
            .split('.')
            .all(|part| !part.is_empty() && part.chars().all(atom));
    let top_level = domain.rsplit('.').next().unwrap_or("");
    local_ok && is_domain(domain) && !top_level.chars().all(|c| c.is_ascii_digit())
}

fn is_domain(domain: &str) -> bool {
    let label = |l: &str| {
        (1..=63).contains(&l.len())
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    domain.len() <= 253 && domain.contains('.') && domain.split('.').all(label)
}

/// An absolute URI (RFC 3986): a scheme, a colon, and the rest in URI characters with valid
/// percent escapes; after `//`, a host (empty only for `file:`) and a port that exists.
fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut scheme_chars = scheme.chars();
    let scheme_ok = scheme_chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme_chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    // `https://` alone is valid RFC 3986, but names nothing: an authority must follow.
    let authority = rest
        .strip_prefix("//")
        .map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
    let file = scheme.eq_ignore_ascii_case("file");
    if !scheme_ok || rest.is_empty() || (authority == Some("") && !file) {
        return false;
    }
    if let Some(authority) = authority {
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let port = match host_port.rsplit_once(']') {
            Some((_, after)) => after.strip_prefix(':'),
            None => host_port.rsplit_once(':').map(|(_, p)| p),
        };
        if port.is_some_and(|p| !p.is_empty() && p.parse::<u16>().is_err()) {
            return false;
        }
    }
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c == '%' {
            let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
            continue;
        }
        if !(c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=".contains(c)) {
            return false;
        }
        i += 1;
    }
    true
}

/// `YYYY-MM-DD`, a day that exists, from year 1.
fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) =
        (digits(&b[0..4]), digits(&b[5..7]), digits(&b[8..10]))
    else {
        return false;
    };
    if year == 0 {
        return false;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339: `full-date T hh:mm:ss[.frac] (Z | ±hh:mm)`, without leap seconds.
fn is_date_time(text: &str) -> bool {
    if !text.is_char_boundary(10) || !is_date(&text[..10]) {
        return false;
    }
    let rest = &text.as_bytes()[10..];
    if rest.len() < 10 || !matches!(rest[0], b'T' | b't') {
        return false;
    }
    let time = &rest[1..];
    let clock = |b: &[u8], top: u32| digits(b).is_some_and(|n| n <= top);
    if !(clock(&time[0..2], 23)
        && time[2] == b':'
        && clock(&time[3..5], 59)
        && time[5] == b':'
        && clock(&time[6..8], 59))
    {
        return false;
    }
    let mut offset = &time[8..];
    if let Some(fraction) = offset.strip_prefix(b".") {
        let n = fraction.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        offset = &fraction[n..];
    }
    match offset {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => clock(&[*h1, *h2], 23) && clock(&[*m1, *m2], 59),
        _ => false,
    }
}

/// ASCII digits as a number.
fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(format: TextFormat, good: &[&str], bad: &[&str]) {
        for text in good {
            assert!(fits(format, text), "{text:?} should be a {format:?}");
        }
        for text in bad {
            assert!(!fits(format, text), "{text:?} should not be a {format:?}");
        }
    }

    #[test]
    fn emails() {
        ok(
            TextFormat::Email,
            &["octocat@github.com", "a.b+tag@sub.example.org"],
            &[
                "",
                "bob",
                "bob@gmail",
                "@example.com",
                "a@b@c.com",
                "a..b@c.com",
                "a b@c.com",
                "a@-c.com",
                "ünï@example.com",
                "a@example.com.",
                "x@[192.0.2.1]",
                "x@[IPv6:::1]",
                "x@192.0.2.1",
            ],
        );
    }

    #[test]
    fn uris() {
        ok(
            TextFormat::Uri,
            &[
                "https://example.com",
                "mailto:a@b.c",
                "urn:isbn:0451450523",
                "http://x/a%20b?q=1#f",
                "file:///tmp/x",
                "https://[::1]:8443/",
                "https://u:p@example.com:443/",
            ],
            &[
                "",
                "example.com",
                "https://",
                "1http://x",
                "http://a b",
                "http://x/%zz",
                "http://é.fr",
                "https:///x",
                "https://example.com:99999/",
                "https://example.com:http/",
            ],
        );
    }

    #[test]
    fn dates() {
        ok(
            TextFormat::Date,
            &["2026-11-21", "2024-02-29", "2000-02-29"],
            &[
                "",
                "2026-1-21",
                "2026-13-01",
                "2026-02-29",
                "1900-02-29",
                "2026-04-31",
                "21/11/2026",
                "0000-01-01",
            ],
        );
    }

    #[test]
    fn date_times() {
        ok(
            TextFormat::DateTime,
            &["2026-11-21T14:30:00Z", "2026-11-21t14:30:00.123+01:00"],
            &[
                "2026-11-21",
                "2026-11-21 14:30:00Z",
                "2026-11-21T14:30Z",
                "2026-11-21T24:00:00Z",
                "2026-11-21T14:30:00",
                "2026-11-21T14:30:00.Z",
                "2026-11-21T14:30:00+1:00",
                "2016-12-31T23:59:60Z",
                "0000-01-01T00:00:00Z",
            ],
        );
    }

    #[test]
    fn names() {
        assert_eq!(named("date-time"), Some(TextFormat::DateTime));
        assert_eq!(named("URL"), Some(TextFormat::Uri));
        assert_eq!(named("password"), None);
    }
}
