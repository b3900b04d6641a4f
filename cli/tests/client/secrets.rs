//! Secrets and tokens kept out of `Debug` output.

use super::*;

#[test]
fn debug_output_never_holds_a_secret() {
    let credentials = Credentials::new("ci", "s3cret-value");
    let text = format!("{credentials:?}");
    assert!(
        text.contains("ci") && !text.contains("s3cret-value"),
        "{text}"
    );
    let builder = Client::builder("http://127.0.0.1:9").credentials(credentials);
    assert!(!format!("{builder:?}").contains("s3cret-value"));
    let client = builder.build().unwrap();
    assert!(!format!("{client:?}").contains("s3cret-value"));
    let token = AccessToken::new("tok-value-123", SystemTime::now(), SystemTime::now());
    assert!(!format!("{token:?}").contains("tok-value-123"));
}
