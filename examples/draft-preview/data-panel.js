// Job mode's data: sample events (a built-in set, pasted or edited text, or a dropped file: JSON,
// NDJSON or plain text lines, samples.js), the job run on them after every resolution with the
// package's `runJob`, the counts drawn on the diagram (counts.js), the reduction of every stage
// and the LEFT / RIGHT view (stages.js), and a side panel with the events of the clicked vertex
// (and a reducer's patterns, patterns.js).
//
// The events are read once, when they change, into the package's `EventSet` (`loadEvents`):
// a keystroke re-runs the stages on them without reading 1 000 events again. Runs are
// incremental: the stages upstream of the one being edited are not run again (a keystroke in a
// reducer does not parse the lines with grok again); the record is a whole run's.
//
// The run takes the graph job mode has just resolved (its `createResolver()`, with the page's
// limits): it has no template operation left, so `runJob` runs no script, only the stages, and
// the counts are those of the diagram on screen.
import { $, el, fill } from "./dom.js";
import { countsOf, drawCounts } from "./counts.js";
import { MAX_SAMPLE_BYTES, formatName, sampleOf } from "./samples.js";
import { PATTERN_TYPES, patternsPanel, summariesOf } from "./patterns.js";
import { createStages, reduction, reductionText } from "./stages.js";

const SAMPLES = "../events/";
const DEFAULT_SAMPLE = "sample.ndjson";
const SAMPLE_LABEL = "built-in sample";
/**
 * Events kept for the side panel (counts are always exact), for the vertex it shows only
 * (`keepVertices`): the others' would be serialized on every run for nothing.
 */
const KEEP = 50;
/** Events kept when looking for a reducer's summaries (they come last, when windows close). */
const KEEP_ALL = 1_000_000;
/** A text this long (characters) is read but not put in the box, which would crawl. */
const MAX_SHOWN_TEXT = 1_000_000;
/** Time limit of one run on the page's thread (10 MB of lines take a while). */
const RUN_TIMEOUT_MS = 10_000;
const LEVELS = new Set(["debug", "info", "warn", "error"]);

const format = (n) => n.toLocaleString("en-US");
const plural = (n, word) => `${format(n)} ${word}${n === 1 ? "" : "s"}`;
const kindOf = (v) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Reads events: a JSON array (text starting with `[`), else NDJSON, one object per line
 * (blank lines skipped). Returns `{events, lines}` (`lines[i]`: the line of event i, NDJSON
 * only); throws an Error whose message names the line.
 */
export function parseEvents(text) {
  const trimmed = text.trim();
  if (trimmed === "") return { events: [], lines: [] };
  if (trimmed.startsWith("[")) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new Error(`${lineOfJsonError(text, error)}not valid JSON (${error.message})`);
    }
    const bad = value.findIndex((e) => !isObject(e));
    if (bad >= 0) throw new Error(`item ${bad + 1} of the array: an event is a JSON object, found ${kindOf(value[bad])}`);
    return { events: value, lines: null };
  }
  const events = [];
  const lines = [];
  const rows = text.split("\n");
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i].trim();
    if (row === "") continue;
    let value;
    try {
      value = JSON.parse(row);
    } catch (error) {
      throw new Error(`line ${i + 1}: not valid JSON (${error.message}); NDJSON is one event (a JSON object) per line`);
    }
    if (!isObject(value)) throw new Error(`line ${i + 1}: an event is a JSON object, found ${kindOf(value)}`);
    events.push(value);
    lines.push(i + 1);
  }
  return { events, lines };
}

