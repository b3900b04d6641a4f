//! Ids of test runs (`job:to-test`).

/// A fresh test run id: 16 random letters and digits.
pub fn random_test_run_id() -> String {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut bytes = [0u8; 16];
    // Without the system's randomness, the time still makes a usable id.
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = nanos.to_le_bytes();
    }
    bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::random_test_run_id;

    #[test]
    fn random_ids_differ() {
        let (a, b) = (random_test_run_id(), random_test_run_id());
        assert_eq!(a.len(), 16);
        assert_ne!(a, b);
    }
}
