// @ts-check
// The page's account (every page loads this module): the slot in the top bar ("Sign in", or
// the name, "My games" with the count of unread notifications, "Sign out"), the cached
// GET /api/me, writes that carry the account's CSRF token, and the notifications: asked for
// every 5 s while signed in and the tab is shown (one request at a time), each new one shown
// in the page, and by the browser when the account allows it and the permission is granted.

import { h } from "./dom.js";
import { ApiError, call, get, useCsrf } from "./net.js";

/** @typedef {import("./types.js").Account} Account */
/** @typedef {import("./types.js").AccountNotification} AccountNotification */

const POLL_MS = 5000;
const SHOWN_AT_MOST = 4; // notices in the page at once; older ones go (/me lists them all)
const RETURN_KEY = "cathedral.return"; // the address (with its fragment) to come back to after signing in

/**
 * What the module knows that changes: the account, the notifications asked for.
 * @typedef {object} AccountState
 * @property {Promise<Account | null> | null} account GET /api/me, asked once per page
 * @property {number | null} last the newest notification id seen by this page
 * @property {boolean} asking a request for notifications is under way
 * @property {number} timer the poll's interval
 * @property {number} unread as the server last said
 */

/** @type {AccountState} */
const state = { account: null, last: null, asking: false, timer: 0, unread: 0 };

/** Listeners told when the account changes (signed in, out, settings saved). */
/** @type {((account: Account | null) => void)[]} */
const listeners = [];

/**
 * The signed-in account, or null (GET /api/me, asked once per page unless `fresh`).
 * @param {boolean} [fresh] ask the server again
 * @returns {Promise<Account | null>}
 */
export function me(fresh = false) {
  if (!state.account || fresh) {
    state.account = get("/api/me").then(
      (answer) => (answer && /** @type {{account: Account | null}} */ (answer).account) || null,
      () => /** @type {Account | null} */ (null),
    );
  }
  return state.account;
}

/**
 * Takes the account a sign-in or a change of settings answered (null: signed out) and redraws
 * what shows it.
 * @param {Account | null} account
 */
export function setAccount(account) {
  state.account = Promise.resolve(account);
  state.last = null;
  drawSlot(account);
  startPolling(account);
  for (const listener of listeners) listener(account);
}

/**
 * Calls `listener` with the account once it is known, and again whenever it changes.
 * @param {(account: Account | null) => void} listener
 */
export function onAccount(listener) {
  listeners.push(listener);
  me().then(listener);
}

/**
 * A write the session cookie authorises: the account's CSRF token goes with it (net.js adds it
 * to every write; this names it for the reader). Answers as net.js's call.
 * @template [T=unknown]
 * @param {"POST" | "DELETE"} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {{token?: string | null}} [options] a seat's secret as well (claiming a seat)
 * @returns {Promise<T>}
 */
export async function send(method, path, body, options = {}) {
  const account = await me();
  return call(method, path, { body, token: options.token, csrf: account ? account.csrf : null });
}

useCsrf(async () => {
  const account = await me();
  return account ? account.csrf : null;
});

/**
 * The sign-in page's address, coming back here afterwards. The fragment (a seat's secret) stays
 * in this browser's session storage, never in the address sent to the server.
 */
