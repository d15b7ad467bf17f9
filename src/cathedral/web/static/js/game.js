// The game page: players and spectators, live over the WebSocket. The seat secret is the URL
// fragment (/g/<id>#<secret>) and goes to the server only in an Authorization header. Only a
// secret the server recognises makes the page a player's: anyone else watches, whatever the
// address holds.

import { $, copyText, h, swatch, toast } from "./dom.js";
import { ApiError, get, gameIdFromPath, liveGame, post, refusal, secretFromFragment } from "./net.js";
import {
  GAME_TITLES,
  afterLastTurn,
  loadBoard,
  namesOf,
  renderAnalysis,
  renderMoves,
  renderPlayers,
  renderResult,
  renderSince,
  scoreWords,
  turnText,
} from "./table.js";

const id = gameIdFromPath();
const secret = secretFromFragment();
let me = null; // our player number, once the server has said the secret opens a seat
let view = null;
let picture = null;
let pictureCache = new Map(); // ply -> picture (positions never change once played)
let browsing = null; // ply shown from the move list, null when live
let board = null;
let sending = false;
let receivedAt = Date.now();
let resignArmed = false;
let live = null; // the socket
let pending = null; // {ply, timer} of a move sent over the socket, until its view or refusal
let hintAsked = null; // the ply a hint was asked for over the socket
let announced = null; // the last ply read out to screen readers

function showMessage(text, kind = "error") {
  const box = $("message");
  if (!text) {
    box.classList.add("hidden");
    return;
  }
  box.textContent = text;
  box.className = `message ${kind}`;
}

/** The page for an address that holds no game: what happened, and the way on. */
function missing(text) {
  document.title = "Cathedral · no such game";
  $("title").textContent = "";
  $("play").classList.add("hidden");
  $("missing").classList.remove("hidden");
  $("missing-text").textContent = text;
}

async function pictureAt(ply) {
  if (pictureCache.has(ply)) return pictureCache.get(ply);
  const result = await get(`/api/games/${encodeURIComponent(id)}/picture?ply=${ply}`);
  pictureCache.set(ply, result);
  if (pictureCache.size > 64) pictureCache.delete(pictureCache.keys().next().value);
  return result;
}

function myTurn() {
  return Boolean(view && view.status === "playing" && !view.read_only && me !== null && view.current_player === me);
}

/** Players skipped since our last turn (a spectator: in the last round), in words. */
function skipNote() {
  if (!view.skips || !view.skips.length) return null;
  const from = me === null ? (view.recent && view.recent.length ? view.recent[0].ply : view.ply + 1) : afterLastTurn(view, me);
  // a skip is told with the ply after which it happened: our own last one counts
  const skipped = view.skips.filter(([ply]) => ply >= from - 1).flatMap(([, players]) => players);
  if (!skipped.length) return null;
  const unique = [...new Set(skipped)];
  const who = unique.includes(me) && unique.length === 1 ? "You" : namesOf(view, unique);
  return `${who} could not move and ${unique.length > 1 || who === "You" ? "were" : "was"} skipped`;
}

function clockNote() {
  const waiting = view.clock && view.status === "playing" ? view.clock.waiting || [] : [];
  if (!waiting.length) return null;
  const others = waiting.filter((p) => p !== me);
  if (!others.length) return "The clocks start now";
  return `The clocks start when ${namesOf(view, others)} ${others.length > 1 ? "open their links" : "opens their link"}`;
}

function drawBanner() {
  const banner = $("banner");
  const mine = myTurn() && browsing === null && !sending;
  banner.className = `banner${mine ? " mine" : ""}${view.status === "finished" ? " finished" : ""}`;
  const dotColour = view.status === "playing" ? view.players[view.current_player] : null;
  const notes = [skipNote(), clockNote()].filter(Boolean);
  banner.replaceChildren(
    dotColour ? swatch(dotColour) : h("span", { class: "flag-end" }, "⚑"),
    h("span", { id: "turn" }, sending ? "Sending your move…" : turnText(view, me)),
    ...notes.map((note) => h("span", { class: "note" }, note)),
    h("span", { class: "spacer" }),
    h("span", { class: "muted watching" }, me === null ? "watching" : ""),
  );
}

