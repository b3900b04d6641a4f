//! `/v1/datasets` (create, list, get, update, delete, files) and `/v1/integrations` (list,
//! get).

use reqwest::Method;

use super::{Call, Client, ClientError, segment};
use crate::api::{DatasetFile, DatasetInput, DatasetOut, IntegrationOut};

impl Client {
    /// `POST /v1/datasets`: a new dataset, version 1 (the input's `version` is not sent).
    pub async fn create_dataset(&self, dataset: &DatasetInput) -> Result<DatasetOut, ClientError> {
        let mut body = dataset.clone();
        body.version = None;
        self.call(Call::new(Method::POST, "/v1/datasets".into()).json(&body)?)
            .await
    }

    /// `GET /v1/datasets`: every dataset of the organization, page after page.
    pub async fn list_datasets(&self) -> Result<Vec<DatasetOut>, ClientError> {
        self.list_datasets_up_to(None).await
    }

    /// `GET /v1/datasets`, page after page until the last or until `max_items` are listed.
    pub async fn list_datasets_up_to(
        &self,
        max_items: Option<usize>,
    ) -> Result<Vec<DatasetOut>, ClientError> {
        self.list_linked(Call::new(Method::GET, "/v1/datasets".into()), max_items)
            .await
    }

    /// `GET /v1/datasets/{id}`.
    pub async fn get_dataset(&self, id: &str) -> Result<DatasetOut, ClientError> {
        self.call(Call::new(
            Method::GET,
            format!("/v1/datasets/{}", segment(id)),
        ))
        .await
    }

    /// `PUT /v1/datasets/{id}`: replaces every field. With `expected_current: Some(N)` the
    /// write succeeds only while the dataset is at version N (else a 409 carrying the current
    /// version) and, being conditional, is retried like an idempotent request; `None`
    /// replaces whatever is current.
    pub async fn update_dataset(
        &self,
        id: &str,
        dataset: &DatasetInput,
        expected_current: Option<u64>,
    ) -> Result<DatasetOut, ClientError> {
        let mut body = dataset.clone();
        body.version = expected_current;
        let mut call =
            Call::new(Method::PUT, format!("/v1/datasets/{}", segment(id))).json(&body)?;
        call.idempotent = body.version.is_some();
        self.call(call).await
    }

    /// `DELETE /v1/datasets/{id}`: the metadata only; the data files stay.
    pub async fn delete_dataset(&self, id: &str) -> Result<(), ClientError> {
        self.call_empty(Call::new(
            Method::DELETE,
            format!("/v1/datasets/{}", segment(id)),
        ))
        .await
    }

    /// `GET /v1/datasets/{id}/files`: every committed data file of the dataset, page after
    /// page (partition, then time, then path order).
    pub async fn dataset_files(&self, id: &str) -> Result<Vec<DatasetFile>, ClientError> {
        self.dataset_files_up_to(id, None).await
    }

    /// `GET /v1/datasets/{id}/files`, page after page until the last or until `max_items`
    /// files are listed.
    pub async fn dataset_files_up_to(
        &self,
        id: &str,
        max_items: Option<usize>,
    ) -> Result<Vec<DatasetFile>, ClientError> {
        self.list_pages(
            Call::new(Method::GET, format!("/v1/datasets/{}/files", segment(id))),
            max_items,
        )
        .await
    }

    /// `GET /v1/integrations`: the integrations the organization sees, with the jobs that use
    /// each (every page, should the service page them).
    pub async fn list_integrations(&self) -> Result<Vec<IntegrationOut>, ClientError> {
        self.list_pages(Call::new(Method::GET, "/v1/integrations".into()), None)
            .await
    }

    /// `GET /v1/integrations/{id}`.
    pub async fn get_integration(&self, id: &str) -> Result<IntegrationOut, ClientError> {
        self.call(Call::new(
            Method::GET,
            format!("/v1/integrations/{}", segment(id)),
        ))
        .await
    }
}
