// Writes N realistic log events as NDJSON to stdout, deterministic for a given seed:
// levels, services, hosts, regions, messages with numbers, HTTP attributes; some from the
// `healthcheck` service. Used for examples/events/sample.ndjson and the pipeline benchmarks.
// With `text`, the same events as plain log lines, one a line (`<time> <LEVEL> <service> <host>
// <message>`), as an application writes them: examples/events/app.log (`1000 3 text`), which the
// draft preview's grok parser reads back into fields.
// Usage: node scripts/sample-events.mjs [N=300] [SEED=1] [text] > events.ndjson
const n = Number(process.argv[2] ?? 300);
let seed = Number(process.argv[3] ?? 1) >>> 0 || 1;
const text = process.argv[4] === "text";
const random = () => {
  // xorshift32
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed / 2 ** 32;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const weighted = (pairs) => {
  let r = random() * pairs.reduce((s, [, w]) => s + w, 0);
  for (const [value, w] of pairs) if ((r -= w) < 0) return value;
  return pairs[0][0];
};
const services = ["checkout", "payments", "search", "auth", "inventory", "web-app", "healthcheck"];
const hosts = ["ip-10-0-1-17", "ip-10-0-1-42", "ip-10-0-2-8", "ip-10-0-3-99", "web-1", "web-2"];
const regions = ["us-east-1", "eu-west-1", "ap-south-1"];
const severity = { debug: 5, info: 9, warn: 13, error: 17 };
const messages = {
  debug: ["cache lookup key=%id hit=%bool", "retrying request attempt=%n"],
  info: ["GET /api/v1/items/%id 200 in %ms ms", "user %id logged in", "order %id placed total=%n.99 EUR", "health check ok"],
  warn: ["slow query took %ms ms on table orders", "disk usage at %pct% on /var/lib/data", "retrying payment %id after timeout"],
  error: ["connection timeout after %ms ms to db-%n", "payment %id failed: card declined", "NullPointerException at com.shop.Cart.total(Cart.java:%n)", "POST /api/v1/checkout 502 upstream unavailable"],
};
const fill = (template) =>
  template
    .replace(/%id/g, () => Math.floor(random() * 1e6).toString(36))
    .replace(/%ms/g, () => String(Math.floor(50 + random() * 5000)))
    .replace(/%pct/g, () => String(Math.floor(80 + random() * 20)))
    .replace(/%n/g, () => String(Math.floor(random() * 100)))
    .replace(/%bool/g, () => (random() < 0.5 ? "true" : "false"));
const start = Date.parse("2026-11-25T12:00:00Z");
const lines = [];
for (let i = 0; i < n; i++) {
  const service = weighted(services.map((s) => [s, s === "healthcheck" ? 3 : 2]));
  const level = service === "healthcheck" ? weighted([["info", 8], ["warn", 1], ["error", 1]]) : weighted([["debug", 2], ["info", 10], ["warn", 3], ["error", 2]]);
  const message = service === "healthcheck" ? (level === "info" ? "health check ok" : `health check ${level === "warn" ? "slow" : "failed"}: ${fill("%ms ms")}`) : fill(pick(messages[level]));
  const status = level === "error" ? pick([500, 502, 503]) : level === "warn" ? pick([200, 429]) : 200;
  const event = {
    id: `evt-${String(i + 1).padStart(7, "0")}`,
    eventTimestamp: new Date(start + i * 250).toISOString(),
    message,
    severity: severity[level],
    tags: { level: [level], service: [service], host: [pick(hosts)], region: [pick(regions)] },
    attributes: { http: { status, duration_ms: Math.floor(random() * 3000) }, user: { id: Math.floor(random() * 5000) } },
  };
  if (text) {
    // 2026-11-25 12:00:00.250 WARN checkout web-1 slow query took 812 ms on table orders
    const time = event.eventTimestamp.replace("T", " ").replace("Z", "");
    lines.push(`${time} ${level.toUpperCase()} ${service} ${event.tags.host[0]} ${message}`);
  } else {
    lines.push(JSON.stringify(event));
  }
  if (lines.length === 10000) {
    process.stdout.write(lines.join("\n") + "\n");
    lines.length = 0;
  }
}
if (lines.length) process.stdout.write(lines.join("\n") + "\n");
