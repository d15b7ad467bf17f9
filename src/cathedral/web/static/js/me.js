// @ts-check
// The account's page (/me): its games (those waiting for its move first), challenges to it
// (accept, decline) and its own open ones (cancel), its notifications, the settings of
// notifications and e-mail, adding a passkey, and deleting the account.

import {
  challengeWords,
  clockText,
  dateText,
  gameTitle,
  me,
  onAccount,
  playerLink,
  send,
  setAccount,
  setUnread,
  settingTitle,
} from "./account.js";
import { $, h } from "./dom.js";
import { errorText, get } from "./net.js";
import { createPasskey, passkeyError, passkeysSupported } from "./passkey.js";

/** @typedef {import("./types.js").Account} Account */
/** @typedef {import("./types.js").AccountGame} AccountGame */
/** @typedef {import("./types.js").AccountNotification} AccountNotification */
/** @typedef {import("./types.js").Challenge} Challenge */
/** @typedef {import("./types.js").Challenges} Challenges */

const REFRESH_MS = 10000;

/**
 * What the page knows that changes.
 * @typedef {object} MePage
 * @property {Account | null} account
 * @property {number} timer the refresh's interval
 * @property {boolean} refreshing
 * @property {number} lastNotification the newest notification listed
 * @property {boolean} pointed the game the address names has been shown once
 */

/** @type {MePage} */
const page = { account: null, timer: 0, refreshing: false, lastNotification: 0, pointed: false };

/**
 * A game's result for this account in words.
 * @param {AccountGame} game
 */
function resultWords(game) {
  const result = game.result;
  if (!result) return "finished";
  if (typeof result === "string") {
    /** @type {Record<string, string>} */
    const words = { win: "You won", loss: "You lost", draw: "Drawn" };
    return words[result] || result.replace(/^place/, "Place");
  }
  if (result.returns && result.returns.length === 2) {
    const mine = result.returns[game.player];
    const base = mine > result.returns[1 - game.player] ? "You won" : mine < result.returns[1 - game.player] ? "You lost" : "Drawn";
    return result.resigned !== null && result.resigned !== undefined ? `${base} (${result.timeout ? "time" : "resignation"})` : base;
  }
  return result.text || "finished";
}

/** @param {AccountGame} game */
function gameItem(game) {
  const others = (game.names || []).map((name, seat) => ({ name, seat })).filter((o) => o.seat !== game.player);
  const status =
    game.status === "playing"
      ? game.your_turn
        ? h("strong", { class: "your-turn-text" }, "Your move")
        : h("span", {}, "Waiting for the others")
      : h("span", {}, resultWords(game));
  return h(
    "li",
    { class: `account-game${game.your_turn && game.status === "playing" ? " your-turn" : ""}`, "data-game-id": game.id, "data-status": game.status },
    h(
      "span",
      {},
      h("strong", {}, game.setting ? settingTitle(game.setting) : gameTitle(game.game, game.params)),
      " ",
      game.rated ? h("span", { class: "tag rated" }, "rated") : null,
      h("br"),
      h("span", { class: "muted" }, "against ", others.length ? others.flatMap((o, i) => [i ? ", " : "", playerLink(o.name, "a guest or computer")]) : "nobody", ` · ${clockText(game.clock)} · ${dateText(game.updated)}`),
      h("br"),
      status,
    ),
    h("a", { class: `btn small${game.your_turn && game.status === "playing" ? " primary" : ""}`, href: game.url }, game.status === "playing" ? (game.your_turn ? "Play" : "Open") : "Open"),
  );
}

/**
 * @param {HTMLElement} list
 * @param {HTMLElement[]} items
 * @param {string} empty
 */
function fill(list, items, empty) {
  list.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, empty)]));
}

