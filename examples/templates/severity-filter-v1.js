const levels = ["debug", "info", "warn", "error"];
const kept = levels.slice(levels.indexOf(minLevel));
({
  vertices: [
    {
      type: "logs-filter",
      name: "filter",
      query: { type: "simple-query", query: kept.map((l) => "level:" + l).join(" OR ") }
    }
  ],
  edges: []
})
