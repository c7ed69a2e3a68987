//! Random values in hex, from the system's randomness: tokens, nonces, task ids, the runs of
//! calls asked through a team inbox.

use std::fmt;

/// `N` random bytes, in hex; why not, when the system has no randomness to give.
pub fn hex<const N: usize>() -> Result<String, NoRandomness> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(NoRandomness)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The system gave no randomness (no `getrandom`, no `/dev/urandom`): nothing that must not be
/// guessed can be drawn, so what needs it is not made at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoRandomness(getrandom::Error);

impl fmt::Display for NoRandomness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no randomness: {}", self.0)
    }
}

impl std::error::Error for NoRandomness {}
