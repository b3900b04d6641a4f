// Job mode: open a whole job (an example job, or a generated one of 50 operations), edit the
// inputs of any of its template operations, and see the resolved pipeline re-resolved on every
// keystroke, its vertices grouped by the operation that produced them.
//
// Resolution goes through one `createResolver()` of the package: it keeps every template
// execution's result, so a keystroke re-runs the edited operation's script only. After each
// resolution the data panel (data-panel.js) runs the resolved job on sample events. A vertex
// the job writes itself (not made by a template operation) is edited in the stage settings
// form (stage-form.js) when clicked: a reducer's similarity threshold, a grok parser's rules.
import { $, el, fill } from "./dom.js";
import { buildForm, clearFieldErrors, markFields, readInputs } from "./form.js";
import { parseEdges } from "./diagram.js";
import { createDataPanel } from "./data-panel.js";
import { createStageForm } from "./stage-form.js";

const GENERATED = "generated-50";
const LEVELS = ["debug", "info", "warn", "error"];
const TEAMS = ["payments", "search", "growth", "platform"];

/**
 * A job of 50 template operations built from the example templates: 10 lanes of
 * ingest → errors → tag → export, and ingest → alerts → a sink. Every operation has inputs of
 * its own; tag runs in draft mode in lanes 0, 3, 6 and 9, export in lane 1.
 */
export function generatedJob(lanes = 10) {
  const vertices = [];
  const edges = [];
  const op = (name, templateId, templateVersion, templateInputs, draftMode) => {
    const vertex = { type: "template-operation", name, templateId, templateVersion, templateInputs };
    if (draftMode) vertex.draftMode = true;
    vertices.push(vertex);
  };
  for (let k = 0; k < lanes; k++) {
    const p = `lane${k}-`;
    op(`${p}ingest`, "iceberg-source", 1, { table: `lane${k}_logs`, where: `service:svc-${k}` });
    op(`${p}errors`, "severity-filter", 2, { minLevel: LEVELS[k % 4], excludeServices: [`healthcheck-${k}`] });
    op(`${p}alerts`, "severity-filter", 2, { minLevel: "error", excludeServices: [`noisy-${k}`] });
    op(`${p}tag`, "tag-enrich", 1, { tags: { lane: String(k), team: TEAMS[k % 4] }, sampleSize: 10 + k }, k % 3 === 0);
    op(`${p}export`, "vendor-export", 1, { integration: `vendor-${k}`, minLevel: LEVELS[(k + 2) % 4], environment: k % 2 ? "staging" : "production" }, k === 1);
    vertices.push({ type: "logs-sync-sink", name: `${p}alerts-out` });
    edges.push(`${p}ingest -> ${p}errors`, `${p}errors -> ${p}tag`, `${p}tag -> ${p}export`, `${p}ingest -> ${p}alerts`, `${p}alerts -> ${p}alerts-out`);
  }
  return { name: "generated-50", execution: "ASYNCHRONOUS", processing: "STREAMING", jobGraph: { vertices, edges } };
}

