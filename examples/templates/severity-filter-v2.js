const levels = ["debug", "info", "warn", "error"];
const kept = levels.slice(levels.indexOf(minLevel));
let query = "(" + kept.map((l) => "level:" + l).join(" OR ") + ")";
for (const service of excludeServices) {
  query += " AND NOT service:" + JSON.stringify(service);
}
({
  vertices: [{ type: "logs-filter", name: "filter", query: { type: "simple-query", query } }],
  edges: []
})
