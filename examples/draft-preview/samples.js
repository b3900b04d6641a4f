// Sample events of the data panel: what a pasted text, an edited box or a dropped file holds,
// read in one of three formats, and the built-in samples.
//
// - JSON: an array of events (`[{…}, …]`), or one event (`{…}` over several lines);
// - NDJSON: one event (a JSON object) per line, blank lines skipped;
// - plain text: one event per line, the line being its `message` and its `id` `line-N` (N: the
//   line number), as an application's log file reads. A grok parser makes fields of it.
//
// Which one: the first character that is not white space. `[` is JSON; `{` is NDJSON, unless the
// whole text is one JSON object; anything else is plain text. A file may be 10 MB at most.

/** The largest sample accepted, in bytes (UTF-8). */
export const MAX_SAMPLE_BYTES = 10 * 1024 * 1024;

const FORMATS = { json: "JSON", ndjson: "NDJSON", text: "plain text lines" };

/** The format's name, as the summary shows it. */
export const formatName = (format) => FORMATS[format] ?? format;

/**
 * What the package reads (`loadEvents`) for `text`: `{format, events}`, `events` being NDJSON or
 * JSON text (passed as it is, so that the package names a bad line itself) or, for plain text,
 * NDJSON made of the lines. Throws an Error naming the problem (the size).
 */
export function sampleOf(text) {
  const bytes = byteLength(text);
  if (bytes > MAX_SAMPLE_BYTES) {
    throw new Error(`${megabytes(bytes)}: the preview reads samples of ${megabytes(MAX_SAMPLE_BYTES)} at most`);
  }
  const start = text.search(/\S/);
  if (start < 0) return { format: "ndjson", events: "" };
  if (text[start] === "[") return { format: "json", events: text };
  if (text[start] === "{") {
    if (isOneObject(text)) return { format: "json", events: `[${text}]` };
    return { format: "ndjson", events: text };
  }
  return { format: "text", events: linesToNdjson(text) };
}

/** Whether `text` is one JSON object (an event written over several lines). */
function isOneObject(text) {
  // NDJSON has a line break between objects: a text of one line is NDJSON of one event.
  if (!/\n\s*\S/.test(text.trim())) return false;
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Plain text as NDJSON: each line that is not blank, an event `{id: "line-N", message}`. */
export function linesToNdjson(text) {
  const out = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (line.trim() === "") continue;
    out.push(`{"id":"line-${i + 1}","message":${JSON.stringify(line)}}`);
  }
  return out.join("\n");
}

function byteLength(text) {
  // Fast path: a text of ASCII only is as long in bytes as in characters.
  if (text.length * 3 <= MAX_SAMPLE_BYTES) return text.length;
  return new TextEncoder().encode(text).length;
}

function megabytes(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;
}
