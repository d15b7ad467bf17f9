// @ts-check
// The document: element builders (HTML and SVG, styles through the CSSOM for the CSP), toasts,
// the seats' colours, clock text, the clipboard. Nothing here talks to the server, so a board
// imports this module alone.

/**
 * The element of the page with this id. Given a type (HTMLInputElement, ...), the element is
 * checked to be one: markup and script disagreeing fails here, by name, not later.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{new (): T, prototype: T}} [type]
 * @returns {T}
 */
export function $(id, type) {
  const el = document.getElementById(id);
  if (type && !(el instanceof type)) throw new TypeError(`#${id} is not a ${type.name}`);
  return /** @type {T} */ (el);
}

/**
 * What h() and s() append: a node, or text; null, undefined and false are left out.
 * @typedef {Node | string | number | boolean | null | undefined} Child
 */

/**
 * An element's attributes: `on<event>` a listener, `style` an object (never a string: the CSP),
 * `class`, `dataset`; anything else an attribute, left out when null, undefined or false, empty
 * when true.
 * @typedef {{
 *   [name: string]: unknown,
 *   class?: string | null,
 *   style?: Record<string, string | number | null | undefined> | null,
 *   dataset?: Record<string, string>,
 *   onclick?: ((event: MouseEvent) => void) | null,
 *   oninput?: (event: Event) => void,
 *   onchange?: (event: Event) => void,
 *   onfocus?: (event: FocusEvent) => void,
 * }} Attrs
 */

/** The toast's timer: one toast at a time, the newest message wins. */
let toastTimer = 0;

/**
 * Shows a short message at the bottom of the page.
 * @param {string} text
 * @param {"info" | "error"} [kind]
 * @param {number} [ms] how long it stays
 */
export function toast(text, kind = "info", ms = 4000) {
  let el = document.querySelector(".toast");
  if (!el) {
    el = document.createElement("div");
    el.className = "toast";
    el.setAttribute("role", "status");
    el.setAttribute("aria-live", "polite");
    document.body.append(el);
  }
  el.textContent = text;
  el.classList.toggle("error", kind === "error");
  el.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.add("hidden"), ms);
}

/**
 * Creates an element: h("div", {class: "x", onclick: f}, child, "text", ...).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === "class") el.className = String(value);
    else if (key === "style" && typeof value === "object") setStyle(el, /** @type {Record<string, unknown>} */ (value));
    else if (key === "style") throw new Error("style strings are refused by the CSP: pass an object");
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/**
 * Appends children as h() and s() take them.
 * @param {Element} el
 * @param {(Child | Child[])[]} children
 */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Sets inline styles through the CSSOM (the page's CSP refuses style attributes).
 * @param {HTMLElement | SVGElement} el
 * @param {Record<string, unknown>} style
 */
function setStyle(el, style) {
  // by name (camelCase: marginRight), custom properties (--owner) through setProperty
  const css = /** @type {CSSStyleDeclaration & Record<string, unknown>} */ (el.style);
  for (const [name, value] of Object.entries(style)) {
    if (value === undefined || value === null) continue;
    if (name.startsWith("--")) css.setProperty(name, String(value));
    else css[name] = value;
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Creates an SVG element: s("rect", {x: 1, y: 2}, ...children).
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === "style" && typeof value === "object") setStyle(el, /** @type {Record<string, unknown>} */ (value));
    else if (key === "style") throw new Error("style strings are refused by the CSP: pass an object");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/**
 * The colour of each seat name, shared by every page.
 * @type {Readonly<Record<string, string>>}
 */
export const SEAT_COLOURS = {
  Light: "#f3e3bc",
  Dark: "#5a3420",
  White: "#f7f3ea",
  Black: "#2a2623",
  Blue: "#2f64b3",
  Red: "#c0392b",
  Yellow: "#e0b21b",
  Green: "#2f8f4e",
};

/**
 * A seat's colour by its name (grey for a name not known).
 * @param {string} name
 */
export function seatColour(name) {
  return SEAT_COLOURS[name] || "#999";
}

/**
 * A small square in a seat's colour, before a name.
 * @param {string} name
 */
export function swatch(name) {
  return h("span", { class: "swatch", style: { background: seatColour(name) } });
}

/**
 * A clock's time left: m:ss, or h:mm:ss from an hour; empty for none.
 * @param {number | null | undefined} seconds
 */
export function formatClock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  const rest = String(s % 60).padStart(2, "0");
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/**
 * A correspondence clock's time left (days a move): "2 d 5 h", "5 h 12 min", then m:ss under
 * an hour.
 * @param {number | null | undefined} seconds
 */
export function formatDays(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 3600) return formatClock(s);
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  if (days) return `${days} d ${hours} h`;
  return `${hours} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

/**
 * Puts text on the clipboard (a hidden text area where the page is not a secure context).
 * @param {string} text
 * @returns {Promise<void>}
 */
export function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement("textarea");
  area.value = text;
  document.body.append(area);
  area.select();
  try {
    document.execCommand("copy");
  } finally {
    area.remove();
  }
  return Promise.resolve();
}
