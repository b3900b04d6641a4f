//! The Python tools of target/lake-venv (made by scripts/setup.sh): skipped loudly outside CI
//! when missing, a failure in CI.

use std::path::PathBuf;

/// `target/lake-venv/bin/<tool>`, or `None` (after a loud SKIPPED line) when the venv is
/// missing and `CI` is unset. Panics in CI.
pub fn tool(test: &str, name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../target/lake-venv/bin")
        .join(name);
    if path.exists() {
        return Some(path);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "{} is missing and CI is set: run scripts/setup.sh",
            path.display()
        );
    }
    eprintln!(
        "\n**** SKIPPED {test}: {} is missing (run scripts/setup.sh) ****\n",
        path.display()
    );
    None
}
