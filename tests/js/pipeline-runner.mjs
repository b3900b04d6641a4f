// Outcomes of the query and pipeline conformance cases (tests/conformance/queries/ and
// pipelines/) through the package, in the shape `conformance-outcomes pipelines` prints natively:
// queries keyed `file#index`, pipelines by name. Runs in Node and in the browser.

function label(event, index) {
  const id = event?.id;
  if (typeof id === "string") return id;
  if (id === undefined || id === null) return id === null ? "null" : `#${index + 1}`;
  return JSON.stringify(id);
}

/** Every query case: `{matches: [ids]}` or `{error, column}`. */
export function queryOutcomes(api, files) {
  const out = {};
  for (const { file, events, cases } of files) {
    cases.forEach((c, i) => {
      try {
        const matched = api.matchQuery(c.query, events);
        out[`${file}#${i}`] = { matches: events.filter((_, k) => matched[k]).map((e) => label(e, events.indexOf(e))) };
      } catch (error) {
        out[`${file}#${i}`] = error?.code === "INVALID_QUERY" ? { error: error.message, column: error.column } : { error: `unexpected: ${error?.message ?? error}` };
      }
    });
  }
  return out;
}

/**
 * Every pipeline case: `{sinks, vertices, edges}` or `{error}`. With `eventSet`, the events are
 * read first into an EventSet (`api.loadEvents` of the array: a bad event is `event N`, as a run
 * on the array says), and the run takes the set.
 */
export async function pipelineOutcomes(api, cases, { eventSet = false } = {}) {
  const out = {};
  for (const c of cases) {
    try {
      let events = c.events ?? [];
      if (eventSet) events = api.loadEvents(events);
      let run;
      try {
        run = await api.runJob(c.graph, events, { tables: c.tables ?? {} });
      } finally {
        if (eventSet) events.free();
      }
      const vertices = {};
      for (const v of run.vertices) vertices[v.name] = { in: v.eventsIn, out: v.eventsOut, dropped: v.eventsDropped, ports: v.eventsByPort, notes: v.notes ?? [] };
      const edges = {};
      for (const e of run.edges) edges[e.edge] = e.events;
      out[c.name] = { sinks: run.sinks, vertices, edges };
    } catch (error) {
      out[c.name] = { error: error?.message ?? String(error) };
    }
  }
  return out;
}