export function signinHref() {
  if (location.pathname === "/signin") return "/signin" + location.search;
  return `/signin?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/** Remembers this page's address, fragment included, for signin.js to come back to. */
function rememberReturn() {
  try {
    sessionStorage.setItem(RETURN_KEY, location.pathname + location.search + location.hash);
  } catch {
    /* storage refused: the fragment is lost, the page is not */
  }
}

/**
 * Where to go after signing in: `next` if it is a path of this site (else /me), with the
 * fragment it had when the person left it for the sign-in page.
 * @param {string | null} next
 */
export function returnAddress(next) {
  // a path of this site: "/x", never "//host" or "/\\host" (both leave it), nothing unprintable
  const safe = next && /^\/(?![/\\])[\x21-\x7e]*$/.test(next) ? next : "/me";
  let remembered = null;
  try {
    remembered = sessionStorage.getItem(RETURN_KEY);
  } catch {
    /* nothing remembered */
  }
  if (remembered && remembered.split("#")[0] === safe) return remembered;
  return safe;
}

async function signOut() {
  try {
    await send("POST", "/api/account/signout", {});
  } catch {
    /* signed out already, or the server is away: the page says what it knows next */
  }
  location.reload();
}

/**
 * Fills the top bar's slot (`<span id="account">`).
 * @param {Account | null} account
 */
function drawSlot(account) {
  const slot = document.getElementById("account");
  if (!slot) return;
  slot.classList.add("account-slot");
  if (!account) {
    slot.replaceChildren(h("a", { href: signinHref(), id: "signin-link", onclick: rememberReturn, "aria-current": location.pathname === "/signin" ? "page" : null }, "Sign in"));
    return;
  }
  slot.replaceChildren(
    h("a", { href: `/@/${encodeURIComponent(account.name)}`, id: "account-name", class: "account-name", title: "Your player page" }, account.name),
    h(
      "a",
      { href: "/me", id: "my-games", "aria-current": location.pathname === "/me" ? "page" : null },
      "My games",
      h("span", { id: "unread", class: "badge hidden" }, h("span", { class: "count" }, "0"), h("span", { class: "visually-hidden" }, " unread")),
    ),
    h("button", { id: "signout", class: "linklike", type: "button", onclick: signOut }, "Sign out"),
  );
  drawUnread(state.unread);
}

/** @param {number} count */
function drawUnread(count) {
  state.unread = count;
  const badge = document.getElementById("unread");
  if (!badge) return;
  badge.classList.toggle("hidden", !count);
  badge.querySelector(".count").textContent = String(count);
}

/** @param {string} name */
function storageKey(name) {
  return `cathedral.notified.${name.toLowerCase()}`;
}

/**
 * The newest notification this browser has shown for the account, across its pages.
 * @param {string} name
 * @returns {number | null}
 */
function storedLast(name) {
  try {
    const raw = localStorage.getItem(storageKey(name));
    return raw === null ? null : Number(raw) || 0;
  } catch {
    return null;
  }
}

/**
 * @param {string} name
 * @param {number} id
 */
function storeLast(name, id) {
  try {
    const stored = storedLast(name);
    if (stored === null || stored < id) localStorage.setItem(storageKey(name), String(id));
  } catch {
    /* not kept across pages */
  }
}

/** The list of notices in the page, made when the first one comes. */
function noticeList() {
  let list = document.getElementById("notices");
  if (!list) {
    list = h("ul", { id: "notices", class: "notices", role: "log", "aria-live": "polite", "aria-label": "Notifications" });
    document.body.append(list);
  }
  return list;
}

/**
 * Marks notifications read up to `id` (opening one reads it and those before it).
 * @param {number} id
 */
export async function markRead(id) {
  await send("POST", "/api/me/notifications/read", { up_to: id });
}

/**
 * Shows the count of unread notifications (the /me page, after marking them read).
 * @param {number} count
 */
export function setUnread(count) {
  drawUnread(count);
}

/**
 * Opens a notification's link, marking it read first (a failure to mark does not keep the
 * person here).
 * @param {AccountNotification} notification
 */
async function open(notification) {
  try {
    await markRead(notification.id);
  } catch {
    /* still go */
  }
  if (notification.url) location.assign(notification.url);
}

/**
 * Shows new notifications in the page and, where the account and the browser allow it, as the
 * browser's own.
 * @param {Account} account
 * @param {AccountNotification[]} list
 */
function show(account, list) {
  if (account.notify && account.notify.page !== false) {
    const notices = noticeList();
    for (const notification of list) {
      const item = h(
        "li",
        { class: "notice", "data-id": notification.id, "data-kind": notification.kind },
        h("span", { class: "text" }, notification.text),
        notification.url
          ? h("a", { href: notification.url, class: "btn small primary", onclick: (/** @type {MouseEvent} */ event) => { event.preventDefault(); open(notification); } }, "Open")
          : null,
        h("button", { class: "btn small", type: "button", "aria-label": "Dismiss this notification", onclick: () => item.remove() }, "✕"),
      );
      notices.append(item);
    }
    while (notices.children.length > SHOWN_AT_MOST) notices.firstElementChild.remove();
  }
  if (account.notify && account.notify.browser && "Notification" in window && Notification.permission === "granted") {
    for (const notification of list) {
      try {
        const shown = new Notification(notification.text, { tag: `cathedral-${notification.id}`, icon: "/static/favicon.svg" });
        shown.onclick = () => {
          window.focus();
          open(notification);
        };
      } catch {
        /* a browser that wants a service worker for notifications: the page shows it */
      }
    }
  }
}

/**
 * Asks for the notifications after the newest one seen; shows the new ones. The first request
 * of a browser that has shown none for this account only learns where the list ends.
 * @param {Account} account
 */
async function poll(account) {
  if (state.asking || document.hidden) return;
  state.asking = true;
  try {
    const stored = storedLast(account.name);
    let after = state.last !== null ? Math.max(state.last, stored || 0) : stored;
    const quiet = after === null; // nothing seen here yet: the old ones are on /me
    /** @type {AccountNotification[]} */
    const fresh = [];
    let unread = state.unread;
    for (let page = 0; page < 20; page++) {
      /** @type {{notifications: AccountNotification[], unread: number}} */
      const answer = await get(`/api/me/notifications${after !== null ? `?after=${after}` : ""}`);
      const list = answer.notifications || [];
      unread = answer.unread || 0;
      fresh.push(...list.filter((n) => after === null || n.id > after));
      if (list.length) after = Math.max(after || 0, ...list.map((n) => n.id));
      if (list.length < 50) break;
    }
    if (state.account !== null && (await state.account) !== account) return; // signed out meanwhile
    state.last = after === null ? 0 : after;
    storeLast(account.name, state.last);
    drawUnread(unread);
    const slot = document.getElementById("account");
    if (slot) slot.dataset.notified = String(state.last); // the newest notification seen (tests wait on it)
    // one about the page already open (the game a challenge just started) is not shown again
    const news = fresh.filter((n) => !(n.url && n.url.split("#")[0] === location.pathname));
    if (!quiet && news.length) show(account, news);
  } catch (exc) {
    if (exc instanceof ApiError && exc.status === 401) setAccount(null); // the session ended elsewhere
  } finally {
    state.asking = false;
  }
}

/** @param {Account | null} account */
function startPolling(account) {
  clearInterval(state.timer);
  state.timer = 0;
  if (!account) return;
  poll(account);
  state.timer = setInterval(() => poll(account), POLL_MS);
}

document.addEventListener("visibilitychange", async () => {
  if (document.hidden) return;
  const account = await me();
  if (account) poll(account);
});

me().then((account) => {
  drawSlot(account);
  startPolling(account);
});

// ----- accounts' things in words (the pages of accounts, challenges and ratings share them) --

/** @type {Readonly<Record<string, string>>} */
const SETTING_TITLES = {
  classic: "Cathedral (Moore)",
  allmer2: "Allmer · 2 players",
  allmer4: "Allmer · 4 players",
  red2: "Red Cathedral · 2 players",
  red3: "Red Cathedral · 3 players",
  red4: "Red Cathedral · 4 players",
};

/**
 * A rating setting in words ("allmer2": "Allmer · 2 players").
 * @param {string | null | undefined} setting
 */
export function settingTitle(setting) {
  if (!setting) return "unrated rules";
  return SETTING_TITLES[setting] || setting;
}

/**
 * A game and its number of players in words, from its name and parameters.
 * @param {string} game
 * @param {Record<string, unknown> | null | undefined} params
 */
export function gameTitle(game, params) {
  const titles = /** @type {Record<string, string>} */ ({ classic: "Cathedral (Moore)", allmer: "Allmer", red: "Red Cathedral" });
  const players = params && params.players ? ` · ${params.players} players` : "";
  return `${titles[game] || game}${game === "classic" ? "" : players}`;
}

/**
 * A time span for a person: "3 days", "5 h 20 min", "12 min".
 * @param {number} seconds
 */
export function spanText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days) return hours ? `${days} d ${hours} h` : `${days} day${days === 1 ? "" : "s"}`;
  if (hours) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  if (minutes) return `${minutes} min`;
  return `${s} s`;
}

/**
 * A clock as a challenge, a game of an account or a view gives it, in words.
 * @param {{initial_s?: number, increment_s?: number, days_per_move?: number, per_move?: boolean} | null | undefined} clock
 */
export function clockText(clock) {
  if (!clock) return "no clock";
  if (clock.days_per_move) return `${clock.days_per_move} day${clock.days_per_move === 1 ? "" : "s"} a move`;
  if (clock.per_move) {
    const days = Math.round((clock.initial_s || 0) / 86400);
    return days >= 1 ? `${days} day${days === 1 ? "" : "s"} a move` : `${spanText(clock.initial_s || 0)} a move`;
  }
  const minutes = (clock.initial_s || 0) / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)} min + ${clock.increment_s || 0} s`;
}

