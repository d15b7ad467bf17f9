// @ts-check
// The replay page: a step slider over every ply of a finished or uploaded game, the position at
// each ply, and "analyse" asking the server's hard player for its evaluation and best move.

import "./account.js";
import { $, h, swatch } from "./dom.js";
import { ApiError, errorText, gameIdFromPath, get, liveGame, post } from "./net.js";
import { GAME_TITLES, loadBoard, renderAnalysis, renderMoves, renderPlayers, renderResult } from "./table.js";

/** @typedef {import("./types.js").Board} Board */
/** @typedef {import("./types.js").Hint} Hint */
/** @typedef {import("./types.js").Picture} Picture */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./net.js").LiveGame} LiveGame */

const id = gameIdFromPath();

/**
 * Everything the page knows that changes, in one object.
 * @typedef {object} ReplayPage
 * @property {View | null} view the game, as loaded
 * @property {Board | null} board
 * @property {number} ply the ply shown
 * @property {number} token counts the positions asked for: a picture arriving after a newer
 *   one was asked for is dropped
 * @property {LiveGame | null} live the socket: analysis streams over it
 * @property {number | null} asked the ply the analysis was asked for
 */

/** @type {ReplayPage} */
const page = { view: null, board: null, ply: 0, token: 0, live: null, asked: null };
/** @type {Map<number, Promise<Picture>>} ply -> the picture, asked for once */
const cache = new Map();

/**
 * @param {number} n
 * @returns {Promise<Picture>}
 */
async function pictureAt(n) {
  if (!cache.has(n)) cache.set(n, get(`/api/games/${encodeURIComponent(id)}/picture?ply=${n}`));
  try {
    return await cache.get(n);
  } catch (exc) {
    cache.delete(n);
    throw exc;
  }
}

/**
 * Shows the position after ply n (held within the game).
 * @param {number} n
 */
async function show(n) {
  page.ply = Math.max(0, Math.min(page.view.ply, n));
  const mine = ++page.token;
  $("slider", HTMLInputElement).value = String(page.ply);
  $("ply").textContent = `ply ${page.ply} / ${page.view.ply}`;
  $("analysis").replaceChildren();
  renderMoves($("moves"), page.view, { selected: page.ply, onPick: show });
  let picture;
  try {
    picture = await pictureAt(page.ply);
  } catch (exc) {
    $("banner").textContent = `Cannot draw move ${page.ply}: ${errorText(exc)}`;
    return;
  }
  if (mine !== page.token) return;
  page.board.show(picture, { interactive: false });
  // the players' scores in the position shown, not the final ones
  renderPlayers($("players"), page.view, { picture, scores: picture.scores || null });
  $("board").dataset.ply = String(page.ply);
  const last = page.ply ? page.view.history[page.ply - 1] : "start";
  const toMove = picture.to_move >= 0 ? page.view.players[picture.to_move] : null;
  $("banner").replaceChildren(
    toMove ? swatch(toMove) : h("span", { class: "flag-end" }, "⚑"),
    h("span", {}, page.ply ? `After ${last}` : "The starting position"),
    h("span", { class: "spacer" }),
    h("span", { class: "muted" }, toMove ? `${toMove} to move` : picture.result || ""),
  );
  const open = page.view.status === "finished" || page.view.read_only;
  $("analyse", HTMLButtonElement).disabled = picture.to_move < 0 || !open;
  if (!open) $("analysis").textContent = "Analysis opens when the game is over.";
  const over = picture.to_move < 0 && page.ply >= page.view.ply;
  $("practise", HTMLButtonElement).disabled = !open || over;
  $("practise-why").textContent = !open ? "Practice opens when the game is over." : over ? "The game is over here: pick an earlier move." : "";
}

