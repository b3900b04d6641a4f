//! What a query's tag equalities say about rows ([`TagConstraints`]), and the row test.

use arrow_array::{Array, StringArray};

/// Tag constraints of a query: a conjunction of clauses; a clause holds when any of its
/// `(key, value)` pairs holds (some value of tag `key` equals `value`). Only promoted keys prune;
/// the constraints are conservative (the query itself is applied to the events by the caller).
pub type TagConstraints = Vec<Vec<(String, String)>>;

/// Whether the tags of map entries `entries` satisfy every clause of `constraints` (a clause
/// holds when one of its `(key, value)` pairs is among them). `keys[e]` is entry `e`'s key, its
/// values `items[list_offsets[e]..list_offsets[e + 1]]`.
pub(crate) fn tags_satisfy(
    constraints: &TagConstraints,
    entries: std::ops::Range<usize>,
    keys: &StringArray,
    list_offsets: &[i32],
    items: &StringArray,
) -> bool {
    constraints.iter().all(|clause| {
        entries.clone().any(|entry| {
            let key = keys.value(entry);
            let (a, b) = (
                list_offsets[entry] as usize,
                list_offsets[entry + 1] as usize,
            );
            clause
                .iter()
                .any(|(k, v)| k == key && (a..b).any(|i| items.is_valid(i) && items.value(i) == v))
        })
    })
}
