//! Reads a script's result as JSON without running any script code and without deep native
//! recursion: nesting depth and size are bounded while reading, so a hostile result (a 100 000
//! level deep array, a sparse array of length 2³², a cycle) ends in an error, never in a stack
//! overflow or a huge allocation.
//!
//! Rules (those of `JSON.stringify`, except where noted): integral numbers are written as
//! integers, `NaN` and infinities as `null`; `undefined` and functions are left out of objects
//! and written `null` in arrays; accessor properties and array holes read as `null` (getters are
//! never called); proxies read as `{}` (traps are never called); BigInts and symbols are errors.

use std::collections::HashSet;

use boa_engine::property::PropertyKey;
use boa_engine::value::JsVariant;
use boa_engine::{Context, JsObject, JsValue, js_string};
use serde_json::{Map, Number, Value};

/// Deepest nesting of arrays and objects read (the same bound serde_json puts on JSON text).
pub(crate) const MAX_DEPTH: usize = 128;

/// Why a value could not be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ReadError {
    /// Not JSON-shaped (BigInt, symbol, cycle, too deep): the text says which.
    NotJson(String),
    /// Larger than the byte budget.
    TooLarge,
}

/// Reads `value` as JSON; `None` for `undefined`. `max_bytes` bounds the compact JSON size
/// (counted approximately while reading, so that reading stops early).
pub(crate) fn read(
    value: &JsValue,
    context: &mut Context,
    max_bytes: usize,
) -> Result<Option<Value>, ReadError> {
    let mut reader = Reader {
        context,
        seen: HashSet::new(),
        budget: max_bytes,
    };
    reader.value(value, 0)
}

struct Reader<'c> {
    context: &'c mut Context,
    seen: HashSet<JsObject>,
    budget: usize,
}

impl Reader<'_> {
    fn spend(&mut self, bytes: usize) -> Result<(), ReadError> {
        self.budget = self.budget.checked_sub(bytes).ok_or(ReadError::TooLarge)?;
        Ok(())
    }

    fn value(&mut self, value: &JsValue, depth: usize) -> Result<Option<Value>, ReadError> {
        match value.variant() {
            JsVariant::Undefined => Ok(None),
            JsVariant::Null => {
                self.spend(4)?;
                Ok(Some(Value::Null))
            }
            JsVariant::Boolean(b) => {
                self.spend(5)?;
                Ok(Some(Value::Bool(b)))
            }
            JsVariant::Integer32(i) => {
                self.spend(11)?;
                Ok(Some(Value::from(i)))
            }
            JsVariant::Float64(f) => {
                self.spend(24)?;
                Ok(Some(number(f)))
            }
            JsVariant::String(s) => {
                self.spend(s.len() + 2)?;
                Ok(Some(Value::String(s.to_std_string_escaped())))
            }
            JsVariant::BigInt(_) => Err(ReadError::NotJson("cannot convert bigint to JSON".into())),
            JsVariant::Symbol(_) => Err(ReadError::NotJson("cannot convert Symbol to JSON".into())),
            JsVariant::Object(object) => {
                if object.is_callable() {
                    return Ok(None);
                }
                if depth >= MAX_DEPTH {
                    return Err(ReadError::NotJson(format!(
                        "the result is nested deeper than {MAX_DEPTH} levels"
                    )));
                }
                if !self.seen.insert(object.clone()) {
                    return Err(ReadError::NotJson("cyclic object value".into()));
                }
                let read = if object.is_array() {
                    self.array(&object, depth)
                } else {
                    self.object(&object, depth)
                };
                self.seen.remove(&object);
                read.map(Some)
            }
        }
    }

    fn array(&mut self, array: &JsObject, depth: usize) -> Result<Value, ReadError> {
        // An array's `length` is an own data property; reading it runs no code.
        let length = self
            .own_data(array, &PropertyKey::from(js_string!("length")))
            .and_then(|l| l.as_number())
            .unwrap_or(0.0);
        // Every element costs at least one byte: refuse impossible lengths before allocating.
        let length = length as usize;
        self.spend(length.saturating_add(2))?;
        let mut items = Vec::with_capacity(length.min(1 << 16));
        for index in 0..length {
            let key = PropertyKey::from(u32::try_from(index).map_err(|_| ReadError::TooLarge)?);
            let element = self.own_data(array, &key);
            items.push(match element {
                Some(element) => self.value(&element, depth + 1)?.unwrap_or(Value::Null),
                None => Value::Null,
            });
        }
        Ok(Value::Array(items))
    }

    fn object(&mut self, object: &JsObject, depth: usize) -> Result<Value, ReadError> {
        let mut map = Map::new();
        // Only ordinary objects have their keys read: a proxy's `ownKeys` trap is never run.
        if !object.is_ordinary() {
            return Ok(Value::Object(map));
        }
        let keys = object
            .own_property_keys(self.context)
            .map_err(|e| ReadError::NotJson(e.to_string()))?;
        for key in keys {
            let name = match &key {
                PropertyKey::String(s) => s.to_std_string_escaped(),
                PropertyKey::Index(i) => i.get().to_string(),
                PropertyKey::Symbol(_) => {
                    return Err(ReadError::NotJson("cannot convert Symbol to JSON".into()));
                }
            };
            let value = match self.own_data(object, &key) {
                Some(value) => self.value(&value, depth + 1)?,
                // An accessor: its getter is not run.
                None => Some(Value::Null),
            };
            if let Some(value) = value {
                self.spend(name.len() + 4)?;
                map.insert(name, value);
            }
        }
        Ok(Value::Object(map))
    }

    /// The value of an own data property, read from the object's storage (no getter runs).
    fn own_data(&self, object: &JsObject, key: &PropertyKey) -> Option<JsValue> {
        object
            .borrow()
            .properties()
            .get(key)
            .and_then(|d| d.value().cloned())
    }
}

/// A JavaScript number as JSON: integral values in the safe range as integers (as
/// `JSON.stringify` writes them), `NaN` and infinities as `null`.
fn number(f: f64) -> Value {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    if f.fract() == 0.0 && f.abs() <= MAX_SAFE {
        // `-0` is written `0`, as JSON.stringify does.
        Value::from(f as i64)
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}
