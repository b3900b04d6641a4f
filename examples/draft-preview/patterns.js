// The patterns panel of a `log-reducer` or `pattern-matcher` (side panel, data-panel.js): every
// pattern of the run's record (`patterns`, most frequent first), its text with the mask tokens
// and wildcards marked, its count and share of the stage's events, its partition, and, opened,
// the first messages that made it and, for a reducer, the summary event it sent. Summaries come
// last (when a window closes), beyond the events a keystroke's run keeps: `findSummary` looks
// for one when a pattern is opened.
import { el } from "./dom.js";

const format = (n) => n.toLocaleString("en-US");

/** The vertex types that find patterns. */
export const PATTERN_TYPES = new Set(["log-reducer", "pattern-matcher"]);

/** Patterns listed at most (the record has up to 500; the rest are counted). */
const SHOWN = 100;

/**
 * The items of the last panel, by what they show: a keystroke's run mostly finds the same
 * patterns again, whose items (an opened one too) are moved, not rebuilt.
 */
let items = new Map();

/**
 * The panel for `record` (a VertexRun of a reducer or matcher): `{node, count}`.
 * `findSummary(patternId)` resolves to the summary event of a reducer's pattern, or null.
 */
export function patternsPanel(record, findSummary) {
  const patterns = record.patterns ?? [];
  const reducer = record.type === "log-reducer";
  const shown = patterns.slice(0, SHOWN);
  const total = patterns.reduce((sum, p) => sum + p.count, 0);
  const node = el("section", { class: "patterns", "data-patterns": patterns.length, "aria-label": "Patterns" },
    el("h3", {}, "Patterns ", el("span", { class: "count", text: patterns.length === shown.length ? format(patterns.length) : `first ${format(shown.length)} of ${format(patterns.length)}` })),
    el("p", { class: "hint", text: reducer
      ? `${format(total)} of ${format(record.eventsIn)} events fell into a pattern; each pattern sends its first samples, then one summary per window. Masked values show as tokens, positions that vary as *.`
      : `Every event is forwarded, tagged grepr.patternId; ${format(total)} of ${format(record.eventsIn)} have a pattern.` }),
    patterns.length === 0
      ? el("p", { class: "empty", text: "No pattern: no event had a message to tokenize." })
      : el("ol", { class: "pattern-list" }, reuse(shown, record, reducer ? findSummary : null)));
  return { node, count: patterns.length };
}

function reuse(shown, record, findSummary) {
  const next = new Map();
  const nodes = shown.map((p) => {
    const key = JSON.stringify([record.name, record.eventsIn, p.id, p.count, p.pattern, p.partition ?? "", p.samples, Boolean(findSummary)]);
    const kept = items.get(key);
    // An opened pattern shows its summary of this run (other settings may have changed it).
    kept?.refreshSummary?.();
    const node = kept ?? patternItem(p, record.eventsIn, findSummary);
    next.set(key, node);
    return node;
  });
  items = next;
  return nodes;
}

/** The summary events among kept ones (`KeptEvent`s), by pattern id (the first of each). */
export function summariesOf(kept) {
  const out = new Map();
  for (const { event } of kept) {
    if (!event.tags?.["grepr.messagetype"]?.includes("summary")) continue;
    const id = event.attributes?.grepr?.patternId;
    if (typeof id === "string" && !out.has(id)) out.set(id, event);
  }
  return out;
}

/** One pattern; `findSummary` null for a pattern matcher (which sends no summary). */
function patternItem(pattern, eventsIn, findSummary) {
  const share = eventsIn ? (100 * pattern.count) / eventsIn : 0;
  const item = el("li", { class: "pattern", "data-pattern-id": pattern.id, "data-count": pattern.count },
    el("div", { class: "pattern-head" },
      el("span", { class: "pattern-count", title: `${format(pattern.count)} events, ${share.toFixed(1)} % of the stage's input`, text: format(pattern.count) }),
      el("span", { class: "pattern-bar", "aria-hidden": "true" }, el("span", { style: `width: ${Math.max(1, Math.min(100, share)).toFixed(1)}%` })),
      el("code", { class: "pattern-id", title: "grepr.patternId", text: pattern.id })),
    el("p", { class: "pattern-text" }, tokens(pattern.pattern)),
    pattern.partition ? el("p", { class: "pattern-partition" }, "partition ", el("code", { text: pattern.partition })) : null,
    // Samples and the summary are built when opened: a keystroke redraws every pattern.
    el("details", {
      class: "pattern-more",
      ontoggle: (event) => {
        const details = event.currentTarget;
        if (!details.open || details.childElementCount > 1) return;
        const box = findSummary ? el("div", { class: "pattern-summary-box", "aria-live": "polite" }, el("p", { class: "summary-missing", text: "Looking for its summary…" })) : null;
        details.append(el("ol", { class: "pattern-samples" }, pattern.samples.map((s) => el("li", { text: s }))), box ?? "");
        if (!box) return;
        item.refreshSummary = () => findSummary(pattern.id).then(
          (summary) => box.replaceChildren(summaryOf(summary)),
          (error) => box.replaceChildren(el("p", { class: "summary-missing", text: `The summary could not be found: ${error.message ?? error}` })));
        item.refreshSummary();
      },
    }, el("summary", { text: `${pattern.samples.length} sample${pattern.samples.length === 1 ? "" : "s"}${findSummary ? " and the summary" : ""}` })));
  return item;
}

/** The pattern's text, its `<mask>` tokens and `<*>` wildcards marked. */
export function tokens(text) {
  return text.split(/(<[a-z]{1,50}>|<\*>)/).filter((part) => part !== "").map((part) => {
    if (part === "<*>") return el("span", { class: "token wildcard", title: "varies between the events", text: "*" });
    const mask = /^<([a-z]+)>$/.exec(part);
    return mask ? el("span", { class: "token mask", "data-mask": mask[1], title: `masked: ${mask[1]}`, text: mask[1] }) : part;
  });
}

function summaryOf(event) {
  if (!event) {
    return el("p", { class: "summary-missing", "data-summary": "none", text: "No summary: every event of this pattern in each window was sent on as a sample." });
  }
  const grepr = event.attributes?.grepr ?? {};
  const time = (ms) => (typeof ms === "number" ? new Date(ms).toISOString().replace("T", " ").replace("Z", "") : "?");
  return el("div", { class: "pattern-summary", "data-summary-id": event.id },
    el("p", { class: "summary-message", text: event.message ?? "(no message)" }),
    el("p", { class: "summary-facts", text: `repeatCount ${grepr.repeatCount ?? "?"} · ${time(grepr.firstTimeTimestamp)} → ${time(grepr.lastTimeTimestamp)}` }),
    el("details", { class: "summary-json" }, el("summary", { text: "The summary event" }), el("pre", { text: JSON.stringify(event, null, 2) })));
}
