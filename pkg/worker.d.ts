import type { Edge, Job, JobGraph, Json, Problem, Resolution, ResolveOptions, Template, TestInput, TestOptions } from "./index.js";

export interface WorkerResolverOptions {
  /** Wall-clock limit of one call, ms (default 5000). Past it the worker is terminated and replaced, and the call fails with a `JobgraphError` of code `TIMEOUT`. */
  timeoutMs?: number;
}

/** The package's API, run in a Web Worker (browsers) or a worker thread (Node). Calls run one at a time, in order. */
export interface WorkerResolver {
  resolve<T extends Job | JobGraph>(job: T, options?: ResolveOptions): Promise<Resolution<T>>;
  testTemplate(template: Template, input?: TestInput, options?: TestOptions): Promise<JobGraph>;
  validateJobGraph(graph: unknown): Promise<Problem[]>;
  validateInputs(inputSchema: Json | undefined, values: Json): Promise<Problem[]>;
  parseEdge(text: string): Promise<Edge>;
  formatEdge(edge: Edge): Promise<string>;
  /** Stops the worker; pending and later calls fail. */
  terminate(): Promise<void>;
}

/** Starts a worker-backed resolver; resolves once the worker has loaded the module. */
export declare function createWorkerResolver(options?: WorkerResolverOptions): Promise<WorkerResolver>;