async function drawGames() {
  /** @type {{games: AccountGame[]}} */
  const answer = await get("/api/me/games");
  const games = answer.games || [];
  const waiting = games.filter((g) => g.your_turn && g.status === "playing").length;
  fill($("games"), games.map(gameItem), "No games yet: start one from the home page, or take a challenge in the lobby.");
  // a notification's link (/me?game=<id>) points at one game: marked, and its link focused once
  const wanted = new URLSearchParams(location.search).get("game");
  const item = wanted ? /** @type {HTMLElement | null} */ ($("games").querySelector(`li[data-game-id="${CSS.escape(wanted)}"]`)) : null;
  if (item) {
    item.classList.add("pointed");
    if (!page.pointed) {
      page.pointed = true;
      item.scrollIntoView({ block: "center" });
      const link = item.querySelector("a.btn");
      if (link instanceof HTMLElement) link.focus();
    }
  }
  $("me-summary").textContent = waiting ? `${waiting} game${waiting === 1 ? " waits" : "s wait"} for your move.` : "No game waits for your move.";
}

/**
 * Accepts, declines or cancels a challenge, then redraws.
 * @param {Challenge} challenge
 * @param {"accept" | "delete"} what
 */
async function answerChallenge(challenge, what) {
  try {
    if (what === "accept") {
      /** @type {{game_id: string, url: string}} */
      const game = await send("POST", `/api/challenges/${encodeURIComponent(challenge.id)}/accept`, {});
      location.assign(game.url);
      return;
    }
    await send("DELETE", `/api/challenges/${encodeURIComponent(challenge.id)}`);
  } catch (exc) {
    $("me-summary").textContent = errorText(exc);
  }
  refresh();
}

async function drawChallenges() {
  /** @type {Challenges} */
  const answer = await get("/api/challenges");
  fill(
    $("to-me"),
    (answer.to_me || []).map((c) =>
      h(
        "li",
        { "data-challenge-id": c.id },
        challengeWords(c),
        h(
          "span",
          { class: "row" },
          h("button", { class: "btn small primary", type: "button", onclick: () => answerChallenge(c, "accept") }, "Accept"),
          h("button", { class: "btn small", type: "button", onclick: () => answerChallenge(c, "delete") }, "Decline"),
        ),
      ),
    ),
    "Nobody has challenged you.",
  );
  fill(
    $("my-challenges"),
    (answer.mine || [])
      .filter((c) => c.status === "open")
      .map((c) =>
        h(
          "li",
          { "data-challenge-id": c.id },
          challengeWords(c, { by: false }),
          h("button", { class: "btn small", type: "button", onclick: () => answerChallenge(c, "delete") }, "Cancel"),
        ),
      ),
    "No open challenge of yours.",
  );
}

async function drawNotifications() {
  /** @type {{notifications: AccountNotification[], unread: number}} */
  const answer = await get("/api/me/notifications");
  const list = answer.notifications || [];
  page.lastNotification = list.reduce((most, n) => Math.max(most, n.id), 0);
  setUnread(answer.unread || 0);
  $("read-all", HTMLButtonElement).disabled = !answer.unread;
  fill(
    $("notification-list"),
    [...list].reverse().map((n) =>
      h(
        "li",
        { class: n.read ? "read" : "unread", "data-id": n.id, "data-kind": n.kind },
        h("span", {}, n.read ? null : h("span", { class: "visually-hidden" }, "New: "), n.text, h("br"), h("span", { class: "muted small" }, dateText(n.created))),
        n.url ? h("a", { class: "btn small", href: n.url }, "Open") : null,
      ),
    ),
    "No notifications.",
  );
}

async function readAll() {
  if (!page.lastNotification) return;
  try {
    await send("POST", "/api/me/notifications/read", { up_to: page.lastNotification });
  } catch (exc) {
    $("me-summary").textContent = errorText(exc);
  }
  drawNotifications().catch(() => {});
}

/** Redraws the games, challenges and notifications (one refresh at a time). */
async function refresh() {
  if (page.refreshing || !page.account || document.hidden) return;
  page.refreshing = true;
  try {
    await Promise.all([drawGames(), drawChallenges(), drawNotifications()]);
  } catch (exc) {
    $("me-summary").textContent = `Cannot load your games: ${errorText(exc)}`;
  } finally {
    page.refreshing = false;
  }
}

/** @param {Account} account */
function drawSettings(account) {
  $("notify-page", HTMLInputElement).checked = account.notify.page;
  $("notify-browser", HTMLInputElement).checked = account.notify.browser;
  $("notify-email", HTMLInputElement).checked = account.notify.email;
  $("email", HTMLInputElement).value = account.email || "";
  const keys = account.passkeys;
  const ways = [keys ? `${keys === 1 ? "a passkey" : `${keys} passkeys`}` : null, account.password ? "a password" : null].filter(Boolean);
  $("keys-text").textContent = `You sign in with ${ways.join(" or ") || "nothing yet"}.${keys ? "" : " A passkey needs nothing to remember."}`;
}

