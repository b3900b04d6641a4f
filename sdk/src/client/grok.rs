//! Grok rules tried on sample lines by the service: `POST /v1/grok/parse/batch`.

use jobgraph_model::grok_wire::{GrokBatchRequest, GrokBatchResponse};
use reqwest::Method;

use super::{Call, Client, ClientError};

impl Client {
    /// `POST /v1/grok/parse/batch`: the service compiles the rules once and answers, per
    /// sample, whether a rule matched the whole line, which one, and what it extracted (the
    /// same answer as `jobgraph_core::grok::parse_batch` here).
    pub async fn parse_grok_batch(
        &self,
        request: &GrokBatchRequest,
    ) -> Result<GrokBatchResponse, ClientError> {
        self.call(Call::new(Method::POST, "/v1/grok/parse/batch".into()).json(request)?)
            .await
    }
}
