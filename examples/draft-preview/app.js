// Draft preview: a form generated from a template's inputSchema, resolved live with the
// jobgraph WebAssembly package and drawn as an SVG diagram. No dependencies, no build step.

/** Name of the one template operation of the preview job; produced vertices are `preview.<name>`. */
const OP = "preview";
const SVG_NS = "http://www.w3.org/2000/svg";

const $ = (selector) => document.querySelector(selector);
const ui = {
  status: $("#status"),
  select: $("#template"),
  meta: $("#template-meta"),
  form: $("#form"),
  inputs: $("#inputs"),
  draft: $("#draft-mode"),
  user: $("#user"),
  error: $("#error"),
  canvas: $("#canvas"),
  diagram: $("#diagram"),
  summary: $("#summary"),
  inspector: $("#inspector"),
  json: $("#json"),
};

const state = {
  /** `{file, template}` for every template of the catalog that loaded. */
  entries: [],
  /** The selected entry. */
  current: null,
  /** Form controls of the selected template: `{key, kind, schema, control, required}`. */
  fields: [],
  /** Increases on every run; a run whose number is no longer current drops its result. */
  run: 0,
  /** The last successful rendering, kept (dimmed) while the inputs are invalid. */
  model: null,
  selected: null,
};

// ---------------------------------------------------------------------------------------------
// Small DOM helpers (text always goes through textContent: template data is never parsed as HTML)

function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces a node's children, skipping absent ones (replaceChildren would write "null"). */
function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

function setStatus(kind, text) {
  document.documentElement.dataset.state = kind;
  ui.status.dataset.kind = kind;
  ui.status.textContent = text;
}

function truncate(text, max) {
  return text.length <= max ? text : text.slice(0, Math.max(1, max - 1)) + "…";
}

// ---------------------------------------------------------------------------------------------
// Loading the package and the templates

let pkg;
try {
  pkg = await import("../../pkg/index.js");
} catch (error) {
  showFatal("Could not load the jobgraph package", `${error.message}. Serve the repository root (the page imports /pkg/index.js) and build the package first (scripts/build-pkg.sh).`);
  throw error;
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

async function loadTemplate(file) {
  const name = file.replace(/\.json$/, "");
  const template = await (await fetchOk(`../templates/${name}.json`)).json();
  if (typeof template.template !== "string") {
    template.template = await (await fetchOk(`../templates/${name}.js`)).text();
  }
  return { file: name, template };
}

async function loadCatalog() {
  const catalog = await (await fetchOk("catalog.json")).json();
  const results = await Promise.allSettled((catalog.templates ?? []).map(loadTemplate));
  const failures = [];
  for (const result of results) {
    if (result.status === "fulfilled") state.entries.push(result.value);
    else failures.push(result.reason.message);
  }
  return failures;
}

function showFatal(title, message) {
  setStatus("error", title);
  ui.error.hidden = false;
  fill(ui.error,
    el("div", { class: "error-head" }, el("span", { class: "code", text: "LOAD_FAILED" }), el("strong", { text: title })),
    el("p", { class: "error-message", text: message }),
  );
}

// ---------------------------------------------------------------------------------------------
// The form, generated from the inputSchema

function schemaType(schema) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (Array.isArray(schema.enum)) return "enum";
  if (type === "boolean") return "boolean";
  if (type === "integer" || type === "number") return "number";
  if (type === "string") return "string";
  return "json"; // array, object, or anything the schema does not pin down
}

function pretty(value) {
  return JSON.stringify(value, null, 2);
}

