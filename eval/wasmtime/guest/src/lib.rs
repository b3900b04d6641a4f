//! jobgraph-core's sandbox behind a plain C ABI, for running inside wasmtime.
//!
//! Protocol: the host calls `guest_alloc(len)`, writes the request JSON there, then
//! `guest_run(ptr, len)`, which returns `(out_ptr << 32) | out_len` of the response JSON.
//! Request: `{source, declared, variables, draft, user, limits}` (limits as core's camelCase
//! `Limits`; unknown keys such as `maxMemoryBytes` are ignored by core's serde).
//! Response: `{"ok": value}` or `{"error": {...}}`.
//! A fresh instance runs one request; nothing is freed (the instance is dropped).

use jobgraph_core::{Limits, ScriptError, ScriptInput, run_script};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[cfg(all(target_family = "wasm", not(feature = "dlmalloc")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[derive(Deserialize)]
struct Request {
    source: String,
    #[serde(default)]
    declared: Vec<String>,
    #[serde(default)]
    variables: Map<String, Value>,
    #[serde(default)]
    draft: bool,
    #[serde(default)]
    user: String,
    #[serde(default)]
    limits: Limits,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
enum Response {
    Ok(Value),
    Error(ErrorOut),
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum ErrorOut {
    ReturnedNothing,
    Failed(jobgraph_core::ScriptFailure),
    NotJson { message: String },
    BadRequest { message: String },
}

#[unsafe(no_mangle)]
pub extern "C" fn guest_alloc(len: u32) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len as usize);
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// # Safety
/// `ptr..ptr+len` must be what `guest_alloc(len)` returned, filled by the host.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn guest_run(ptr: *mut u8, len: u32) -> u64 {
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len as usize) };
    let response = match serde_json::from_slice::<Request>(bytes) {
        Err(e) => Response::Error(ErrorOut::BadRequest { message: e.to_string() }),
        Ok(req) => {
            let input = ScriptInput {
                source: &req.source,
                declared: &req.declared,
                variables: &req.variables,
                draft: req.draft,
                user: &req.user,
            };
            match run_script(&input, &req.limits) {
                Ok(v) => Response::Ok(v),
                Err(ScriptError::ReturnedNothing) => Response::Error(ErrorOut::ReturnedNothing),
                Err(ScriptError::Failed(f)) => Response::Error(ErrorOut::Failed(f)),
                Err(ScriptError::NotJson(message)) => {
                    Response::Error(ErrorOut::NotJson { message })
                }
            }
        }
    };
    let out = serde_json::to_vec(&response).unwrap_or_else(|_| b"{\"error\":{\"kind\":\"serialize\"}}".to_vec());
    let out = out.into_boxed_slice();
    let (len, ptr) = (out.len() as u64, Box::into_raw(out) as *mut u8 as u64);
    (ptr << 32) | len
}
