// Compiled with `tsc --noEmit --strict` in scripts/test.sh: the package's types are precise
// enough for real use, and wrong use is rejected (the @ts-expect-error lines must stay errors).
import { JobgraphError, formatEdge, parseEdge, resolve, testTemplate, validateInputs, validateJobGraph } from "jobgraph";
import type { Job, JobGraph, Problem, Template } from "jobgraph";
import { createWorkerResolver } from "jobgraph/worker";

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
  console.log(bad);
}

void main();
