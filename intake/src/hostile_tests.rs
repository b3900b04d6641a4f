//! Every decoder fed truncated, mutated and random bytes: errors, never panics, and bounded
//! output; what it decodes, encoded again, decodes again.

use std::io::Write;

use crate::otlp::Encoding;
use crate::splunk::RawMeta;
use crate::{Event, datadog, decompress, otlp, splunk};

/// A small deterministic generator (xorshift64*), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Truncations at every length, then `rounds` random mutations (byte flips, insertions of
/// structural bytes, deletions, duplicated slices).
fn mutations(seed: &[u8], rounds: usize, rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0..seed.len()).map(|n| seed[..n].to_vec()).collect();
    const SPECIAL: &[u8] = b"{}[]\",:0\\\n\r\x00\xff\x80\x0a\x12\x2a";
    for _ in 0..rounds {
        let mut bytes = seed.to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            match rng.below(5) {
                0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
                1 => bytes.insert(at, SPECIAL[rng.below(SPECIAL.len())]),
                2 if at < bytes.len() => {
                    bytes.remove(at);
                }
                3 => {
                    let end = (at + rng.below(16)).min(bytes.len());
                    let copy = bytes[at..end].to_vec();
                    bytes.splice(at..at, copy);
                }
                _ if at < bytes.len() => bytes[at] = rng.next() as u8,
                _ => bytes.push(rng.next() as u8),
            }
        }
        out.push(bytes);
    }
    for len in [0, 1, 2, 7, 64, 1000] {
        out.push((0..len).map(|_| rng.next() as u8).collect());
    }
    out
}

fn bounded(events: &[Event], input: &[u8]) {
    // An event per byte or two at most, and never more text than the input (resources aside).
    assert!(
        events.len() <= input.len().max(1),
        "{} events from {} bytes",
        events.len(),
        input.len()
    );
}

#[test]
fn datadog_decoder_survives_garbage() {
    let seed = br#"[{"message":"m","ddtags":"env:prod,bare","status":"warn","timestamp":"2024-01-02T03:04:05Z","hostname":"h","a":{"b":[1,2.5,null]}},{"message":{"x":1}}]"#;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut errors = 0;
    for input in mutations(seed, 3000, &mut rng) {
        match datadog::decode(&input) {
            Ok(events) => {
                bounded(&events, &input);
                assert_eq!(
                    datadog::decode(&datadog::encode(&events)).unwrap().len(),
                    events.len()
                );
            }
            Err(err) => {
                errors += 1;
                assert!(matches!(err.status(), 400 | 413));
                let _ = err.body();
            }
        }
    }
    assert!(errors > 1000, "{errors}");
}

#[test]
fn splunk_decoders_survive_garbage() {
    let seed = br#"{"time":1437522387.245,"host":"h","event":{"message":"m","level":"warn"},"fields":{"a":["b","c"]}}{"event":"x"}"#;
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut errors = 0;
    for input in mutations(seed, 3000, &mut rng) {
        match splunk::decode_event(&input) {
            Ok(events) => {
                bounded(&events, &input);
                assert_eq!(
                    splunk::decode_event(&splunk::encode(&events)).unwrap(),
                    events
                );
            }
            Err(err) => {
                errors += 1;
                let _ = (err.status(), err.body());
            }
        }
        let meta = RawMeta {
            time: Some(String::from_utf8_lossy(&input[..input.len().min(12)]).into()),
            ..RawMeta::default()
        };
        if let Ok(events) = splunk::decode_raw(&input, &meta) {
            bounded(&events, &input);
        }
    }
    assert!(errors > 1000, "{errors}");
}

#[test]
fn otlp_decoders_survive_garbage() {
    let json_seed = br#"{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"s"}}]},"scopeLogs":[{"scope":{"name":"n"},"logRecords":[{"timeUnixNano":"1","severityNumber":9,"body":{"kvlistValue":{"values":[{"key":"a","value":{"arrayValue":{"values":[{"intValue":"1"},{"bytesValue":"aGk="}]}}}]}},"traceId":"5b8efff798038103d269b633813fc60c"}]}]}]}"#;
    let events = otlp::decode(json_seed, Encoding::Json).unwrap();
    let proto_seed = otlp::encode(&events);
    let mut rng = Rng(0x0f0f_1e1e_2d2d_3c3c);
    for (seed, encoding) in [
        (&json_seed[..], Encoding::Json),
        (&proto_seed[..], Encoding::Protobuf),
    ] {
        let mut errors = 0;
        for input in mutations(seed, 3000, &mut rng) {
            for encoding in [encoding, Encoding::Json, Encoding::Protobuf] {
                match otlp::decode(&input, encoding) {
                    Ok(events) => {
                        bounded(&events, &input);
                        let again =
                            otlp::decode(&otlp::encode(&events), Encoding::Protobuf).unwrap();
                        assert_eq!(again.len(), events.len());
                    }
                    Err(err) => {
                        errors += 1;
                        let _ = (err.status(), err.body(encoding));
                    }
                }
            }
        }
        assert!(errors > 1000, "{encoding:?}: {errors}");
    }
}

#[test]
fn decompress_survives_garbage() {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&b"some text that compresses, some text that compresses".repeat(20))
        .unwrap();
    let gzip = gz.finish().unwrap();
    let zstd =
        zstd::stream::encode_all(&b"zstd text zstd text zstd text".repeat(20)[..], 3).unwrap();
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for (seed, encoding) in [
        (&gzip, "gzip"),
        (&gzip[10..].to_vec(), "deflate"),
        (&zstd, "zstd"),
    ] {
        for input in mutations(seed, 1000, &mut rng) {
            if let Ok(out) = decompress(Some(encoding), &input, 2000) {
                assert!(out.len() <= 2000);
            }
        }
    }
}
