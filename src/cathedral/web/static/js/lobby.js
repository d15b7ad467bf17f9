// @ts-check
// The lobby: public tables with an open seat, games being played, recent finished games; and
// the upload of a game record to replay.

import { $, h, swatch } from "./dom.js";
import { errorText, get, post } from "./net.js";
import { GAME_TITLES } from "./table.js";

/** @typedef {import("./types.js").Joined} Joined */
/** @typedef {import("./types.js").Lobby} Lobby */
/** @typedef {import("./types.js").LobbyGame} LobbyGame */

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
      `${name}${game.seats && game.seats[i] !== "human" ? ` (${game.seats[i]})` : ""}`,
    ),
  );
  return h(
    "li",
    { "data-game-id": game.id },
    h("span", {}, h("strong", {}, GAME_TITLES[game.game] || game.game), h("br"), h("span", { class: "muted" }, players, `· turn ${game.turns || 0}`)),
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

$("upload").addEventListener("click", upload);
refresh();
setInterval(refresh, 5000);
