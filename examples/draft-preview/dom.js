// Small DOM helpers shared by the page's modules. Text always goes through textContent:
// template data is never parsed as HTML.

export const SVG_NS = "http://www.w3.org/2000/svg";

export const $ = (selector) => document.querySelector(selector);

export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs = {}, ...children) {
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
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

export function truncate(text, max) {
  return text.length <= max ? text : text.slice(0, Math.max(1, max - 1)) + "…";
}

export function pretty(value) {
  return JSON.stringify(value, null, 2);
}

export const escapePointer = (token) => token.replace(/~/g, "~0").replace(/\//g, "~1");
export const unescapePointer = (token) => token.replace(/~1/g, "/").replace(/~0/g, "~");