export function createJobMode(page) {
  const { pkg, ui } = page;
  const dom = {
    select: $("#job"),
    meta: $("#job-meta"),
    operations: $("#operations"),
    form: $("#job-form"),
    inputs: $("#op-inputs"),
    opDraft: $("#op-draft"),
    draft: $("#job-draft"),
    user: $("#job-user"),
  };
  const resolver = pkg.createResolver();
  const state = {
    /** `{id, label, document}` of every job offered. */
    jobs: [],
    templates: [],
    /** The open job: a copy that the form edits in place. */
    document: null,
    /** Its template operations, in job order (the vertex objects of `document`). */
    operations: [],
    operation: null,
    fields: [],
    model: null,
    selected: null,
    lastError: null,
    renders: 0,
    /** The last resolution of the drafted operations alone, with draft mode off: `{key, output}`. */
    baseline: null,
  };

  const graphOf = (document) => document.jobGraph ?? document;
  const find = (name) => state.operations.find((o) => o.name === name) ?? null;
  const selectVertex = (name) => {
    state.selected = page.selectVertex(state.model, state.selected, name);
    data.select(state.selected);
    if (state.selected) showStage(state.selected);
  };
  const data = createDataPanel(page, {
    getModel: () => state.model,
    onClose: () => state.selected && selectVertex(state.selected),
    onSelect: (name) => name !== state.selected && selectVertex(name),
  });
  const STAGE_HINT = "Click a stage in the diagram that the job writes itself (not made by a template operation) to edit its settings here: a reducer's similarity threshold, a grok parser's rules.";
  const stageForm = createStageForm($("#stage-inputs"), { onChange: (at) => update(at) });

  /** Shows the settings of vertex `name` when the job writes it itself; else says where it comes from. */
  function showStage(name) {
    const vertices = graphOf(state.document).vertices;
    const index = vertices.findIndex((v) => v.name === name && v.type !== "template-operation");
    if (index >= 0) {
      stageForm.show(vertices[index], index);
      return;
    }
    const op = state.model?.provenance[name]?.operationPath[0];
    if (op) stageForm.clear(`${name} is made by the template operation ${op}: edit its inputs above. ${STAGE_HINT}`);
  }

  async function load(catalog, templates) {
    state.templates = templates;
    for (const file of catalog.jobs ?? []) {
      try {
        const response = await fetch(`../jobs/${file}`);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const document = await response.json();
        state.jobs.push({ id: file.replace(/\.json$/, ""), file, label: document.name ?? file, source: `examples/jobs/${file}`, document });
      } catch (error) {
        console.warn(`../jobs/${file} did not load: ${error.message}`);
      }
    }
    state.jobs.push({ id: GENERATED, label: "Generated: 50 operations in 10 lanes", source: "generated in the page", document: generatedJob() });
    for (const job of state.jobs) dom.select.append(el("option", { value: job.id, text: job.label }));
    dom.select.disabled = false;
    await data.load(catalog);
  }

  /** Shows job mode: the job of the address, else the job open before (with its edits). */
  function activate() {
    const hash = decodeURIComponent(location.hash.slice(1));
    if (!state.document || (hash.startsWith("job=") && hash.slice(4) !== dom.select.value)) {
      open(hash.startsWith("job=") ? hash.slice(4) : state.jobs[0].id);
      return;
    }
    history.replaceState(null, "", `#job=${encodeURIComponent(dom.select.value)}`);
    state.model = null;
    choose(state.operation);
    update(performance.now());
  }

  function open(id) {
    const job = state.jobs.find((j) => j.id === id) ?? state.jobs[0];
    dom.select.value = job.id;
    state.document = structuredClone(job.document);
    state.operations = graphOf(state.document).vertices.filter((v) => v.type === "template-operation");
    state.model = null;
    state.selected = null;
    state.lastError = null;
    const count = graphOf(state.document).vertices.length;
    fill(dom.meta, el("span", { class: "facts-inline" },
      el("code", { text: job.source }),
      ` · ${state.operations.length} template operation${state.operations.length === 1 ? "" : "s"} of ${count} vertices`,
      state.document.processing ? ` · ${state.document.processing}` : ""));
    renderOperations();
    choose(state.operations[0]?.name ?? null);
    stageForm.clear(STAGE_HINT);
    history.replaceState(null, "", `#job=${encodeURIComponent(job.id)}`);
    update(performance.now());
    // A job with a built-in sample of its own (catalog.json's `jobSamples`) runs on it.
    data.openJob(job.file);
  }

  function renderOperations() {
    fill(dom.operations, state.operations.map((o) => el("li", {},
      el("button", {
        type: "button",
        class: ["op", o.name === state.operation && "current", state.lastError?.operationPath?.[0] === o.name && "failed"],
        "data-op": o.name,
        "aria-pressed": String(o.name === state.operation),
        onclick: () => choose(o.name),
      },
        el("span", { class: "op-name", text: o.name }),
        el("span", { class: "op-template", text: `${o.templateId}${o.templateVersion ? `@${o.templateVersion}` : ""}` }),
        o.draftMode === true ? el("span", { class: "op-draft", text: "draft" }) : null))));
  }

  /** Shows the inputs form of one operation. */
  function choose(name) {
    state.operation = name;
    const op = find(name);
    for (const button of dom.operations.querySelectorAll("button.op")) {
      button.classList.toggle("current", button.dataset.op === name);
      button.setAttribute("aria-pressed", String(button.dataset.op === name));
    }
    dom.operations.querySelector(`button.op.current`)?.scrollIntoView({ block: "nearest" });
    if (!op) {
      state.fields = [];
      fill(dom.inputs, el("legend", { text: "Inputs" }), el("p", { class: "empty", text: "This job has no template operations." }));
      dom.opDraft.disabled = true;
      return;
    }
    const template = page.findTemplate(op.templateId, op.templateVersion);
    dom.opDraft.disabled = false;
    dom.opDraft.checked = op.draftMode === true;
    if (!template) {
      state.fields = [];
      fill(dom.inputs, el("legend", { text: `Inputs of ${name}` }), el("p", { class: "empty", text: `Template ${op.templateId} is not in the catalog.` }));
      return;
    }
    state.fields = buildForm(dom.inputs, template, { idPrefix: "op-input-", values: op.templateInputs ?? {}, legend: `Inputs of ${name}` });
    dom.inputs.dataset.operation = name;
    if (state.lastError) markOwnFields(state.lastError);
    if (state.model) draw();
  }

  /** Writes the form into the operation's `templateInputs`; false when a field cannot be read. */
  function applyForm() {
    const op = find(state.operation);
    if (!op) return true;
    clearFieldErrors(dom.inputs);
    const { values, problems } = readInputs(state.fields);
    if (problems.length) {
      showJobError({ code: "INVALID_FORM_VALUE", prefix: "Invalid form value", message: problems.map((p) => `${p.key ?? "templateInputs"}: ${p.message}`).join("; "), pointer: problems[0].pointer, problems, operationPath: [op.name] });
      return false;
    }
    // Keys the schema does not declare (and so the form does not show) stay as they were.
    const declared = new Set(state.fields.map((f) => f.key));
    const kept = declared.has(null) ? {} : Object.fromEntries(Object.entries(op.templateInputs ?? {}).filter(([k]) => !declared.has(k)));
    op.templateInputs = { ...kept, ...values };
    return true;
  }

  async function update(inputAt) {
    const run = page.nextRun();
    const document = state.document;
    const draft = dom.draft.checked;
    const options = { templates: state.templates, provenance: true, limits: { timeoutMs: 500 }, draft };
    const user = dom.user.value.trim();
    if (user) options.user = user;
    page.setStatus("busy", "Resolving…");
    const before = resolver.stats();
    const started = performance.now();
    let resolution;
    let baseline = null;
    // Operations in draft mode, resolved again on their own with draft mode off: what is not
    // in that resolution exists only because of draft mode. The other operations would give
    // the same result in both, so they are left out; with the cache, only an edited draft
    // operation runs again here.
    // That resolution changes only when a drafted operation (or an option) changed: otherwise
    // the last one is reused.
    const drafted = state.operations.filter((o) => draft || o.draftMode === true);
    try {
      resolution = await resolver.resolve(document, options);
      if (drafted.length) {
        const alone = { vertices: drafted.map((o) => ({ ...o, draftMode: false })), edges: [] };
        const aloneOptions = { ...options, draft: false, provenance: false };
        // (The templates are the page's, fixed.)
        const key = JSON.stringify([alone, aloneOptions.user, aloneOptions.limits]);
        if (state.baseline?.key !== key) {
          const output = await resolver.resolve(alone, aloneOptions).then((r) => r.output, () => null);
          state.baseline = { key, output };
        }
        baseline = state.baseline.output && { output: state.baseline.output };
      }
    } catch (error) {
      if (page.isCurrent(run)) showJobError(error);
      return;
    }
    const resolveMs = performance.now() - started;
    const after = resolver.stats();
    if (!page.isCurrent(run)) return;
    state.lastError = null;
    page.hideError();
    for (const button of dom.operations.querySelectorAll("button.op.failed")) button.classList.remove("failed");
    const drawStarted = performance.now();
    state.model = analyse(resolution, baseline, drafted);
    state.model.stats = { ran: after.misses - before.misses, cached: after.hits - before.hits, resolveMs };
    draw();
    // Timing of this keystroke: input event to diagram updated, and to the next frame painted.
    const drawn = performance.now();
    const seq = ++state.renders;
    Object.assign(ui.diagram.dataset, {
      renderSeq: seq,
      resolveMs: resolveMs.toFixed(2),
      drawMs: (drawn - drawStarted).toFixed(2),
      keystrokeMs: (drawn - inputAt).toFixed(2),
      scriptsRun: state.model.stats.ran,
      fromCache: state.model.stats.cached,
    });
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        if (ui.diagram.dataset.renderSeq !== String(seq)) return;
        ui.diagram.dataset.paintMs = (performance.now() - inputAt).toFixed(2);
        ui.diagram.dataset.paintSeq = seq;
      };
      channel.port2.postMessage(null);
    });
    // The run on the sample events, then the counts on the diagram (data-countsMs).
    data.refresh(inputAt);
    const { vertices, edges, stats } = state.model;
    page.setStatus("ready", `${vertices.length} vertices, ${edges.length} edges · resolved in ${resolveMs < 10 ? resolveMs.toFixed(1) : Math.round(resolveMs)} ms · ${stats.ran} script${stats.ran === 1 ? "" : "s"} run, ${stats.cached} from cache`);
  }

  function analyse(resolution, baseline, drafted) {
    const document = resolution.output;
    const graph = graphOf(document);
    const provenance = resolution.provenance ?? {};
    const draftNames = new Set(drafted.map((o) => o.name));
    const draftOnly = new Set();
    if (baseline) {
      const alone = new Set(baseline.output.vertices.map((v) => v.name));
      for (const v of graph.vertices) {
        const op = provenance[v.name]?.operationPath[0];
        if (op !== undefined && draftNames.has(op) && !alone.has(v.name)) draftOnly.add(v.name);
      }
    }
    const draftOutputs = new Map();
    for (const op of drafted) {
      const template = page.findTemplate(op.templateId, op.templateVersion);
      for (const output of template?.draftOutputs ?? []) {
        const name = page.locateVertex(output.vertex, [op.name], provenance);
        if (name) draftOutputs.set(name, [...(draftOutputs.get(name) ?? []), `${op.name}:${output.name}`]);
      }
    }
    // "id@version" of the template behind each operation path.
    const templates = new Map();
    for (const p of Object.values(provenance)) templates.set(p.operationPath.join("\u0000"), `${p.templateId}@${p.templateVersion}`);
    const groupInfo = (path) => ({
      title: path.at(-1),
      subtitle: [templates.get(path.join("\u0000")), path.length === 1 && draftNames.has(path[0]) ? "draft mode" : null].filter(Boolean).join(" · "),
      draft: path.length === 1 && draftNames.has(path[0]),
    });
    return {
      document, graph, provenance, vertices: graph.vertices, edges: parseEdges(pkg, graph.edges), draftOnly, draftOutputs,
      grouped: true, groupInfo, baselineFailed: drafted.length > 0 && !baseline,
    };
  }

  function draw() {
    const model = state.model;
    if (state.selected && !model.vertices.some((v) => v.name === state.selected)) state.selected = null;
    const produced = model.vertices.filter((v) => model.provenance[v.name]).length;
    page.showModel(model, {
      selected: state.selected,
      onSelect: selectVertex,
      counts: data.counts(),
      operation: state.operation,
      onOperation: (name) => find(name) && choose(name),
      summary: [
        el("span", { class: "pill", text: `${state.operations.length} operations` }),
        el("span", {}, `${produced} of ${model.vertices.length} vertices from templates`),
        model.draftOnly.size ? el("span", { class: "pill pill-draft", text: `${model.draftOnly.size} draft only` }) : null,
        model.draftOutputs.size ? el("span", {}, "Draft outputs: ", ...[...model.draftOutputs].map(([name, outs]) => el("code", { text: `${outs.join(", ")} ← ${name}` }))) : null,
        model.baselineFailed ? el("span", { class: "warn", text: "The resolution with draft mode off failed; draft-only vertices are not marked." }) : null,
        model.stats ? el("span", { class: "cache", text: `last resolution: ${model.stats.ran} script${model.stats.ran === 1 ? "" : "s"} run, ${model.stats.cached} from cache, ${model.stats.resolveMs.toFixed(1)} ms` }) : null,
      ],
    });
    data.select(state.selected);
  }

  function showJobError(error) {
    const info = page.showError(error, state.model !== null);
    state.lastError = info;
    stageForm.markError(info);
    const op = info.operationPath?.[0];
    for (const button of dom.operations.querySelectorAll("button.op")) button.classList.toggle("failed", button.dataset.op === op);
    markOwnFields(info);
  }

  /** Marks form fields when the error is about the inputs of the operation being edited. */
  function markOwnFields(info) {
    const path = info.operationPath ?? [];
    if (path.length !== 1 || path[0] !== state.operation) return;
    const op = find(state.operation);
    if (info.templateId && op && info.templateId !== op.templateId) return;
    markFields(state.fields, info);
  }

  const zoom = $("#zoom");
  zoom.addEventListener("click", () => {
    const actual = zoom.getAttribute("aria-pressed") !== "true";
    zoom.setAttribute("aria-pressed", String(actual));
    ui.canvas.classList.toggle("actual", actual);
  });
  dom.select.addEventListener("change", () => open(dom.select.value));
  dom.form.addEventListener("submit", (event) => event.preventDefault());
  // Every keystroke resolves at once: with the cache, that is one script.
  dom.form.addEventListener("input", (event) => {
    const at = event.timeStamp || performance.now();
    if (event.target === dom.opDraft) return;
    if (event.target === dom.user || event.target === dom.draft) return void update(at);
    if (applyForm()) update(at);
  });
  dom.opDraft.addEventListener("change", (event) => {
    const op = find(state.operation);
    if (!op) return;
    if (dom.opDraft.checked) op.draftMode = true;
    else delete op.draftMode;
    renderOperations();
    update(event.timeStamp || performance.now());
  });

  // Live mode: a job running on a service, opened with its resolved graph, run on a sample of
  // its events tapped as they pass (`GET /v1/jobs/{id}/tap`). The token stays in this page.
  const live = {
    form: $("#live-form"),
    url: $("#live-url"),
    token: $("#live-token"),
    job: $("#live-job"),
    vertex: $("#live-vertex"),
    status: $("#live-status"),
  };
  live.form.addEventListener("submit", (event) => {
    event.preventDefault();
    openLive().catch((error) => {
      live.status.textContent = String(error.message ?? error);
      live.status.dataset.state = "failed";
    });
  });

  /** Events a tap asks for, and how long it listens (ms). */
  const LIVE_LIMIT = 200;
  const LIVE_WAIT_MS = 15_000;

  async function openLive() {
    const base = live.url.value.trim().replace(/\/+$/, "");
    const id = live.job.value.trim();
    if (!base || !id) throw new Error("Give the service's address and the job's id.");
    const headers = { Authorization: `Bearer ${live.token.value.trim()}` };
    const say = (text, state = "busy") => {
      live.status.textContent = text;
      live.status.dataset.state = state;
    };
    const failure = async (response, what) => {
      let message = `HTTP ${response.status}`;
      try {
        message = (await response.json()).message ?? message;
      } catch {
        // Not JSON: the status says it.
      }
      return new Error(`${what}: ${message}`);
    };
    say("Reading the job…");
    const got = await fetch(`${base}/v1/jobs/${encodeURIComponent(id)}?resolved=true`, { headers });
    if (!got.ok) throw await failure(got, "The job did not load");
    const document = await got.json();
    const entry = { id: `live:${id}`, label: `Live: ${document.name} (version ${document.version}, ${document.state})`, source: `${base}/v1/jobs/${id}`, document };
    state.jobs = state.jobs.filter((j) => !j.id.startsWith("live:"));
    state.jobs.push(entry);
    dom.select.querySelector('option[value^="live:"]')?.remove();
    dom.select.append(el("option", { value: entry.id, text: entry.label }));
    open(entry.id);
    const vertex = live.vertex.value.trim();
    const query = `limit=${LIVE_LIMIT}&waitMs=${LIVE_WAIT_MS}${vertex ? `&vertex=${encodeURIComponent(vertex)}` : ""}`;
    say(`Tapping the running job (up to ${LIVE_LIMIT} events, ${LIVE_WAIT_MS / 1000} s)…`);
    const tap = await fetch(`${base}/v1/jobs/${encodeURIComponent(id)}/tap?${query}`, { headers });
    if (!tap.ok) throw await failure(tap, "The tap failed");
    const text = await tap.text();
    const count = text.split("\n").filter(Boolean).length;
    if (count === 0) {
      say(`No event passed in ${LIVE_WAIT_MS / 1000} s: the job is running, nothing came. Tap again when events flow.`, "done");
      return;
    }
    data.useText(text, `live sample of ${document.name}`);
    say(`${count} live events of ${document.name}: your edits run on them here.`, "done");
  }

  return { load, activate };
}
