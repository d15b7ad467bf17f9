// The document: element builders (HTML and SVG, styles through the CSSOM for the CSP), toasts,
// the seats' colours, clock text, the clipboard. Nothing here talks to the server, so a board
// imports this module alone.

/** The element of the page with this id. */
export const $ = (id) => document.getElementById(id);

/** Shows a short message at the bottom of the page. */
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
  clearTimeout(el._timer);
  el._timer = setTimeout(() => el.classList.add("hidden"), ms);
}

/** Creates an element: h("div", {class: "x", onclick: f}, child, "text", ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "style" && typeof value === "object") setStyle(el, value);
    else if (key === "style") throw new Error("style strings are refused by the CSP: pass an object");
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Sets inline styles through the CSSOM (the page's CSP refuses style attributes). */
function setStyle(el, style) {
  for (const [name, value] of Object.entries(style)) {
    if (value === undefined || value === null) continue;
    if (name.startsWith("--")) el.style.setProperty(name, value);
    else el.style[name] = value;
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Creates an SVG element: s("rect", {x: 1, y: 2}, ...children). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "style" && typeof value === "object") setStyle(el, value);
    else if (key === "style") throw new Error("style strings are refused by the CSP: pass an object");
    else el.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** The colour of each seat name, shared by every page. */
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

export function seatColour(name) {
  return SEAT_COLOURS[name] || "#999";
}

/** A small square in a seat's colour, before a name. */
export function swatch(name) {
  return h("span", { class: "swatch", style: { background: seatColour(name) } });
}

/** A clock's time left: m:ss, or h:mm:ss from an hour; empty for none. */
export function formatClock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  const rest = String(s % 60).padStart(2, "0");
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** Puts text on the clipboard (a hidden text area where the page is not a secure context). */
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
