//! The redirect URIs a login may go back to (RFC 8252 §7.3, native apps): loopback only, on
//! any port, over `http` — `127.0.0.1`, `[::1]`, `localhost` and names under `.localhost`
//! (the public client's `http://{org}.app.localhost:3000`, which resolves to loopback, RFC
//! 6761 §6.3). Anything else is refused before a form is shown, so that a login never sends
//! a code to a stranger.
//!
//! ```
//! use jobgraph_server::login::redirect::loopback;
//! assert!(loopback("http://127.0.0.1:53117/callback").is_ok());
//! assert!(loopback("http://acme.app.localhost:3000").is_ok());
//! assert!(loopback("https://evil.example/cb").is_err());
//! ```

/// `uri` when it is a loopback redirect URI, else why not.
pub fn loopback(uri: &str) -> Result<&str, String> {
    let rest = uri.strip_prefix("http://").ok_or_else(|| {
        format!("redirect_uri {uri:?} must be http:// on this machine's loopback")
    })?;
    if uri.contains('#') {
        return Err(format!("redirect_uri {uri:?} must not have a fragment"));
    }
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err(format!("redirect_uri {uri:?} must not hold a user name"));
    }
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']')
            .next()
            .map(|h| format!("[{h}]"))
            .unwrap_or_default()
    } else {
        authority
            .split(':')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase()
    };
    let port_ok = match authority.rsplit_once(':') {
        Some((_, port)) if !port.ends_with(']') => port.parse::<u16>().is_ok(),
        _ => true,
    };
    let loopback = host == "127.0.0.1"
        || host == "[::1]"
        || host == "localhost"
        || (host.ends_with(".localhost")
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'));
    if !loopback || !port_ok {
        return Err(format!(
            "redirect_uri {uri:?} is not on loopback: a login goes back only to http://127.0.0.1, http://[::1], http://localhost or http://*.localhost, on any port"
        ));
    }
    Ok(uri)
}

#[cfg(test)]
mod tests {
    use super::loopback;

    #[test]
    fn only_loopback_http_uris_are_taken() {
        for good in [
            "http://127.0.0.1:8765/cb",
            "http://[::1]:1/",
            "http://localhost",
            "http://acme.app.localhost:3000",
            "http://127.0.0.1:65535/a?b=c",
        ] {
            assert!(loopback(good).is_ok(), "{good}");
        }
        for bad in [
            "https://127.0.0.1/cb",
            "http://evil.example/cb",
            "http://127.0.0.1.evil.example/",
            "http://localhost.evil.example/",
            "http://user@127.0.0.1/",
            "http://127.0.0.1:99999/",
            "http://127.0.0.1/#frag",
            "javascript:alert(1)",
            "http://evil.example\\@127.0.0.1/",
        ] {
            assert!(loopback(bad).is_err(), "{bad}");
        }
    }
}