/**
 * A Unix time as a date (and the time of day when it is today).
 * @param {number} at
 */
export function dateText(at) {
  const when = new Date(at * 1000);
  const today = new Date();
  if (when.toDateString() === today.toDateString()) return `today ${when.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" })}`;
  return when.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
}

/**
 * A rating as lichess writes it: rounded, with "?" while it is provisional.
 * @param {number | null | undefined} rating
 * @param {boolean} [provisional]
 */
export function ratingText(rating, provisional = false) {
  if (rating === null || rating === undefined) return "unrated";
  return `${Math.round(rating)}${provisional ? "?" : ""}`;
}

/**
 * A rating change with its sign: "+12", "−8", "±0".
 * @param {number} change
 */
export function changeText(change) {
  const n = Math.round(change);
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

/**
 * A link to a player's page, or the name as text ("deleted player", nobody).
 * @param {string | null | undefined} name
 * @param {string} [empty] what stands for no name
 */
export function playerLink(name, empty = "anonymous") {
  if (!name) return h("span", { class: "muted" }, empty);
  if (name === "deleted player") return h("span", { class: "muted deleted" }, name);
  return h("a", { href: `/@/${encodeURIComponent(name)}`, class: "player-link" }, name);
}

/**
 * What a challenge offers, in words: who (and their rating), the game, the clock, rated or not.
 * @param {import("./types.js").Challenge} challenge
 * @param {{by?: boolean}} [options] `by`: name the challenger (false on one's own)
 */
export function challengeWords(challenge, { by = true } = {}) {
  // no rating yet in the setting: a new player's 1500, provisional
  const known = challenge.by && challenge.by.rating !== null && challenge.by.rating !== undefined;
  const rating = known ? ` (${ratingText(challenge.by.rating)})` : challenge.setting ? " (1500?)" : "";
  const range = challenge.range ? ` · ratings ${Math.round(challenge.range[0])}–${Math.round(challenge.range[1])}` : "";
  return h(
    "span",
    { class: "challenge-words" },
    by && challenge.by ? [playerLink(challenge.by.name), rating, " · "] : null,
    challenge.to ? ["to ", playerLink(challenge.to), " · "] : null,
    h("strong", {}, gameTitle(challenge.game, challenge.params)),
    h("br"),
    h("span", { class: "muted" }, clockText(challenge.clock), range, " · "),
    challenge.rated ? h("span", { class: "tag rated" }, "rated") : h("span", { class: "muted" }, "casual"),
  );
}
