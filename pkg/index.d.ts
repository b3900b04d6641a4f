/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The vertex types of the catalog of operations (generated: `vertices.d.ts`), e.g.
 * `LogsFilterVertex`; `CatalogVertex` is any of them or another type.
 */
export * from "./vertices.js";

/** A vertex: `type` and `name`, plus any other fields (`CatalogVertex` types each known one). */
export interface Vertex {
  type: string;
  name: string;
  [field: string]: Json;
}

/** A job graph. Edges are `from[:port] -> to[:port]`. */
export interface JobGraph {
  vertices: Vertex[];
  edges?: string[];
  /** Other top-level fields, kept as they are. */
  [field: string]: unknown;
}

/** A job document: a job graph and the job's own fields. */
export interface Job {
  name?: string;
  execution?: "SYNCHRONOUS" | "ASYNCHRONOUS";
  processing?: "BATCH" | "STREAMING";
  jobGraph: JobGraph;
  /** Other job fields (`tags`, `version`, …), kept in place. */
  [field: string]: unknown;
}

/** An output that exists only in draft mode. */
export interface DraftOutput {
  name: string;
  description?: string;
  vertex: string;
}

/** A template version. `id` and `version` may be absent for a template under test. */
export interface Template {
  id?: string;
  version?: number;
  name: string;
  description?: string;
  organizationId?: string;
  createdAt?: string;
  updatedAt?: string;
  /** JSON Schema 2020-12 of the parameters. */
  inputSchema?: { [keyword: string]: Json };
  /** JavaScript source whose final expression is the job graph. */
  template: string;
  inputs?: { [port: string]: string };
  outputs?: { [port: string]: string };
  draftOutputs?: DraftOutput[];
}

/** Limits of one script execution; every field has a safe default. */
export interface Limits {
  /** Wall-clock time per script, ms (default 1000). */
  timeoutMs?: number;
  /** Loop iterations per call frame (default 10 000 000). */
  loopIterations?: number;
  /** Nested calls (default 256). */
  recursionDepth?: number;
  /** Vertices one script may return (default 10 000). */
  maxOutputVertices?: number;
  /** Bytes of one script's result as JSON (default 8 MiB). */
  maxOutputBytes?: number;
  /** Bracket nesting of a script's source, checked before parsing (default 64). */
  maxNesting?: number;
  /** Bytes one script may allocate, checked while it runs (default 256 MiB; the whole module is capped at 512 MiB). */
  maxMemoryBytes?: number;
  /** Wall-clock time of a whole resolution, all its scripts together, ms (default 10 000). Each script gets at most what remains; past it the error is `JavaScript execution failed: resolution time limit of … ms exceeded`, naming the operation that was running. */
  resolutionTimeoutMs?: number;
  /** @deprecated Use `ResolveOptions.maxOperations` (still read from here when that is absent). */
  maxOperations?: number;
}

/** Fetches a template version; `version` undefined means the latest. Resolve `null` for "not found". */
export type FetchTemplate = (id: string, version: number | undefined) => Promise<Template | null>;

export interface ResolveOptions {
  /** Templates to use; ignored when `fetchTemplate` is given. */
  templates?: Template[];
  /** Fetch templates lazily: those needed at one nesting level are requested concurrently, each id/version at most once per call. */
  fetchTemplate?: FetchTemplate;
  /** What `user.getName()` returns (default "anonymous"). */
  user?: string;
  /** Resolve every operation in draft mode. */
  draft?: boolean;
  limits?: Limits;
  /** Template operations one resolution may expand, all levels together (default 1000). */
  maxOperations?: number;
  /** Vertices the templates of one resolution may produce, all levels together, their `template-operation`s not counted (default 100 000). Checked as each template result arrives; past it the error is `MAX_RESOLVED_VERTICES_EXCEEDED` (`Resolved graph too large: …`). */
  maxResolvedVertices?: number;
  /** Bytes the templates of one resolution may produce: their results' compact JSON lengths, summed (default 32 MiB). Past it the error is `MAX_RESOLVED_BYTES_EXCEEDED`. */
  maxResolvedBytes?: number;
  /** Also return where each produced vertex came from. */
  provenance?: boolean;
}

export interface Provenance {
  originalName: string;
  operationPath: string[];
  templateId: string;
  templateVersion: number;
}

export interface Resolution<T extends Job | JobGraph> {
  /** The resolved document, of the same kind as the input. */
  output: T;
  /** Keyed by final vertex name; present when `options.provenance`. */
  provenance?: { [vertexName: string]: Provenance };
}

/** One validation problem. */
export interface Problem {
  /** JSON pointer of the offending value, e.g. `/vertices/3/name`. */
  pointer: string;
  message: string;
}