function buildForm(template) {
  const schema = template.inputSchema;
  const properties = schema?.properties ?? {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const legend = el("legend", { text: "Inputs" });
  state.fields = [];
  const rows = [];

  if (!schema) {
    // Without an inputSchema a template accepts any inputs: edit them as one JSON object.
    const field = { key: null, kind: "whole", schema: {}, required: false };
    field.control = el("textarea", { id: "input-all", name: "templateInputs", rows: 5, spellcheck: "false", class: "code" });
    field.control.value = "{}";
    state.fields.push(field);
    rows.push(
      el("div", { class: "field" },
        el("label", { for: "input-all", text: "Template inputs (JSON)" }),
        field.control,
        el("p", { class: "hint", text: "This template has no inputSchema: every key becomes a script variable." })),
    );
  }

  for (const [key, prop] of Object.entries(properties)) {
    const propSchema = prop && typeof prop === "object" ? prop : {};
    const kind = schemaType(propSchema);
    const id = `input-${key.replace(/[^A-Za-z0-9_-]/g, "_")}`;
    const hintId = `${id}-hint`;
    const field = { key, kind, schema: propSchema, required: required.has(key) };
    const hasDefault = "default" in propSchema;
    const common = { id, name: key, "aria-describedby": hintId, "aria-required": field.required ? "true" : undefined };
    let control;
    if (kind === "boolean") {
      control = el("input", { ...common, type: "checkbox" });
      control.checked = propSchema.default === true;
    } else if (kind === "enum") {
      control = el("select", common);
      if (!field.required || !hasDefault) control.append(el("option", { value: "", text: "(not set)" }));
      for (const option of propSchema.enum) {
        control.append(el("option", { value: JSON.stringify(option), text: typeof option === "string" ? option : JSON.stringify(option) }));
      }
      control.value = hasDefault ? JSON.stringify(propSchema.default) : "";
    } else if (kind === "number") {
      const integer = propSchema.type === "integer" || (Array.isArray(propSchema.type) && propSchema.type.includes("integer"));
      control = el("input", { ...common, type: "number", inputmode: integer ? "numeric" : "decimal", step: integer ? 1 : "any", min: propSchema.minimum, max: propSchema.maximum });
      control.value = hasDefault ? String(propSchema.default) : "";
    } else if (kind === "string") {
      control = el("input", { ...common, type: "text", spellcheck: "false", placeholder: propSchema.examples?.[0] });
      control.value = hasDefault ? String(propSchema.default) : "";
    } else {
      const value = hasDefault ? pretty(propSchema.default) : "";
      control = el("textarea", { ...common, class: "code", spellcheck: "false", rows: Math.min(8, Math.max(2, value.split("\n").length)) });
      control.value = value;
    }
    field.control = control;
    state.fields.push(field);

    const typeLabel = kind === "enum" ? "one of" : Array.isArray(propSchema.type) ? propSchema.type.join(" | ") : propSchema.type ?? "any";
    const constraints = describeConstraints(propSchema);
    const label = el("label", { for: id },
      el("span", { class: "key", text: key }),
      field.required ? el("span", { class: "required", title: "required", "aria-label": "required", text: "*" }) : null,
      el("span", { class: "type-tag", text: kind === "json" ? `${typeLabel} · JSON` : typeLabel }));
    const hint = el("p", { class: "hint", id: hintId },
      propSchema.description ?? "",
      constraints ? el("span", { class: "constraints", text: `${propSchema.description ? " · " : ""}${constraints}` }) : null);
    rows.push(kind === "boolean"
      ? el("div", { class: "field field-check", "data-field": key }, control, label, hint)
      : el("div", { class: "field", "data-field": key }, label, control, hint));
  }

  if (schema && rows.length === 0) rows.push(el("p", { class: "empty", text: "This template takes no inputs." }));
  fill(ui.inputs, legend, ...rows);
}

function describeConstraints(schema) {
  const parts = [];
  if ("minimum" in schema && "maximum" in schema) parts.push(`${schema.minimum}–${schema.maximum}`);
  else if ("minimum" in schema) parts.push(`≥ ${schema.minimum}`);
  else if ("maximum" in schema) parts.push(`≤ ${schema.maximum}`);
  if ("minLength" in schema) parts.push(`at least ${schema.minLength} character${schema.minLength === 1 ? "" : "s"}`);
  if ("default" in schema && schemaType(schema) !== "boolean") parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ");
}

/** The form's values as `templateInputs`; an empty field is left out, so its default applies. */
function readInputs() {
  const values = {};
  const problems = [];
  for (const field of state.fields) {
    const { key, kind, control } = field;
    const raw = control.value;
    try {
      if (kind === "whole") {
        const parsed = raw.trim() === "" ? {} : JSON.parse(raw);
        if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("expected a JSON object");
        Object.assign(values, parsed);
      } else if (kind === "boolean") {
        values[key] = control.checked;
      } else if (raw.trim() === "") {
        // left out
      } else if (kind === "enum") {
        values[key] = JSON.parse(raw);
      } else if (kind === "number") {
        const number = Number(raw);
        if (!Number.isFinite(number)) throw new Error("not a number");
        values[key] = number;
      } else if (kind === "string") {
        values[key] = raw;
      } else {
        values[key] = JSON.parse(raw);
      }
    } catch (error) {
      const message = error instanceof SyntaxError ? `not valid JSON (${error.message})` : error.message;
      problems.push({ pointer: key === null ? "" : `/${escapePointer(key)}`, key, message });
    }
  }
  return { values, problems };
}

const escapePointer = (token) => token.replace(/~/g, "~0").replace(/\//g, "~1");
const unescapePointer = (token) => token.replace(/~1/g, "/").replace(/~0/g, "~");

// ---------------------------------------------------------------------------------------------
// Resolution

function makeJob(template, values, draftMode) {
  const vertex = { type: "template-operation", name: OP, templateId: template.id, templateVersion: template.version, templateInputs: values, draftMode };
  if (vertex.templateVersion === undefined) delete vertex.templateVersion;
  return { vertices: [vertex], edges: [] };
}

async function update() {
  const run = ++state.run;
  const entry = state.current;
  if (!entry) return;
  clearFieldErrors();
  const { values, problems } = readInputs();
  if (problems.length > 0) {
    showError({ code: "INVALID_FORM_VALUE", prefix: "Invalid form value", message: problems.map((p) => `${p.key ?? "templateInputs"}: ${p.message}`).join("; "), pointer: problems[0].pointer, problems, operationPath: [OP] });
    return;
  }
  const draft = ui.draft.checked;
  const options = { templates: state.entries.map((e) => e.template), provenance: true, limits: { timeoutMs: 500 } };
  const user = ui.user.value.trim();
  if (user) options.user = user;

  setStatus("busy", "Resolving…");
  const started = performance.now();
  let resolution;
  let baseline = null;
  try {
    resolution = await pkg.resolve(makeJob(entry.template, values, draft), options);
    if (draft) {
      // The same resolution with draft mode off: what is not in it exists only because of draft mode.
      baseline = await pkg.resolve(makeJob(entry.template, values, false), options).catch(() => null);
    }
  } catch (error) {
    if (run === state.run) showError(error);
    return;
  }
  if (run !== state.run) return;
  const elapsed = performance.now() - started;
  hideError();
  state.model = analyse(entry.template, resolution, baseline, draft);
  render(state.model);
  const { vertices, edges } = state.model;
  setStatus("ready", `${vertices.length} vert${vertices.length === 1 ? "ex" : "ices"}, ${edges.length} edge${edges.length === 1 ? "" : "s"} · resolved in ${elapsed < 10 ? elapsed.toFixed(1) : Math.round(elapsed)} ms`);
}

function findTemplate(id, version) {
  const candidates = state.entries.map((e) => e.template).filter((t) => t.id === id);
  if (version === undefined || version === null) return candidates.sort((a, b) => (b.version ?? 0) - (a.version ?? 0))[0] ?? null;
  return candidates.find((t) => t.version === version) ?? null;
}

const samePath = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The final name of the vertex a draft output (`vertex` or `op:port`) points at, following
 * nested template operations through their output maps, with the help of provenance.
 */
function locateVertex(ref, path, provenance, depth = 0) {
  if (depth > 12) return null;
  const [vertex, port] = ref.split(":");
  const entries = Object.entries(provenance);
  const direct = entries.find(([, p]) => p.originalName === vertex && samePath(p.operationPath, path));
  if (direct) return direct[0];
  const childPath = [...path, vertex];
  const child = entries.find(([, p]) => samePath(p.operationPath, childPath));
  const template = child && findTemplate(child[1].templateId, child[1].templateVersion);
  if (!template) return null;
  let next;
  if (port !== undefined) {
    next = template.outputs?.[port] ?? template.draftOutputs?.find((d) => d.name === port)?.vertex;
  } else {
    const outputs = Object.values(template.outputs ?? {});
    next = outputs.length === 1 ? outputs[0] : template.outputs?.output;
  }
  return next ? locateVertex(next, childPath, provenance, depth + 1) : null;
}

function analyse(template, resolution, baseline, draft) {
  const graph = resolution.output;
  const provenance = resolution.provenance ?? {};
  const vertices = graph.vertices;
  const edges = (graph.edges ?? []).map((text) => {
    const edge = pkg.parseEdge(text);
    return { text, from: edge.from.vertex, fromPort: edge.from.port, to: edge.to.vertex, toPort: edge.to.port };
  });
  const draftOnly = new Set();
  if (draft && baseline) {
    const before = new Set(baseline.output.vertices.map((v) => v.name));
    for (const v of vertices) if (!before.has(v.name)) draftOnly.add(v.name);
  }
  const draftOutputs = new Map(); // final vertex name -> draft output names
  if (draft) {
    for (const output of template.draftOutputs ?? []) {
      const name = locateVertex(output.vertex, [OP], provenance);
      if (name) draftOutputs.set(name, [...(draftOutputs.get(name) ?? []), output.name]);
    }
  }
  return { template, graph, provenance, vertices, edges, draftOnly, draftOutputs, draft, baselineFailed: draft && !baseline };
}

// ---------------------------------------------------------------------------------------------
// The diagram: a layered layout, sources on the left

const NODE_H = 68;
const COL_GAP = 120;
const ROW_GAP = 26;
const PAD = 28;
const CHAR = { name: 7.9, type: 6.6, detail: 6.7 };

function detailOf(vertex) {
  for (const [key, value] of Object.entries(vertex)) {
    if (key === "type" || key === "name") continue;
    if (value === null || typeof value !== "object") return `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
    if (Array.isArray(value)) return `${key}: ${value.length} item${value.length === 1 ? "" : "s"}`;
    const inner = Object.entries(value).find(([k, v]) => k !== "type" && typeof v === "string");
    return inner ? `${key}: ${inner[1]}` : `${key}: {…}`;
  }
  return "";
}

function layout(vertices, edges) {
  const index = new Map(vertices.map((v, i) => [v.name, i]));
  const preds = vertices.map(() => []);
  const succs = vertices.map(() => []);
  for (const e of edges) {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) continue;
    preds[b].push(a);
    succs[a].push(b);
  }
  // Kahn's algorithm in vertex order; layer = longest path from a source.
  const indegree = preds.map((p) => p.length);
  const layer = vertices.map(() => 0);
  const queue = vertices.map((_, i) => i).filter((i) => indegree[i] === 0);
  const done = new Set();
  while (queue.length) {
    const i = queue.shift();
    done.add(i);
    for (const j of succs[i]) {
      layer[j] = Math.max(layer[j], layer[i] + 1);
      if (--indegree[j] === 0) queue.push(j);
    }
  }
  // Vertices on a cycle (the resolver does not forbid them): after their placed predecessors.
  for (let i = 0; i < vertices.length; i++) {
    if (done.has(i)) continue;
    layer[i] = Math.max(0, ...preds[i].filter((p) => done.has(p)).map((p) => layer[p] + 1));
    done.add(i);
  }
  const columns = [];
  vertices.forEach((_, i) => (columns[layer[i]] ??= []).push(i));
  // One barycentre pass: order each column by the mean row of its predecessors.
  const row = new Map();
  for (const column of columns) {
    if (!column) continue;
    const key = (i) => (preds[i].length ? preds[i].reduce((s, p) => s + (row.get(p) ?? 0), 0) / preds[i].length : Infinity);
    column.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return ka === kb ? a - b : ka === Infinity ? 1 : kb === Infinity ? -1 : ka - kb;
    });
    column.forEach((i, r) => row.set(i, r));
  }
  const widest = Math.max(0, ...vertices.map((v) => Math.max(v.name.length * CHAR.name, v.type.length * CHAR.type)));
  const width = Math.round(Math.min(340, Math.max(190, widest + 36)));
  const tallest = Math.max(1, ...columns.map((c) => c?.length ?? 0));
  const height = tallest * NODE_H + (tallest - 1) * ROW_GAP;
  const boxes = new Map();
  columns.forEach((column, c) => {
    if (!column) return;
    const top = PAD + (height - (column.length * NODE_H + (column.length - 1) * ROW_GAP)) / 2;
    column.forEach((i, r) => boxes.set(vertices[i].name, { x: PAD + c * (width + COL_GAP), y: top + r * (NODE_H + ROW_GAP) }));
  });
  const count = columns.length || 1;
  return { boxes, width, totalWidth: PAD * 2 + count * width + (count - 1) * COL_GAP, totalHeight: PAD * 2 + height };
}

function render(model) {
  const { vertices, edges, draftOnly, draftOutputs, provenance } = model;
  const { boxes, width, totalWidth, totalHeight } = layout(vertices, edges);
  const isDraft = (name) => draftOnly.has(name) || draftOutputs.has(name);

  const defs = svg("defs", {},
    svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" })),
    svg("marker", { id: "arrow-draft", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead draft" })));

  const edgeLayer = svg("g", { class: "edges" });
  for (const e of edges) {
    const a = boxes.get(e.from);
    const b = boxes.get(e.to);
    if (!a || !b) continue;
    const x1 = a.x + width;
    const y1 = a.y + NODE_H / 2;
    const x2 = b.x - 2;
    const y2 = b.y + NODE_H / 2;
    const dx = Math.max(40, Math.abs(x2 - x1) / 2);
    const draft = isDraft(e.from) || isDraft(e.to);
    // Port names sit at the ends of the edge (the tooltip has the whole edge text).
    const room = x2 - x1 - 16;
    const fits = (port) => port && port.length * 6.4 < room / 2;
    const ports = [
      fits(e.fromPort) ? svg("text", { class: "port", x: x1 + 6, y: y1 - 6, text: e.fromPort }) : null,
      fits(e.toPort) ? svg("text", { class: "port", x: x2 - 8, y: y2 - 6, "text-anchor": "end", text: e.toPort }) : null,
    ];
    edgeLayer.append(svg("g", { class: ["edge", draft && "draft"], "data-edge": e.text },
      svg("title", { text: e.text }),
      svg("path", { d: `M${x1},${y1} C${x1 + dx},${y1} ${x2 - dx},${y2} ${x2},${y2}`, "marker-end": `url(#${draft ? "arrow-draft" : "arrow"})` }),
      ports));
  }

  const nodeLayer = svg("g", { class: "vertices" });
  for (const v of vertices) {
    const box = boxes.get(v.name);
    const outputs = draftOutputs.get(v.name);
    const draft = isDraft(v.name);
    const detail = detailOf(v);
    const badge = outputs ? `draft output: ${outputs.join(", ")}` : draftOnly.has(v.name) ? "draft only" : null;
    const badgeWidth = badge ? badge.length * 6.1 + 16 : 0;
    const maxChars = (px) => Math.floor((width - 28) / px);
    const origin = provenance[v.name];
    const node = svg("g", {
      class: ["vertex", draft && "draft", state.selected === v.name && "selected"],
      "data-name": v.name,
      "data-type": v.type,
      transform: `translate(${box.x},${box.y})`,
      tabindex: 0,
      role: "button",
      "aria-label": `${v.name}, ${v.type}${badge ? `, ${badge}` : ""}`,
      onclick: () => select(v.name),
      onkeydown: (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          select(v.name);
        }
      },
    },
      svg("title", { text: `${v.name} (${v.type})${origin ? `\nfrom ${origin.templateId}@${origin.templateVersion}, ${origin.operationPath.join(" › ")} › ${origin.originalName}` : ""}` }),
      svg("rect", { class: "box", width, height: NODE_H, rx: 10 }),
      svg("rect", { class: "stripe", x: 0, y: 10, width: 4, height: NODE_H - 20, rx: 2 }),
      svg("text", { class: "name", x: 16, y: 24, text: truncate(v.name, maxChars(CHAR.name)) }),
      svg("text", { class: "type", x: 16, y: 42, text: truncate(v.type, maxChars(CHAR.type)) }),
      detail ? svg("text", { class: "detail", x: 16, y: 58, text: truncate(detail, maxChars(CHAR.detail)) }) : null,
      badge ? svg("g", { class: "badge", transform: `translate(${width - badgeWidth - 10},-9)` },
        svg("rect", { width: badgeWidth, height: 18, rx: 9 }),
        svg("text", { x: badgeWidth / 2, y: 12.5, "text-anchor": "middle", text: badge })) : null);
    nodeLayer.append(node);
  }

  const desc = svg("desc", { id: "diagram-desc", text: describe(model) });
  fill(ui.diagram, desc, defs, edgeLayer, nodeLayer);
  ui.diagram.setAttribute("viewBox", `0 0 ${totalWidth} ${totalHeight}`);
  // Natural size when it fits; scaled down to the canvas (to 60% at most) when it does not.
  ui.diagram.setAttribute("width", totalWidth);
  ui.diagram.setAttribute("height", totalHeight);
  ui.diagram.style.minWidth = `${Math.round(totalWidth * 0.6)}px`;
  ui.canvas.classList.remove("stale");

  const drafts = [...draftOutputs].map(([name, outs]) => `${outs.join(", ")} ← ${name}`);
  fill(ui.summary,
    model.draft ? el("span", { class: "pill pill-draft", text: "draft mode" }) : el("span", { class: "pill", text: "draft mode off" }),
    drafts.length ? el("span", {}, "Draft outputs: ", ...drafts.map((d) => el("code", { text: d }))) : null,
    draftOnly.size ? el("span", {}, `Draft-only vertices: ${draftOnly.size}`) : null,
    model.baselineFailed ? el("span", { class: "warn", text: "The resolution with draft mode off failed; draft-only vertices are not marked." }) : null,
  );
  ui.json.textContent = pretty(model.graph);
  if (state.selected && !boxes.has(state.selected)) state.selected = null;
  renderInspector();
}

