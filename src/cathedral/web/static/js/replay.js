// The replay page: a step slider over every ply of a finished or uploaded game, the position at
// each ply, and "analyse" asking the server's hard player for its evaluation and best move.

import { $, h, swatch } from "./dom.js";
import { gameIdFromPath, get, liveGame } from "./net.js";
import { GAME_TITLES, loadBoard, renderAnalysis, renderMoves, renderPlayers, renderResult } from "./table.js";

const id = gameIdFromPath();
let view = null;
let board = null;
let ply = 0;
let token = 0;
const cache = new Map();
let live = null; // the socket: analysis streams over it
let asked = null; // the ply the analysis was asked for

async function pictureAt(n) {
  if (!cache.has(n)) cache.set(n, get(`/api/games/${encodeURIComponent(id)}/picture?ply=${n}`));
  try {
    return await cache.get(n);
  } catch (exc) {
    cache.delete(n);
    throw exc;
  }
}

async function show(n) {
  ply = Math.max(0, Math.min(view.ply, n));
  const mine = ++token;
  $("slider").value = String(ply);
  $("ply").textContent = `ply ${ply} / ${view.ply}`;
  $("analysis").replaceChildren();
  renderMoves($("moves"), view, { selected: ply, onPick: show });
  let picture;
  try {
    picture = await pictureAt(ply);
  } catch (exc) {
    $("banner").textContent = `Cannot draw move ${ply}: ${exc.message}`;
    return;
  }
  if (mine !== token) return;
  board.show(picture, { interactive: false });
  // the players' scores in the position shown, not the final ones
  renderPlayers($("players"), view, { picture, scores: picture.scores || null });
  $("board").dataset.ply = String(ply);
  const last = ply ? view.history[ply - 1] : "start";
  const toMove = picture.to_move >= 0 ? view.players[picture.to_move] : null;
  $("banner").replaceChildren(
    toMove ? swatch(toMove) : h("span", { class: "flag-end" }, "⚑"),
    h("span", {}, ply ? `After ${last}` : "The starting position"),
    h("span", { class: "spacer" }),
    h("span", { class: "muted" }, toMove ? `${toMove} to move` : picture.result || ""),
  );
  const open = view.status === "finished" || view.read_only;
  $("analyse").disabled = picture.to_move < 0 || !open;
  if (!open) $("analysis").textContent = "Analysis opens when the game is over.";
}

async function analyse() {
  const box = $("analysis");
  box.textContent = "The hard player is thinking…";
  if (live && live.send({ type: "hint", level: "hard", ply })) {
    asked = ply;
    $("analyse").disabled = true;
    return;
  }
  const at = ply;
  $("analyse").disabled = true;
  try {
    const info = await get(`/api/games/${encodeURIComponent(id)}/hint?ply=${at}&level=hard`);
    if (at === ply) box.replaceChildren(...renderAnalysis(info, view.players));
  } catch (exc) {
    box.textContent = `No analysis: ${exc.message}`;
  } finally {
    $("analyse").disabled = false;
  }
}

function onMessage(message) {
  if (message.type === "hint" && asked !== null) {
    if (asked === ply) $("analysis").replaceChildren(...renderAnalysis(message.hint, view.players));
    if (message.hint.final !== false) {
      asked = null;
      $("analyse").disabled = false;
    }
  } else if (message.type === "error" && asked !== null) {
    asked = null;
    $("analyse").disabled = false;
    $("analysis").textContent = `No analysis: ${message.error}`;
  }
}

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
    view = await get(`/api/games/${encodeURIComponent(id)}`);
  } catch (exc) {
    missing(exc.status === 404 ? "No such game: the link may be mistyped, or the game was never made here." : `Cannot load the game: ${exc.message}`);
    return;
  }
  $("title").textContent = GAME_TITLES[view.game] || view.game;
  document.title = `Cathedral · replay · ${GAME_TITLES[view.game] || view.game}`;
  $("record").href = `/api/games/${encodeURIComponent(id)}/record`;
  $("record").setAttribute("download", `cathedral-${view.game}-${id}.json`);
  $("watch").href = `/g/${encodeURIComponent(id)}`;
  renderPlayers($("players"), view, {});
  renderResult($("result"), view);
  board = await loadBoard(view.game, $("board"), { onMove: () => {} });
  live = liveGame(id, onMessage);
  const slider = $("slider");
  slider.max = String(view.ply);
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(ply - 1));
  $("next").addEventListener("click", () => show(ply + 1));
  $("last").addEventListener("click", () => show(view.ply));
  $("analyse").addEventListener("click", analyse);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    if (event.key === "ArrowLeft" && event.target !== slider) show(ply - 1);
    if (event.key === "ArrowRight" && event.target !== slider) show(ply + 1);
    if (event.key === "Home") show(0);
    if (event.key === "End") show(view.ply);
  });
  const start = Number(new URLSearchParams(location.search).get("ply"));
  show(Number.isFinite(start) && start > 0 ? start : view.ply);
}

start();
