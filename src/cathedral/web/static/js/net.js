// @ts-check
// Talking to `cathedral serve`: JSON calls (a 429 waits and asks again), the server's refusals
// in words, the seat secret and game id of the page's address, the live socket. Nothing here
// touches the document. The secret never goes into a URL path or query: only into an
// Authorization header.

/** @typedef {import("./types.js").ServerMessage} ServerMessage */

/** A call the server refused (its HTTP status and sentence), or one that never reached it (0). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const RETRIES = 3; // a 429 is answered by waiting its Retry-After (at most 10 s) and asking again

/**
 * Where a write finds the account's CSRF token (account.js sets it: the token of the session
 * the browser's cookie holds, or null when signed out). Every write that a session cookie may
 * authorise must carry it (docs/accounts.md), so every call but a GET asks.
 * @type {() => Promise<string | null>}
 */
let csrfSource = () => Promise.resolve(null);

/**
 * Names where the CSRF token of the signed-in account comes from (account.js, once per page).
 * @param {() => Promise<string | null>} source
 */
export function useCsrf(source) {
  csrfSource = source;
}

/**
 * @typedef {object} CallOptions
 * @property {unknown} [body] sent as JSON
 * @property {string | null} [token] a seat's secret, for the Authorization header
 * @property {string | null} [csrf] the account's CSRF token (default: the page's account's,
 *   for every method but GET)
 */

/**
 * Calls the server and returns the JSON it answers (T is what the route answers: the caller
 * names it). A refusal throws an ApiError with the server's sentence.
 * @template [T=unknown]
 * @param {string} method
 * @param {string} path
 * @param {CallOptions} [options]
 * @param {number} [attempt] the retries after a 429 so far
 * @returns {Promise<T>}
 */
export async function call(method, path, { body, token, csrf } = {}, attempt = 0) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrf === undefined && method !== "GET") {
    try {
      csrf = await csrfSource();
    } catch {
      csrf = null;
    }
  }
  if (csrf) headers["X-CSRF-Token"] = csrf;
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
    return call(method, path, { body, token, csrf }, attempt + 1);
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

/**
 * @template [T=unknown]
 * @param {string} path
 * @param {{token?: string | null}} [options]
 * @returns {Promise<T>}
 */
export const get = (path, options) => call("GET", path, options);

/**
 * @template [T=unknown]
 * @param {string} path
 * @param {unknown} body
 * @param {{token?: string | null}} [options]
 * @returns {Promise<T>}
 */
export const post = (path, body, options = {}) => call("POST", path, { ...options, body });

/**
 * @template [T=unknown]
 * @param {string} path
 * @param {{token?: string | null}} [options]
 * @returns {Promise<T>}
 */
export const del = (path, options = {}) => call("DELETE", path, options);

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
 * The live socket of a game, as liveGame() hands it out.
 * @typedef {object} LiveGame
 * @property {(message: object) => boolean} send sends a message if the socket is open; returns
 *   whether it was sent
 * @property {() => void} close
 */

/**
 * Keeps a WebSocket to /ws/games/<id> open, reconnecting with a growing delay, and hands every
 * message to onMessage (pings and pongs aside).
 * @param {string} id
 * @param {(message: ServerMessage) => void} onMessage
 * @param {(status: "live" | "reconnecting") => void} [onStatus]
 * @returns {LiveGame}
 */
export function liveGame(id, onMessage, onStatus = () => {}) {
  /** @type {WebSocket | null} */
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
      /** @type {ServerMessage | {type: "ping"} | {type: "pong"} | null} */
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

/**
 * A refusal of a move or a seat's action in the words of the game page (the HTTP status says
 * which rule said no). Anything not from the server is shown as it is.
 * @param {unknown} exc
 * @returns {string}
 */
export function refusal(exc) {
  if (!(exc instanceof ApiError)) return String(exc);
  if (exc.status === 422) return `Refused: ${exc.message}`;
  if (exc.status === 409) return `Not now: ${exc.message}`;
  if (exc.status === 403) return `Not your turn: ${exc.message}`;
  if (exc.status === 401) return "This link's seat secret is not valid for this game.";
  return exc.message;
}

/**
 * What went wrong, in words: the server's sentence for a refusal, an error's message otherwise.
 * @param {unknown} exc
 * @returns {string}
 */
export function errorText(exc) {
  return exc instanceof Error ? exc.message : String(exc);
}
