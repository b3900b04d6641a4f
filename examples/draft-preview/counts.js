// A run's event counts drawn over the diagram (job mode, data-panel.js): a label on every edge
// with the number of events it carried, `in → out` under every vertex, and vertices the engine
// does not simulate marked (class `not-simulated`, tooltip `not simulated: <type>`).
//
// diagram.js calls `drawCounts` at the end of each rendering (with the last counts, so the
// labels follow the layout) and the data panel calls it again after each run. It draws into the
// diagram's last layer, `g.counts-layer`, and keeps its nodes between calls like diagram.js.
import { svg } from "./dom.js";

const format = (n) => n.toLocaleString("en-US");

/**
 * Counts of a run, as `drawCounts` takes them: `{edges: Map(edge text -> events),
 * vertices: Map(name -> {type, simulated, eventsIn, eventsOut, eventsDropped})}`.
 */
export function countsOf(run) {
  return {
    edges: new Map(run.edges.map((e) => [e.edge, e.events])),
    vertices: new Map(run.vertices.map((v) => [v.name, v])),
  };
}

/** Draws `counts` (or nothing, with `null`) over the diagram last rendered into `svgEl`. */
export function drawCounts(svgEl, counts) {
  const kept = svgEl.kept;
  if (!kept?.overlay || !kept.geometry) return;
  const { boxes, edges } = kept.geometry;
  for (const [key, { node }] of kept.nodes) {
    if (key.startsWith("vertex\u0000")) decorateVertex(node, counts?.vertices.get(key.slice(7)) ?? null);
  }
  const old = kept.countNodes ?? new Map();
  const nodes = new Map();
  const reuse = (key, signature, create) => {
    const entry = old.get(key)?.signature === signature ? old.get(key) : { signature, node: create() };
    nodes.set(key, entry);
    return entry.node;
  };
  const children = [];
  if (counts) {
    for (const [text, at] of edges) {
      const events = counts.edges.get(text);
      if (events === undefined) continue;
      children.push(reuse(`e\u0000${text}`, `${at.x},${at.y},${at.draft},${events}`, () => edgeLabel(text, at, events)));
    }
    for (const [name, box] of boxes) {
      const record = counts.vertices.get(name);
      if (!record) continue;
      const { eventsIn, eventsOut, eventsDropped, simulated } = record;
      children.push(reuse(`v\u0000${name}`, `${box.x},${box.y},${box.w},${box.h},${eventsIn},${eventsOut},${eventsDropped},${simulated}`,
        () => vertexLabel(name, box, record)));
    }
  }
  kept.countNodes = nodes;
  const now = kept.overlay.childNodes;
  if (now.length !== children.length || children.some((child, i) => now[i] !== child)) kept.overlay.replaceChildren(...children);
}

/** A pill centred on the middle of the edge's curve. */
function edgeLabel(text, at, events) {
  const label = format(events);
  const width = Math.max(22, label.length * 6.6 + 12);
  return svg("g", {
    class: ["edge-count", events === 0 && "zero", at.draft && "draft"],
    "data-edge": text,
    "data-events": events,
    transform: `translate(${at.x},${at.y})`,
  },
    svg("title", { text: `${label} event${events === 1 ? "" : "s"}: ${text}` }),
    svg("rect", { x: -width / 2, y: -9, width, height: 18, rx: 9 }),
    svg("text", { x: 0, y: 4, "text-anchor": "middle", text: label }));
}

/** `in → out` on the bottom edge of the vertex's box, at the right. */
function vertexLabel(name, box, { eventsIn, eventsOut, eventsDropped, simulated }) {
  const label = `${format(eventsIn)} → ${format(eventsOut)}`;
  const width = label.length * 6.3 + 16;
  return svg("g", {
    class: ["vertex-count", !simulated && "not-simulated", eventsDropped > 0 && "dropping"],
    "data-name": name,
    "data-in": eventsIn,
    "data-out": eventsOut,
    "data-dropped": eventsDropped,
    transform: `translate(${box.x + box.w - width - 10},${box.y + box.h - 5})`,
    "aria-hidden": "true",
  },
    svg("rect", { width, height: 18, rx: 9 }),
    svg("text", { x: width / 2, y: 12.5, "text-anchor": "middle", text: label }));
}

/** The vertex's class, tooltip and label: simulated or not, and its counts. */
function decorateVertex(node, record) {
  const title = node.querySelector(":scope > title");
  if (!title) return;
  node.baseTitle ??= title.textContent;
  node.baseLabel ??= node.getAttribute("aria-label") ?? "";
  const notSimulated = record !== null && record.simulated === false;
  const counts = record ? `${format(record.eventsIn)} in → ${format(record.eventsOut)} out${record.eventsDropped ? `, ${format(record.eventsDropped)} dropped` : ""}` : null;
  const text = [notSimulated ? `not simulated: ${record.type}` : null, node.baseTitle, counts].filter(Boolean).join("\n");
  if (title.textContent !== text) title.textContent = text;
  const label = [node.baseLabel, notSimulated ? "not simulated" : null, counts].filter(Boolean).join(", ");
  if (node.getAttribute("aria-label") !== label) node.setAttribute("aria-label", label);
  node.classList.toggle("not-simulated", notSimulated);
  if (record) node.dataset.simulated = String(record.simulated);
  else delete node.dataset.simulated;
}
