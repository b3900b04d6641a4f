//! The accessors of [`Error`] against its messages.

use super::*;

fn at() -> Box<Location> {
    Box::new(Location {
        template_id: Some("t".into()),
        template_version: Some(2),
        template: Some("t@2".into()),
        operation_path: vec!["ingest".into(), "parse".into()],
    })
}

/// One error of each kind: the accessors agree with the message.
fn one_of_each() -> Vec<Error> {
    let problems = vec![Problem::new("", "x"), Problem::new("/a", "y")];
    vec![
        Error::ReturnedNothing { at: at() },
        Error::InvalidOutput {
            reason: join_problems(&problems),
            problems: problems.clone(),
            at: at(),
        },
        Error::TemplateNotFound {
            reference: "t@3".into(),
            at: at(),
        },
        Error::InvalidInputs {
            problems: problems.clone(),
            at: at(),
        },
        Error::InvalidTemplate {
            reason: "r".into(),
            at: at(),
        },
        Error::TooDeep {
            max: 1,
            chain: "a (t@2) > b (t@2)".into(),
            at: at(),
        },
        Error::TooManyOperations {
            max: 1,
            level: 2,
            total: 3,
            at: at(),
        },
        Error::ResolvedTooLarge {
            limit: ResolvedLimit::Bytes,
            max: 1,
            level: 1,
            total: 2,
            at: at(),
        },
        Error::Port {
            reason: "r".into(),
            at: at(),
        },
        Error::NameCollision {
            name: "n".into(),
            first: "a".into(),
            second: "b".into(),
        },
        Error::InvalidJobGraph { problems },
        Error::Source {
            message: "disk on fire".into(),
            at: at(),
        },
    ]
}

#[test]
fn accessors_agree_with_the_message() {
    let errors = one_of_each();
    let mut codes: Vec<_> = errors.iter().map(Error::code).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), errors.len(), "codes are distinct: {codes:?}");
    for error in &errors {
        let message = error.to_string();
        assert!(message.starts_with(error.prefix()), "{message}");
        if let Some(at) = error.location() {
            assert_eq!(at.path_text(), "ingest > parse");
            if error.code() != code::MAX_DEPTH_EXCEEDED {
                assert!(
                    message.ends_with(" (template t@2, operation ingest > parse)"),
                    "{message}"
                );
            }
        }
        for problem in error.problems() {
            assert!(message.contains(&problem.to_string()), "{message}");
        }
    }
    let invalid = &errors[3];
    assert_eq!(invalid.code(), code::INPUT_VALIDATION_FAILED);
    assert_eq!(
        invalid.to_string(),
        "Input validation failed: (root): x; /a: y (template t@2, operation ingest > parse)"
    );
    assert_eq!(errors[7].code(), code::MAX_RESOLVED_BYTES_EXCEEDED);
    assert!(errors[9].location().is_none() && errors[10].location().is_none());
}

#[test]
fn only_a_failing_source_has_a_source_failure() {
    let errors = one_of_each();
    let failures: Vec<_> = errors.iter().filter_map(Error::source_failure).collect();
    assert_eq!(failures, ["disk on fire"]);
    assert!(errors.iter().all(|e| e.script_failure().is_none()));
}