/** "line N: " for a JSON.parse error of a whole text, when the engine says where. */
function lineOfJsonError(text, error) {
  const line = /\(line (\d+) column \d+\)/.exec(error.message);
  if (line) return `line ${line[1]}: `;
  const position = /at position (\d+)/.exec(error.message);
  if (!position) return "";
  let n = 1;
  for (let i = 0; i < Number(position[1]) && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return `line ${n}: `;
}

/**
 * The data panel of job mode. `getModel()` is the diagram's model (job-mode.js), `onClose()`
 * deselects the vertex whose events the side panel shows.
 */
export function createDataPanel(page, { getModel, onClose, onSelect }) {
  const { pkg, ui } = page;
  const dom = {
    panel: $("#data-panel"),
    text: $("#events"),
    summary: $("#events-summary"),
    format: $("#events-format"),
    error: $("#events-error"),
    sample: $("#events-sample"),
    runStatus: $("#run-status"),
    side: $("#vertex-data"),
    sideTitle: $("#vertex-data-title"),
    sideType: $("#vertex-data-type"),
    sideBody: $("#vertex-data-body"),
    sideClose: $("#vertex-data-close"),
  };
  const state = {
    /** The events, read into the module (`pkg.loadEvents`); null before the first. */
    set: null,
    /** How many events `set` holds. */
    count: 0,
    source: "",
    /** Increases when the events change. */
    version: 0,
    /** Built-in sample files: their text once fetched, by file name. */
    samples: new Map(),
    /** The built-in sample of each job (catalog.json's `jobSamples`), by job file. */
    jobSamples: {},
    /** The built-in sample shown, or null when the events were pasted, typed or dropped. */
    builtIn: null,
    /** The built-in sample of the open job. */
    jobSample: DEFAULT_SAMPLE,
    /** The last run: `{key, run, counts, error, ms, events}`. */
    last: null,
    /** Increases on each refresh; a refresh that is no longer the last one drops its result. */
    seq: 0,
    runs: 0,
    selected: null,
    sideSignature: null,
  };

  const stages = createStages({ select: (name) => onSelect(name), changed: () => refresh() });

  async function load(catalog = {}) {
    state.jobSamples = catalog.jobSamples ?? {};
    await useSample(DEFAULT_SAMPLE, { run: false });
  }

  /** Fetches a built-in sample (once) and takes it: the box shows it, the job runs on it. */
  async function useSample(file, { run = true } = {}) {
    let text = state.samples.get(file);
    try {
      if (text === undefined) {
        const response = await fetch(SAMPLES + file);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        text = await response.text();
        state.samples.set(file, text);
      }
    } catch (error) {
      showEventsError(`The built-in sample events did not load (${SAMPLES}${file}: ${error.message}); paste some.`);
      dom.sample.disabled = state.samples.size === 0;
      return;
    }
    dom.sample.disabled = false;
    showText(text);
    if (accept(text, file === DEFAULT_SAMPLE ? SAMPLE_LABEL : `${SAMPLE_LABEL} ${file}`, { run })) state.builtIn = file;
  }

  /**
   * A job was opened (its file name, `id.json`): its own built-in sample, when catalog.json
   * names one, replaces a built-in sample shown (never events pasted or dropped).
   */
  async function openJob(file) {
    state.jobSample = state.jobSamples[file] ?? DEFAULT_SAMPLE;
    if (state.builtIn !== null && state.builtIn !== state.jobSample) await useSample(state.jobSample);
  }

  /** Puts `text` in the box, unless it is too long to edit there (then a note says so). */
  function showText(text) {
    const long = text.length > MAX_SHOWN_TEXT;
    dom.text.value = long ? "" : text;
    dom.text.placeholder = long ? `${format(text.length)} characters read, too many to edit here: paste or drop other events to replace them.` : "Paste NDJSON (one event per line), a JSON array or plain log lines, or drop a file here";
  }

  /** Takes new events from `text`; on an error, shows it and keeps the previous events. */
  function accept(text, source, { run = true } = {}) {
    let set;
    let sample;
    try {
      sample = sampleOf(text);
      set = readEvents(sample.events);
    } catch (error) {
      showEventsError(String(error.message ?? error));
      return false;
    }
    state.builtIn = null;
    // A run still in flight on the old set fails and is dropped (`refresh` keeps the last one only).
    state.set?.free();
    state.set = set;
    state.count = set.length;
    // How many sets were read (tests check that typing in a query reads none).
    dom.panel.dataset.eventSets = String(Number(dom.panel.dataset.eventSets ?? 0) + 1);
    state.source = source;
    state.version++;
    dom.error.hidden = true;
    dom.text.classList.remove("invalid");
    dom.text.removeAttribute("aria-invalid");
    dom.summary.textContent = `${plural(state.count, "event")} · ${source}`;
    dom.format.textContent = formatName(sample.format);
    dom.panel.dataset.format = sample.format;
    if (run) refresh(performance.now());
    return true;
  }

  /**
   * The events of `text`, read by the package as the run reads them (an `EventSet`); an error
   * names the line (NDJSON) or the item of the array.
   */
  function readEvents(text) {
    try {
      return pkg.loadEvents(text);
    } catch (error) {
      if (error?.code !== "INVALID_EVENTS") throw error;
      const place = /^Invalid events: (line|event) (\d+): /.exec(error.message);
      // Text that is not JSON: the page's own reading says it as the browser's JSON.parse does.
      let own = null;
      try {
        parseEvents(text);
      } catch (syntax) {
        own = syntax.message;
      }
      if (own && (!place || own.startsWith(`line ${place[2]}:`))) throw new Error(own);
      if (!place) throw error;
      const rest = error.message.slice(place[0].length);
      throw new Error(place[1] === "line" ? `line ${place[2]}: ${rest}` : `item ${place[2]} of the array: ${rest}`);
    }
  }

  function showEventsError(message) {
    dom.error.textContent = `${message[0].toUpperCase()}${message.slice(1)}. Keeping the previous ${plural(state.count, "event")}.`;
    dom.error.hidden = false;
    dom.text.classList.add("invalid");
    dom.text.setAttribute("aria-invalid", "true");
    dom.summary.textContent = `${plural(state.count, "event")} · ${state.source || "none yet"} (the text below has an error)`;
  }

  /** The counts of the last run, for a diagram being drawn (null when it failed). */
  const counts = () => state.last?.counts ?? null;

  /**
   * Runs the job of the diagram on the events (unless neither changed since the last run),
   * then draws the counts. `inputAt`: the input event that led here, for the timing.
   */
  async function refresh(inputAt = performance.now()) {
    const model = getModel();
    if (!model || document.documentElement.dataset.mode !== "job") return;
    const seq = ++state.seq;
    const renderSeq = ui.diagram.dataset.renderSeq;
    const keepVertices = [...new Set([state.selected, ...stages.kept()].filter(Boolean))];
    const key = `${state.version}\u0000${keepVertices.join("\u0000")}\u0000${JSON.stringify(model.graph)}`;
    const started = performance.now();
    if (state.last?.key !== key) {
      const next = { key, run: null, counts: null, error: null, events: state.count, graph: model.graph, summaries: new Map() };
      try {
        const options = { keep: KEEP, keepVertices, keepSinks: false, runTimeoutMs: RUN_TIMEOUT_MS };
        next.run = state.set
          ? await pkg.runJob(model.graph, state.set, { ...options, incremental: true })
          : await pkg.runJob(model.graph, [], options);
        next.counts = countsOf(next.run);
      } catch (error) {
        next.error = error;
      }
      if (seq !== state.seq) return;
      next.ms = performance.now() - started;
      state.last = next;
    }
    if (getModel() !== model || document.documentElement.dataset.mode !== "job") return;
    drawCounts(ui.diagram, state.last.counts);
    const drawn = performance.now();
    const runSeq = ++state.runs;
    Object.assign(ui.diagram.dataset, {
      countsSeq: renderSeq,
      runSeq,
      runMs: (drawn - started).toFixed(2),
      runJobMs: state.last.ms.toFixed(2),
      countsMs: (drawn - inputAt).toFixed(2),
    });
    showRunStatus();
    stages.render(state.last.run, model.graph);
    renderSide();
    // Counts and stage outputs (the status line, the side panel's events) all updated.
    ui.diagram.dataset.outputsMs = (performance.now() - inputAt).toFixed(2);
    // And to the next frame painted (with the side panel).
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        if (ui.diagram.dataset.runSeq !== String(runSeq)) return;
        ui.diagram.dataset.countsPaintMs = (performance.now() - inputAt).toFixed(2);
        ui.diagram.dataset.countsPaintSeq = runSeq;
      };
      channel.port2.postMessage(null);
    });
  }

  function showRunStatus() {
    const { run, error, ms, events } = state.last;
    dom.runStatus.classList.toggle("failed", Boolean(error));
    if (error) {
      fill(dom.runStatus,
        el("span", { class: "code", text: error.code ?? "ERROR" }),
        el("strong", { text: "The run failed: " }), String(error.message ?? error).split("\n")[0],
        error.caret ? el("pre", { class: "snippet", text: error.caret }) : null);
      return;
    }
    // The run leaves the sinks' events out (`keepSinks: false`): their counts are the records'.
    const reached = (name) => run.vertices.find((v) => v.name === name)?.eventsIn ?? 0;
    const sinks = Object.keys(run.sinks).map((name) => el("span", { class: "sink" }, el("code", { text: name }), ` ${format(reached(name))}`));
    const patterns = run.vertices.filter((v) => v.patterns?.length).map((v) => el("span", { class: "sink" }, el("code", { text: v.name }), ` ${plural(v.patterns.length, "pattern")}`));
    fill(dom.runStatus,
      el("strong", { text: `Ran on ${plural(events, "event")}` }), ` in ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`,
      sinks.length ? el("span", { class: "sinks" }, " · reached ", sinks) : null,
      patterns.length ? el("span", { class: "sinks" }, " · ", patterns) : null,
      el("span", { class: "hint-inline", text: " · click a vertex for its events" }));
  }

  /**
   * Shows the events of vertex `name` in the side panel (null closes it): the run keeps the
   * events of the selected vertex only, so another vertex runs the job again (a few ms). The
   * diagram calls this on every redraw with the same vertex: that only re-renders the panel.
   */
  function select(name) {
    const changed = (name ?? null) !== state.selected;
    state.selected = name ?? null;
    if (changed && state.selected && getModel() && document.documentElement.dataset.mode === "job") refresh();
    else renderSide();
  }

  function renderSide() {
    const name = state.selected;
    dom.side.hidden = !name;
    if (!name) {
      state.sideSignature = null;
      return;
    }
    const record = state.last?.run?.vertices.find((v) => v.name === name) ?? null;
    const signature = JSON.stringify([name, record ?? state.last?.error?.message ?? "no run"]);
    if (signature === state.sideSignature) return;
    state.sideSignature = signature;
    dom.side.dataset.name = name;
    dom.sideTitle.textContent = name;
    const vertex = getModel()?.vertices.find((v) => v.name === name);
    dom.sideType.textContent = vertex?.type ?? "";
    if (!record) {
      fill(dom.sideBody, el("p", { class: "empty", text: state.last?.error ? "No events: the run failed (see under the diagram)." : "No run yet." }));
      return;
    }
    const dropped = record.dropped ?? [];
    const patterns = PATTERN_TYPES.has(record.type) ? patternsPanel(record, (id) => findSummary(state.last, name, id)) : null;
    if (patterns) dom.side.dataset.patterns = String(patterns.count);
    else delete dom.side.dataset.patterns;
    const outList = eventList("Output events", "output", record.output, record.eventsOut);
    const droppedList = record.eventsDropped || dropped.length ? eventList("Dropped events", "dropped", dropped, record.eventsDropped) : null;
    // The Out and Dropped tiles jump to their lists.
    const tile = (label, kind, count, list, extra) => el("div", {
      class: [extra, list && "jump"], "data-tile": kind, role: list ? "button" : undefined, tabindex: list ? 0 : undefined,
      title: list ? `Show the ${label.toLowerCase()} events` : undefined,
      onclick: list ? () => list.scrollIntoView({ block: "start" }) : undefined,
      onkeydown: list ? (event) => (event.key === "Enter" || event.key === " ") && (event.preventDefault(), list.scrollIntoView({ block: "start" })) : undefined,
    }, el("dt", { text: label }), el("dd", { "data-count": kind, text: format(count) }));
    fill(dom.sideBody,
      el("dl", { class: "run-counts" },
        tile("In", "in", record.eventsIn, null),
        tile("Out", "out", record.eventsOut, outList),
        tile("Dropped", "dropped", record.eventsDropped, droppedList, record.eventsDropped ? "dropping" : null)),
      el("p", { class: "side-reduction", "data-reduction": reduction(record.eventsIn, record.eventsOut)?.toFixed(1) ?? "" },
        `${format(record.eventsIn)} → ${format(record.eventsOut)}: `, el("strong", { text: reductionText(reduction(record.eventsIn, record.eventsOut)) })),
      record.simulated ? null : el("p", { class: "not-simulated-note", text: `Not simulated: ${record.type} passes every event through unchanged.` }),
      (record.notes ?? []).filter((n) => record.simulated || !n.startsWith("not simulated")).map((n) => el("p", { class: "run-note", text: n })),
      patterns?.node,
      outList,
      droppedList);
  }

  /**
   * The summary event of pattern `id` of reducer `name` in the run `last` (null when it sent
   * none): the reducer's events are run again once, all kept (incrementally: the stages before
   * it are not run again).
   */
  async function findSummary(last, name, id) {
    if (!last.summaries.has(name)) {
      const run = pkg.runJob(last.graph, state.set ?? [], { keep: KEEP_ALL, keepVertices: [name], keepSinks: false, runTimeoutMs: RUN_TIMEOUT_MS, incremental: Boolean(state.set) });
      last.summaries.set(name, run.then((r) => summariesOf(r.vertices.find((v) => v.name === name)?.output ?? [])));
    }
    return (await last.summaries.get(name)).get(id) ?? null;
  }

  function eventList(title, kind, kept, total) {
    const shown = kept.length < total ? `first ${format(kept.length)} of ${format(total)}` : format(total);
    return el("section", { class: ["event-list", kind], "data-list": kind },
      el("h3", {}, title, " ", el("span", { class: "count", text: shown })),
      kept.length ? el("ol", { class: "events" }, kept.map(eventItem)) : el("p", { class: "empty", text: "None." }));
  }

  dom.sideClose.addEventListener("click", () => onClose());
  dom.sample.addEventListener("click", () => useSample(state.jobSample));
  let timer = 0;
  dom.text.addEventListener("input", (event) => {
    clearTimeout(timer);
    const source = event.inputType === "insertFromPaste" ? "pasted" : "edited";
    // A paste is taken at once; typing waits for a pause.
    timer = setTimeout(() => accept(dom.text.value, source), source === "pasted" ? 0 : 150);
  });
  dom.panel.addEventListener("dragover", (event) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    dom.panel.classList.add("dragging");
  });
  dom.panel.addEventListener("dragleave", (event) => {
    if (!dom.panel.contains(event.relatedTarget)) dom.panel.classList.remove("dragging");
  });
  dom.panel.addEventListener("drop", async (event) => {
    event.preventDefault();
    dom.panel.classList.remove("dragging");
    const file = event.dataTransfer.files?.[0];
    if (file && file.size > MAX_SAMPLE_BYTES) {
      showEventsError(`file ${file.name}: ${(file.size / 1024 / 1024).toFixed(1)} MB, the preview reads samples of 10 MB at most`);
      return;
    }
    const text = file ? await file.text() : event.dataTransfer.getData("text/plain");
    if (!text && !file) return;
    showText(text);
    accept(text, file ? `file ${file.name}` : "dropped text");
  });

  /** Takes events from elsewhere (a running job's live sample): the box shows them, the job runs on them. */
  function useText(text, source) {
    showText(text);
    return accept(text, source);
  }

  return { load, openJob, refresh, counts, select, useText };
}

