import type { Edge, Job, JobGraph, Json, LogEvent, Problem, QueryTree, Resolution, ResolveOptions, Run, RunOptions, Template, TestInput, TestOptions } from "./index.js";

/**
 * Events read once into a worker resolver's worker (its `loadEvents`), for many of its runs.
 * The resolver keeps their text too: a worker that replaces a failed one (a time-out, a trap)
 * reads them again before the first call that needs them. `free()` releases them, in the worker
 * too; a run on a freed set fails with `INVALID_ARGUMENT`.
 */
export interface WorkerEventSet {
  /** How many events the set holds. */
  readonly length: number;
  /** Whether `free()` was called. */
  readonly freed: boolean;
  /** Releases the events (idempotent). */
  free(): void;
}

export interface WorkerResolverOptions {
  /** Wall-clock limit of one call, ms (default 5000). Past it the worker is terminated and replaced, and the call fails with a `JobgraphError` of code `TIMEOUT`. */
  timeoutMs?: number;
  /**
   * Where the worker's script is, when not beside the package (an app that copies
   * `jobgraph/worker-entry` somewhere itself; in Node, `worker-entry.node.js`). Bundlers that
   * understand `new Worker(new URL("./…", import.meta.url))` (Vite, webpack) need nothing here.
   */
  workerUrl?: string | URL;
}

/**
 * The package's API, run in a Web Worker (browsers) or a worker thread (Node). Calls run one at a
 * time, in order. After a time-out, a `WASM_TRAP` or a crash of the worker, the worker is
 * terminated and replaced: the failed call is rejected, the calls queued behind it run in the new one.
 */
export interface WorkerResolver {
  resolve<T extends Job | JobGraph>(job: T, options?: ResolveOptions): Promise<Resolution<T>>;
  /** Runs a job on events, or on a set of this resolver's `loadEvents` (not sent again). */
  runJob(job: Job | JobGraph, events?: LogEvent[] | WorkerEventSet, options?: RunOptions): Promise<Run>;
  /** Reads events once in the worker (as `loadEvents` of the package): `INVALID_EVENTS` names the line. */
  loadEvents(events: string | LogEvent[]): Promise<WorkerEventSet>;
  checkQuery(query: string): Promise<QueryTree>;
  matchQuery(query: string, events: LogEvent[]): Promise<boolean[]>;
  testTemplate(template: Template, input?: TestInput, options?: TestOptions): Promise<JobGraph>;
  validateJobGraph(graph: unknown): Promise<Problem[]>;
  validateInputs(inputSchema: Json | undefined, values: Json): Promise<Problem[]>;
  parseEdge(text: string): Promise<Edge>;
  formatEdge(edge: Edge): Promise<string>;
  /** How many times the worker was replaced (after a time-out, a trap, a crash or an exit). */
  replacements(): number;
  /** Stops the worker; pending and later calls fail. */
  terminate(): Promise<void>;
}

/** Starts a worker-backed resolver; resolves once the worker has loaded the module. */
export declare function createWorkerResolver(options?: WorkerResolverOptions): Promise<WorkerResolver>;
