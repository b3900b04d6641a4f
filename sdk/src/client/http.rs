//! Sending one request: timeouts, retries with backoff, `Retry-After`, and the `-d` trace
//! (method, URL, status and time; never a header or a body).

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue, LINK, RETRY_AFTER};
use reqwest::{Method, Url};

use super::error::ClientError;
use crate::api::ErrorBody;

/// Where the client reports what it does (the CLI's `-d`): one line per request, retry and
/// token event. Lines never hold a token or a secret.
pub type Trace = Arc<dyn Fn(&str) + Send + Sync>;

/// When and how often a failed request is tried again.
///
/// Retried: a connection that could not be made (nothing was sent) and `429 Too Many
/// Requests` (the service did not process it), for every request; `408`, `5xx`, timeouts and
/// connections that broke after the request was sent, for idempotent requests only (`GET`,
/// `DELETE`, conditional `PUT`s, token requests). The wait doubles from `base_delay` up to
/// `max_delay`, with jitter; a `Retry-After` answer waits as long as it says, up to
/// `max_retry_after`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0: none).
    pub max_retries: u32,
    /// The first wait.
    pub base_delay: Duration,
    /// The longest wait computed by backoff.
    pub max_delay: Duration,
    /// The longest `Retry-After` honoured (a longer one fails instead).
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(5),
            max_retry_after: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        }
    }

    /// The wait before retry number `retry` (0-based): exponential with "equal jitter"
    /// (between half and all of the exponential value).
    pub fn backoff(&self, retry: u32) -> Duration {
        let exp = self
            .base_delay
            .saturating_mul(1u32.checked_shl(retry.min(16)).unwrap_or(u32::MAX))
            .min(self.max_delay);
        let half = exp / 2;
        // The operating system's random source; without one, no jitter (the longest wait).
        let jitter = getrandom::u64().unwrap_or(u64::MAX);
        let extra = half.as_nanos() as u64;
        half + Duration::from_nanos(if extra == 0 { 0 } else { jitter % extra })
    }
}

/// One request to send.
pub(crate) struct Outgoing {
    pub method: Method,
    pub url: Url,
    /// A body and its content type.
    pub body: Option<(Vec<u8>, &'static str)>,
    /// The access token, if the endpoint needs one.
    pub bearer: Option<String>,
    /// Whether sending it twice does what sending it once does.
    pub idempotent: bool,
}

/// An answer, read whole.
#[derive(Debug, Default)]
pub(crate) struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
    /// The target of its `Link: <…>; rel="next"` header, as written (maybe relative).
    pub next_link: Option<String>,
}

impl Answer {
    /// The error text of an error answer: the first of `fields` the JSON body has, else the
    /// body's first 200 characters, else the reason phrase.
    pub fn error_text(&self, fields: &[&str]) -> String {
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&self.body) {
            for field in fields {
                if let Some(text) = value.get(*field).and_then(|v| v.as_str())
                    && !text.is_empty()
                {
                    return text.to_owned();
                }
            }
        }
        let text = String::from_utf8_lossy(&self.body);
        let text = text.trim();
        if text.is_empty() {
            return super::error::reason(self.status).to_owned();
        }
        let mut short: String = text.chars().take(200).collect();
        if short.len() < text.len() {
            short.push('…');
        }
        short.replace(['\n', '\r'], " ")
    }

    /// The error of an error answer to `method` `path`.
    pub fn into_error(self, method: &Method, path: &str) -> ClientError {
        let body: Option<ErrorBody> = serde_json::from_slice(&self.body).ok();
        let message = self.error_text(&["error", "message"]);
        ClientError::Api {
            method: method.to_string(),
            path: path.to_owned(),
            status: self.status,
            message,
            code: body.as_ref().and_then(|b| b.code.clone()),
            current_version: body.and_then(|b| b.current_version),
        }
    }
}

/// The HTTP side of a client.
pub(crate) struct Http {
    pub client: reqwest::Client,
    pub retry: RetryPolicy,
    pub timeout: Duration,
    pub trace: Option<Trace>,
}

/// The URL without its query string, for messages.
pub(crate) fn bare(url: &Url) -> String {
    let mut url = url.clone();
    url.set_query(None);
    url.to_string()
}

impl Http {
    pub fn trace(&self, line: &str) {
        if let Some(trace) = &self.trace {
            trace(line);
        }
    }