export type ErrorCode =
  | "SCRIPT_RETURNED_NOTHING"
  | "SCRIPT_FAILED"
  | "INVALID_OUTPUT"
  | "TEMPLATE_NOT_FOUND"
  | "INPUT_VALIDATION_FAILED"
  | "INVALID_TEMPLATE"
  | "MAX_DEPTH_EXCEEDED"
  | "MAX_OPERATIONS_EXCEEDED"
  /** The templates of one resolution produced more than `maxResolvedVertices` vertices. */
  | "MAX_RESOLVED_VERTICES_EXCEEDED"
  /** The templates of one resolution produced more than `maxResolvedBytes` bytes. */
  | "MAX_RESOLVED_BYTES_EXCEEDED"
  | "UNKNOWN_PORT"
  | "NAME_COLLISION"
  | "INVALID_JOB_GRAPH"
  | "SOURCE_FAILED"
  | "MALFORMED_EDGE"
  | "INVALID_ARGUMENT"
  | "TIMEOUT"
  | "WASM_TRAP"
  /** The WebAssembly module could not be fetched, read or compiled (`init`, or the load at import). */
  | "WASM_LOAD_FAILED"
  /** A call before `init` (`jobgraph/slim`). */
  | "NOT_INITIALIZED"
  /** A query that does not parse: `column` and `caret` say where. */
  | "INVALID_QUERY"
  /** Events that are not log events (`runJob`, `matchQuery`). */
  | "INVALID_EVENTS"
  /** A run past `maxEvents`, its work bound or `runTimeoutMs`. */
  | "RUN_LIMIT_EXCEEDED"
  /** A grok rule that does not compile (`jobgraph/grok`): `pointer`, `line` and `column` say where. */
  | "INVALID_GROK_RULE"
  /** A state the package never expects: please report it. */
  | "UNEXPECTED";

export interface LimitHit {
  kind: "time" | "loop" | "recursion" | "outputVertices" | "outputBytes" | "nesting" | "memory" | "resolutionTime";
  value: number;
}

/** The fields of a `JobgraphError`, as the package makes it (from what its WebAssembly modules throw). */
export interface JobgraphErrorInfo {
  code: ErrorCode;
  prefix: string;
  message: string;
  templateId?: string | null;
  templateVersion?: number | null;
  operationPath?: string[];
  line?: number | null;
  column?: number | null;
  pointer?: string | null;
  problems?: Problem[];
  limit?: LimitHit | null;
  caret?: string | null;
}

/** Every failure of this package. `message` starts with the service's contract prefix. */
export declare class JobgraphError extends Error {
  /** The package makes its errors; `info`: their fields (absent ones are `null`, or `[]` for lists). */
  constructor(info: JobgraphErrorInfo);
  readonly name: "JobgraphError";
  readonly code: ErrorCode;
  /** The message prefix, e.g. "Template not found". */
  readonly prefix: string;
  readonly templateId: string | null;
  readonly templateVersion: number | null;
  /** Template operations from the job graph down, e.g. ["ingest", "parse"]. */
  readonly operationPath: string[];
  /** Script line and column, 1-based, for script errors. */
  readonly line: number | null;
  readonly column: number | null;
  /** JSON pointer of the first problem, for validation errors. */
  readonly pointer: string | null;
  readonly problems: Problem[];
  readonly limit: LimitHit | null;
  /** For `INVALID_QUERY`: the query on one line and a caret under `column`. */
  readonly caret: string | null;
}

/** Resolves every template operation of a job (or a bare graph). */
export declare function resolve<T extends Job | JobGraph>(job: T, options?: ResolveOptions): Promise<Resolution<T>>;

/** Bounds of a resolver's cache; the least recently used results go first. */
export interface ResolverOptions {
  /** Results kept at most (default 1024; 0 keeps nothing). */
  maxEntries?: number;
  /** Bytes of kept results (their compact JSON, plus the inputs) at most (default 16 MiB). */
  maxBytes?: number;
}

/** Counters of a resolver's cache, since it was made or cleared. */
export interface CacheStats {
  /** Results kept now. */
  entries: number;
  /** Their size in bytes (compact JSON). */
  bytes: number;
  /** Template executions answered from the cache. */
  hits: number;
  /** Template executions that ran (including those whose result was not kept). */
  misses: number;
}

/**
 * A resolver that keeps each template execution's result across calls, keyed by template
 * id, version and source, the inputs after defaults, draft mode, user and limits.
 */
export interface Resolver {
  /** As `resolve`; executions already seen are answered from the cache. */
  resolve<T extends Job | JobGraph>(job: T, options?: ResolveOptions): Promise<Resolution<T>>;
  /** Forgets every kept result and resets the counters. */
  clear(): void;
  stats(): CacheStats;
}

/**
 * Makes a resolver for live previews: re-resolving after one operation's inputs changed runs
 * that operation's script only. Scripts that read the clock or `Math.random` always run.
 * After a `WASM_TRAP` the resolver carries on in the fresh instance, with an empty cache.
 */
