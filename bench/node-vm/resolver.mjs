// A template resolver written on Node's `node:vm` module, as a user could write it in an
// afternoon: the peer that `compare.mjs` times `jobgraph resolve` against (issue 8, point 3).
//
// Usage: node bench/node-vm/resolver.mjs JOB.json TEMPLATES_DIR [--draft] [--user NAME]
//
// It follows docs/resolution.md for the common case: top-level `default`s of the inputSchema,
// a FRESH vm context per template operation (every inputSchema property, the other
// templateInputs, `draft` and `user.getName()` as globals), the completion value as the
// subgraph (an object or JSON text), vertices renamed `op.<name>`, edges rewired through the
// template's `inputs`/`outputs` (and `draftOutputs` in draft mode), nesting up to 10 levels, the
// same vertex and edge order. Not done: JSON Schema validation, full graph validation, the
// operation budget, memory limits, the exact error texts. Errors go to stderr, exit status 1.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

const MAX_DEPTH = 10;
const TIMEOUT_MS = 1000;

// ---- Templates: every *.json of the folder is one version; the script is inline or in a .js.
function loadTemplates(dir) {
  const byId = new Map(); // id -> Map(version -> template)
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const template = JSON.parse(readFileSync(join(dir, file), "utf8"));
    const jsFile = join(dir, basename(file, ".json") + ".js");
    if (template.template === undefined && existsSync(jsFile)) {
      template.template = readFileSync(jsFile, "utf8");
    }
    if (!byId.has(template.id)) byId.set(template.id, new Map());
    byId.get(template.id).set(template.version, template);
  }
  return byId;
}

function findTemplate(templates, id, version) {
  const versions = templates.get(id);
  const template =
    versions && (version === undefined ? versions.get(Math.max(...versions.keys())) : versions.get(version));
  if (!template) throw new Error(`Template not found: ${id}${version === undefined ? " (latest version)" : "@" + version}`);
  return template;
}

// ---- Edges: `from[:port] -> to[:port]`.
function parseEndpoint(text, edge) {
  const [vertex, port, ...rest] = text.trim().split(":");
  if (!vertex || port === "" || rest.length > 0 || /\s/.test(text.trim())) {
    throw new Error(`malformed edge ${JSON.stringify(edge)}`);
  }
  return { vertex, port };
}

function parseEdge(text) {
  const sides = text.split("->");
  if (sides.length !== 2) throw new Error(`malformed edge ${JSON.stringify(text)}`);
  return { from: parseEndpoint(sides[0], text), to: parseEndpoint(sides[1], text) };
}

const showEndpoint = ({ vertex, port }) => (port === undefined ? vertex : `${vertex}:${port}`);
const prefixed = (prefix, end) => ({ vertex: prefix + end.vertex, port: end.port });

// ---- One script, in a fresh context.
function runTemplate(template, templateInputs, draft, userName) {
  const properties = template.inputSchema?.properties ?? {};
  const globals = {};
  for (const [name, schema] of Object.entries(properties)) {
    globals[name] = name in templateInputs ? templateInputs[name] : structuredClone(schema?.default);
  }
  for (const [name, value] of Object.entries(templateInputs)) {
    if (name === "draft" || name === "user") throw new Error(`Input validation failed: /${name} is reserved`);
    if (!(name in properties)) globals[name] = value;
  }
  globals.draft = draft;
  globals.user = { getName: () => userName };

  const context = vm.createContext(globals);
  let result;
  try {
    result = vm.runInContext(template.template, context, {
      filename: `${template.id}@${template.version}`,
      timeout: TIMEOUT_MS,
    });
  } catch (e) {
    throw new Error(`JavaScript execution failed: ${e}`);
  }
  const graph = typeof result === "string" ? JSON.parse(result) : JSON.parse(JSON.stringify(result) ?? "null");
  if (graph === null) throw new Error("Script execution returned null or undefined");
  if (!Array.isArray(graph.vertices) || graph.vertices.some((v) => typeof v?.name !== "string" || typeof v?.type !== "string")) {
    throw new Error("Could not parse resolved template into a JobGraph: bad vertices");
  }
  return graph;
}

