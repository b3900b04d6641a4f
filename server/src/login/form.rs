//! The login form: server-rendered HTML that needs no script (and runs none: its
//! `Content-Security-Policy` allows no script at all), every value escaped.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::AuthorizeParams;

/// `text` escaped for HTML text and attribute values.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}\
label{display:block;margin-top:1rem}input{width:100%;padding:.4rem;box-sizing:border-box}\
button{margin-top:1.5rem;padding:.5rem 1.5rem}.error{color:#a00}";

/// An HTML page with the headers every login page has: not cached, not framed, no script.
pub(super) fn page(status: StatusCode, title: &str, body: &str, cookie: Option<&str>) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>{}</title>\
         <style>{STYLE}</style></head><body>{body}</body></html>",
        escape(title)
    );
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        ),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if let Some(cookie) = cookie.and_then(|c| HeaderValue::from_str(c).ok()) {
        headers.insert(header::SET_COOKIE, cookie);
    }
    response
}

/// A page that says what is wrong with the request, for a login that cannot go back to its
/// client (an unknown client, a redirect URI not on loopback).
pub(super) fn refusal(status: StatusCode, message: &str) -> Response {
    page(
        status,
        "Cannot log in",
        &format!(
            "<h1>Cannot log in</h1><p class=\"error\" id=\"error\">{}</p>",
            escape(message)
        ),
        None,
    )
}

/// The login form for `params`, with the CSRF token `csrf` (also in the cookie set with it),
/// `organization` and `username` filled in, and `error` above it.
pub(super) fn login(
    params: &AuthorizeParams,
    csrf: &str,
    organization: &str,
    username: &str,
    error: Option<&str>,
    status: StatusCode,
) -> Response {
    let hidden: String = params
        .fields()
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| {
            format!(
                "<input type=\"hidden\" name=\"{k}\" value=\"{}\">",
                escape(v)
            )
        })
        .collect();
    let error = error.map_or(String::new(), |e| {
        format!(
            "<p class=\"error\" id=\"error\" role=\"alert\">{}</p>",
            escape(e)
        )
    });
    let body = format!(
        "<h1>Log in to jobgraph</h1>{error}\
         <form method=\"post\" action=\"authorize\">{hidden}\
         <input type=\"hidden\" name=\"csrf\" value=\"{csrf}\">\
         <label>Organization <input name=\"organization\" id=\"organization\" value=\"{}\" required autocomplete=\"organization\"></label>\
         <label>User name <input name=\"username\" id=\"username\" value=\"{}\" required autocomplete=\"username\"></label>\
         <label>Password <input name=\"password\" id=\"password\" type=\"password\" required autocomplete=\"current-password\"></label>\
         <button type=\"submit\" id=\"submit\">Log in</button></form>\
         <p>Logging in gives <code>{}</code> access to jobgraph as you.</p>",
        escape(organization),
        escape(username),
        escape(&params.client_id),
    );
    let cookie = format!(
        "{}={csrf}; Path=/; HttpOnly; SameSite=Strict; Max-Age=1800",
        super::CSRF_COOKIE
    );
    page(status, "Log in", &body, Some(&cookie))
}
