//! Where a resolution's templates come from: a list, or a JavaScript callback.

use std::future::Future;

use jobgraph_core::{FetchError, Template, TemplateSet, TemplateSource};
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::convert::parse_json;

/// Templates from a list, or fetched through a JavaScript callback
/// `(id, version) => Promise<Template | null>`.
pub(crate) enum Source {
    List(TemplateSet),
    Callback(Function),
}

impl TemplateSource for Source {
    fn fetch(
        &self,
        id: &str,
        version: Option<u64>,
    ) -> impl Future<Output = Result<Template, FetchError>> {
        let call = match self {
            Source::List(set) => Err(set.get(id, version).cloned().ok_or(FetchError::NotFound)),
            Source::Callback(callback) => {
                let version = version.map_or(JsValue::UNDEFINED, |v| JsValue::from_f64(v as f64));
                Ok(callback.call2(&JsValue::NULL, &JsValue::from_str(id), &version))
            }
        };
        async move {
            let returned = match call {
                Err(answer) => return answer,
                Ok(returned) => returned.map_err(|e| FetchError::Failed(describe(&e)))?,
            };
            let value = JsFuture::from(Promise::resolve(&returned))
                .await
                .map_err(|e| FetchError::Failed(describe(&e)))?;
            if value.is_null() || value.is_undefined() {
                return Err(FetchError::NotFound);
            }
            let text =
                js_sys::JSON::stringify(&value).map_err(|e| FetchError::Failed(describe(&e)))?;
            let text = String::from(text);
            serde_json::from_str(&text).map_err(|e| {
                FetchError::Failed(format!("the callback returned an invalid template: {e}"))
            })
        }
    }
}

fn describe(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}

pub(crate) fn source_of(
    templates: Option<String>,
    fetch_template: Option<Function>,
) -> Result<Source, JsValue> {
    Ok(match (templates, fetch_template) {
        (_, Some(callback)) => Source::Callback(callback),
        (Some(list), None) => {
            let list: Vec<Template> = parse_json(&list, "templates")?;
            Source::List(list.into_iter().collect())
        }
        (None, None) => Source::List(TemplateSet::new()),
    })
}
