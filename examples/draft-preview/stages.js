// Under the diagram in job mode (data-panel.js calls it after every run):
// - the reduction of every stage: events in → out and the share it removed (`#stages`);
// - a LEFT / RIGHT view of two stages (`#compare`): the first events each sent on, side by
//   side, and the JSON diff of one event (by `id`) from the left stage to the right one. An
//   event the right stage did not send on (dropped, held by a reducer) says so.
import { $, el, fill, truncate } from "./dom.js";

const format = (n) => n.toLocaleString("en-US");

/** `in → out` as a reduction: the share of the input that did not go on, `null` without input. */
export function reduction(eventsIn, eventsOut) {
  if (!eventsIn) return null;
  return (100 * (eventsIn - eventsOut)) / eventsIn;
}

/** "−27.3 %" (fewer out), "+5.0 %" (more out: a source, a sink passing on), "0 %". */
export function reductionText(share) {
  if (share === null) return "—";
  if (share === 0) return "0 %";
  return `${share > 0 ? "−" : "+"}${Math.abs(share).toFixed(1)} %`;
}

/**
 * The stages table and the compare view. `select(name)` opens a vertex's side panel;
 * `changed()` asks the data panel to run again (the compare view's stages changed: their
 * events must be kept).
 */
export function createStages({ select, changed }) {
  const dom = {
    table: $("#stages"),
    compare: $("#compare"),
    left: $("#compare-left"),
    right: $("#compare-right"),
    lists: $("#compare-lists"),
    diff: $("#event-diff"),
  };
  const state = { left: null, right: null, eventId: null, run: null, names: [] };

  /** The stages whose events the run must keep for the compare view (none while it is closed). */
  function kept() {
    return dom.compare.open ? [state.left, state.right].filter(Boolean) : [];
  }

  /** Draws the table and, when open, the compare view, for `run` (null: none yet or failed). */
  function render(run, graph) {
    state.run = run;
    renderTable(run, graph);
    const names = (graph?.vertices ?? []).map((v) => v.name);
    if (names.join("\u0000") !== state.names.join("\u0000")) {
      state.names = names;
      // The first vertex and the last one that is not a sink, until chosen otherwise.
      if (!names.includes(state.left)) state.left = names[0] ?? null;
      if (!names.includes(state.right)) state.right = names.findLast((n, i) => i > 0 && !graph.vertices[i].type.endsWith("-sink")) ?? names.at(-1) ?? null;
      for (const [select, value] of [[dom.left, state.left], [dom.right, state.right]]) {
        fill(select, names.map((n) => el("option", { value: n, text: n })));
        select.value = value ?? "";
      }
    }
    if (dom.compare.open) renderCompare();
  }

  function renderTable(run, graph) {
    if (!run) {
      fill(dom.table, el("p", { class: "empty", text: "No run: the reduction of each stage shows after a run." }));
      return;
    }
    const types = new Map((graph?.vertices ?? []).map((v) => [v.name, v.type]));
    const rows = run.vertices.map((v) => {
      const share = reduction(v.eventsIn, v.eventsOut);
      return el("tr", { "data-stage": v.name, "data-in": v.eventsIn, "data-out": v.eventsOut, class: [share > 0 && "reducing", !v.simulated && "not-simulated"] },
        el("th", { scope: "row" }, el("button", { type: "button", class: "link", onclick: () => select(v.name), text: v.name })),
        el("td", { class: "stage-type", text: types.get(v.name) ?? v.type }),
        el("td", { class: "num", text: format(v.eventsIn) }),
        el("td", { class: "num", text: format(v.eventsOut) }),
        el("td", { class: "num reduction", "data-reduction": share === null ? "" : share.toFixed(1) },
          el("span", { class: "reduction-bar", "aria-hidden": "true" }, el("span", { style: `width: ${Math.max(0, Math.min(100, share ?? 0)).toFixed(1)}%` })),
          reductionText(share)));
    });
    fill(dom.table, el("table", { class: "stages-table" },
      el("thead", {}, el("tr", {}, ["Stage", "Type", "In", "Out", "Reduction"].map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, rows)));
  }

  function renderCompare() {
    const run = state.run;
    const record = (name) => run?.vertices.find((v) => v.name === name) ?? null;
    const left = record(state.left);
    const right = record(state.right);
    if (!left || !right) {
      fill(dom.lists, el("p", { class: "empty", text: run ? "Choose two stages." : "No run yet." }));
      fill(dom.diff);
      return;
    }
    const ids = (r) => new Set(r.output.map((k) => k.event.id));
    const rightIds = ids(right);
    if (!state.eventId || !left.output.some((k) => k.event.id === state.eventId)) {
      state.eventId = (left.output.find((k) => rightIds.has(k.event.id)) ?? left.output[0])?.event.id ?? null;
    }
    const side = (kind, r) => el("section", { class: "compare-side", "data-side": kind },
      el("h4", {}, kind === "left" ? "Left " : "Right ", el("code", { text: r.name }), " ", el("span", { class: "count", text: `first ${format(r.output.length)} of ${format(r.eventsOut)} out` })),
      r.output.length
        ? el("ol", { class: "compare-events" }, r.output.map(({ event }) => el("li", {
          class: ["compare-event", event.id === state.eventId && "current"],
          "data-id": event.id,
          tabindex: 0,
          onclick: () => pick(event.id),
          onkeydown: (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), pick(event.id)),
        }, el("code", { text: String(event.id ?? "(no id)") }), " ", truncate(event.message ?? "", 90))))
        : el("p", { class: "empty", text: "None kept." }));
    fill(dom.lists, side("left", left), side("right", right));
    renderDiff(left, right);
  }

  function pick(id) {
    state.eventId = id;
    renderCompare();
  }

  function renderDiff(left, right) {
    const before = left.output.find((k) => k.event.id === state.eventId)?.event;
    if (!before) {
      fill(dom.diff, el("p", { class: "empty", text: "Click an event on the left." }));
      return;
    }
    const after = right.output.find((k) => k.event.id === state.eventId)?.event;
    const head = el("p", { class: "diff-head" }, "Event ", el("code", { text: String(state.eventId) }), " from ", el("code", { text: left.name }), " to ", el("code", { text: right.name }));
    if (!after) {
      const why = right.output.length < right.eventsOut
        ? `not among the first ${format(right.output.length)} events ${right.name} sent on (it may be further, dropped or held in a summary)`
        : `${right.name} did not send it on (dropped, or held by a reducer and counted in a summary)`;
      fill(dom.diff, head, el("p", { class: "diff-missing", "data-missing": "true", text: `Not on the right: ${why}.` }));
      return;
    }
    const rows = jsonDiff(before, after);
    const changed = rows.filter((r) => r.status !== "same").length;
    fill(dom.diff, head,
      el("p", { class: "diff-summary", text: changed ? `${changed} field${changed === 1 ? "" : "s"} differ` : "The same on both sides." }),
      el("table", { class: "diff-table" },
        el("thead", {}, el("tr", {}, ["Field", "Left", "Right"].map((h) => el("th", { scope: "col", text: h })))),
        el("tbody", {}, rows.map((r) => el("tr", { class: `diff-${r.status}`, "data-path": r.path, "data-status": r.status },
          el("th", { scope: "row" }, el("code", { text: r.path })),
          el("td", {}, r.left === undefined ? "" : el("code", { text: r.left })),
          el("td", {}, r.right === undefined ? "" : el("code", { text: r.right })))))));
  }

  dom.compare.addEventListener("toggle", () => {
    if (dom.compare.open) renderCompare();
    changed();
  });
  for (const [select, key] of [[dom.left, "left"], [dom.right, "right"]]) {
    select.addEventListener("change", () => {
      state[key] = select.value;
      changed();
    });
  }

  return { render, kept };
}

/**
 * The difference of two events, leaf by leaf: `[{path, left, right, status}]` in the left
 * event's order, then the paths only the right one has. Objects are walked into (`attributes.
 * http.status`); arrays (tag values) and other values are leaves, shown as JSON.
 */
export function jsonDiff(left, right) {
  const a = flatten(left);
  const b = flatten(right);
  const rows = [];
  for (const [path, value] of a) {
    const other = b.get(path);
    rows.push({ path, left: value, right: other, status: other === undefined ? "removed" : other === value ? "same" : "changed" });
  }
  for (const [path, value] of b) if (!a.has(path)) rows.push({ path, left: undefined, right: value, status: "added" });
  return rows;
}

function flatten(value, prefix = "", out = new Map()) {
  for (const [key, inner] of Object.entries(value ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (inner !== null && typeof inner === "object" && !Array.isArray(inner) && Object.keys(inner).length) flatten(inner, path, out);
    else out.set(path, JSON.stringify(inner));
  }
  return out;
}
