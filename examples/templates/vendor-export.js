// Nested: a severity filter and a tag enrichment, both templates themselves.
({
  vertices: [
    {
      type: "template-operation", name: "severity", templateId: "severity-filter", templateVersion: 2,
      templateInputs: { minLevel: minLevel, excludeServices: ["healthcheck"] }
    },
    {
      type: "template-operation", name: "enrich", templateId: "tag-enrich",
      templateInputs: { tags: { env: environment, pipeline: "vendor-export" } }
    },
    { type: "logs-sync-sink", name: "vendor", integration: integration }
  ],
  edges: ["severity -> enrich", "enrich -> vendor"]
})
