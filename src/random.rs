//! Random values in hex, from the system's randomness: tokens, nonces, task ids, the runs of
//! calls asked through a team inbox.

/// `N` random bytes, in hex; why not, when the system has no randomness to give.
pub fn hex<const N: usize>() -> Result<String, String> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
