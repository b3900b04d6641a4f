// The inputs form, generated from a template's inputSchema, and the marking of the fields an
// error points at. Used by both modes: the template mode (one operation) and the job mode (the
// selected operation of a job).
import { el, escapePointer, fill, pretty, unescapePointer } from "./dom.js";

export function schemaType(schema) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (Array.isArray(schema.enum)) return "enum";
  if (type === "boolean") return "boolean";
  if (type === "integer" || type === "number") return "number";
  if (type === "string") return "string";
  return "json"; // array, object, or anything the schema does not pin down
}

/**
 * Fills `container` (a fieldset) with one control per property of the template's
 * inputSchema and returns the fields, `{key, kind, schema, control, required}`. A control
 * starts at `values[key]` when given, else at the schema's default. `idPrefix` keeps the ids
 * of two forms on one page apart.
 */
export function buildForm(container, template, { idPrefix = "input-", values = null, legend = "Inputs" } = {}) {
  const schema = template.inputSchema;
  const properties = schema?.properties ?? {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const fields = [];
  const rows = [];
  const given = (key) => values !== null && Object.hasOwn(values, key);

  if (!schema) {
    // Without an inputSchema a template accepts any inputs: edit them as one JSON object.
    const id = `${idPrefix}all`;
    const field = { key: null, kind: "whole", schema: {}, required: false };
    field.control = el("textarea", { id, name: "templateInputs", rows: 5, spellcheck: "false", class: "code" });
    field.control.value = values ? pretty(values) : "{}";
    fields.push(field);
    rows.push(
      el("div", { class: "field" },
        el("label", { for: id, text: "Template inputs (JSON)" }),
        field.control,
        el("p", { class: "hint", text: "This template has no inputSchema: every key becomes a script variable." })),
    );
  }

  for (const [key, prop] of Object.entries(properties)) {
    const propSchema = prop && typeof prop === "object" ? prop : {};
    const kind = schemaType(propSchema);
    const id = `${idPrefix}${key.replace(/[^A-Za-z0-9_-]/g, "_")}`;
    const hintId = `${id}-hint`;
    const field = { key, kind, schema: propSchema, required: required.has(key) };
    const hasDefault = "default" in propSchema;
    const hasValue = given(key) || hasDefault;
    const value = given(key) ? values[key] : propSchema.default;
    const common = { id, name: key, "aria-describedby": hintId, "aria-required": field.required ? "true" : undefined };
    let control;
    if (kind === "boolean") {
      control = el("input", { ...common, type: "checkbox" });
      control.checked = value === true;
    } else if (kind === "enum") {
      control = el("select", common);
      if (!field.required || !hasDefault) control.append(el("option", { value: "", text: "(not set)" }));
      const options = [...propSchema.enum];
      // A value the schema does not allow still shows (the resolver will say what is wrong).
      if (hasValue && !options.some((o) => JSON.stringify(o) === JSON.stringify(value))) options.push(value);
      for (const option of options) {
        control.append(el("option", { value: JSON.stringify(option), text: typeof option === "string" ? option : JSON.stringify(option) }));
      }
      control.value = hasValue ? JSON.stringify(value) : "";
    } else if (kind === "number") {
      const integer = propSchema.type === "integer" || (Array.isArray(propSchema.type) && propSchema.type.includes("integer"));
      control = el("input", { ...common, type: "number", inputmode: integer ? "numeric" : "decimal", step: integer ? 1 : "any", min: propSchema.minimum, max: propSchema.maximum });
      control.value = hasValue ? String(value) : "";
    } else if (kind === "string") {
      control = el("input", { ...common, type: "text", spellcheck: "false", placeholder: propSchema.examples?.[0] });
      control.value = hasValue ? String(value) : "";
    } else {
      const text = hasValue ? pretty(value) : "";
      control = el("textarea", { ...common, class: "code", spellcheck: "false", rows: Math.min(8, Math.max(2, text.split("\n").length)) });
      control.value = text;
    }
    field.control = control;
    fields.push(field);

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
  fill(container, el("legend", { text: legend }), ...rows);
  return fields;
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
export function readInputs(fields) {
  const values = {};
  const problems = [];
  for (const field of fields) {
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

export function clearFieldErrors(container) {
  for (const node of container.querySelectorAll(".invalid")) {
    node.classList.remove("invalid");
    node.removeAttribute("aria-invalid");
    node.removeAttribute("aria-errormessage");
  }
  for (const node of container.querySelectorAll(".field-error")) node.remove();
  for (const node of container.querySelectorAll(".has-error")) node.classList.remove("has-error");
}

/** The form field a problem is about: its pointer's first token, or the property a `required` message names. */
function fieldKeyOf(problem) {
  if (problem.pointer) return unescapePointer(problem.pointer.split("/")[1] ?? "");
  const required = /"((?:[^"\\]|\\.)*)" is a required property/.exec(problem.message);
  return required ? JSON.parse(`"${required[1]}"`) : null;
}

/** Marks the fields an error's problems point at (the caller checks the error is about this form). */
export function markFields(fields, error) {
  const problems = error.problems?.length ? error.problems : error.pointer !== null && error.pointer !== undefined ? [{ pointer: error.pointer, message: error.message }] : [];
  for (const problem of problems) {
    const key = fieldKeyOf(problem);
    const field = key === null ? null : fields.find((f) => f.key === key) ?? fields.find((f) => f.kind === "whole");
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
