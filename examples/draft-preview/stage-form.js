// Job mode's stage settings: the fields of a vertex written in the job itself (not made by a
// template operation), edited in a form generated from its type's schema in the catalog of
// operations, as the service publishes it (`docs/openapi.json`, `components.schemas`: the
// schema whose `type` is that vertex type's constant). Every keystroke writes the vertex and
// re-runs the job (job-mode.js); a field left at its default that the vertex did not have stays
// out of it.
import { el, fill } from "./dom.js";
import { buildForm, clearFieldErrors, markFields, readInputs, schemaType } from "./form.js";

const OPENAPI = "../../docs/openapi.json";

/** Vertex type → its schema, read once from the OpenAPI document (null when it did not load). */
let schemas = null;

async function loadSchemas() {
  if (schemas) return schemas;
  schemas = (async () => {
    const response = await fetch(OPENAPI);
    if (!response.ok) throw new Error(`${OPENAPI}: HTTP ${response.status}`);
    const document = await response.json();
    const byType = new Map();
    for (const schema of Object.values(document.components?.schemas ?? {})) {
      const type = schema?.properties?.type?.const;
      if (typeof type === "string" && !byType.has(type)) byType.set(type, schema);
    }
    return byType;
  })();
  return schemas;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** A property's schema without its default, said in its description instead. */
function withoutDefault({ default: value, ...property }) {
  const text = JSON.stringify(value);
  const said = text.length <= 60 ? `Left empty: ${text}.` : "Left empty: the catalog's default.";
  return { ...property, description: property.description ? `${property.description} ${said}` : said };
}

/**
 * The stage form in `container` (a fieldset). `onChange(inputAt)` after the vertex was written.
 */
export function createStageForm(container, { onChange }) {
  const state = { vertex: null, fields: [], schema: null, index: -1 };

  /** Shows nothing to edit, with `hint`. */
  function clear(hint) {
    state.vertex = null;
    state.fields = [];
    fill(container, el("legend", { text: "Stage settings" }), el("p", { class: "empty", text: hint }));
  }

  /**
   * Shows the settings of `vertex` (an object of the job's graph, edited in place), at `index`
   * in the graph's vertices; the same vertex again keeps the form (and what is being typed).
   */
  async function show(vertex, index) {
    if (vertex === state.vertex) return;
    state.vertex = vertex;
    state.index = index;
    let schema = null;
    try {
      schema = (await loadSchemas()).get(vertex.type) ?? null;
    } catch (error) {
      console.warn(`The catalog's schemas did not load (${error.message}): stage settings are edited as JSON.`);
    }
    if (state.vertex !== vertex) return;
    const { type, name, ...values } = vertex;
    const properties = {};
    for (const [key, property] of Object.entries(schema?.properties ?? {})) {
      if (key === "type" || key === "name") continue;
      // A JSON field (an array, an object) the vertex leaves out starts empty rather than at
      // its default (a reducer's masks are pages of expressions): empty keeps the default.
      properties[key] = schemaType(property) === "json" && "default" in property ? withoutDefault(property) : property;
    }
    // A field the vertex has that the schema does not declare stays editable (as JSON).
    for (const key of Object.keys(values)) properties[key] ??= {};
    state.schema = schema;
    const inputSchema = schema ? { type: "object", properties, required: (schema.required ?? []).filter((k) => k !== "type" && k !== "name") } : undefined;
    state.fields = buildForm(container, { inputSchema }, { idPrefix: "stage-", values, legend: `Settings of ${name} (${type})` });
    container.dataset.stage = name;
  }

  /** Writes the form into the vertex; false (and the fields marked) when one cannot be read. */
  function apply() {
    const vertex = state.vertex;
    if (!vertex) return false;
    clearFieldErrors(container);
    const { values, problems } = readInputs(state.fields);
    if (problems.length) {
      markFields(state.fields, { problems });
      return false;
    }
    const properties = state.schema?.properties ?? {};
    const next = { type: vertex.type, name: vertex.name };
    for (const field of state.fields) {
      const key = field.key;
      if (key === null) {
        Object.assign(next, values);
        continue;
      }
      if (!Object.hasOwn(values, key)) continue;
      // A default the vertex did not spell out stays implicit.
      if (!Object.hasOwn(vertex, key) && "default" in (properties[key] ?? {}) && same(values[key], properties[key].default)) continue;
      next[key] = values[key];
    }
    for (const key of Object.keys(vertex)) delete vertex[key];
    Object.assign(vertex, next);
    return true;
  }

  /** Marks the fields an error's pointer names, when it is about this stage (`/…/vertices/N/key`). */
  function markError(error) {
    if (!state.vertex) return;
    const problems = (error.problems?.length ? error.problems : [{ pointer: error.pointer, message: error.message }])
      .map((p) => ({ ...p, pointer: ownPointer(p.pointer) }))
      .filter((p) => p.pointer !== null);
    if (problems.length) markFields(state.fields, { problems });
  }

  function ownPointer(pointer) {
    const match = typeof pointer === "string" ? /(?:^|\/)vertices\/(\d+)(\/.*)?$/.exec(pointer) : null;
    return match && Number(match[1]) === state.index ? match[2] ?? "" : null;
  }

  container.addEventListener("input", (event) => {
    if (apply()) onChange(event.timeStamp || performance.now());
  });
  container.addEventListener("submit", (event) => event.preventDefault());

  return { show, clear, markError, current: () => state.vertex };
}
