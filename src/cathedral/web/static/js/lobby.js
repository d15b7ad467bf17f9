// @ts-check
// The lobby: challenges (open ones to accept, a form to make one, quick pairing that waits
// for its opponent), public tables with an open seat, games being played, recent finished
// games; and the upload of a game record to replay.

import { challengeWords, me, onAccount, send, signinHref } from "./account.js";
import { $, h, swatch } from "./dom.js";
import { errorText, get, post } from "./net.js";
import { GAME_TITLES } from "./table.js";

/** @typedef {import("./types.js").Account} Account */
/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").Challenge} Challenge */
/** @typedef {import("./types.js").Challenges} Challenges */
/** @typedef {import("./types.js").ClockPreset} ClockPreset */
/** @typedef {import("./types.js").ClockSpec} ClockSpec */
/** @typedef {import("./types.js").Joined} Joined */
/** @typedef {import("./types.js").Lobby} Lobby */
/** @typedef {import("./types.js").LobbyGame} LobbyGame */

const WAIT_POLL_MS = 2000;

/**
 * What the lobby knows that changes.
 * @typedef {object} LobbyPage
 * @property {Account | null} account
 * @property {ClockPreset[]} clocks the catalog's presets
 * @property {{id: string | number, timer: number, asking: boolean} | null} waiting the challenge
 *   or seek of ours the page waits on, until someone accepts it
 * @property {boolean} refreshing
 */

/** @type {LobbyPage} */
const page = { account: null, clocks: [], waiting: null, refreshing: false };

/** The seats of each challenge's game: two players. */
/** @type {Record<string, Record<string, unknown>>} */
const TWO_PLAYERS = { classic: {}, allmer: { players: 2 }, red: { players: 2 } };

/**
 * A game of the lobby: its title, who sits where, its turn, and what one may do with it.
 * @param {LobbyGame} game
 * @param {HTMLElement[]} actions
 */
function item(game, actions) {
  const players = (game.players || []).map((name, i) =>
    h(
      "span",
      { class: "row", style: { gap: "0.2rem", marginRight: "0.6rem", display: "inline-flex" } },
      swatch(name),
      `${name}${game.seats && game.seats[i] !== "human" ? ` (${game.seats[i]})` : ""}${game.names && game.names[i] ? ` · ${game.names[i]}` : ""}`,
    ),
  );
  return h(
    "li",
    { "data-game-id": game.id },
    h(
      "span",
      {},
      h("strong", {}, GAME_TITLES[game.game] || game.game),
      game.rated ? [" ", h("span", { class: "tag rated" }, "rated")] : null,
      h("br"),
      h("span", { class: "muted" }, players, `· turn ${game.turns || 0}`),
    ),
    h("span", { class: "row" }, actions),
  );
}

/**
 * @param {LobbyGame} game
 * @param {number} player
 */
async function join(game, player) {
  try {
    /** @type {Joined} */
    const seat = await post(`/api/games/${encodeURIComponent(game.id)}/join`, { player });
    location.assign(seat.url);
  } catch (exc) {
    $("upload-error").textContent = errorText(exc);
    refresh();
  }
}

/**
 * @param {HTMLElement} list
 * @param {LobbyGame[]} games
 * @param {(game: LobbyGame) => HTMLElement[]} actions
 * @param {string} empty said when there is no game
 */
function fill(list, games, actions, empty) {
  list.replaceChildren(...(games.length ? games.map((g) => item(g, actions(g))) : [h("li", { class: "muted" }, empty)]));
}

async function refresh() {
  refreshChallenges();
  /** @type {Lobby} */
  let lobby;
  try {
    lobby = await get("/api/lobby");
  } catch (exc) {
    $("open").replaceChildren(h("li", { class: "muted" }, `The lobby is not available: ${errorText(exc)}`));
    return;
  }
  fill(
    $("open"),
    lobby.open || [],
    (g) => (g.open_seats || []).map((p) => h("button", { class: "btn small primary", type: "button", onclick: () => join(g, p) }, `Sit as ${g.players[p]}`)),
    "No open table. Start one from the home page and make it public.",
  );
  fill($("playing"), lobby.playing || [], (g) => [h("a", { class: "btn small", href: `/g/${encodeURIComponent(g.id)}` }, "Watch")], "Nobody is playing right now.");
  fill($("finished"), lobby.finished || [], (g) => [h("a", { class: "btn small", href: `/replay/${encodeURIComponent(g.id)}` }, "Replay")], "No finished game yet.");
}

async function upload() {
  const file = $("record-file", HTMLInputElement).files[0];
  $("upload-error").textContent = "";
  if (!file) {
    $("upload-error").textContent = "Choose a record file first.";
    return;
  }
  if (file.size > 1024 * 1024) {
    $("upload-error").textContent = "That file is over 1 MB: it is not a game record.";
    return;
  }
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    $("upload-error").textContent = "That file is not JSON: expected a game record.";
    return;
  }
  try {
    /** @type {{id: string, watch_url: string, replay_url: string}} */
    const stored = await post("/api/records", record);
    location.assign(stored.replay_url);
  } catch (exc) {
    $("upload-error").textContent = errorText(exc);
  }
}