function describe(model) {
  const names = model.vertices.map((v) => `${v.name} (${v.type}${model.draftOnly.has(v.name) || model.draftOutputs.has(v.name) ? ", draft" : ""})`);
  return `Resolved graph with ${model.vertices.length} vertices: ${names.join(", ")}. Edges: ${model.edges.map((e) => e.text).join(", ") || "none"}.`;
}

function select(name) {
  state.selected = state.selected === name ? null : name;
  for (const node of ui.diagram.querySelectorAll("g.vertex")) node.classList.toggle("selected", node.dataset.name === state.selected);
  renderInspector();
}

function renderInspector() {
  const model = state.model;
  const vertex = model && state.selected ? model.vertices.find((v) => v.name === state.selected) : null;
  if (!vertex) {
    fill(ui.inspector, el("p", { class: "empty", text: "Select a vertex in the diagram to see its fields and where it came from." }));
    return;
  }
  const origin = model.provenance[vertex.name];
  const rows = [
    ["Name", el("code", { text: vertex.name })],
    ["Type", el("code", { text: vertex.type })],
  ];
  if (origin) {
    rows.push(["Original name", el("code", { text: origin.originalName })]);
    rows.push(["Template", el("code", { text: `${origin.templateId}@${origin.templateVersion}` })]);
    rows.push(["Operation path", el("code", { text: origin.operationPath.join(" › ") })]);
  }
  const outputs = model.draftOutputs.get(vertex.name);
  if (outputs) rows.push(["Draft output", outputs.join(", ")]);
  else if (model.draftOnly.has(vertex.name)) rows.push(["Draft", "only in draft mode"]);
  const { type, name, ...fields } = vertex;
  fill(ui.inspector,
    el("dl", { class: "facts" }, rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", {}, v)])),
    Object.keys(fields).length ? el("pre", { class: "fields", text: pretty(fields) }) : null,
  );
}

// ---------------------------------------------------------------------------------------------
// Errors, with their location

function hideError() {
  ui.error.hidden = true;
  fill(ui.error);
}

function clearFieldErrors() {
  for (const node of ui.inputs.querySelectorAll(".invalid")) {
    node.classList.remove("invalid");
    node.removeAttribute("aria-invalid");
    node.removeAttribute("aria-errormessage");
  }
  for (const node of ui.inputs.querySelectorAll(".field-error")) node.remove();
  for (const node of ui.inputs.querySelectorAll(".has-error")) node.classList.remove("has-error");
}

/** The form field a problem is about: its pointer's first token, or the property a `required` message names. */
function fieldKeyOf(problem) {
  if (problem.pointer) return unescapePointer(problem.pointer.split("/")[1] ?? "");
  const required = /"((?:[^"\\]|\\.)*)" is a required property/.exec(problem.message);
  return required ? JSON.parse(`"${required[1]}"`) : null;
}