// ---- Ports of one template operation: where `op:port` leads inside its resolved subgraph.
// A target is `vertex[:port]` of the subgraph, or a nested operation (`inner[:port]`), which
// resolves through that operation's own ports. Broken targets fail only when an edge uses them.
function portsOf(template, subgraph, resolved, draft) {
  const names = new Set(subgraph.vertices.map((v) => v.name));
  const target = (field, port, text, kind) => () => {
    const end = parseEndpoint(text, text);
    if (resolved.ports.has(end.vertex)) return resolved.ports.get(end.vertex).endpoint(kind, end.port);
    if (!names.has(end.vertex)) {
      throw new Error(`Invalid template: ${field}.${port} maps to "${text}", but the template's graph has no vertex "${end.vertex}"`);
    }
    return end;
  };
  const inputs = new Map(Object.entries(template.inputs ?? {}).map(([p, t]) => [p, target("inputs", p, t, "input")]));
  const outputs = new Map(Object.entries(template.outputs ?? {}).map(([p, t]) => [p, target("outputs", p, t, "output")]));
  const regular = { input: [...inputs.keys()], output: [...outputs.keys()] };
  if (draft) {
    for (const d of template.draftOutputs ?? []) outputs.set(d.name, target("draftOutputs", d.name, d.vertex, "output"));
  }
  return {
    // The endpoint behind `op:port`, or behind `op` (its only regular port, else the one named
    // `input`/`output`), in the subgraph's names.
    endpoint(kind, port) {
      const map = kind === "input" ? inputs : outputs;
      if (port === undefined) {
        const candidates = regular[kind];
        port = candidates.length === 1 ? candidates[0] : candidates.includes(kind) ? kind : undefined;
        if (port === undefined) throw new Error(`Unknown port: no single ${kind} nor one named "${kind}" (${template.id})`);
      }
      if (!map.has(port)) throw new Error(`Unknown port: ${kind} "${port}" of ${template.id}; available: ${[...map.keys()].join(", ")}`);
      return map.get(port)();
    },
  };
}

// ---- A graph, resolved: vertices and parsed edges named relative to it, and the ports of its
// template operations (for the graph one level up).
function resolveGraph(graph, options, path, draft) {
  const vertices = [];
  const childEdges = [];
  const ports = new Map();
  for (const vertex of graph.vertices) {
    if (vertex.type !== "template-operation") {
      vertices.push(vertex);
      continue;
    }
    if (path.length >= MAX_DEPTH) {
      throw new Error(`Template nesting exceeds the maximum depth of ${MAX_DEPTH}: ${[...path, vertex.name].join(" > ")}`);
    }
    const template = findTemplate(options.templates, vertex.templateId, vertex.templateVersion);
    const opDraft = draft || vertex.draftMode === true;
    const subgraph = runTemplate(template, vertex.templateInputs ?? {}, opDraft, options.user);
    const inner = resolveGraph(subgraph, options, [...path, vertex.name], opDraft);
    const prefix = vertex.name + ".";
    for (const v of inner.vertices) vertices.push({ ...v, name: prefix + v.name });
    for (const e of inner.edges) childEdges.push({ from: prefixed(prefix, e.from), to: prefixed(prefix, e.to) });
    const own = portsOf(template, subgraph, inner, opDraft);
    ports.set(vertex.name, { endpoint: (kind, port) => prefixed(prefix, own.endpoint(kind, port)) });
  }
  const edges = (graph.edges ?? []).map(parseEdge).map(({ from, to }) => ({
    from: ports.has(from.vertex) ? ports.get(from.vertex).endpoint("output", from.port) : from,
    to: ports.has(to.vertex) ? ports.get(to.vertex).endpoint("input", to.port) : to,
  }));
  return { vertices, edges: [...edges, ...childEdges], ports };
}

// The job graph with its vertices and edges resolved; its other fields kept in their places.
export function resolve(graph, options) {
  const { vertices, edges } = resolveGraph(graph, options, [], options.draft ?? false);
  const seen = new Set();
  for (const { name } of vertices) {
    if (seen.has(name)) throw new Error(`Vertex name collision: "${name}"`);
    seen.add(name);
  }
  const out = {};
  for (const key of Object.keys(graph)) {
    if (key === "vertices") out.vertices = vertices;
    else if (key !== "edges") out[key] = graph[key];
    if (key === "edges" || (key === "vertices" && !("edges" in graph))) out.edges = edges.map(({ from, to }) => `${showEndpoint(from)} -> ${showEndpoint(to)}`);
  }
  return out;
}

// A job document (`jobGraph` resolved in place) or a bare graph.
export function resolveDocument(doc, options) {
  return "jobGraph" in doc ? { ...doc, jobGraph: resolve(doc.jobGraph, options) } : resolve(doc, options);
}

function main(argv) {
  const positional = [];
  const options = { draft: false, user: process.env.USER || "anonymous" };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--draft") options.draft = true;
    else if (argv[i] === "--user") options.user = argv[++i];
    else positional.push(argv[i]);
  }
  if (positional.length !== 2) {
    console.error("usage: node resolver.mjs JOB.json TEMPLATES_DIR [--draft] [--user NAME]");
    process.exit(2);
  }
  const [jobFile, dir] = positional;
  const doc = JSON.parse(readFileSync(jobFile, "utf8"));
  options.templates = loadTemplates(dir);
  try {
    process.stdout.write(JSON.stringify(resolveDocument(doc, options), null, 2) + "\n");
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
