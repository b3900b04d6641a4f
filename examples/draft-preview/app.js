// Draft preview: a form generated from a template's inputSchema, resolved live with the
// jobgraph WebAssembly package and drawn as an SVG diagram; and a job mode (job-mode.js) that
// edits the operations of a whole job. No dependencies, no build step.
//
// This file: loading, the page shell shared by both modes (status, errors, diagram, inspector,
// mode switch), and the template mode.
import { $, el, fill } from "./dom.js";
import { buildForm, clearFieldErrors, markFields, readInputs } from "./form.js";
import * as diagram from "./diagram.js";
import { createJobMode } from "./job-mode.js";
import { createGrokPanel } from "./grok-panel.js";

/** Name of the one template operation of the preview job; produced vertices are `preview.<name>`. */
const OP = "preview";

const ui = {
  status: $("#status"),
  tabs: [...document.querySelectorAll("[data-mode-tab]")],
  templateControls: $("#template-controls"),
  jobControls: $("#job-controls"),
  grokControls: $("#grok-controls"),
  select: $("#template"),
  meta: $("#template-meta"),
  script: $("#script"),
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
  diagramTitle: $("#diagram-title"),
};

const state = {
  /** `{file, template}` for every template of the catalog that loaded. */
  entries: [],
  /** "template", "job" or "grok". */
  mode: "template",
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

function setStatus(kind, text) {
  document.documentElement.dataset.state = kind;
  ui.status.dataset.kind = kind;
  ui.status.textContent = text;
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

// Template mode runs scripts someone is typing: through the worker resolver, whose worker is
// replaced after a time-out, a trap or a crash (docs/sandbox.md). In-process if it cannot start.
let templateResolver = pkg;
try {
  const { createWorkerResolver } = await import("../../pkg/worker.js");
  templateResolver = await createWorkerResolver({ timeoutMs: 2000 });
} catch (error) {
  console.warn(`The worker resolver did not start (${error.message}); scripts run on this page's thread.`);
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
  return { catalog, failures };
}

function showFatal(title, message) {
  setStatus("error", title);
  ui.error.hidden = false;
  fill(ui.error,
    el("div", { class: "error-head" }, el("span", { class: "code", text: "LOAD_FAILED" }), el("strong", { text: title })),
    el("p", { class: "error-message", text: message }),
  );
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

// ---------------------------------------------------------------------------------------------
// The output panel, shared by both modes

/** Draws a model; `view` as diagram.render's, plus `summary` (nodes) and `onSelect`. */
function showModel(model, view) {
  diagram.render(ui.diagram, model, view);
  ui.canvas.classList.remove("stale");
  fill(ui.summary, view.summary ?? []);
  ui.json.textContent = JSON.stringify(model.document ?? model.graph, null, 2);
  diagram.renderInspector(ui.inspector, model, view.selected);
}

/** Toggles the selected vertex in the diagram; returns the new selection. */
function selectVertex(model, selected, name) {
  const next = selected === name ? null : name;
  for (const node of ui.diagram.querySelectorAll("g.vertex")) node.classList.toggle("selected", node.dataset.name === next);
  diagram.renderInspector(ui.inspector, model, next);
  return next;
}

function hideError() {
  ui.error.hidden = true;
  fill(ui.error);
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

/** Shows an error with its location; `hasModel` says whether a last good diagram is kept. Returns the error's info. */
function showError(error, hasModel) {
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
  ui.canvas.classList.add("stale");
  fill(ui.summary, el("span", { class: "warn", text: hasModel ? "Showing the last successful resolution." : "No graph: this has not resolved yet." }));
  setStatus("error", info.prefix ?? "Error");
  return info;
}

/** What the modes share. */
const page = { pkg, ui, setStatus, findTemplate, locateVertex, showModel, selectVertex, showError, hideError, nextRun: () => ++state.run, isCurrent: (run) => run === state.run };

// ---------------------------------------------------------------------------------------------
// Template mode: one template operation, resolved with `resolve` on every edit

function makeJob(template, values, draftMode) {
  const vertex = { type: "template-operation", name: OP, templateId: template.id, templateVersion: template.version, templateInputs: values, draftMode };
  if (vertex.templateVersion === undefined) delete vertex.templateVersion;
  return { vertices: [vertex], edges: [] };
}

async function update() {
  if (state.mode !== "template") return;
  const run = page.nextRun();
  const entry = state.current;
  if (!entry) return;
  clearFieldErrors(ui.inputs);
  const { values, problems } = readInputs(state.fields);
  if (problems.length > 0) {
    showTemplateError({ code: "INVALID_FORM_VALUE", prefix: "Invalid form value", message: problems.map((p) => `${p.key ?? "templateInputs"}: ${p.message}`).join("; "), pointer: problems[0].pointer, problems, operationPath: [OP] });
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
    resolution = await templateResolver.resolve(makeJob(entry.template, values, draft), options);
    if (draft) {
      // The same resolution with draft mode off: what is not in it exists only because of draft mode.
      baseline = await templateResolver.resolve(makeJob(entry.template, values, false), options).catch(() => null);
    }
  } catch (error) {
    if (page.isCurrent(run)) showTemplateError(error);
    return;
  }
  if (!page.isCurrent(run)) return;
  const elapsed = performance.now() - started;
  hideError();
  state.model = analyse(entry.template, resolution, baseline, draft);
  renderTemplateModel();
  const { vertices, edges } = state.model;
  setStatus("ready", `${vertices.length} vert${vertices.length === 1 ? "ex" : "ices"}, ${edges.length} edge${edges.length === 1 ? "" : "s"} · resolved in ${elapsed < 10 ? elapsed.toFixed(1) : Math.round(elapsed)} ms`);
}

function showTemplateError(error) {
  const info = showError(error, state.model !== null);
  // Pointers are relative to the inputs of the template that failed: only those of our own
  // operation (not of a nested one) point into this form.
  if ((info.operationPath ?? []).length > 1) return;
  if (info.templateId && state.current && info.templateId !== state.current.template.id) return;
  markFields(state.fields, info);
}

function analyse(template, resolution, baseline, draft) {
  const graph = resolution.output;
  const provenance = resolution.provenance ?? {};
  const vertices = graph.vertices;
  const edges = diagram.parseEdges(pkg, graph.edges);
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
  return { template, graph, provenance, vertices, edges, draftOnly, draftOutputs, draft, grouped: false, baselineFailed: draft && !baseline };
}

function renderTemplateModel() {
  const model = state.model;
  const drafts = [...model.draftOutputs].map(([name, outs]) => `${outs.join(", ")} ← ${name}`);
  if (state.selected && !model.vertices.some((v) => v.name === state.selected)) state.selected = null;
  showModel(model, {
    selected: state.selected,
    onSelect: (name) => (state.selected = selectVertex(state.model, state.selected, name)),
    summary: [
      model.draft ? el("span", { class: "pill pill-draft", text: "draft mode" }) : el("span", { class: "pill", text: "draft mode off" }),
      drafts.length ? el("span", {}, "Draft outputs: ", ...drafts.map((d) => el("code", { text: d }))) : null,
      model.draftOnly.size ? el("span", {}, `Draft-only vertices: ${model.draftOnly.size}`) : null,
      model.baselineFailed ? el("span", { class: "warn", text: "The resolution with draft mode off failed; draft-only vertices are not marked." }) : null,
    ],
  });
}

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
  ui.script.value = t.template ?? "";
  state.fields = buildForm(ui.inputs, t);
  resetOutput();
  history.replaceState(null, "", `#${encodeURIComponent(entry.file)}`);
  update();
}

function resetOutput() {
  diagram.clear(ui.diagram, "Resolving…");
  fill(ui.summary);
  ui.json.textContent = "";
  diagram.renderInspector(ui.inspector, null, null);
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
ui.script.addEventListener("input", () => {
  if (!state.current) return;
  state.current.template.template = ui.script.value;
  scheduleUpdate(120);
});

// ---------------------------------------------------------------------------------------------
// Modes

const jobMode = createJobMode(page);
const grokPanel = createGrokPanel(() => import("../../pkg/grok.js"), setStatus);

function switchMode(mode) {
  state.mode = mode;
  page.nextRun(); // drops a resolution of the other mode still under way
  for (const tab of ui.tabs) tab.setAttribute("aria-selected", String(tab.dataset.modeTab === mode));
  ui.templateControls.hidden = mode !== "template";
  ui.jobControls.hidden = mode !== "job";
  ui.grokControls.hidden = mode !== "grok";
  document.documentElement.dataset.mode = mode;
  ui.diagramTitle.textContent = { job: "Resolved pipeline", grok: "Parsed samples" }[mode] ?? "Resolved job graph";
  hideError();
  resetOutput();
  if (mode === "job") jobMode.activate();
  else if (mode === "grok") grokPanel.activate();
  else choose(state.current?.file ?? decodeURIComponent(location.hash.slice(1)));
}

for (const tab of ui.tabs) tab.addEventListener("click", () => tab.dataset.modeTab !== state.mode && switchMode(tab.dataset.modeTab));

try {
  const { catalog, failures } = await loadCatalog();
  if (state.entries.length === 0) throw new Error(failures.join("; ") || "catalog.json lists no templates");
  for (const { file, template } of state.entries) {
    ui.select.append(el("option", { value: file, text: `${template.name} — ${template.id}@${template.version}` }));
  }
  ui.select.disabled = false;
  await jobMode.load(catalog, state.entries.map((e) => e.template));
  for (const tab of ui.tabs) tab.disabled = false;
  if (failures.length) console.warn("Some templates did not load:", failures);
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash.startsWith("job=")) switchMode("job");
  else if (hash === "grok") switchMode("grok");
  else choose(hash);
} catch (error) {
  showFatal("Could not load the templates", error.message);
}
