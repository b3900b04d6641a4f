//! Request bodies undone from their `Content-Encoding`, bounded.

use std::io::{self, Read};

/// Why a body could not be decompressed.
#[derive(Debug, thiserror::Error)]
pub enum DecompressError {
    /// The body, decompressed, would be larger than the limit.
    #[error(
        "the body is larger than {limit} bytes once decompressed; send smaller batches \
         (fewer or shorter events per request)"
    )]
    TooLarge {
        /// The limit, in bytes of decompressed body.
        limit: usize,
    },
    /// A `Content-Encoding` this crate does not undo.
    #[error(
        "Content-Encoding `{0}` is not supported; send the body as it is (no Content-Encoding, \
         or identity) or compressed with gzip, deflate or zstd"
    )]
    UnknownEncoding(String),
    /// The body is not valid data of its `Content-Encoding`.
    #[error(
        "the body is not valid {encoding} data (after {decompressed} bytes of output): {source}; \
         check that the Content-Encoding header names the compression the body was made with"
    )]
    Corrupt {
        /// The encoding, as normalized: `gzip`, `deflate` or `zstd`.
        encoding: &'static str,
        /// How many bytes had been decompressed when the data went wrong.
        decompressed: usize,
        /// The decoder's error.
        source: io::Error,
    },
}

impl DecompressError {
    /// The HTTP status to answer with: 413 when too large, 415 for an unknown encoding, 400
    /// for corrupt data.
    pub fn status(&self) -> u16 {
        match self {
            Self::TooLarge { .. } => 413,
            Self::UnknownEncoding(_) => 415,
            Self::Corrupt { .. } => 400,
        }
    }
}

/// Undoes a request body's `Content-Encoding`: none or `identity`, `gzip` (also `x-gzip`; several
/// members are read one after the other), `deflate` (zlib-wrapped as HTTP says, or raw deflate
/// when the zlib header is absent) or `zstd`; names are case-insensitive.
///
/// The output is never larger than `limit` bytes, nor is more than that allocated for it: a
/// body that would decompress to more fails with [`DecompressError::TooLarge`] (so a
/// "compression bomb" costs the time to decompress `limit` bytes, no more memory). An identity
/// body longer than `limit` fails the same way. An empty body is an empty body whatever its
/// encoding says.
///
/// ```
/// use std::io::Write;
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
/// gz.write_all(b"hello").unwrap();
/// let body = gz.finish().unwrap();
/// assert_eq!(jobgraph_intake::decompress(Some("gzip"), &body, 100).unwrap(), b"hello");
///
/// let bomb = {
///     let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
///     gz.write_all(&vec![0u8; 1 << 20]).unwrap();
///     gz.finish().unwrap()
/// };
/// let err = jobgraph_intake::decompress(Some("gzip"), &bomb, 1000).unwrap_err();
/// assert_eq!(err.to_string().split(';').next().unwrap(),
///            "the body is larger than 1000 bytes once decompressed");
/// ```
pub fn decompress(
    content_encoding: Option<&str>,
    body: &[u8],
    limit: usize,
) -> Result<Vec<u8>, DecompressError> {
    let encoding = content_encoding.map(str::trim).unwrap_or("");
    let encoding = encoding.to_ascii_lowercase();
    match encoding.as_str() {
        "" | "identity" => {
            if body.len() > limit {
                return Err(DecompressError::TooLarge { limit });
            }
            Ok(body.to_vec())
        }
        _ if body.is_empty()
            && matches!(encoding.as_str(), "gzip" | "x-gzip" | "deflate" | "zstd") =>
        {
            Ok(Vec::new())
        }
        "gzip" | "x-gzip" => read_bounded(flate2::read::MultiGzDecoder::new(body), limit, "gzip"),
        "deflate" => {
            if looks_like_zlib(body) {
                match read_bounded(flate2::read::ZlibDecoder::new(body), limit, "deflate") {
                    Err(DecompressError::Corrupt { .. }) => {}
                    other => return other,
                }
            }
            read_bounded(flate2::read::DeflateDecoder::new(body), limit, "deflate")
        }
        "zstd" => {
            let mut decoder = zstd::stream::read::Decoder::new(body).map_err(|source| {
                DecompressError::Corrupt {
                    encoding: "zstd",
                    decompressed: 0,
                    source,
                }
            })?;
            // The window a frame may ask for is allocated up front: no larger than the output
            // may be (8 MiB at least, what common encoders use; 128 MiB at most, zstd's default).
            let log = usize::BITS - limit.max(1).saturating_sub(1).leading_zeros();
            decoder
                .window_log_max(log.clamp(23, 27))
                .map_err(|source| DecompressError::Corrupt {
                    encoding: "zstd",
                    decompressed: 0,
                    source,
                })?;
            read_bounded(decoder, limit, "zstd")
        }
        _ => Err(DecompressError::UnknownEncoding(
            content_encoding
                .unwrap_or_default()
                .chars()
                .take(100)
                .collect(),
        )),
    }
}