/** Opens a new table at the position shown: the person to move there, the level the others. */
async function practise() {
  const button = $("practise", HTMLButtonElement);
  button.disabled = true;
  $("practise-why").textContent = "Setting up the table…";
  try {
    /** @type {import("./types.js").Created} */
    const created = await post("/api/practise", { game_id: id, ply: page.ply, level: $("practise-level", HTMLSelectElement).value });
    const mine = created.seats.find((seat) => seat.url);
    location.assign(mine ? mine.url : created.watch_url);
  } catch (exc) {
    $("practise-why").textContent = `No practice table: ${errorText(exc)}`;
    button.disabled = false;
  }
}

async function analyse() {
  const box = $("analysis");
  box.textContent = "The hard player is thinking…";
  if (page.live && page.live.send({ type: "hint", level: "hard", ply: page.ply })) {
    page.asked = page.ply;
    $("analyse", HTMLButtonElement).disabled = true;
    return;
  }
  const at = page.ply;
  $("analyse", HTMLButtonElement).disabled = true;
  try {
    /** @type {Hint} */
    const info = await get(`/api/games/${encodeURIComponent(id)}/hint?ply=${at}&level=hard`);
    if (at === page.ply) box.replaceChildren(...renderAnalysis(info, page.view.players));
  } catch (exc) {
    box.textContent = `No analysis: ${errorText(exc)}`;
  } finally {
    $("analyse", HTMLButtonElement).disabled = false;
  }
}

/** @param {ServerMessage} message */
function onMessage(message) {
  if (message.type === "hint" && page.asked !== null) {
    if (page.asked === page.ply) $("analysis").replaceChildren(...renderAnalysis(message.hint, page.view.players));
    if (message.hint.final !== false) {
      page.asked = null;
      $("analyse", HTMLButtonElement).disabled = false;
    }
  } else if (message.type === "error" && page.asked !== null) {
    page.asked = null;
    $("analyse", HTMLButtonElement).disabled = false;
    $("analysis").textContent = `No analysis: ${message.error}`;
  }
}

/**
 * The page for an address that holds no game: what happened, and the way on.
 * @param {string} text
 */
function missing(text) {
  document.title = "Cathedral · no such game";
  $("play").classList.add("hidden");
  $("missing").classList.remove("hidden");
  $("missing-text").textContent = text;
}

async function start() {
  if (id === null) {
    missing("There is no game at this address: a replay's address is /replay/ followed by the game's id.");
    return;
  }
  try {
    page.view = await get(`/api/games/${encodeURIComponent(id)}`);
  } catch (exc) {
    missing(exc instanceof ApiError && exc.status === 404 ? "No such game: the link may be mistyped, or the game was never made here." : `Cannot load the game: ${errorText(exc)}`);
    return;
  }
  $("title").textContent = GAME_TITLES[page.view.game] || page.view.game;
  document.title = `Cathedral · replay · ${GAME_TITLES[page.view.game] || page.view.game}`;
  $("record", HTMLAnchorElement).href = `/api/games/${encodeURIComponent(id)}/record`;
  $("record").setAttribute("download", `cathedral-${page.view.game}-${id}.json`);
  $("watch", HTMLAnchorElement).href = `/g/${encodeURIComponent(id)}`;
  renderPlayers($("players"), page.view, {});
  renderResult($("result"), page.view);
  page.board = await loadBoard(page.view.game, $("board"), { onMove: () => {} });
  page.live = liveGame(id, onMessage);
  const slider = $("slider", HTMLInputElement);
  slider.max = String(page.view.ply);
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(page.ply - 1));
  $("next").addEventListener("click", () => show(page.ply + 1));
  $("last").addEventListener("click", () => show(page.view.ply));
  $("analyse").addEventListener("click", analyse);
  $("practise").addEventListener("click", practise);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    if (event.target instanceof HTMLSelectElement) return; // the level's own arrows
    if (event.key === "ArrowLeft" && event.target !== slider) show(page.ply - 1);
    if (event.key === "ArrowRight" && event.target !== slider) show(page.ply + 1);
    if (event.key === "Home") show(0);
    if (event.key === "End") show(page.view.ply);
  });
  const start = Number(new URLSearchParams(location.search).get("ply"));
  show(Number.isFinite(start) && start > 0 ? start : page.view.ply);
}

start();