    /// Sends `out`, retrying as the [`RetryPolicy`] says; the last answer is returned whatever
    /// its status.
    pub async fn send(&self, out: &Outgoing) -> Result<Answer, ClientError> {
        let mut retry = 0;
        loop {
            let started = Instant::now();
            self.trace(&format!("→ {} {}", out.method, out.url));
            let failure = match self.attempt(out).await {
                Ok((answer, retry_after)) => {
                    self.trace(&format!(
                        "← {} {} ({} ms, {} bytes)",
                        answer.status,
                        super::error::reason(answer.status),
                        started.elapsed().as_millis(),
                        answer.body.len()
                    ));
                    let retriable = answer.status == 429
                        || (out.idempotent && (answer.status == 408 || answer.status >= 500));
                    if !retriable || retry >= self.retry.max_retries {
                        return Ok(answer);
                    }
                    let wait = match retry_after {
                        Some(wait) if wait > self.retry.max_retry_after => return Ok(answer),
                        Some(wait) => wait,
                        None => self.retry.backoff(retry),
                    };
                    (format!("{}", answer.status), wait)
                }
                Err((error, sent)) => {
                    self.trace(&format!("← {error}"));
                    let retriable = !sent || out.idempotent;
                    if !retriable || retry >= self.retry.max_retries {
                        return Err(error);
                    }
                    (error.to_string(), self.retry.backoff(retry))
                }
            };
            retry += 1;
            self.trace(&format!(
                "retry {retry}/{} in {} ms after {}",
                self.retry.max_retries,
                failure.1.as_millis(),
                failure.0
            ));
            tokio::time::sleep(failure.1).await;
        }
    }

    /// Sends `out` once without a timeout on the whole answer (a stream), and returns the
    /// response as soon as its head arrived.
    pub async fn open(&self, out: &Outgoing) -> Result<reqwest::Response, ClientError> {
        self.trace(&format!("→ {} {} (streamed)", out.method, out.url));
        let mut request = self.client.request(out.method.clone(), out.url.clone());
        if let Some(token) = &out.bearer {
            let mut value = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
                ClientError::Config("the access token is not a valid header value".into())
            })?;
            value.set_sensitive(true);
            request = request.header(AUTHORIZATION, value);
        }
        if let Some((body, content_type)) = &out.body {
            request = request
                .header(CONTENT_TYPE, *content_type)
                .body(body.clone());
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.transport_error(out, &e).0)?;
        self.trace(&format!("← {} (stream opened)", response.status().as_u16()));
        Ok(response)
    }

    /// Sends `out` once with `body` streamed instead of `out.body` (a stream cannot be sent
    /// twice: no retries, no timeout on the whole exchange), and reads the answer whole.
    pub async fn upload(
        &self,
        out: &Outgoing,
        body: reqwest::Body,
        content_type: &'static str,
    ) -> Result<Answer, ClientError> {
        self.trace(&format!("→ {} {} (upload)", out.method, out.url));
        let mut request = self.client.request(out.method.clone(), out.url.clone());
        if let Some(token) = &out.bearer {
            let mut value = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
                ClientError::Config("the access token is not a valid header value".into())
            })?;
            value.set_sensitive(true);
            request = request.header(AUTHORIZATION, value);
        }
        let response = request
            .header(CONTENT_TYPE, content_type)
            .body(body)
            .send()
            .await
            .map_err(|e| self.transport_error(out, &e).0)?;
        let status = response.status().as_u16();
        let body = response
            .bytes()
            .await
            .map_err(|e| self.transport_error(out, &e).0)?
            .to_vec();
        self.trace(&format!("← {status}"));
        Ok(Answer {
            status,
            body,
            ..Answer::default()
        })
    }

    /// One attempt. An error says whether the request may have reached the service.
    async fn attempt(
        &self,
        out: &Outgoing,
    ) -> Result<(Answer, Option<Duration>), (ClientError, bool)> {
        let mut request = self
            .client
            .request(out.method.clone(), out.url.clone())
            .timeout(self.timeout);
        if let Some(token) = &out.bearer {
            let mut value = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
                (
                    ClientError::Config("the access token is not a valid header value".into()),
                    false,
                )
            })?;
            value.set_sensitive(true);
            request = request.header(AUTHORIZATION, value);
        }
        if let Some((body, content_type)) = &out.body {
            request = request
                .header(CONTENT_TYPE, *content_type)
                .body(body.clone());
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.transport_error(out, &e))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let next_link = response
            .headers()
            .get_all(LINK)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(next_link);
        let body = response
            .bytes()
            .await
            .map_err(|e| self.transport_error(out, &e))?
            .to_vec();
        Ok((
            Answer {
                status,
                body,
                next_link,
            },
            retry_after,
        ))
    }

    fn transport_error(&self, out: &Outgoing, error: &reqwest::Error) -> (ClientError, bool) {
        let url = bare(&out.url);
        let method = out.method.to_string();
        if error.is_timeout() {
            return (
                ClientError::Timeout {
                    method,
                    url,
                    timeout: self.timeout,
                },
                true,
            );
        }
        let sent = !error.is_connect();
        (
            ClientError::Unreachable {
                method,
                url,
                reason: describe(error),
            },
            sent,
        )
    }
}

