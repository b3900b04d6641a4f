// The diagram of a resolved graph: an SVG of vertex boxes and edge arrows, laid out in layers
// from left to right. In job mode the vertices are grouped in frames by the template operation
// that produced them (provenance `operationPath`), nested operations in nested frames; each
// frame is laid out as a unit, so frames never overlap.
import { el, fill, pretty, svg, truncate } from "./dom.js";
import { drawCounts } from "./counts.js";

const NODE_H = 68;
const PAD = 28;
const CHAR = { name: 7.9, type: 6.6, detail: 6.7, group: 7.4 };
/** Frame padding: sides, the label band on top, bottom. */
const FRAME = { side: 14, head: 30, foot: 14 };

/**
 * Draws `model` into `svgEl`. `model`: `{vertices, edges: [{text, from, fromPort, to, toPort}],
 * provenance, draftOnly: Set, draftOutputs: Map(name -> [output]), grouped, groupInfo?(path)}`.
 * `view`: `{selected, onSelect(name), operation, onOperation(name), counts}` (`counts`: a run's
 * event counts, drawn over the diagram by counts.js). Returns the box of every vertex by name.
 */
export function render(svgEl, model, view = {}) {
  const { vertices, edges, draftOnly, draftOutputs, provenance, grouped } = model;
  const isDraft = (name) => draftOnly.has(name) || draftOutputs.has(name);
  const labelOf = (v) => (grouped ? provenance[v.name]?.originalName ?? v.name : v.name);
  const widest = Math.max(0, ...vertices.map((v) => Math.max(labelOf(v).length * CHAR.name, v.type.length * CHAR.type)));
  const width = grouped ? Math.round(Math.min(260, Math.max(150, widest + 36))) : Math.round(Math.min(340, Math.max(190, widest + 36)));
  const gaps = grouped ? { col: 60, row: 18, stack: true } : { col: 120, row: 26, stack: false };

  const { root, leafOf } = tree(vertices, grouped ? (v) => provenance[v.name]?.operationPath ?? [] : () => []);
  localEdges(edges, leafOf);
  measure(root, width, gaps, model.groupInfo);
  const boxes = new Map();
  const frames = [];
  place(root, PAD, PAD, boxes, frames);
  const totalWidth = root.w + PAD * 2;
  const totalHeight = root.h + PAD * 2;

  // Elements are kept between renderings and reused when what they show is the same (a
  // keystroke changes a vertex or two of a hundred): creating them is most of a rendering.
  const kept = (svgEl.kept ??= { defs: null, nodes: new Map() });
  const nodes = new Map();
  const reuse = (key, signature, create) => {
    const old = kept.nodes.get(key);
    const entry = old && old.signature === signature ? old : { signature, node: create() };
    nodes.set(key, entry);
    return entry.node;
  };
  kept.defs ??= svg("defs", {},
    svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" })),
    svg("marker", { id: "arrow-draft", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead draft" })));

  const frameNodes = [];
  for (const f of frames) {
    const info = model.groupInfo?.(f.path) ?? {};
    const operation = f.path[0];
    const current = view.operation === operation && f.path.length === 1;
    const signature = JSON.stringify([f, info, current, Boolean(view.onOperation)]);
    frameNodes.push(reuse(`frame\u0000${f.path.join("\u0000")}`, signature, () => svg("g", {
      class: ["group", `depth-${Math.min(f.path.length, 3)}`, info.draft && "draft", current && "current"],
      "data-operation": operation,
      "data-path": f.path.join(" › "),
      transform: `translate(${f.x},${f.y})`,
    },
      svg("title", { text: `Operation ${f.path.join(" › ")}${info.subtitle ? ` (${info.subtitle})` : ""}${view.onOperation ? "\nClick to edit its inputs." : ""}` }),
      svg("rect", { class: "frame", width: f.w, height: f.h, rx: 12 }),
      svg("g", { class: "label", tabindex: view.onOperation && f.path.length === 1 ? 0 : undefined, role: view.onOperation ? "button" : undefined,
        "aria-label": view.onOperation ? `Edit operation ${operation}` : undefined },
        svg("text", { class: "group-name", x: 12, y: 19, text: truncate(info.title ?? f.path.at(-1), Math.floor((f.w - 24) / CHAR.group)) }),
        info.subtitle ? svg("text", { class: "group-template", x: 12 + Math.min(f.w - 24, (info.title ?? f.path.at(-1)).length * CHAR.group) + 8, y: 19,
          text: truncate(info.subtitle, Math.max(0, Math.floor((f.w - 32 - (info.title ?? f.path.at(-1)).length * CHAR.group) / 6.2))) }) : null))));
  }

  const edgeNodes = [];
  /** Where each edge's count label goes (the middle of its curve), by edge text. */
  const edgeMiddles = new Map();
  for (const e of edges) {
    const a = boxes.get(e.from);
    const b = boxes.get(e.to);
    if (!a || !b) continue;
    const x1 = a.x + a.w;
    const y1 = a.y + NODE_H / 2;
    const x2 = b.x - 2;
    const y2 = b.y + NODE_H / 2;
    const dx = Math.max(40, Math.abs(x2 - x1) / 2);
    const draft = isDraft(e.from) || isDraft(e.to);
    edgeMiddles.set(e.text, { x: (x1 + x2) / 2, y: (y1 + y2) / 2, draft });
    // Port names sit at the ends of the edge (the tooltip has the whole edge text).
    const room = x2 - x1 - 16;
    const fits = (port) => port && port.length * 6.4 < room / 2;
    const ports = () => [
      fits(e.fromPort) ? svg("text", { class: "port", x: x1 + 6, y: y1 - 6, text: e.fromPort }) : null,
      fits(e.toPort) ? svg("text", { class: "port", x: x2 - 8, y: y2 - 6, "text-anchor": "end", text: e.toPort }) : null,
    ];
    const signature = JSON.stringify([x1, y1, x2, y2, draft, e.fromPort, e.toPort, room]);
    edgeNodes.push(reuse(`edge\u0000${e.text}`, signature, () => svg("g", { class: ["edge", draft && "draft"], "data-edge": e.text },
      svg("title", { text: e.text }),
      svg("path", { d: `M${x1},${y1} C${x1 + dx},${y1} ${x2 - dx},${y2} ${x2},${y2}`, "marker-end": `url(#${draft ? "arrow-draft" : "arrow"})` }),
      ports())));
  }

  const vertexNodes = [];
  for (const v of vertices) {
    const box = boxes.get(v.name);
    const outputs = draftOutputs.get(v.name);
    const draft = isDraft(v.name);
    const detail = detailOf(v);
    const badge = outputs ? `draft output: ${outputs.join(", ")}` : draftOnly.has(v.name) ? "draft only" : null;
    const badgeWidth = badge ? badge.length * 6.1 + 16 : 0;
    const maxChars = (px) => Math.floor((width - 28) / px);
    const origin = provenance[v.name];
    const label = labelOf(v);
    const signature = JSON.stringify([v, label, box, width, origin, badge, draft, view.selected === v.name]);
    vertexNodes.push(reuse(`vertex\u0000${v.name}`, signature, () => svg("g", {
      class: ["vertex", draft && "draft", view.selected === v.name && "selected"],
      "data-name": v.name,
      "data-type": v.type,
      "data-operation": origin?.operationPath[0],
      transform: `translate(${box.x},${box.y})`,
      tabindex: 0,
      role: "button",
      "aria-label": `${v.name}, ${v.type}${badge ? `, ${badge}` : ""}`,
    },
      svg("title", { text: `${v.name} (${v.type})${origin ? `\nfrom ${origin.templateId}@${origin.templateVersion}, ${origin.operationPath.join(" › ")} › ${origin.originalName}` : ""}` }),
      svg("rect", { class: "box", width, height: NODE_H, rx: 10 }),
      svg("rect", { class: "stripe", x: 0, y: 10, width: 4, height: NODE_H - 20, rx: 2 }),
      svg("text", { class: "name", x: 16, y: 24, text: truncate(label, maxChars(CHAR.name)) }),
      svg("text", { class: "type", x: 16, y: 42, text: truncate(v.type, maxChars(CHAR.type)) }),
      detail ? svg("text", { class: "detail", x: 16, y: 58, text: truncate(detail, maxChars(CHAR.detail)) }) : null,
      badge ? svg("g", { class: "badge", transform: `translate(${width - badgeWidth - 10},-9)` },
        svg("rect", { width: badgeWidth, height: 18, rx: 9 }),
        svg("text", { x: badgeWidth / 2, y: 12.5, "text-anchor": "middle", text: badge })) : null)));
  }

  kept.nodes = nodes;
  kept.geometry = { boxes, edges: edgeMiddles };
  kept.layers ??= [svg("g", { class: "groups" }), svg("g", { class: "edges" }), svg("g", { class: "vertices" }), svg("g", { class: "counts-layer" })];
  [frameNodes, edgeNodes, vertexNodes].forEach((children, i) => sync(kept.layers[i], children));
  kept.overlay = kept.layers[3];
  drawCounts(svgEl, view.counts ?? null);
  const desc = svgEl.querySelector(":scope > desc") ?? svg("desc", { id: "diagram-desc" });
  desc.textContent = describe(model);
  sync(svgEl, [desc, kept.defs, ...kept.layers]);
  // One handler for the whole diagram (vertices select, operation labels pick an operation).
  const activate = (target) => {
    const vertexNode = target.closest?.("g.vertex");
    if (vertexNode) return void view.onSelect?.(vertexNode.dataset.name);
    if (target.closest?.("g.label")) view.onOperation?.(target.closest("g.group").dataset.operation);
  };
  svgEl.onclick = (event) => activate(event.target);
  svgEl.onkeydown = (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (!event.target.closest?.("g.vertex, g.label")) return;
    event.preventDefault();
    activate(event.target);
  };
  svgEl.setAttribute("viewBox", `0 0 ${totalWidth} ${totalHeight}`);
  // Natural size when it fits; scaled down to the canvas (to 60% at most) when it does not.
  svgEl.setAttribute("width", totalWidth);
  svgEl.setAttribute("height", totalHeight);
  svgEl.style.minWidth = `${Math.round(totalWidth * 0.6)}px`;
  return boxes;
}

/** Makes `children` the children of `parent`, touching the DOM only when they differ. */
function sync(parent, children) {
  const now = parent.childNodes;
  if (now.length === children.length && children.every((child, i) => now[i] === child)) return;
  parent.replaceChildren(...children);
}

/** Empties the diagram, with a description for screen readers. */
export function clear(svgEl, text) {
  fill(svgEl, svg("desc", { id: "diagram-desc", text }));
  svgEl.removeAttribute("viewBox");
  svgEl.setAttribute("width", 0);
  svgEl.setAttribute("height", 0);
}

/** Vertices under nested groups, one group per operation path. */
function tree(vertices, pathOf) {
  const root = { kind: "group", path: [], children: [], byName: new Map(), parent: null };
  const leafOf = new Map();
  for (const vertex of vertices) {
    let node = root;
    for (const name of pathOf(vertex)) {
      let child = node.byName.get(name);
      if (!child) {
        child = { kind: "group", path: [...node.path, name], children: [], byName: new Map(), parent: node };
        node.byName.set(name, child);
        node.children.push(child);
      }
      node = child;
    }
    const leaf = { kind: "vertex", vertex, parent: node };
    node.children.push(leaf);
    leafOf.set(vertex.name, leaf);
  }
  return { root, leafOf };
}

/** Gives each group the edges between its children: a vertex edge joins the two children of
 * the deepest group that holds both ends. */
function localEdges(edges, leafOf) {
  const chain = (leaf) => {
    const out = [];
    for (let n = leaf; n; n = n.parent) out.unshift(n);
    return out;
  };
  const seen = new Set();
  for (const e of edges) {
    const a = leafOf.get(e.from);
    const b = leafOf.get(e.to);
    if (!a || !b || a === b) continue;
    const ca = chain(a);
    const cb = chain(b);
    let i = 0;
    while (ca[i + 1] && ca[i + 1] === cb[i + 1]) i++;
    const group = ca[i];
    const from = ca[i + 1];
    const to = cb[i + 1];
    (group.edges ??= []);
    const key = `${group.path.join("\u0000")}\u0001${group.children.indexOf(from)}>${group.children.indexOf(to)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    group.edges.push([group.children.indexOf(from), group.children.indexOf(to)]);
  }
}

/** Sizes every node bottom-up and lays out each group's children in layers. */
function measure(node, width, gaps, groupInfo) {
  if (node.kind === "vertex") {
    node.w = width;
    node.h = NODE_H;
    return;
  }
  for (const child of node.children) measure(child, width, gaps, groupInfo);
  const { positions, w, h } = layered(node.children, node.edges ?? [], gaps);
  node.positions = positions;
  if (node.path.length === 0) {
    node.w = w;
    node.h = h;
    node.inset = { x: 0, y: 0 };
    return;
  }
  const info = groupInfo?.(node.path) ?? {};
  const title = info.title ?? node.path.at(-1);
  const labelWidth = 24 + title.length * CHAR.group + (info.subtitle ? 8 + Math.min(24, info.subtitle.length) * 6.2 : 0);
  node.w = Math.max(w + FRAME.side * 2, Math.min(labelWidth, 320));
  node.h = h + FRAME.head + FRAME.foot;
  node.inset = { x: (node.w - w) / 2, y: FRAME.head };
}

/**
 * Layers items (each `{w, h}`) from left to right: layer = longest path from a source,
 * columns ordered by one barycentre pass, each column centred vertically. With `gaps.stack`,
 * items that are not connected (the lanes of a job) are laid out apart, one under the other.
 */
function layered(items, edges, gaps) {
  const parts = gaps.stack ? components(items.length, edges) : [];
  if (parts.length > 1) {
    const positions = new Map();
    let y = 0;
    let w = 0;
    for (const part of parts) {
      const local = new Map(part.map((item, k) => [item, k]));
      const inner = edges.filter(([a, b]) => local.has(a) && local.has(b)).map(([a, b]) => [local.get(a), local.get(b)]);
      const sub = layered(part.map((i) => items[i]), inner, { ...gaps, stack: false });
      for (const [item, p] of sub.positions) positions.set(item, { x: p.x, y: p.y + y });
      y += sub.h + gaps.row;
      w = Math.max(w, sub.w);
    }
    return { positions, w, h: y - gaps.row };
  }
  const preds = items.map(() => []);
  const succs = items.map(() => []);
  for (const [a, b] of edges) {
    if (a < 0 || b < 0 || a === b) continue;
    preds[b].push(a);
    succs[a].push(b);
  }
  // Kahn's algorithm in item order.
  const indegree = preds.map((p) => p.length);
  const layer = items.map(() => 0);
  const queue = items.map((_, i) => i).filter((i) => indegree[i] === 0);
  const done = new Set();
  while (queue.length) {
    const i = queue.shift();
    done.add(i);
    for (const j of succs[i]) {
      layer[j] = Math.max(layer[j], layer[i] + 1);
      if (--indegree[j] === 0) queue.push(j);
    }
  }
  // Items on a cycle (the resolver does not forbid them): after their placed predecessors.
  for (let i = 0; i < items.length; i++) {
    if (done.has(i)) continue;
    layer[i] = Math.max(0, ...preds[i].filter((p) => done.has(p)).map((p) => layer[p] + 1));
    done.add(i);
  }
  const columns = [];
  items.forEach((_, i) => (columns[layer[i]] ??= []).push(i));
  const row = new Map();
  for (const column of columns) {
    if (!column) continue;
    const key = (i) => (preds[i].length ? preds[i].reduce((s, p) => s + (row.get(p) ?? 0), 0) / preds[i].length : Infinity);
    column.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return ka === kb ? a - b : ka === Infinity ? 1 : kb === Infinity ? -1 : ka - kb;
    });
    // Rows by position (centre), so that the next column follows the vertical order.
    let y = 0;
    for (const i of column) {
      row.set(i, y + items[i].h / 2);
      y += items[i].h + gaps.row;
    }
  }
  const heightOf = (column) => column.reduce((s, i) => s + items[i].h, 0) + (column.length - 1) * gaps.row;
  const height = Math.max(0, ...columns.map((c) => (c ? heightOf(c) : 0)));
  const positions = new Map();
  let x = 0;
  for (const column of columns) {
    if (!column) continue;
    const colWidth = Math.max(...column.map((i) => items[i].w));
    let y = (height - heightOf(column)) / 2;
    for (const i of column) {
      positions.set(items[i], { x: x + (colWidth - items[i].w) / 2, y });
      y += items[i].h + gaps.row;
    }
    x += colWidth + gaps.col;
  }
  return { positions, w: Math.max(0, x - gaps.col), h: height };
}

/** The weakly connected components of items `0..count`, each in item order, ordered by first item. */
function components(count, edges) {
  const parent = Array.from({ length: count }, (_, i) => i);
  const root = (i) => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  for (const [a, b] of edges) {
    const ra = root(a);
    const rb = root(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const groups = new Map();
  for (let i = 0; i < count; i++) {
    const r = root(i);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r).push(i);
  }
  return [...groups.values()];
}

/** Absolute positions, top-down: vertex boxes by name, and frames of the groups. */
function place(node, x, y, boxes, frames) {
  if (node.kind === "vertex") {
    boxes.set(node.vertex.name, { x, y, w: node.w, h: node.h });
    return;
  }
  if (node.path.length) frames.push({ path: node.path, x, y, w: node.w, h: node.h });
  for (const child of node.children) {
    const p = node.positions.get(child);
    place(child, x + node.inset.x + p.x, y + node.inset.y + p.y, boxes, frames);
  }
}

export function detailOf(vertex) {
  for (const [key, value] of Object.entries(vertex)) {
    if (key === "type" || key === "name") continue;
    if (value === null || typeof value !== "object") return `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
    if (Array.isArray(value)) return `${key}: ${value.length} item${value.length === 1 ? "" : "s"}`;
    const inner = Object.entries(value).find(([k, v]) => k !== "type" && typeof v === "string");
    return inner ? `${key}: ${inner[1]}` : `${key}: {…}`;
  }
  return "";
}

function describe(model) {
  const names = model.vertices.map((v) => `${v.name} (${v.type}${model.draftOnly.has(v.name) || model.draftOutputs.has(v.name) ? ", draft" : ""})`);
  return `Resolved graph with ${model.vertices.length} vertices: ${names.join(", ")}. Edges: ${model.edges.map((e) => e.text).join(", ") || "none"}.`;
}

/** The inspector: a vertex's fields and where it came from. */
export function renderInspector(container, model, selected) {
  const vertex = model && selected ? model.vertices.find((v) => v.name === selected) : null;
  if (!vertex) {
    fill(container, el("p", { class: "empty", text: "Select a vertex in the diagram to see its fields and where it came from." }));
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
  fill(container,
    el("dl", { class: "facts" }, rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", {}, v)])),
    Object.keys(fields).length ? el("pre", { class: "fields", text: pretty(fields) }) : null,
  );
}

/** Parsed edges by text: a keystroke changes few edges, and each parse is a call into wasm. */
const parsedEdges = new Map();

/** Parses a graph's edges (text) with the package's `parseEdge`. */
export function parseEdges(pkg, texts) {
  if (parsedEdges.size > 10_000) parsedEdges.clear();
  return (texts ?? []).map((text) => {
    let parsed = parsedEdges.get(text);
    if (!parsed) {
      const edge = pkg.parseEdge(text);
      parsed = { text, from: edge.from.vertex, fromPort: edge.from.port, to: edge.to.vertex, toPort: edge.to.port };
      parsedEdges.set(text, parsed);
    }
    return parsed;
  });
}