function markFields(error) {
  // Pointers are relative to the inputs of the template that failed: only those of our own
  // operation (not of a nested one) point into this form.
  const path = error.operationPath ?? [];
  if (path.length > 1) return;
  if (error.templateId && state.current && error.templateId !== state.current.template.id) return;
  const problems = error.problems?.length ? error.problems : error.pointer !== null && error.pointer !== undefined ? [{ pointer: error.pointer, message: error.message }] : [];
  for (const problem of problems) {
    const key = fieldKeyOf(problem);
    const field = key === null ? null : state.fields.find((f) => f.key === key) ?? state.fields.find((f) => f.kind === "whole");
    if (!field) continue;
    const { control } = field;
    const wrapper = control.closest(".field");
    const id = `${control.id}-error`;
    control.classList.add("invalid");
    control.setAttribute("aria-invalid", "true");
    control.setAttribute("aria-errormessage", id);
    wrapper?.classList.add("has-error");
    const existing = document.getElementById(id);
    const text = `${problem.pointer || "(root)"}: ${problem.message}`;
    if (existing) existing.textContent += `; ${problem.message}`;
    else wrapper?.append(el("p", { class: "field-error", id, text }));
  }
}

function scriptExcerpt(error) {
  if (!error.line || !error.templateId) return null;
  const template = findTemplate(error.templateId, error.templateVersion);
  if (!template?.template) return null;
  const lines = template.template.split("\n");
  const first = Math.max(1, error.line - 2);
  const last = Math.min(lines.length, error.line + 1);
  const gutter = String(last).length;
  const out = [];
  for (let n = first; n <= last; n++) {
    const code = `${String(n).padStart(gutter)} │ ${lines[n - 1] ?? ""}`;
    out.push(n === error.line ? el("mark", { text: code }) : code, "\n");
    if (n === error.line && error.column) out.push(el("span", { class: "caret", text: `${" ".repeat(gutter)} │ ${" ".repeat(error.column - 1)}^` }), "\n");
  }
  return el("pre", { class: "snippet", "aria-label": `Script excerpt around line ${error.line}` }, out);
}

