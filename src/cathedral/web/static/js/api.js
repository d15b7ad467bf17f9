// Talking to `cathedral serve`: JSON calls, the seat secret from the URL fragment, the live socket.
// The secret never goes into a URL path or query: only into an Authorization header.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const RETRIES = 3; // a 429 is answered by waiting its Retry-After (at most 10 s) and asking again

export async function call(method, path, { body, token } = {}, attempt = 0) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "The server cannot be reached; check that `cathedral serve` is running.");
  }
  if (response.status === 429 && attempt < RETRIES) {
    const wait = Math.min(10, Number(response.headers.get("Retry-After")) || 1);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    return call(method, path, { body, token }, attempt + 1);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: text.slice(0, 200) };
    }
  }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message);
  }
  return data;
}

export const get = (path, options) => call("GET", path, options);
export const post = (path, body, options = {}) => call("POST", path, { ...options, body });

/** Returns the seat secret of this page (the URL fragment), or null for a spectator. */
export function secretFromFragment() {
  const raw = decodeURIComponent((location.hash || "").replace(/^#/, "")).trim();
  return raw && /^[A-Za-z0-9_-]{16,200}$/.test(raw) ? raw : null;
}

/**
 * Returns the game id of /g/<id> and /replay/<id>, or null when the address holds none that
 * the server could have made (no id, a malformed escape, other characters).
 */
export function gameIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts.length < 2) return null;
  let raw;
  try {
    raw = decodeURIComponent(parts[parts.length - 1]);
  } catch {
    return null; // "%ff" and the like: no id
  }
  return /^[A-Za-z0-9_-]{1,64}$/.test(raw) ? raw : null;
}

/**
 * Keeps a WebSocket to /ws/games/<id> open, reconnecting with a growing delay, and hands every
 * message to onMessage. Returns a handle with close().
 */
export function liveGame(id, onMessage, onStatus = () => {}) {
  let socket = null;
  let closed = false;
  let delay = 500;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${encodeURIComponent(id)}`;
  function open() {
    if (closed) return;
    socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      delay = 500;
      onStatus("live");
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!message || message.type === "ping" || message.type === "pong") return;
      onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (closed) return;
      onStatus("reconnecting");
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    });
    socket.addEventListener("error", () => {
      /* close follows; nothing to log */
    });
  }
  open();
  return {
    /** Sends a message if the socket is open; returns whether it was sent. */
    send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    close() {
      closed = true;
      if (socket) socket.close();
    },
  };
}

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

export function formatClock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  const rest = String(s % 60).padStart(2, "0");
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

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
