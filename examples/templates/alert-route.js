// Tags each log with the alert's title, then pages the on-call through the integration.
({
  vertices: [
    {
      type: "log-transform", name: "title",
      transforms: [{ type: "tag-action", order: 1, modification: "SET", tagKey: "alert", values: [label] }]
    },
    { type: "logs-sync-sink", name: "page", label: label, integration: integration, urgency: urgency }
  ],
  edges: ["title -> page"]
})
