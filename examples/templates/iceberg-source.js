// One source vertex reading the table as a stream.
({
  vertices: [
    {
      type: "logs-iceberg-table-source",
      name: "source",
      table: table,
      processing: "STREAM",
      query: { type: "simple-query", query: where }
    }
  ],
  edges: []
})
