//! Checks every operation module runs on itself.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::{Operation, Shape, check_config};

/// Each field of `op`'s config, given a value of the wrong JSON type in its example, is
/// reported at its own pointer with "must be …, found …".
pub(crate) fn each_field_rejects_a_wrong_value(op: &Operation) {
    let Shape::Object(fields) = (op.config)() else {
        panic!("{}: a config is an object", op.type_name)
    };
    let example: Value = serde_json::from_str(op.example).unwrap();
    for field in fields {
        let wrong = match field.shape {
            Shape::Any | Shape::Predicate => continue,
            Shape::String | Shape::Enum(_) | Shape::GrokRules => json!(12),
            _ => json!("wrong"),
        };
        let mut vertex = example.clone();
        vertex[field.name] = wrong;
        let mut problems = Vec::new();
        check_config(
            op,
            vertex.as_object().unwrap(),
            "/vertices/0",
            &mut |p, m| problems.push((p, m)),
        );
        let pointer = format!(
            "/vertices/0/{}",
            field.name.replace('~', "~0").replace('/', "~1")
        );
        assert!(
            problems
                .iter()
                .any(|(p, m)| *p == pointer && m.contains("must be ")),
            "{}: a wrong `{}` is not reported at {pointer}: {problems:?}",
            op.type_name,
            field.name
        );
    }
}

/// `op`'s example reads as its config `T`, and every field `T` writes back is the example's.
pub(crate) fn example_reads_as_the_config<T: DeserializeOwned + Serialize>(op: &Operation) {
    let config: T = serde_json::from_str(op.example)
        .unwrap_or_else(|e| panic!("{}: the example is not its config: {e}", op.type_name));
    let back = serde_json::to_value(&config).unwrap();
    let example: Value = serde_json::from_str(op.example).unwrap();
    for (key, value) in back.as_object().unwrap() {
        assert_eq!(&example[key], value, "{}: {key}", op.type_name);
    }
}
