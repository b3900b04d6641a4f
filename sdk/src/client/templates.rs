//! `/v1/templates`: create, list, get (all versions, the latest, one version), update, delete,
//! test.

use reqwest::Method;
use serde_json::Value;

use super::{Call, Client, ClientError, segment};
use crate::api::{Items, TemplateInput, TemplateOut, TemplateSummary, TemplateTest};

/// Which versions `GET /v1/templates/{id}` answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TemplateVersions {
    /// Every version, oldest first (no query parameter).
    #[default]
    All,
    /// The latest version (`?latest=true`).
    Latest,
    /// One version (`?version=N`).
    Version(u64),
}

impl Client {
    /// `POST /v1/templates`: a new template, version 1.
    pub async fn create_template(
        &self,
        template: &TemplateInput,
    ) -> Result<TemplateOut, ClientError> {
        let mut body = template.clone();
        body.version = None;
        self.call(Call::new(Method::POST, "/v1/templates".into()).json(&body)?)
            .await
    }

    /// `GET /v1/templates`: the latest version of each template, without scripts; every page.
    pub async fn list_templates(&self) -> Result<Vec<TemplateSummary>, ClientError> {
        self.list_templates_up_to(None).await
    }

    /// `GET /v1/templates`, page after page until the last or until `max_items` are listed.
    pub async fn list_templates_up_to(
        &self,
        max_items: Option<usize>,
    ) -> Result<Vec<TemplateSummary>, ClientError> {
        self.list_pages(Call::new(Method::GET, "/v1/templates".into()), max_items)
            .await
    }

    /// `GET /v1/templates/{id}` with `?latest=true`, `?version=N` or neither.
    pub async fn get_template(
        &self,
        id: &str,
        versions: TemplateVersions,
    ) -> Result<Vec<TemplateOut>, ClientError> {
        let call = Call::new(Method::GET, format!("/v1/templates/{}", segment(id)));
        let call = match versions {
            // Every version: page after page.
            TemplateVersions::All => return self.list_pages(call, None).await,
            TemplateVersions::Latest => call.query("latest", "true"),
            TemplateVersions::Version(n) => call.query("version", n.to_string()),
        };
        let items: Items<TemplateOut> = self.call(call).await?;
        Ok(items.items)
    }

    /// The latest version of a template (`?latest=true`, the one item of the answer).
    pub async fn latest_template(&self, id: &str) -> Result<TemplateOut, ClientError> {
        self.one_template(id, TemplateVersions::Latest).await
    }

    /// One version of a template (`?version=N`).
    pub async fn template_version(
        &self,
        id: &str,
        version: u64,
    ) -> Result<TemplateOut, ClientError> {
        self.one_template(id, TemplateVersions::Version(version))
            .await
    }

    async fn one_template(
        &self,
        id: &str,
        versions: TemplateVersions,
    ) -> Result<TemplateOut, ClientError> {
        let mut items = self.get_template(id, versions).await?;
        let path = format!("/v1/templates/{}", segment(id));
        match items.len() {
            1 => Ok(items.remove(0)),
            n => Err(ClientError::InvalidResponse {
                method: "GET".into(),
                path,
                status: 200,
                reason: format!("{n} items instead of one"),
            }),
        }
    }

    /// `PUT /v1/templates/{id}`: a new version. With `expected_current: Some(N)` the write
    /// creates version N+1 or fails with a 409 carrying the current version (and, being
    /// conditional, is retried like an idempotent request); `None` appends.
    pub async fn update_template(
        &self,
        id: &str,
        template: &TemplateInput,
        expected_current: Option<u64>,
    ) -> Result<TemplateOut, ClientError> {
        let mut body = template.clone();
        body.version = expected_current.map(|n| n.saturating_add(1));
        let mut call =
            Call::new(Method::PUT, format!("/v1/templates/{}", segment(id))).json(&body)?;
        call.idempotent = body.version.is_some();
        self.call(call).await
    }

    /// `DELETE /v1/templates/{id}`: every version.
    pub async fn delete_template(&self, id: &str) -> Result<(), ClientError> {
        self.call_empty(Call::new(
            Method::DELETE,
            format!("/v1/templates/{}", segment(id)),
        ))
        .await
    }

    /// `POST /v1/templates/test`: the job graph the script yields (`{vertices, edges}`). A
    /// failed test is a [`ClientError::Api`] with status 400 and the contract message.
    pub async fn test_template(&self, request: &TemplateTest) -> Result<Value, ClientError> {
        self.call(Call::new(Method::POST, "/v1/templates/test".into()).json(request)?)
            .await
    }
}