/// A reqwest error in words: its innermost cause ("Connection refused (os error 111)")
/// rather than "error sending request".
pub(crate) fn describe(error: &reqwest::Error) -> String {
    let mut source: Option<&dyn std::error::Error> = Some(error);
    let mut last = error.to_string();
    while let Some(e) = source {
        last = e.to_string();
        source = e.source();
    }
    if error.is_connect() && !last.contains("onnect") {
        format!("cannot connect: {last}")
    } else {
        last
    }
}

/// The target of the `rel="next"` link of a `Link` header value (RFC 8288:
/// `<target>; rel="next"`, several links separated by commas, a `rel` of several
/// space-separated relations), as written.
pub(crate) fn next_link(header: &str) -> Option<String> {
    let mut rest = header;
    loop {
        let start = rest.find('<')?;
        let end = start + rest[start..].find('>')?;
        let target = &rest[start + 1..end];
        // The link's parameters run to the next `<` (commas inside quoted values are rare in
        // practice and harmless here: only `rel` is read).
        let after = &rest[end + 1..];
        let params = &after[..after.find('<').unwrap_or(after.len())];
        let is_next = params.split(';').any(|param| {
            let Some((name, value)) = param.split_once('=') else {
                return false;
            };
            name.trim().eq_ignore_ascii_case("rel")
                && value
                    .trim()
                    .trim_end_matches(',')
                    .trim()
                    .trim_matches('"')
                    .split_ascii_whitespace()
                    .any(|rel| rel.eq_ignore_ascii_case("next"))
        });
        if is_next {
            return Some(target.to_owned());
        }
        rest = after;
    }
}

/// `Retry-After`: seconds, or an HTTP date.
pub(crate) fn parse_retry_after(text: &str) -> Option<Duration> {
    let text = text.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = httpdate(text)?;
    Some(when.duration_since(SystemTime::now()).unwrap_or_default())
}

/// An HTTP date: the IMF-fixdate RFC 9110 requires senders to use (`Sun, 06 Nov 1994
/// 08:49:37 GMT`), read by jiff's RFC 2822 parser (the format it is a profile of).
fn httpdate(text: &str) -> Option<SystemTime> {
    let when = jiff::fmt::rfc2822::parse(text).ok()?;
    let seconds = u64::try_from(when.timestamp().as_second()).ok()?;
    Some(std::time::UNIX_EPOCH + Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_link_is_found_among_others() {
        assert_eq!(
            next_link("</v1/datasets?limit=2&cursor=abc>; rel=\"next\"").as_deref(),
            Some("/v1/datasets?limit=2&cursor=abc")
        );
        assert_eq!(
            next_link("<https://x/a?p=1>; rel=\"prev\", <https://x/a?p=3>; rel=\"next last\"")
                .as_deref(),
            Some("https://x/a?p=3")
        );
        assert_eq!(
            next_link("<https://x/a>; rel=next").as_deref(),
            Some("https://x/a")
        );
        assert_eq!(next_link("<https://x/a>; rel=\"prev\""), None);
        assert_eq!(next_link("garbage"), None);
        assert_eq!(next_link("<unclosed; rel=next"), None);
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        assert_eq!(parse_retry_after("1"), Some(Duration::from_secs(1)));
        assert_eq!(parse_retry_after(" 30 "), Some(Duration::from_secs(30)));
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
        assert_eq!(
            httpdate("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(std::time::UNIX_EPOCH + Duration::from_secs(784111777))
        );
    }

    #[test]
    fn backoff_doubles_with_jitter_up_to_the_cap() {
        let policy = RetryPolicy::default();
        for retry in 0..10 {
            let exp = (Duration::from_millis(200) * 2u32.pow(retry)).min(Duration::from_secs(5));
            let wait = policy.backoff(retry);
            assert!(wait >= exp / 2 && wait <= exp, "{retry}: {wait:?}");
        }
    }

    #[test]
    fn error_text_prefers_the_fields_then_the_body() {
        let answer = |body: &str| Answer {
            status: 400,
            body: body.as_bytes().to_vec(),
            ..Answer::default()
        };
        assert_eq!(
            answer(r#"{"error":"bad","message":"worse"}"#).error_text(&["error", "message"]),
            "bad"
        );
        assert_eq!(
            answer(r#"{"message":"worse"}"#).error_text(&["error", "message"]),
            "worse"
        );
        assert_eq!(answer("plain\ntext").error_text(&["error"]), "plain text");
        assert_eq!(answer("").error_text(&["error"]), "Bad Request");
    }
}