// ----- challenges and pairing ----------------------------------------------------------------

/**
 * Shows an error of the challenge form (empty: none).
 * @param {string} text
 */
function challengeError(text) {
  $("challenge-error").textContent = text;
}

/**
 * A challenge of the list with what one may do with it: accept (signed in), decline one made
 * to us, cancel one's own.
 * @param {Challenge} challenge
 * @param {"open" | "to_me" | "mine"} kind
 */
function challengeItem(challenge, kind) {
  /** @type {HTMLElement[]} */
  let actions;
  if (kind === "mine") {
    actions = [h("button", { class: "btn small", type: "button", onclick: () => cancelChallenge(challenge.id) }, "Cancel")];
  } else if (!page.account) {
    actions = [h("a", { class: "btn small", href: signinHref() }, "Sign in to accept")];
  } else {
    actions = [h("button", { class: "btn small primary", type: "button", onclick: () => acceptChallenge(challenge) }, "Accept")];
    if (kind === "to_me") actions.push(h("button", { class: "btn small", type: "button", onclick: () => cancelChallenge(challenge.id) }, "Decline"));
  }
  return h(
    "li",
    { class: `challenge${kind === "to_me" ? " to-me" : ""}${kind === "mine" ? " mine" : ""}`, "data-challenge-id": challenge.id, "data-kind": kind },
    challengeWords(challenge, { by: kind !== "mine" }),
    h("span", { class: "row" }, actions),
  );
}

async function refreshChallenges() {
  if (page.refreshing) return;
  page.refreshing = true;
  /** @type {Challenges} */
  let answer;
  try {
    answer = await get("/api/challenges");
  } catch (exc) {
    $("open-challenges").replaceChildren(h("li", { class: "muted" }, `Challenges are not available: ${errorText(exc)}`));
    return;
  } finally {
    page.refreshing = false;
  }
  const mine = (answer.mine || []).filter((c) => c.status === "open");
  const ours = new Set(mine.map((c) => String(c.id)));
  const toMe = (answer.to_me || []).filter((c) => c.status === "open");
  const theirs = new Set(toMe.map((c) => String(c.id)));
  const open = (answer.open || []).filter((c) => c.status === "open" && !ours.has(String(c.id)) && !theirs.has(String(c.id)));
  const items = [...toMe.map((c) => challengeItem(c, "to_me")), ...open.map((c) => challengeItem(c, "open")), ...mine.map((c) => challengeItem(c, "mine"))];
  $("open-challenges").replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, "No challenge is waiting. Make one, or ask for quick pairing.")]));
  // a challenge of ours still open (made here or before this page): wait for its opponent
  if (!page.waiting && mine.length) waitFor(mine[mine.length - 1]);
}

/** @param {Challenge} challenge */
async function acceptChallenge(challenge) {
  challengeError("");
  try {
    /** @type {{game_id: string, url: string}} */
    const game = await send("POST", `/api/challenges/${encodeURIComponent(challenge.id)}/accept`, {});
    location.assign(game.url);
  } catch (exc) {
    challengeError(errorText(exc));
    refreshChallenges();
  }
}

/** @param {string | number} id */
async function cancelChallenge(id) {
  challengeError("");
  if (page.waiting && String(page.waiting.id) === String(id)) stopWaiting();
  try {
    await send("DELETE", `/api/challenges/${encodeURIComponent(id)}`);
  } catch (exc) {
    challengeError(errorText(exc));
  }
  refreshChallenges();
}

/** The clock the form names: a preset, correspondence (days a move) or none. */
function chosenClock() {
  const value = $("challenge-clock", HTMLSelectElement).value;
  if (value === "none") return null;
  if (value === "days") return /** @type {ClockSpec} */ ({ days_per_move: Number($("challenge-days", HTMLSelectElement).value) });
  const preset = page.clocks[Number(value)];
  return preset ? /** @type {ClockSpec} */ ({ initial_s: preset.initial_s, increment_s: preset.increment_s }) : null;
}

/** What the form asks for: the game, its parameters, the clock, rated or not. */
function offer() {
  const game = $("challenge-game", HTMLSelectElement).value;
  return { game, params: TWO_PLAYERS[game] || {}, clock: chosenClock(), rated: $("challenge-rated", HTMLInputElement).checked };
}

