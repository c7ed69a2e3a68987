//! Tokens: drawn at random, shown once, kept only as their hash.

use std::fmt;

use sha2::{Digest, Sha256};

use crate::random::NoRandomness;

/// What every token starts with, so that one pasted in the wrong place is recognised.
const PREFIX: &str = "itk_";

/// A new token: 256 random bits, in hex after the prefix.
pub fn generate() -> Result<String, NoToken> {
    let random = crate::random::hex::<32>().map_err(NoToken)?;
    Ok(format!("{PREFIX}{random}"))
}

/// No token could be drawn: the system gave no randomness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoToken(NoRandomness);

impl fmt::Display for NoToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot draw a token: {}", self.0)
    }
}

impl std::error::Error for NoToken {}

/// The hash a token is kept and looked up by. A token is random and long, so one round of
/// SHA-256 is enough: there is nothing to guess from a stolen hash.
pub fn hash(token: &str) -> String {
    let digest = Sha256::digest(token.trim().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_differ_and_hash_alike_with_stray_whitespace() {
        let (a, b) = (generate().unwrap(), generate().unwrap());
        assert_ne!(a, b);
        assert!(a.starts_with(PREFIX) && a.len() == PREFIX.len() + 64);
        assert_eq!(hash(&a), hash(&format!("{a}\n")));
        assert_ne!(hash(&a), hash(&b));
    }
}