/// Whether `body` starts with a zlib header (RFC 1950): deflate method, a window of at most
/// 32 KiB, and the header check.
fn looks_like_zlib(body: &[u8]) -> bool {
    match body {
        [cmf, flg, ..] => {
            cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0
        }
        _ => false,
    }
}

/// Reads `reader` to its end, failing past `limit` bytes; the buffer never grows past `limit`.
fn read_bounded(
    mut reader: impl Read,
    limit: usize,
    encoding: &'static str,
) -> Result<Vec<u8>, DecompressError> {
    let mut out: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 32 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => return Ok(out),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(DecompressError::Corrupt {
                    encoding,
                    decompressed: out.len(),
                    source,
                });
            }
        };
        let Some(read) = chunk.get(..n) else {
            return Err(DecompressError::Corrupt {
                encoding,
                decompressed: out.len(),
                source: io::Error::other(
                    "the decoder reported more bytes than it was given room for",
                ),
            });
        };
        if out.len() + n > limit {
            return Err(DecompressError::TooLarge { limit });
        }
        if out.capacity() - out.len() < n {
            let want = (out.capacity() * 2)
                .max(out.len() + n)
                .max(chunk.len())
                .min(limit);
            out.reserve_exact(want - out.len());
        }
        out.extend_from_slice(read);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn identity_and_none() {
        assert_eq!(decompress(None, b"abc", 3).unwrap(), b"abc");
        assert_eq!(decompress(Some(" Identity "), b"abc", 3).unwrap(), b"abc");
        let err = decompress(None, b"abcd", 3).unwrap_err();
        assert!(matches!(err, DecompressError::TooLarge { limit: 3 }));
        assert_eq!(err.status(), 413);
    }

    #[test]
    fn gzip_multi_member_and_x_gzip() {
        let mut body = gzip(b"hello ");
        body.extend(gzip(b"world"));
        assert_eq!(
            decompress(Some("GZIP"), &body, 100).unwrap(),
            b"hello world"
        );
        assert_eq!(decompress(Some("x-gzip"), &gzip(b"a"), 100).unwrap(), b"a");
    }

    #[test]
    fn deflate_zlib_and_raw() {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(b"zlib body").unwrap();
        assert_eq!(
            decompress(Some("deflate"), &z.finish().unwrap(), 100).unwrap(),
            b"zlib body"
        );
        let mut d = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        d.write_all(b"raw body").unwrap();
        assert_eq!(
            decompress(Some("deflate"), &d.finish().unwrap(), 100).unwrap(),
            b"raw body"
        );
    }

    #[test]
    fn zstd_body() {
        let body = zstd::stream::encode_all(&b"zstd body"[..], 3).unwrap();
        assert_eq!(decompress(Some("zstd"), &body, 100).unwrap(), b"zstd body");
        let bomb = zstd::stream::encode_all(&vec![7u8; 1 << 20][..], 3).unwrap();
        assert!(matches!(
            decompress(Some("zstd"), &bomb, 4096),
            Err(DecompressError::TooLarge { limit: 4096 })
        ));
    }

    #[test]
    fn bombs_stop_at_the_limit() {
        let bomb = gzip(&vec![0u8; 4 << 20]);
        let err = decompress(Some("gzip"), &bomb, 10_000).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the body is larger than 10000 bytes once decompressed")
        );
        // Exactly at the limit is fine.
        assert_eq!(
            decompress(Some("gzip"), &gzip(&[1; 10_000]), 10_000)
                .unwrap()
                .len(),
            10_000
        );
    }

    #[test]
    fn unknown_and_corrupt() {
        let err = decompress(Some("br"), b"x", 10).unwrap_err();
        assert_eq!(err.status(), 415);
        assert!(err.to_string().contains("`br` is not supported"), "{err}");
        assert!(err.to_string().contains("gzip, deflate or zstd"), "{err}");
        let err = decompress(Some("gzip"), b"not gzip at all", 100).unwrap_err();
        assert_eq!(err.status(), 400);
        assert!(
            err.to_string()
                .starts_with("the body is not valid gzip data"),
            "{err}"
        );
        let mut truncated = gzip(b"some longer text to truncate");
        truncated.truncate(truncated.len() / 2);
        assert!(decompress(Some("gzip"), &truncated, 100).is_err());
        assert!(decompress(Some("zstd"), b"\x28\xb5\x2f\xfd garbage", 100).is_err());
        assert!(decompress(Some("deflate"), b"\xff\xff\xff", 100).is_err());
        assert_eq!(decompress(Some("gzip"), b"", 100).unwrap(), b"");
    }
}
