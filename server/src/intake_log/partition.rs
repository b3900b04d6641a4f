//! Partitions of an integration's events on JetStream (`intake.nats.partitions`,
//! `docs/intake.md`, "Partitions"): an event goes to partition `hash(partition tags) mod P`,
//! the stream `{integration}.{p}` (subject `{prefix}.{integration}.{p}`), so that every event
//! with the same values of those tags is on one partition, read by one consumer. A reducer that
//! partitions by (at least) those tags therefore sees each of its partitions whole on one
//! replica.
//!
//! The hash is FNV-1a (64 bits) of the same text the reducer builds its partition key from
//! (`tag=v1,v2 tag2=…`): fixed here, not `std`'s hasher, whose output may change between
//! builds, because replicas of different builds share the stream.
//!
//! ```
//! use jobgraph_server::intake_log::partition::{integration_of, stream_of};
//! assert_eq!(stream_of("dd", Some(3)), "dd.3");
//! assert_eq!(integration_of("dd.3"), ("dd", Some(3)));
//! assert_eq!(integration_of("dd"), ("dd", None));
//! ```

use jobgraph_model::LogEvent;

/// The partition of `event` among `partitions`, by the values of `tags`.
pub fn partition_of(event: &LogEvent, tags: &[String], partitions: u32) -> u32 {
    if partitions <= 1 {
        return 0;
    }
    let mut hash = Fnv::default();
    for (i, tag) in tags.iter().enumerate() {
        if i > 0 {
            hash.write(b" ");
        }
        hash.write(tag.as_bytes());
        hash.write(b"=");
        if let Some(values) = event.tags.get(tag) {
            for (j, value) in values.iter().enumerate() {
                if j > 0 {
                    hash.write(b",");
                }
                hash.write(value.as_bytes());
            }
        }
    }
    (hash.0 % u64::from(partitions)) as u32
}

/// The stream of `integration`'s partition `partition` (`None`: the integration unpartitioned).
pub fn stream_of(integration: &str, partition: Option<u32>) -> String {
    match partition {
        Some(p) => format!("{integration}.{p}"),
        None => integration.to_owned(),
    }
}

/// The integration and partition of a stream's name (the inverse of [`stream_of`]).
pub fn integration_of(stream: &str) -> (&str, Option<u32>) {
    if let Some((integration, p)) = stream.rsplit_once('.')
        && let Ok(p) = p.parse::<u32>()
    {
        return (integration, Some(p));
    }
    (stream, None)
}

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(service: &str, host: &str) -> LogEvent {
        LogEvent::from_value(
            json!({"message": "m", "tags": {"service": [service], "host": [host]}}),
        )
        .expect("an event")
    }

    #[test]
    fn events_with_the_same_tags_share_a_partition_and_others_spread() {
        let tags = vec!["service".to_owned()];
        let a = partition_of(&event("api", "h1"), &tags, 4);
        // The host is not a partition tag: it does not move the event.
        assert_eq!(partition_of(&event("api", "h2"), &tags, 4), a);
        let mut seen = [0u32; 4];
        for i in 0..400 {
            seen[partition_of(&event(&format!("svc-{i}"), "h"), &tags, 4) as usize] += 1;
        }
        assert!(seen.iter().all(|n| *n > 50), "spread: {seen:?}");
        assert_eq!(partition_of(&event("api", "h1"), &tags, 1), 0);
    }

    #[test]
    fn the_hash_is_fnv_1a_so_replicas_of_any_build_agree() {
        // FNV-1a 64 of "service=api" is 0x8d8fbbc1e12b2be9 (computed independently).
        let tags = vec!["service".to_owned()];
        assert_eq!(partition_of(&event("api", "h"), &tags, 1000), 913);
    }

    #[test]
    fn stream_names_round_trip() {
        assert_eq!(
            integration_of(&stream_of("dd-1", Some(12))),
            ("dd-1", Some(12))
        );
        assert_eq!(integration_of(&stream_of("dd-1", None)), ("dd-1", None));
        assert_eq!(integration_of("a.b"), ("a.b", None));
    }
}