/** Makes the challenge of the form; then waits for its opponent. */
async function createChallenge() {
  challengeError("");
  const to = $("challenge-to", HTMLInputElement).value.trim();
  if (to && !/^[A-Za-z0-9_-]{3,20}$/.test(to)) {
    challengeError("A name is 3 to 20 letters, digits, _ or -.");
    $("challenge-to").focus();
    return;
  }
  const button = $("challenge-create", HTMLButtonElement);
  button.disabled = true;
  try {
    /** @type {Challenge} */
    const challenge = await send("POST", "/api/challenges", { ...offer(), to: to || null });
    $("challenge-to", HTMLInputElement).value = "";
    waitFor(challenge);
    refreshChallenges();
  } catch (exc) {
    challengeError(errorText(exc));
  } finally {
    button.disabled = false;
  }
}

/** Quick pairing: a waiting seek that fits starts the game at once; else ours waits. */
async function pair() {
  challengeError("");
  const button = $("pairing", HTMLButtonElement);
  button.disabled = true;
  try {
    /** @type {{game_id?: string, url?: string} & Partial<Challenge>} */
    const answer = await send("POST", "/api/pairing", { ...offer(), range: Number($("pairing-range", HTMLSelectElement).value) });
    if (answer.url && answer.game_id && answer.status === undefined) {
      location.assign(answer.url);
      return;
    }
    waitFor(/** @type {Challenge} */ (answer));
    refreshChallenges();
  } catch (exc) {
    challengeError(errorText(exc));
  } finally {
    button.disabled = false;
  }
}

/**
 * Waits for someone to accept a challenge or seek of ours (asking for it every 2 s), then
 * opens the game.
 * @param {Challenge} challenge
 */
function waitFor(challenge) {
  stopWaiting();
  page.waiting = { id: challenge.id, timer: setInterval(() => checkWaiting(), WAIT_POLL_MS), asking: false };
  $("waiting").classList.remove("hidden");
  $("waiting").dataset.challengeId = String(challenge.id);
  const whom = challenge.to ? `for ${challenge.to} to accept` : challenge.range ? "for an opponent in your rating range" : "for someone to accept";
  $("waiting-text").textContent = `Your challenge waits ${whom}: the game opens here when it starts.`;
}

function stopWaiting() {
  if (page.waiting) clearInterval(page.waiting.timer);
  page.waiting = null;
  $("waiting").classList.add("hidden");
}

async function checkWaiting() {
  const waiting = page.waiting;
  if (!waiting || waiting.asking) return;
  waiting.asking = true;
  try {
    /** @type {Challenge} */
    const challenge = await get(`/api/challenges/${encodeURIComponent(waiting.id)}`);
    if (page.waiting !== waiting) return;
    if (challenge.status === "accepted" && challenge.url) {
      stopWaiting();
      $("waiting-text").textContent = "Accepted: opening the game…";
      location.assign(challenge.url);
    } else if (challenge.status === "declined" || challenge.status === "cancelled") {
      stopWaiting();
      challengeError(challenge.status === "declined" ? `${challenge.to || "They"} declined your challenge.` : "Your challenge was cancelled.");
      refreshChallenges();
    }
  } catch (exc) {
    if (page.waiting === waiting) challengeError(errorText(exc));
  } finally {
    waiting.asking = false;
  }
}

/** The clock choices: "no clock", the catalog's presets, correspondence. */
function drawClocks() {
  const select = $("challenge-clock", HTMLSelectElement);
  select.replaceChildren(
    h("option", { value: "none" }, "No clock"),
    ...page.clocks.map((c, i) => h("option", { value: String(i), selected: i === 0 }, c.name || `${c.initial_s / 60} min + ${c.increment_s} s`)),
    h("option", { value: "days" }, "Correspondence: days a move"),
  );
  $("challenge-days").replaceChildren(
    ...[1, 2, 3, 5, 7, 10, 14].map((d) => h("option", { value: String(d), selected: d === 3 }, `${d} day${d === 1 ? "" : "s"} a move`)),
  );
  const days = () => $("days-field").classList.toggle("hidden", select.value !== "days");
  select.addEventListener("change", days);
  days();
}

/** @param {Account | null} account */
function showAccount(account) {
  page.account = account;
  $("challenge-signin").classList.toggle("hidden", Boolean(account));
  $("challenge-signin-link", HTMLAnchorElement).href = signinHref();
  for (const el of /** @type {NodeListOf<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>} */ (document.querySelectorAll("#challenge-form button, #challenge-form input, #challenge-form select"))) {
    el.disabled = !account;
  }
  refreshChallenges();
}

async function startChallenges() {
  try {
    /** @type {Catalog} */
    const catalog = await get("/api/catalog");
    page.clocks = catalog.clock_presets || catalog.clocks || [];
  } catch {
    page.clocks = [];
  }
  drawClocks();
  $("challenge-form").addEventListener("submit", (event) => {
    event.preventDefault();
    createChallenge();
  });
  $("pairing").addEventListener("click", pair);
  $("waiting-cancel").addEventListener("click", () => {
    if (page.waiting) cancelChallenge(page.waiting.id);
  });
  onAccount(showAccount);
  await me();
}

$("upload").addEventListener("click", upload);
startChallenges();
refresh();
setInterval(refresh, 5000);
