//! The service's side of the data lake (docs/lake.md): where the files live (`lake` in
//! `--config`, `--lake`: `LakeConfig`), the limits of queries and loads, and the pieces that use
//! [`jobgraph_lake`]: reading a dataset in a synchronous run ([`query`]), writing what reaches a
//! `logs-iceberg-table-sink` and committing it ([`sink`]), `POST /v1/datasets/{id}/load` ([`load`]),
//! and deleting files no manifest row names ([`gc`]).

pub(crate) mod gc;
pub(crate) mod load;
pub(crate) mod query;
pub(crate) mod sink;

use crate::error::ApiError;
use crate::state::AppState;
use crate::store::DatasetRecord;

/// The lake of `state`, or a 400 saying this service has none.
pub(crate) fn lake_of(state: &AppState) -> Result<std::sync::Arc<jobgraph_lake::Lake>, ApiError> {
    state.lake.clone().ok_or_else(|| {
        ApiError::BadRequest(
            "this service has no data lake (it was started without one: `jobgraph serve` opens one in --data, or at --lake)".into(),
        )
    })
}

/// The dataset and table a lake vertex names (`datasetId` or `datasetName`, and `table`,
/// default `logs`, checked as a path name), or a 400 naming the vertex.
pub(crate) async fn dataset_table(
    state: &AppState,
    organization: &str,
    vertex: &str,
    fields: &serde_json::Map<String, serde_json::Value>,
) -> Result<(DatasetRecord, String), ApiError> {
    let dataset = named_dataset(state, organization, vertex, fields).await?;
    let table = fields
        .get("table")
        .and_then(serde_json::Value::as_str)
        .unwrap_or(sink::DEFAULT_TABLE);
    check_table(table, &format!("vertex {vertex} (field `table`)"))?;
    Ok((dataset, table.to_owned()))
}

/// The dataset a vertex names (`datasetId`, else `datasetName`) in `organization`, or a 400
/// naming the vertex.
pub(crate) async fn named_dataset(
    state: &AppState,
    organization: &str,
    vertex: &str,
    fields: &serde_json::Map<String, serde_json::Value>,
) -> Result<DatasetRecord, ApiError> {
    let text = |key: &str| fields.get(key).and_then(serde_json::Value::as_str);
    let (found, what) = match (text("datasetId"), text("datasetName")) {
        (Some(id), _) => (
            state
                .store
                .dataset(organization.to_owned(), id.to_owned())
                .await,
            format!("datasetId {id:?}"),
        ),
        (None, Some(name)) => (
            state
                .store
                .dataset_by_name(organization.to_owned(), name.to_owned())
                .await,
            format!("datasetName {name:?}"),
        ),
        (None, None) => {
            return Err(ApiError::BadRequest(format!(
                "vertex {vertex} names no dataset: give `datasetId` or `datasetName`"
            )));
        }
    };
    found.map_err(|e| match e {
        crate::store::StoreError::NotFound => ApiError::BadRequest(format!(
            "vertex {vertex}: {what} is not a dataset of your organization (`jobgraph datasets` lists them)"
        )),
        other => other.into(),
    })
}

/// A table name checked against the one rule of names in storage paths
/// ([`jobgraph_core::names`]): a 400 that says where it came from (`where_`: "query parameter
/// `table`", "vertex sink (/vertices/2/table)"), what is wrong and the rule.
pub(crate) fn check_table(table: &str, where_: &str) -> Result<(), ApiError> {
    jobgraph_core::names::check_path_name("table", table)
        .map_err(|e| ApiError::BadRequest(format!("{where_}: {e}")))
}

/// A lake error as an answer: an id unfit for a path (a name that passed no entry check, such
/// as an organization stored before the rule) is the caller's 400; anything else is ours.
pub(crate) fn lake_error(context: &str, error: jobgraph_lake::LakeError) -> ApiError {
    match error {
        jobgraph_lake::LakeError::InvalidId(e) => ApiError::BadRequest(format!("{context}: {e}")),
        other => ApiError::Internal(format!("{context}: {other}")),
    }
}

/// The writer's view of a dataset's table.
pub(crate) fn table_spec(dataset: &DatasetRecord, table: &str) -> jobgraph_lake::TableSpec {
    let partitioning = match dataset.fields.partitioning.as_str() {
        "DAY" => jobgraph_lake::Partitioning::Day,
        "MONTH" => jobgraph_lake::Partitioning::Month,
        "YEAR" => jobgraph_lake::Partitioning::Year,
        _ => jobgraph_lake::Partitioning::Hour,
    };
    jobgraph_lake::TableSpec {
        organization: dataset.organization.clone(),
        dataset_id: dataset.id.clone(),
        table: table.to_owned(),
        partitioning,
        promoted_tags: dataset.fields.promoted_tags.clone(),
    }
}