export declare function createResolver(options?: ResolverOptions): Resolver;

export interface TestInput {
  values?: { [name: string]: Json };
  isDraft?: boolean;
}

export interface TestOptions {
  checkValidJobGraph?: boolean;
  user?: string;
  limits?: Limits;
}

/** Runs one template's script with input values, as `POST /v1/templates/test` does. */
export declare function testTemplate(template: Template, input?: TestInput, options?: TestOptions): JobGraph;

/** Every problem of a graph, each with its JSON pointer; `[]` when valid. */
export declare function validateJobGraph(graph: unknown): Problem[];

/**
 * Every problem of `values` against an input schema (JSON Schema 2020-12, as a template's
 * `inputSchema`; `undefined` accepts anything); `[]` when valid. Defaults are not filled.
 * Throws `INVALID_ARGUMENT` when the schema itself is invalid.
 */
export declare function validateInputs(inputSchema: Json | undefined, values: Json): Problem[];

export interface Endpoint {
  vertex: string;
  port?: string;
}

export interface Edge {
  from: Endpoint;
  to: Endpoint;
}

/** Parses `from[:port] -> to[:port]`; throws a JobgraphError (`MALFORMED_EDGE`) quoting the edge. */
export declare function parseEdge(text: string): Edge;

/** Writes an edge canonically: `from[:port] -> to[:port]` with single spaces. */
export declare function formatEdge(edge: Edge): string;

/**
 * Replaces the instance in service with a fresh one. Never needed after a trap: the call after a
 * `WASM_TRAP` already runs on a fresh instance.
 */
export declare function reload(): Promise<void>;

/** How many WebAssembly instances have served calls so far: 1 until the first trap or `reload()`. */
export declare function instanceGeneration(): number;

/**
 * Where `init` takes the WebAssembly module from: its URL, a `Response` or a promise of one
 * (`fetch(url)`), its bytes, or a compiled `WebAssembly.Module`.
 */
export type InitSource = string | URL | Response | Promise<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

/** Options of `init`. */
export interface InitOptions {
  /**
   * Where `runJob` takes the grok module (`jobgraph_grok_wasm_bg.wasm`, exported as
   * `jobgraph/grok.wasm`) from when a job has a `grok-parser`: a source as for the main module,
   * or a function returning one. It is loaded at the first such run, never before. `jobgraph`
   * uses the file shipped beside it by default; with `jobgraph/slim`, a job with a `grok-parser`
   * fails with `NOT_INITIALIZED` unless this is given (or `jobgraph/grok` was imported).
   */
  grok?: InitSource | (() => InitSource);
}

/**
 * Loads the WebAssembly module and takes a fresh instance of it into service. `jobgraph` loads
 * the module shipped beside it at import, so it needs no call (with no argument it loads that
 * module again); `jobgraph/slim` loads nothing until `await init(source)`, for apps that host the
 * `.wasm` themselves (a CDN). Asynchronous calls made meanwhile wait for it; synchronous ones throw
 * `NOT_INITIALIZED`. Fails with `WASM_LOAD_FAILED`, naming the address and what was found there.
 */
export declare function init(source?: InitSource, options?: InitOptions): Promise<void>;

/** A log event (docs/pipeline.md, "Events"); other fields are kept as they are. */
export interface LogEvent {
  id?: string;
  /** ISO 8601 text or epoch milliseconds. */
  eventTimestamp?: string | number;
  receivedTimestamp?: string | number;
  message?: string;
  /** OpenTelemetry severity number, 1-24. */
  severity?: number;
  tags?: { [key: string]: string[] };
  attributes?: { [key: string]: Json };
  [field: string]: Json | undefined;
}

/** A parsed query, as `checkQuery` returns it. */
export interface QueryTree {
  kind: "all" | "and" | "or" | "not" | "message" | "phrase" | "tag" | "tag-key" | "attribute";
  [field: string]: Json;
}

/** Parses a query of `logs-filter` and sources; throws `INVALID_QUERY` (with `column`, `caret`). */
export declare function checkQuery(query: string): QueryTree;

/** Whether each event matches the query, in order. */
export declare function matchQuery(query: string, events: LogEvent[]): boolean[];

