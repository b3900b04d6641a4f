// Compiled with `tsc --noEmit --strict` in scripts/test.sh: the package's types are precise
// enough for real use, and wrong use is rejected (the @ts-expect-error lines must stay errors).
import { EventSet, JobgraphError, checkQuery, loadEvents, matchQuery, runJob, createResolver, formatEdge, parseEdge, resolve, testTemplate, validateInputs, validateJobGraph } from "jobgraph";
import type { PatternReport } from "jobgraph";
import type { CacheStats, Job, JobGraph, Problem, Resolver, Template } from "jobgraph";
import { createWorkerResolver } from "jobgraph/worker";
import { parseGrok } from "jobgraph/grok";
import * as slim from "jobgraph/slim";
import { createWorkerResolver as createSlimWorkerResolver } from "jobgraph/slim/worker";

const template: Template = { id: "t", version: 1, name: "T", template: "({vertices: [], edges: []})" };
const job: Job = {
  name: "j",
  execution: "ASYNCHRONOUS",
  processing: "STREAMING",
  jobGraph: { vertices: [{ type: "template-operation", name: "op", templateId: "t" }], edges: [] },
};

async function main(): Promise<void> {
  const resolved = await resolve(job, { templates: [template], provenance: true, limits: { timeoutMs: 100 } });
  const name: string | undefined = resolved.output.name;
  const graph: JobGraph = resolved.output.jobGraph;
  const origin = resolved.provenance?.["op.v"]?.templateVersion;
  const lazy = await resolve(graph, { fetchTemplate: async (id, version) => (id === "t" && version === undefined ? template : null) });
  const problems: Problem[] = validateJobGraph(lazy.output);
  const inputProblems: Problem[] = validateInputs({ type: "object", properties: { q: { pattern: "^x" } } }, { q: "y" });
  const tested: JobGraph = testTemplate(template, { values: { q: 1 }, isDraft: true }, { checkValidJobGraph: true });
  const text: string = formatEdge(parseEdge("a -> b:c"));
  try {
    testTemplate(template);
  } catch (e) {
    if (e instanceof JobgraphError) {
      const where: string[] = e.operationPath;
      const line: number | null = e.line;
      console.log(e.code, e.prefix, where, line, e.pointer);
    }
  }
  const resolver: Resolver = createResolver({ maxEntries: 256, maxBytes: 4 << 20 });
  const preview = await resolver.resolve(job, { templates: [template], draft: true, user: "ada", maxOperations: 60, maxResolvedVertices: 5000, maxResolvedBytes: 1 << 20, provenance: true });
  const previewName: string | undefined = preview.output.name;
  const bare: JobGraph = (await createResolver().resolve(graph, { fetchTemplate: async () => null })).output;
  const stats: CacheStats = resolver.stats();
  const hits: number = stats.hits + stats.misses + stats.entries + stats.bytes;
  resolver.clear();
  console.log(previewName, bare, hits);

  const worker = await createWorkerResolver({ timeoutMs: 500 });
  const edge = await worker.parseEdge("a -> b");
  await worker.terminate();
  console.log(name, origin, problems, inputProblems, tested, text, edge.from.vertex);

  // @ts-expect-error: an edge is text in a graph, not a number
  const bad: JobGraph = { vertices: [], edges: [1] };
  // @ts-expect-error: limits are numbers
  await resolve(job, { limits: { timeoutMs: "1s" } });
  // @ts-expect-error: unknown option
  await resolve(job, { templateList: [] });
  // @ts-expect-error: cache bounds are numbers
  createResolver({ maxEntries: "many" });
  // @ts-expect-error: a resolver has no `reset`; it is `clear()`
  resolver.reset();
  console.log(bad);

  // jobgraph/slim: the module from wherever the app hosts it, then the same API.
  await slim.init("https://cdn.example.com/jobgraph_wasm_bg.wasm");
  await slim.init(fetch("/assets/jobgraph.wasm"));
  await slim.init(new Uint8Array([0, 97, 115, 109]));
  // The grok module, for runJob of a job with a grok-parser: a source, or a function of one.
  await slim.init("https://cdn.example.com/jobgraph_wasm_bg.wasm", { grok: "https://cdn.example.com/jobgraph_grok_wasm_bg.wasm" });
  await slim.init(new Uint8Array([0, 97, 115, 109]), { grok: () => fetch("/assets/grok.wasm") });
  // @ts-expect-error: the grok source is a source, not null
  await slim.init(new Uint8Array([0, 97, 115, 109]), { grok: null });
  const slimWorker = await createSlimWorkerResolver({ timeoutMs: 500, workerUrl: new URL("https://example.com/worker-entry.js") });
  const slimEdge: string = slim.formatEdge(await slimWorker.parseEdge("a -> b"));
  const notReady = new JobgraphError({} as never).code === "NOT_INITIALIZED";
  // @ts-expect-error: init takes a module, bytes, a URL or a Response, not null
  await slim.init(null);
  console.log(slimEdge, notReady);

  // Runs on events.
  const run = await runJob(job, [{ id: "e1", message: "disk full", tags: { level: ["error"] } }], { templates: [template], keep: 10, draft: true });
  const counts: number = run.vertices[0].eventsIn + run.vertices[0].eventsOut + run.vertices[0].eventsDropped;
  const sinkEvents = run.sinks["out"]?.map((e) => e.tags?.level);
  const matched: boolean[] = matchQuery("level:error", [{ message: "x" }]);
  const kind: string = checkQuery("a OR b").kind;
  // @ts-expect-error: events are objects, not strings
  matchQuery("x", ["line"]);
  // Grok rules on sample lines.
  const grok = parseGrok({ grokParser: { grokParsingRules: "r %{word:w}" }, logSamples: ["hello"] }, { lineTimeLimitMs: 50 });
  const firstRule: string | undefined = grok.results[0].matchingRuleName;
  const grokTags: string[] | undefined = grok.results[0].tags["level"];
  const grokText: string = parseGrok({ grokParser: { grokParsingRules: "r %{word:w}" }, logSamples: [] }, { text: true });
  // The rules as the public service has them: one per item.
  parseGrok({ grokParser: { grokParsingRules: ["r %{word:w}"], grokHelperRules: [] }, logSamples: [] });
  // @ts-expect-error: rules are strings, not numbers
  parseGrok({ grokParser: { grokParsingRules: [1] }, logSamples: [] });
  console.log(firstRule, grokTags, grokText);
  // Events read once, run many times.
  const set: EventSet = loadEvents('{"id": "e1", "message": "disk full"}\n');
  const fromArray = loadEvents([{ id: "e2" }]);
  const again = await runJob(job, set, { keep: 0, keepVertices: ["out"], keepSinks: false, incremental: true });
  // A reducer's patterns.
  const patterns: PatternReport[] = again.vertices[0].patterns ?? [];
  const firstPattern: string | undefined = patterns[0]?.pattern;
  const patternCount: number | undefined = patterns[0]?.count;
  const partition: string | undefined = patterns[0]?.partition;
  console.log(firstPattern, patternCount, partition);
  const size: number = set.length + fromArray.length + again.edges.length;
  set.free();
  const gone: boolean = set.freed;
  // @ts-expect-error: loadEvents reads text or events, not numbers
  loadEvents(42);
  // @ts-expect-error: only loadEvents makes sets
  new EventSet();
  const setWorker = await createSlimWorkerResolver();
  const workerSet = await setWorker.loadEvents("{}\n");
  const workerRun = await setWorker.runJob(job, workerSet);
  workerSet.free();
  console.log(counts, sinkEvents, matched, kind, size, gone, workerRun.vertices.length, workerSet.length);
}

void main();

// The catalog's vertex types (pkg/vertices.d.ts, generated from model/src/ops).
import type { CatalogVertex, LogsFilterVertex, LogReducerVertex } from "jobgraph";
const filterVertex: LogsFilterVertex = {
  type: "logs-filter",
  name: "errors",
  predicate: { type: "datadog-query", query: "level:error" },
  inverted: false,
};
const reducerVertex: LogReducerVertex = { type: "log-reducer", name: "reduce", similarityThreshold: 70 };
const anyVertices: CatalogVertex[] = [filterVertex, reducerVertex, { type: "someone-elses-type", name: "x", y: 1 }];
void anyVertices;
// @ts-expect-error `inverted` is a boolean.
const wrongFilter: LogsFilterVertex = { type: "logs-filter", name: "f", inverted: "yes" };
void wrongFilter;
