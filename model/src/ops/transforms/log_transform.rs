//! `log-transform`: applies its transforms to each event, in `order`. `tag-action` adds, sets
//! or removes a tag's values; other transform types are kept and passed over.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::ops::{Describe, Operation, PredicateUse, Role, Shape};
use crate::{config, wire_enum};

config! {
    /// `log-transform`: a list of transforms.
    pub struct LogTransform {
        /// The transforms, applied in `order`.
        "transforms" [required] => transforms: Vec<Transform>,
    }
}

/// One transform inside a `log-transform`; only `tag-action` is typed.
#[derive(Debug, Clone, PartialEq)]
pub enum Transform {
    /// A `tag-action` transform.
    TagAction(TagAction),
    /// Any other transform object.
    Other(Map<String, Value>),
}

impl Serialize for Transform {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Transform::TagAction(action) => action.serialize(serializer),
            Transform::Other(fields) => fields.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Transform {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = Map::deserialize(deserializer)?;
        if fields.get("type").and_then(Value::as_str) == Some("tag-action") {
            TagAction::deserialize(Value::Object(fields))
                .map(Transform::TagAction)
                .map_err(serde::de::Error::custom)
        } else {
            Ok(Transform::Other(fields))
        }
    }
}

impl Describe for Transform {
    fn shape() -> Shape {
        Shape::Tagged {
            noun: "a transform",
            variants: vec![("tag-action", TagAction::shape())],
        }
    }
}

wire_enum! {
    /// Modification done by a `tag-action`.
    pub enum TagModification { Add = "ADD", Set = "SET", Remove = "REMOVE", Delete = "DELETE" }
}

config! {
    /// `tag-action` transform.
    pub struct TagAction {
        /// Always `tag-action`.
        "type" [required] => transform_type: String,
        /// Position among the transforms.
        "order" [required] => order: i64,
        /// What to do with the tag: `ADD` values, `SET` (replace) them, `REMOVE` the listed
        /// values (the whole tag when none are listed), `DELETE` the tag.
        "modification" [required] => modification: TagModification,
        /// The tag's key.
        "tagKey" [required] => tag_key: String,
        /// The tag's values.
        "values" [default("[]")] => values: Vec<String>,
    }
}

/// `log-transform` in the catalog.
pub static OPERATION: Operation = Operation {
    type_name: "log-transform",
    role: Role::Transform,
    summary: crate::doc_text!(
        "Applies its `transforms` to each event in `order`: a `tag-action` adds (`ADD`), replaces (`SET`) or removes (`REMOVE`) a tag's values."
    ),
    example: crate::doc_text!(
        r#"{"type": "log-transform", "name": "tag", "transforms": [{"type": "tag-action", "order": 1, "modification": "ADD", "tagKey": "env", "values": ["prod"]}]}"#
    ),
    outputs: &[],
    predicate: PredicateUse::None,
    config: <LogTransform as Describe>::shape,
};

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tag_actions_are_typed_and_other_transforms_kept() {
        let t: LogTransform = serde_json::from_value(json!({"transforms": [
            {"type": "tag-action", "order": 1, "modification": "SET", "tagKey": "env", "values": ["prod"]},
            {"type": "other-transform", "x": 1}
        ]}))
        .unwrap();
        assert!(
            matches!(&t.transforms[0], Transform::TagAction(a) if a.modification == TagModification::Set)
        );
        assert!(matches!(&t.transforms[1], Transform::Other(f) if f["x"] == 1));
    }

    #[test]
    fn a_tag_action_is_checked_inside() {
        let vertex = json!({"type": "log-transform", "name": "t", "transforms": [
            "nope", {"type": "tag-action", "order": 1, "modification": "DROP"}
        ]});
        let mut problems = Vec::new();
        crate::ops::check_config(
            &OPERATION,
            vertex.as_object().unwrap(),
            "/vertices/0",
            &mut |p, m| problems.push(format!("{p}: {m}")),
        );
        assert_eq!(
            problems,
            [
                "/vertices/0/transforms/0: a transform must be an object, found a string",
                "/vertices/0/transforms/1/modification: must be one of \"ADD\", \"SET\", \"REMOVE\", \"DELETE\", found a string",
                "/vertices/0/transforms/1/tagKey: `tagKey` is required for type \"tag-action\" and must be a string",
            ]
        );
    }

    #[test]
    fn a_transform_names_its_type() {
        let vertex = json!({"type": "log-transform", "name": "t", "transforms": [
            {"order": 1, "modification": "ADD", "tagKey": "env"}
        ]});
        let mut problems = Vec::new();
        crate::ops::check_config(&OPERATION, vertex.as_object().unwrap(), "", &mut |p, m| {
            problems.push(format!("{p}: {m}"))
        });
        assert_eq!(
            problems,
            [
                "/transforms/0/type: `type` is required for a transform and must be a string: \"tag-action\", or another type (kept as it is)"
            ]
        );
    }

    #[test]
    fn wrong_fields_are_reported_with_their_pointer() {
        crate::ops::testing::each_field_rejects_a_wrong_value(&OPERATION);
    }
}