/** Reads the plies other players made since the last announcement out to screen readers. */
function announce() {
  if (announced === null || view.ply <= announced) {
    announced = view.ply;
    return;
  }
  const texts = (view.recent || [])
    .filter((entry) => entry.ply > announced && entry.player !== me)
    .map((entry) => (entry.player >= 0 ? `${view.players[entry.player]}: ${entry.text}` : entry.text));
  announced = view.ply;
  if (texts.length) $("announce").textContent = texts.join(". ");
}

function takebackWhy() {
  if (view.takeback || me === null) return "";
  const mine = (view.movers || []).lastIndexOf(me);
  if (mine < 0) return "Nothing of yours to take back yet.";
  if ((view.movers || []).slice(mine + 1).includes(-1)) return "No take-back: the dice rolled after your move stay rolled.";
  return "Nothing of yours to take back now.";
}

function drawSide() {
  renderPlayers($("players"), view, { me, picture, clockBase: receivedAt });
  const words = scoreWords(view.game);
  $("score-note").textContent = `${words.label}: ${words.means}.`;
  const turns = renderSince($("since"), view, me);
  $("since-title").textContent = me === null ? "The last round" : "Since your last move";
  $("since-panel").classList.toggle("hidden", turns === 0 && !$("since").children.length);
  renderMoves($("moves"), view, { selected: browsing, onPick: browse });
  renderResult($("result"), view);
  const playing = view.status === "playing" && !view.read_only;
  const seated = me !== null;
  $("notation-form").classList.toggle("hidden", !seated || !playing);
  // hints and take-backs are for a person playing only computers (the server's rule)
  const alone = view.seats.filter((kind) => kind === "human").length === 1;
  $("hint").classList.toggle("hidden", !seated || !playing || !alone);
  $("takeback").classList.toggle("hidden", !seated || !playing || !alone);
  $("takeback").disabled = !view.takeback || sending;
  const why = seated && playing && alone ? takebackWhy() : "";
  $("takeback").title = why;
  $("takeback-why").textContent = why;
  $("takeback-why").classList.toggle("hidden", !why);
  $("resign").classList.toggle("hidden", !seated || !playing);
  $("rematch").classList.toggle("hidden", !seated || view.status !== "finished" || view.read_only);
  $("rematch").textContent = view.rematch ? "⟲ Go to the rematch" : "⟲ Rematch";
  const follow = $("follow");
  follow.classList.toggle("hidden", seated || !view.rematch);
  if (view.rematch) follow.href = `/g/${encodeURIComponent(view.rematch)}`;
  const join = $("join");
  const open = (view.open_seats || []).filter(() => !seated && playing);
  join.classList.toggle("hidden", open.length === 0);
  join.replaceChildren(
    ...open.map((player) =>
      h("button", { class: "btn small primary", type: "button", onclick: () => joinSeat(player) }, `Sit as ${view.players[player]}`),
    ),
  );
}

async function drawBoard() {
  const ply = browsing === null ? view.ply : browsing;
  let shown;
  try {
    shown = await pictureAt(ply);
  } catch (exc) {
    showMessage(`Cannot draw the position: ${exc.message}`);
    return;
  }
  if ((browsing === null ? view.ply : browsing) !== ply) return; // a newer view arrived meanwhile
  if (browsing === null) picture = shown;
  const interactive = browsing === null && myTurn() && !sending;
  board.show(shown, { interactive });
  $("board").dataset.ply = String(ply); // the position drawn (tests and scripts wait on it)
  $("board").dataset.interactive = String(interactive);
  $("viewing").classList.toggle("hidden", browsing === null);
  $("viewing-text").textContent = browsing === null ? "" : `Position after ply ${browsing} of ${view.ply}`;
  drawSide();
}

