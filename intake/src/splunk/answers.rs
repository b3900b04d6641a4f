//! Splunk's HEC answers.

use serde_json::Map;

/// Splunk's HEC answers that are errors: each with Splunk's HTTP status, `code` and `text`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HecError {
    /// 401, code 2: no token.
    #[error("Token is required: send the header `Authorization: Splunk <token>`")]
    TokenRequired,
    /// 401, code 3: an `Authorization` header that is not `Splunk <token>`.
    #[error("Invalid authorization: the Authorization header must be `Splunk <token>`")]
    InvalidAuthorization,
    /// 403, code 4: an unknown token.
    #[error(
        "Invalid token: the token is not one this collector accepts; check the token the client is configured with"
    )]
    InvalidToken,
    /// 400, code 5: an empty body.
    #[error(
        "No data: the body is empty; send one or more event objects ({{\"event\":\"…\"}}) or, to /services/collector/raw, lines of text"
    )]
    NoData,
    /// 400, code 6: not JSON, not an object, a bad `time`.
    #[error("Invalid data format at event {event}: {detail}")]
    InvalidDataFormat {
        /// The event's number, from 0.
        event: usize,
        /// What is wrong, and where.
        detail: String,
    },
    /// 500, code 8.
    #[error("Internal server error")]
    InternalServerError,
    /// 503, code 9: try again later.
    #[error("Server is busy: try again later")]
    ServerBusy,
    /// 400, code 12: an event object without `event`.
    #[error(
        "Event field is required: event {event} (byte {offset}) has no `event` field; send {{\"event\": \"text or object\", …}}"
    )]
    EventRequired {
        /// The event's number, from 0.
        event: usize,
        /// Its byte offset in the body.
        offset: usize,
    },
    /// 400, code 13: `event` is `""` or `null`.
    #[error(
        "Event field cannot be blank: event {event} (byte {offset}) has an empty `event`; send its text or an object"
    )]
    EventBlank {
        /// The event's number, from 0.
        event: usize,
        /// Its byte offset in the body.
        offset: usize,
    },
    /// 400, code 15: `fields` is not an object of strings or arrays of strings.
    #[error("Error in handling indexed fields at event {event}: {detail}")]
    IndexedFields {
        /// The event's number, from 0.
        event: usize,
        /// What is wrong.
        detail: String,
    },
    /// 413, code 6 (Splunk has no code of its own for it): past [`LIMITS`](super::LIMITS).
    #[error("Content too large at event {event}: {detail}")]
    TooLarge {
        /// The event's number, from 0.
        event: usize,
        /// Which limit.
        detail: String,
    },
}

impl HecError {
    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            Self::TokenRequired | Self::InvalidAuthorization => 401,
            Self::InvalidToken => 403,
            Self::InternalServerError => 500,
            Self::ServerBusy => 503,
            Self::TooLarge { .. } => 413,
            _ => 400,
        }
    }

    /// Splunk's `code`.
    pub fn code(&self) -> u16 {
        match self {
            Self::TokenRequired => 2,
            Self::InvalidAuthorization => 3,
            Self::InvalidToken => 4,
            Self::NoData => 5,
            Self::InvalidDataFormat { .. } | Self::TooLarge { .. } => 6,
            Self::InternalServerError => 8,
            Self::ServerBusy => 9,
            Self::EventRequired { .. } => 12,
            Self::EventBlank { .. } => 13,
            Self::IndexedFields { .. } => 15,
        }
    }

    /// Splunk's `text`.
    pub fn text(&self) -> &'static str {
        match self {
            Self::TokenRequired => "Token is required",
            Self::InvalidAuthorization => "Invalid authorization",
            Self::InvalidToken => "Invalid token",
            Self::NoData => "No data",
            Self::InvalidDataFormat { .. } | Self::TooLarge { .. } => "Invalid data format",
            Self::InternalServerError => "Internal server error",
            Self::ServerBusy => "Server is busy",
            Self::EventRequired { .. } => "Event field is required",
            Self::EventBlank { .. } => "Event field cannot be blank",
            Self::IndexedFields { .. } => "Error in handling indexed fields",
        }
    }

    /// The event it is about (Splunk's `invalid-event-number`), for the errors that have one.
    pub fn event_number(&self) -> Option<usize> {
        match self {
            Self::InvalidDataFormat { event, .. }
            | Self::EventRequired { event, .. }
            | Self::EventBlank { event, .. }
            | Self::IndexedFields { event, .. }
            | Self::TooLarge { event, .. } => Some(*event),
            _ => None,
        }
    }

    /// The answer's body: `{"text":…,"code":…}`, with `invalid-event-number` when the error is
    /// about an event, and `detail` (this error's message).
    ///
    /// ```
    /// use jobgraph_intake::splunk::HecError;
    /// let body = HecError::EventBlank { event: 2, offset: 40 }.body();
    /// let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
    /// assert_eq!(body["text"], "Event field cannot be blank");
    /// assert_eq!(body["code"], 13);
    /// assert_eq!(body["invalid-event-number"], 2);
    /// ```
    pub fn body(&self) -> Vec<u8> {
        let mut body = Map::new();
        body.insert("text".into(), self.text().into());
        body.insert("code".into(), self.code().into());
        if let Some(event) = self.event_number() {
            body.insert("invalid-event-number".into(), event.into());
        }
        body.insert("detail".into(), self.to_string().into());
        serde_json::to_vec(&body).unwrap_or_default()
    }
}

/// The body of a successful answer: `{"text":"Success","code":0}`.
pub fn success_body() -> Vec<u8> {
    br#"{"text":"Success","code":0}"#.to_vec()
}
