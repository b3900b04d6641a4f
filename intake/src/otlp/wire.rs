//! The protobuf body walked field by field down to the log records, each decoded alone (with
//! prost) only after the limits admit it: a request of many small records costs no more than
//! its events, and a malformed one says at which byte it goes wrong.

use prost::Message as _;

use super::proto::{InstrumentationScope, LogRecord, Resource};
use super::{OtlpError, ResourceCtx, ScopeCtx, Sink};

/// One field of a message.
enum Field<'a> {
    Varint,
    Fixed,
    /// A length-delimited field: its bytes and their offset in the body.
    Len(&'a [u8], usize),
}

/// The fields of one message, in order.
struct Fields<'a> {
    buf: &'a [u8],
    pos: usize,
    /// The offset of `buf` in the body.
    base: usize,
}

impl<'a> Fields<'a> {
    fn new(buf: &'a [u8], base: usize) -> Fields<'a> {
        Fields { buf, pos: 0, base }
    }

    fn error(&self, at: usize, what: impl Into<String>) -> OtlpError {
        OtlpError::Protobuf {
            offset: self.base + at,
            what: what.into(),
        }
    }

    fn varint(&mut self) -> Result<u64, OtlpError> {
        let start = self.pos;
        let mut value: u64 = 0;
        for i in 0..10 {
            let Some(&byte) = self.buf.get(self.pos) else {
                return Err(self.error(start, "the message ends inside a varint"));
            };
            self.pos += 1;
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.error(start, "a varint longer than 10 bytes"))
    }

    fn skip(&mut self, n: usize, start: usize) -> Result<(), OtlpError> {
        match self.pos.checked_add(n) {
            Some(end) if end <= self.buf.len() => {
                self.pos = end;
                Ok(())
            }
            _ => Err(self.error(start, "the message ends inside a field")),
        }
    }

    /// The next field: its number, its value and its offset in the body.
    fn next_field(&mut self) -> Result<Option<(u64, Field<'a>, usize)>, OtlpError> {
        if self.pos >= self.buf.len() {
            return Ok(None);
        }
        let start = self.pos;
        let key = self.varint()?;
        let number = key >> 3;
        if number == 0 || number > 0x1fff_ffff {
            return Err(self.error(start, format!("field number {number} is not valid")));
        }
        let field = match key & 7 {
            0 => {
                self.varint()?;
                Field::Varint
            }
            1 => {
                self.skip(8, start)?;
                Field::Fixed
            }
            5 => {
                self.skip(4, start)?;
                Field::Fixed
            }
            2 => {
                let len = usize::try_from(self.varint()?).unwrap_or(usize::MAX);
                let from = self.pos;
                self.skip(len, start)?;
                Field::Len(
                    self.buf.get(from..self.pos).unwrap_or_default(),
                    self.base + from,
                )
            }
            wire => {
                return Err(self.error(
                    start,
                    format!("field {number} has wire type {wire}, which OTLP does not use"),
                ));
            }
        };
        Ok(Some((number, field, self.base + start)))
    }
}

/// Every occurrence of the message field `number` of the message `buf`.
fn each(
    buf: &[u8],
    base: usize,
    number: u64,
    name: &str,
    mut f: impl FnMut(&[u8], usize) -> Result<(), OtlpError>,
) -> Result<(), OtlpError> {
    let mut fields = Fields::new(buf, base);
    while let Some((n, field, at)) = fields.next_field()? {
        match field {
            _ if n != number => {}
            Field::Len(data, offset) => f(data, offset)?,
            _ => {
                let what = format!("{name} (field {number}) is not length-delimited");
                return Err(OtlpError::Protobuf { offset: at, what });
            }
        }
    }
    Ok(())
}

fn prost_error(offset: usize, what: &str, e: prost::DecodeError) -> OtlpError {
    OtlpError::Protobuf {
        offset,
        what: format!("{what}: {e}"),
    }
}

/// Walks an `ExportLogsServiceRequest` into `sink`.
pub(super) fn walk(body: &[u8], sink: &mut Sink) -> Result<(), OtlpError> {
    let mut index = 0;
    each(body, 0, 1, "resourceLogs", |data, offset| {
        resource_logs(data, offset, index, sink)?;
        index += 1;
        Ok(())
    })
}

fn resource_logs(buf: &[u8], base: usize, r: usize, sink: &mut Sink) -> Result<(), OtlpError> {
    // A message field given more than once is merged (protobuf's rule); it may come after the
    // records it applies to.
    let mut resource = Resource::default();
    let mut size = 0;
    each(buf, base, 1, "resource", |data, offset| {
        size += data.len();
        resource
            .merge(data)
            .map_err(|e| prost_error(offset, &format!("resourceLogs[{r}].resource"), e))
    })?;
    let resource = ResourceCtx::new(&resource, size);
    let mut index = 0;
    each(buf, base, 2, "scopeLogs", |data, offset| {
        scope_logs(data, offset, (r, index), &resource, sink)?;
        index += 1;
        Ok(())
    })
}

fn scope_logs(
    buf: &[u8],
    base: usize,
    (r, s): (usize, usize),
    resource: &ResourceCtx,
    sink: &mut Sink,
) -> Result<(), OtlpError> {
    let mut scope = InstrumentationScope::default();
    let mut size = 0;
    each(buf, base, 1, "scope", |data, offset| {
        size += data.len();
        scope.merge(data).map_err(|e| {
            prost_error(
                offset,
                &format!("resourceLogs[{r}].scopeLogs[{s}].scope"),
                e,
            )
        })
    })?;
    let scope = ScopeCtx {
        name: scope.name,
        version: scope.version,
        size,
    };
    let mut index = 0;
    each(buf, base, 2, "logRecords", |data, offset| {
        let at = format!("byte {offset} (resourceLogs[{r}].scopeLogs[{s}].logRecords[{index}])");
        sink.admit(resource, &scope, data.len(), &at)?;
        let record = LogRecord::decode(data).map_err(|e| {
            prost_error(
                offset,
                &format!("resourceLogs[{r}].scopeLogs[{s}].logRecords[{index}]"),
                e,
            )
        })?;
        sink.push(resource, &scope, record);
        index += 1;
        Ok(())
    })
}