function setView(next) {
  if (view && next.ply < view.ply && next.updated <= view.updated) return; // stale
  if (pending && (next.ply > pending.ply || next.status !== "playing")) settlePending(null);
  const plyChanged = !view || next.ply !== view.ply || next.status !== view.status;
  if (view && next.ply < view.ply) pictureCache = new Map(); // a take-back rewrote the tail
  view = next;
  receivedAt = Date.now();
  drawBanner();
  announce();
  if (plyChanged || !picture) drawBoard();
  else drawSide();
}

// Moves go over the socket when it is open (a refusal comes back as a message, the move as the
// next view); over HTTP otherwise.
async function sendMove(move) {
  if (!myTurn() || sending) return;
  sending = true;
  showMessage("");
  $("hint-box").classList.add("hidden");
  if (board.showHint) board.showHint(null);
  drawBanner();
  const body = { ply: view.ply };
  if (move.action !== undefined && move.action !== null) body.action = move.action;
  else body.move = move.notation;
  if (live && live.send({ type: "move", token: secret, ...body })) {
    pending = {
      ply: view.ply,
      timer: setTimeout(() => {
        pending = null;
        sending = false;
        get(`/api/games/${encodeURIComponent(id)}`).then(setView, () => {});
      }, 15000),
    };
    drawBoard();
    return;
  }
  try {
    const next = await post(`/api/games/${encodeURIComponent(id)}/moves`, body, { token: secret });
    sending = false;
    $("notation").value = "";
    setView(next);
  } catch (exc) {
    sending = false;
    showMessage(refusal(exc));
    // the position may have moved on (409): fetch the truth
    try {
      setView(await get(`/api/games/${encodeURIComponent(id)}`));
      drawBoard();
    } catch {
      /* keep the message */
    }
  }
}

function settlePending(refused) {
  if (!pending) return;
  clearTimeout(pending.timer);
  pending = null;
  sending = false;
  if (refused) showMessage(refusal(refused));
  else $("notation").value = "";
  drawBanner();
}

function browse(ply) {
  browsing = ply >= view.ply ? null : ply;
  drawBanner();
  drawBoard();
}

function showHint(info) {
  const box = $("hint-box");
  box.classList.remove("hidden");
  box.replaceChildren(
    ...renderAnalysis(info, view.players, { onPlay: () => sendMove({ action: info.action, notation: info.move }) }),
  );
  if (board.showHint && info.final !== false && browsing === null) board.showHint(info.action);
}

// A hint streams over the socket (the search's progress, then its answer); over HTTP when the
// socket is down.
async function hint() {
  const box = $("hint-box");
  box.classList.remove("hidden");
  box.textContent = "Thinking…";
  if (live && live.send({ type: "hint", level: "medium", ply: view.ply, token: secret })) {
    hintAsked = view.ply;
    return;
  }
  try {
    showHint(await get(`/api/games/${encodeURIComponent(id)}/hint?ply=${view.ply}&level=medium`, { token: secret }));
  } catch (exc) {
    box.textContent = `No hint: ${exc.message}`;
  }
}

async function takeback() {
  try {
    setView(await post(`/api/games/${encodeURIComponent(id)}/takeback`, {}, { token: secret }));
    showMessage("Move taken back.", "info");
  } catch (exc) {
    showMessage(refusal(exc));
  }
}

async function resign() {
  const button = $("resign");
  if (!resignArmed) {
    resignArmed = true;
    button.textContent = "⚑ Really resign?";
    setTimeout(() => {
      resignArmed = false;
      button.textContent = "⚑ Resign";
    }, 4000);
    return;
  }
  resignArmed = false;
  button.textContent = "⚑ Resign";
  try {
    setView(await post(`/api/games/${encodeURIComponent(id)}/resign`, { ply: view.ply }, { token: secret }));
  } catch (exc) {
    showMessage(refusal(exc));
  }
}