function showError(error) {
  const known = error && typeof error === "object" && typeof error.code === "string";
  const info = known ? error : { code: "UNEXPECTED", prefix: "Unexpected error", message: String(error?.message ?? error) };
  if (!known) console.warn(error); // not a JobgraphError: worth a look in the console
  const where = [];
  if (info.pointer !== null && info.pointer !== undefined) where.push(["Pointer", el("code", { text: info.pointer === "" ? "(root)" : info.pointer })]);
  if (info.line) where.push(["Script", `line ${info.line}${info.column ? `, column ${info.column}` : ""}`]);
  if (info.templateId) where.push(["Template", el("code", { text: `${info.templateId}${info.templateVersion ? `@${info.templateVersion}` : ""}` })]);
  if (info.operationPath?.length) where.push(["Operation", el("code", { text: info.operationPath.join(" › ") })]);
  if (info.limit) where.push(["Limit", `${info.limit.kind} (${info.limit.value})`]);
  const problems = info.problems?.length > 1
    ? el("ul", { class: "problems" }, info.problems.map((p) => el("li", {}, el("code", { text: p.pointer || "(root)" }), " ", p.message)))
    : null;

  fill(ui.error,
    el("div", { class: "error-head" },
      el("span", { class: "code", text: info.code }),
      el("strong", { text: info.prefix ?? "Error" })),
    el("p", { class: "error-message", text: info.message }),
    where.length ? el("dl", { class: "error-where" }, where.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", {}, v)])) : null,
    problems,
    scriptExcerpt(info),
  );
  ui.error.dataset.code = info.code;
  ui.error.hidden = false;
  markFields(info);
  ui.canvas.classList.add("stale");
  fill(ui.summary, el("span", { class: "warn", text: state.model ? "Showing the last successful resolution." : "No graph: this template has not resolved yet." }));
  setStatus("error", info.prefix ?? "Error");
}

// ---------------------------------------------------------------------------------------------
// Wiring

function choose(file) {
  const entry = state.entries.find((e) => e.file === file) ?? state.entries[0];
  state.current = entry;
  state.model = null;
  state.selected = null;
  ui.select.value = entry.file;
  const t = entry.template;
  const ports = (map) => Object.keys(map ?? {}).join(", ") || "none";
  fill(ui.meta,
    el("span", { class: "description", text: t.description ?? "" }),
    el("span", { class: "facts-inline" },
      el("code", { text: `${t.id}@${t.version}` }),
      ` · in: ${ports(t.inputs)} · out: ${ports(t.outputs)}`,
      t.draftOutputs?.length ? ` · draft: ${t.draftOutputs.map((d) => d.name).join(", ")}` : ""),
  );
  buildForm(t);
  fill(ui.diagram, svg("desc", { id: "diagram-desc", text: "Resolving…" }));
  ui.diagram.removeAttribute("viewBox");
  ui.diagram.setAttribute("width", 0);
  ui.diagram.setAttribute("height", 0);
  fill(ui.summary);
  ui.json.textContent = "";
  renderInspector();
  history.replaceState(null, "", `#${encodeURIComponent(entry.file)}`);
  update();
}

let timer = 0;
function scheduleUpdate(delay) {
  clearTimeout(timer);
  timer = setTimeout(update, delay);
}

ui.form.addEventListener("submit", (event) => event.preventDefault());
ui.form.addEventListener("input", (event) => scheduleUpdate(event.target.matches("select, [type=checkbox]") ? 0 : 120));
ui.form.addEventListener("change", (event) => {
  if (event.target.matches("select, [type=checkbox]")) scheduleUpdate(0);
});
ui.select.addEventListener("change", () => choose(ui.select.value));

try {
  const failures = await loadCatalog();
  if (state.entries.length === 0) throw new Error(failures.join("; ") || "catalog.json lists no templates");
  for (const { file, template } of state.entries) {
    ui.select.append(el("option", { value: file, text: `${template.name} — ${template.id}@${template.version}` }));
  }
  ui.select.disabled = false;
  choose(decodeURIComponent(location.hash.slice(1)));
  if (failures.length) console.warn("Some templates did not load:", failures);
} catch (error) {
  showFatal("Could not load the templates", error.message);
}