/** Options of `runJob`: those of `resolve` (for jobs with template operations) and the run's bounds. */
export interface RunOptions extends ResolveOptions {
  /** Events kept per vertex in the record (counts are always exact); default 100. */
  keep?: number;
  /**
   * Only these vertices keep events in the record (`output`, `dropped`); the others' lists are
   * empty, their counts exact. Default: every vertex. A live preview that shows one vertex's
   * events sends only those (`sinks` are unaffected).
   */
  keepVertices?: string[];
  /**
   * `false`: the sinks' events are left out of the record (`sinks` names each with an empty
   * list; a sink's count is its `eventsIn` in `vertices`). For previews that show counts only:
   * a sink's events are most of the record. Default `true`.
   */
  keepSinks?: boolean;
  /** Input events at most; default 1 000 000. */
  maxEvents?: number;
  /** Events handled by all vertices together at most; default 10 000 000. */
  maxHandled?: number;
  /** Time limit of the run itself, ms; default 10 000. */
  runTimeoutMs?: number;
  /** Events by table, for sources whose `table` is named here (the others get `events`). */
  tables?: { [table: string]: LogEvent[] };
  /**
   * With an `EventSet` only: the vertices that did not change since the set's previous
   * incremental run (their settings and everything upstream of them) are not run again; the
   * events they sent on are kept in the set from that run. The record is the one a whole run
   * gives (errors too: a failing run is run whole). For live previews, where each keystroke
   * changes one vertex: a keystroke in a reducer runs the reducer and what follows it, not the
   * grok parser before it. Built into the grok module, where jobs with a `grok-parser` run;
   * elsewhere the whole graph runs (the main module's size budget), with the same record.
   */
  incremental?: boolean;
}

/** A kept event and what the vertex did to it. */
export interface KeptEvent {
  event: LogEvent;
  /** Tag values added and removed by a transform. */
  change?: { added?: { [key: string]: string[] }; removed?: { [key: string]: string[] } };
  /** The vertex that dropped it (filters). */
  droppedBy?: string;
}

/** What one vertex did in a run. */
export interface VertexRun {
  name: string;
  type: string;
  /** False for types the engine passes through unchanged. */
  simulated: boolean;
  notes?: string[];
  eventsIn: number;
  /** Events out by `output`. */
  eventsOut: number;
  /**
   * Events out by each output port: `output` (= `eventsOut`), then the vertex's others
   * (`logs-branch`: `else`), counted even when no edge takes them.
   */
  eventsByPort: { [port: string]: number };
  eventsDropped: number;
  /** The first `keep` events out. */
  output: KeptEvent[];
  /** The first `keep` events dropped. */
  dropped?: KeptEvent[];
  /** The patterns of a `log-reducer` or `pattern-matcher`, most frequent first (at most 500). */
  patterns?: PatternReport[];
}

/** One pattern a `log-reducer` or `pattern-matcher` found in a run (docs/pipeline.md). */
export interface PatternReport {
  /** Its id: the attribute `grepr.patternId` of the reducer's outputs. */
  id: string;
  /** Its text: masked values as `<mask>` (`<number>`, `<ipport>`, …), positions that vary as `<*>`. */
  pattern: string;
  /** Events of the run that matched it. */
  count: number;
  /** The partition (`service=web`), absent when the reducer has none. */
  partition?: string;
  /** The first messages that matched it (at most 3), as they arrived. */
  samples: string[];
}

/** The record of a run. */
export interface Run {
  /** Every vertex, in graph order. */
  vertices: VertexRun[];
  /** Every sink (type ending in `-sink`): all the events that reached it. */
  sinks: { [sink: string]: LogEvent[] };
  /** Events carried by each edge, in `edges` order. */
  edges: { edge: string; events: number }[];
  /** When the job had template operations: where each produced vertex came from. */
  provenance?: { [vertex: string]: Provenance };
}

/**
 * Events read once and kept inside the WebAssembly module (`loadEvents`), for many runs: a run
 * on a set reads no events, only runs the stages. `free()` releases it (where the runtime has
 * `Symbol.dispose`, `using set = loadEvents(…)` does too); a run on a freed set fails with
 * `INVALID_ARGUMENT`. The set keeps its text as well: after a trap, the instance that takes over
 * reads it again by itself.
 */
export declare class EventSet {
  /** Only `loadEvents` makes sets. */
  private constructor(token: never);
  /** How many events the set holds. */
  readonly length: number;
  /** Whether `free()` was called. */
  readonly freed: boolean;
  /** Releases the events (idempotent). */
  free(): void;
}

/**
 * Reads events once into an `EventSet` for `runJob(job, set, …)`: NDJSON text (one event a line),
 * a JSON array as text, or an array of events. A bad event throws `INVALID_EVENTS` naming its
 * line (`line 3`, NDJSON) or its place in the array (`event 3`).
 */
export declare function loadEvents(events: string | LogEvent[]): EventSet;

/**
 * Runs a job on events (an array, or an `EventSet` of `loadEvents`, which is not read again):
 * template operations resolved first, then every stage (docs/pipeline.md). A job with a
 * `grok-parser` runs in the grok module, loaded at the first such run (`InitOptions.grok`).
 */
export declare function runJob(job: Job | JobGraph, events?: LogEvent[] | EventSet, options?: RunOptions): Promise<Run>;
