//! What a query says about tags, conservatively, for pruning stored data (`docs/lake.md`,
//! "Queries"): clauses of exact `(key, value)` pairs that every matching event satisfies.

use super::Query;
use super::parse::{Node, Test};
use super::wildcard::Pattern;

/// Tag constraints: every clause must hold; a clause holds when some value of one of its tag
/// keys equals the paired text. An empty list constrains nothing.
pub type TagConstraints = Vec<Vec<(String, String)>>;

impl Query {
    /// The tag equalities every event this query matches must satisfy, as a conjunction of
    /// clauses (see [`TagConstraints`]). Conservative: an event that fails a clause never
    /// matches, but an event that passes them all may still not match (the query decides).
    /// `NOT`, wildcards, ranges, comparisons, message words and attributes constrain nothing.
    ///
    /// ```
    /// use jobgraph_core::pipeline::Query;
    /// let q = Query::parse("(level:warn OR level:error) AND service:checkout").unwrap();
    /// let pairs = |c: &[(String, String)]| c.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>();
    /// let clauses: Vec<_> = q.tag_constraints().iter().map(|c| pairs(c)).collect();
    /// assert_eq!(clauses, [vec!["level=warn", "level=error"], vec!["service=checkout"]]);
    /// assert!(Query::parse("NOT service:web").unwrap().tag_constraints().is_empty());
    /// ```
    pub fn tag_constraints(&self) -> TagConstraints {
        clauses(&self.root)
    }
}

fn clauses(node: &Node) -> TagConstraints {
    match node {
        Node::Tag {
            key,
            test:
                Test::Equals {
                    pattern: Pattern::Exact(value),
                    ..
                },
        } => vec![vec![(key.clone(), value.clone())]],
        Node::And(items) => items.iter().flat_map(clauses).collect(),
        // An event matching `a OR b` satisfies a clause of `a` or one of `b`: their union is
        // one clause it satisfies. An item constraining nothing leaves the whole unconstrained.
        Node::Or(items) => {
            let mut union: Vec<(String, String)> = Vec::new();
            for item in items {
                let Some(first) = clauses(item).into_iter().next() else {
                    return Vec::new();
                };
                for pair in first {
                    if !union.contains(&pair) {
                        union.push(pair);
                    }
                }
            }
            if union.is_empty() {
                Vec::new()
            } else {
                vec![union]
            }
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Vec<Vec<String>> {
        Query::parse(text)
            .unwrap()
            .tag_constraints()
            .into_iter()
            .map(|c| c.into_iter().map(|(k, v)| format!("{k}={v}")).collect())
            .collect()
    }

    #[test]
    fn equalities_and_or_of_equalities_constrain() {
        assert_eq!(of("service:checkout"), [["service=checkout"]]);
        assert_eq!(
            of("(level:warn OR level:error) AND service:checkout"),
            [vec!["level=warn", "level=error"], vec!["service=checkout"]]
        );
        assert_eq!(
            of("service:a OR host:b"),
            [vec!["service=a", "host=b"]],
            "an OR across keys is still one clause"
        );
        assert_eq!(
            of("(service:a AND host:h) OR service:b"),
            [vec!["service=a", "service=b"]],
            "each OR item contributes one of its clauses"
        );
    }

    #[test]
    fn what_cannot_be_told_from_tags_constrains_nothing() {
        for text in [
            "*",
            "NOT service:web",
            "service:web*",
            "service:*",
            "service:[a TO c]",
            "disk full",
            "@http.status:500",
            "service:a OR disk",
            "tags:service",
        ] {
            assert!(of(text).is_empty(), "{text}: {:?}", of(text));
        }
        assert_eq!(
            of("disk AND level:error AND NOT host:a"),
            [["level=error"]],
            "the constraining parts of an AND stay"
        );
        assert_eq!(
            of("service:web\\*"),
            [["service=web*"]],
            "an escaped wildcard is literal"
        );
    }
}