/** One event: id, time, level, message, tags (added ones green, removed ones struck through). */
function eventItem({ event, change, droppedBy }) {
  const tags = isObject(event.tags) ? event.tags : {};
  const added = change?.added ?? {};
  const removed = change?.removed ?? {};
  const chips = [];
  for (const [key, values] of Object.entries(tags)) {
    if (!values.length) chips.push(el("li", { class: "tag", text: key }));
    for (const value of values) {
      const isAdded = added[key]?.includes(value);
      chips.push(isAdded
        ? el("li", { class: "tag added", title: "added here" }, el("ins", { text: `${key}:${value}` }))
        : el("li", { class: "tag", text: `${key}:${value}` }));
    }
  }
  for (const [key, values] of Object.entries(removed)) {
    for (const value of values.length ? values : [""]) {
      chips.push(el("li", { class: "tag removed", title: "removed here" }, el("del", { text: value === "" ? key : `${key}:${value}` })));
    }
  }
  const level = tags.level?.[0];
  const attributes = isObject(event.attributes) ? flatten(event.attributes).slice(0, 6) : [];
  return el("li", { class: ["event", droppedBy && "is-dropped"], "data-id": event.id },
    el("div", { class: "event-head" },
      event.id !== undefined ? el("code", { class: "event-id", text: String(event.id) }) : null,
      timeOf(event.eventTimestamp),
      level ? el("span", { class: ["level", LEVELS.has(level) && `level-${level}`], text: level }) : null),
    event.message ? el("p", { class: "event-message", text: event.message }) : null,
    chips.length ? el("ul", { class: "tags", "aria-label": "tags" }, chips) : null,
    attributes.length ? el("p", { class: "event-attributes", text: attributes.join(" ") }) : null,
    droppedBy ? el("p", { class: "dropped-by" }, "dropped by ", el("code", { text: droppedBy })) : null);
}

function timeOf(timestamp) {
  if (timestamp === undefined) return null;
  const text = typeof timestamp === "number" ? new Date(timestamp).toISOString() : String(timestamp);
  const time = /T(\d\d:\d\d:\d\d(?:\.\d+)?)/.exec(text)?.[1] ?? text;
  return el("time", { class: "event-time", datetime: text, title: text, text: time });
}

/** `@a.b:value` pairs of an attributes object, as a query would name them. */
function flatten(value, prefix = "", out = []) {
  for (const [key, inner] of Object.entries(value)) {
    if (isObject(inner)) flatten(inner, `${prefix}${key}.`, out);
    else out.push(`@${prefix}${key}:${typeof inner === "string" ? inner : JSON.stringify(inner)}`);
  }
  return out;
}