async function rematch() {
  if (view.rematch) {
    location.assign(`/g/${encodeURIComponent(view.rematch)}#${secret}`);
    return;
  }
  try {
    const created = await post(`/api/games/${encodeURIComponent(id)}/rematch`, {}, { token: secret });
    location.assign(`/g/${encodeURIComponent(created.id)}#${secret}`);
  } catch (exc) {
    showMessage(refusal(exc));
  }
}

async function joinSeat(player) {
  try {
    const seat = await post(`/api/games/${encodeURIComponent(id)}/join`, { player });
    location.assign(seat.url);
    location.reload();
  } catch (exc) {
    showMessage(refusal(exc));
  }
}

function tickClocks() {
  if (view && view.clock && view.clock.running !== null && view.status === "playing") {
    renderPlayers($("players"), view, { me, picture, clockBase: receivedAt });
  }
}

function onMessage(message) {
  if (message.type === "view") {
    if (message.view.rematch && (!view || !view.rematch)) {
      toast(me !== null ? "A rematch is waiting: press “Go to the rematch”." : "A rematch has started: “Watch the rematch” follows it.");
    }
    setView(message.view);
  } else if (message.type === "hint") {
    if (hintAsked !== null && hintAsked === view.ply) showHint(message.hint);
    if (message.hint.final !== false) hintAsked = null;
  } else if (message.type === "error") {
    if (pending) {
      settlePending(new ApiError(message.status, message.error));
      drawBoard();
    } else if (hintAsked !== null) {
      hintAsked = null;
      $("hint-box").textContent = `No hint: ${message.error}`;
    } else {
      showMessage(message.error);
    }
  } else if (message.type === "clock") {
    get(`/api/games/${encodeURIComponent(id)}`).then(setView, () => {});
  }
}

async function start() {
  if (id === null) {
    missing("There is no game at this address: a game's address is /g/ followed by its id.");
    return;
  }
  try {
    view = await get(`/api/games/${encodeURIComponent(id)}`);
  } catch (exc) {
    missing(exc.status === 404 ? "No such game: the link may be mistyped, or the game was never made here." : `Cannot load the game: ${exc.message}`);
    return;
  }
  if (secret) {
    try {
      const seat = await get(`/api/games/${encodeURIComponent(id)}/seat`, { token: secret });
      me = seat.player;
      view = await get(`/api/games/${encodeURIComponent(id)}`); // our arrival may start the clocks
    } catch (exc) {
      if (exc.status === 401 || exc.status === 403) {
        showMessage("This link's seat secret is not valid for this game: you are watching.");
      }
    }
  }
  document.title = `Cathedral · ${GAME_TITLES[view.game] || view.game}`;
  $("title").textContent = GAME_TITLES[view.game] || view.game;
  $("record").href = `/api/games/${encodeURIComponent(id)}/record`;
  $("record").setAttribute("download", `cathedral-${view.game}-${id}.json`);
  $("replay").href = `/replay/${encodeURIComponent(id)}`;
  board = await loadBoard(view.game, $("board"), { onMove: sendMove, side: $("board-side") });
  setView(view);
  live = liveGame(id, onMessage);
  setInterval(tickClocks, 500);
  $("notation-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation").value.trim();
    if (!text) return;
    if (!myTurn()) {
      showMessage("It is not your turn.");
      return;
    }
    sendMove({ notation: text });
  });
  $("hint").addEventListener("click", hint);
  $("takeback").addEventListener("click", takeback);
  $("resign").addEventListener("click", resign);
  $("rematch").addEventListener("click", rematch);
  $("back-live").addEventListener("click", () => browse(view.ply));
  $("copy-watch").addEventListener("click", () =>
    copyText(`${location.origin}/g/${encodeURIComponent(id)}`).then(() => toast("Watch link copied.")),
  );
}

start();