/** The browser's notifications switched on: asks for the permission, if not given yet. */
async function browserSwitch() {
  const box = $("notify-browser", HTMLInputElement);
  const status = $("settings-status");
  if (!box.checked) return;
  if (!("Notification" in window)) {
    box.checked = false;
    status.textContent = "This browser shows no notifications.";
    return;
  }
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  if (permission !== "granted") {
    box.checked = false;
    status.textContent = "The browser refused notifications for this site: allow them in its settings first.";
  } else {
    status.textContent = "The browser will show notifications once you save.";
  }
}

async function saveSettings() {
  const email = $("email", HTMLInputElement);
  const status = $("settings-status");
  const address = email.value.trim();
  email.setAttribute("aria-invalid", "false");
  if (address && !email.checkValidity()) {
    email.setAttribute("aria-invalid", "true");
    status.textContent = "That is not an e-mail address.";
    email.focus();
    return;
  }
  if ($("notify-email", HTMLInputElement).checked && !address) {
    email.setAttribute("aria-invalid", "true");
    status.textContent = "E-mail notifications need an e-mail address.";
    email.focus();
    return;
  }
  status.textContent = "Saving…";
  try {
    /** @type {{account: Account}} */
    const answer = await send("POST", "/api/account/settings", {
      email: address || null,
      notify: {
        page: $("notify-page", HTMLInputElement).checked,
        browser: $("notify-browser", HTMLInputElement).checked,
        email: $("notify-email", HTMLInputElement).checked,
      },
    });
    setAccount(answer.account);
    status.textContent = "Saved.";
  } catch (exc) {
    status.textContent = errorText(exc);
  }
}

async function addPasskey() {
  const status = $("passkey-status");
  const button = $("add-passkey", HTMLButtonElement);
  button.disabled = true;
  status.textContent = "Follow your browser's dialog…";
  try {
    /** @type {{ticket: string, options: unknown}} */
    const offer = await send("POST", "/api/account/passkey/options", { purpose: "add" });
    const credential = await createPasskey(offer.options);
    /** @type {{account: Account}} */
    const answer = await send("POST", "/api/account/passkey/add", { ticket: offer.ticket, credential });
    setAccount(answer.account);
    status.textContent = "Passkey added.";
  } catch (exc) {
    status.textContent = passkeyError(exc);
  } finally {
    button.disabled = false;
  }
}

async function deleteAccount() {
  const name = $("delete-name", HTMLInputElement).value.trim();
  if (!page.account || name !== page.account.name) return;
  try {
    await send("POST", "/api/account/delete", { name });
    location.assign("/");
  } catch (exc) {
    $("delete-error").textContent = errorText(exc);
  }
}

/** @param {Account | null} account */
function showAccount(account) {
  page.account = account;
  $("signed-out").classList.toggle("hidden", Boolean(account));
  $("mine").classList.toggle("hidden", !account);
  if (!account) {
    $("me-summary").textContent = "";
    clearInterval(page.timer);
    return;
  }
  drawSettings(account);
  if (!page.timer) {
    refresh();
    page.timer = setInterval(refresh, REFRESH_MS);
  }
}

function start() {
  $("add-passkey").classList.toggle("hidden", !passkeysSupported());
  $("notify-browser").addEventListener("change", browserSwitch);
  $("settings-form").addEventListener("submit", (event) => {
    event.preventDefault();
    saveSettings();
  });
  $("add-passkey").addEventListener("click", addPasskey);
  $("read-all").addEventListener("click", readAll);
  $("delete-name").addEventListener("input", () => {
    $("delete", HTMLButtonElement).disabled = !page.account || $("delete-name", HTMLInputElement).value.trim() !== page.account.name;
  });
  $("delete-form").addEventListener("submit", (event) => {
    event.preventDefault();
    deleteAccount();
  });
  document.addEventListener("visibilitychange", refresh);
  onAccount(showAccount);
  me();
}

start();
