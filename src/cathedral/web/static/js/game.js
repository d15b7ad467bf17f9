// @ts-check
// The game page: players and spectators, live over the WebSocket. The seat secret is the URL
// fragment (/g/<id>#<secret>) and goes to the server only in an Authorization header. Only a
// secret the server recognises makes the page a player's: anyone else watches, whatever the
// address holds.

import { me, onAccount, send } from "./account.js";
import { $, copyText, h, swatch, toast } from "./dom.js";
import { ApiError, errorText, get, gameIdFromPath, liveGame, post, refusal, secretFromFragment } from "./net.js";
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

/** @typedef {import("./types.js").Account} Account */
/** @typedef {import("./types.js").Board} Board */
/** @typedef {import("./types.js").Created} Created */
/** @typedef {import("./types.js").Hint} Hint */
/** @typedef {import("./types.js").Joined} Joined */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Picture} Picture */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./net.js").LiveGame} LiveGame */

const id = gameIdFromPath();
let secret = secretFromFragment(); // a claimed seat gets a new one

/**
 * Everything the page knows that changes: one object, so that what a function reads and
 * writes is plain at the call.
 * @typedef {object} GamePage
 * @property {number | null} me our player number, once the server has said the secret opens a seat
 * @property {View | null} view the latest view
 * @property {Picture | null} picture the live position's picture, once drawn
 * @property {Map<number, Picture>} pictureCache ply -> picture (positions never change once played)
 * @property {number | null} browsing the ply shown from the move list, null when live
 * @property {Board | null} board
 * @property {boolean} sending a move is on its way
 * @property {number} receivedAt when the view arrived (running clocks tick from there)
 * @property {boolean} resignArmed the first press of Resign asks again
 * @property {LiveGame | null} live the socket
 * @property {{ply: number, timer: number} | null} pending a move sent over the socket, until its view or refusal
 * @property {number | null} hintAsked the ply a hint was asked for over the socket
 * @property {number | null} announced the last ply read out to screen readers
 * @property {Account | null} account the signed-in account, if any
 * @property {boolean} claiming a claim of our seat is on its way
 */

/** @type {GamePage} */
const page = {
  me: null,
  view: null,
  picture: null,
  pictureCache: new Map(),
  browsing: null,
  board: null,
  sending: false,
  receivedAt: Date.now(),
  resignArmed: false,
  live: null,
  pending: null,
  hintAsked: null,
  announced: null,
  account: null,
  claiming: false,
};

/**
 * The message under the board (an empty text hides it).
 * @param {string} text
 * @param {"error" | "info"} [kind]
 */
function showMessage(text, kind = "error") {
  const box = $("message");
  if (!text) {
    box.classList.add("hidden");
    return;
  }
  box.textContent = text;
  box.className = `message ${kind}`;
}

/**
 * The page for an address that holds no game: what happened, and the way on.
 * @param {string} text
 */
function missing(text) {
  document.title = "Cathedral · no such game";
  $("title").textContent = "";
  $("play").classList.add("hidden");
  $("missing").classList.remove("hidden");
  $("missing-text").textContent = text;
}

/** @returns {Promise<View>} the game as it stands */
function fetchView() {
  return get(`/api/games/${encodeURIComponent(id)}`);
}

/**
 * @param {number} ply
 * @returns {Promise<Picture>}
 */
async function pictureAt(ply) {
  if (page.pictureCache.has(ply)) return page.pictureCache.get(ply);
  /** @type {Picture} */
  const result = await get(`/api/games/${encodeURIComponent(id)}/picture?ply=${ply}`);
  page.pictureCache.set(ply, result);
  if (page.pictureCache.size > 64) page.pictureCache.delete(page.pictureCache.keys().next().value);
  return result;
}

function myTurn() {
  return Boolean(page.view && page.view.status === "playing" && !page.view.read_only && page.me !== null && page.view.current_player === page.me);
}

/** Players skipped since our last turn (a spectator: in the last round), in words. */
function skipNote() {
  if (!page.view.skips || !page.view.skips.length) return null;
  const from = page.me === null ? (page.view.recent && page.view.recent.length ? page.view.recent[0].ply : page.view.ply + 1) : afterLastTurn(page.view, page.me);
  // a skip is told with the ply after which it happened: our own last one counts
  const skipped = page.view.skips.filter(([ply]) => ply >= from - 1).flatMap(([, players]) => players);
  if (!skipped.length) return null;
  const unique = [...new Set(skipped)];
  const who = unique.includes(page.me) && unique.length === 1 ? "You" : namesOf(page.view, unique);
  return `${who} could not move and ${unique.length > 1 || who === "You" ? "were" : "was"} skipped`;
}

function clockNote() {
  const waiting = page.view.clock && page.view.status === "playing" ? page.view.clock.waiting || [] : [];
  if (!waiting.length) return null;
  const others = waiting.filter((p) => p !== page.me);
  if (!others.length) return "The clocks start now";
  return `The clocks start when ${namesOf(page.view, others)} ${others.length > 1 ? "open their links" : "opens their link"}`;
}

function drawBanner() {
  const banner = $("banner");
  const mine = myTurn() && page.browsing === null && !page.sending;
  banner.className = `banner${mine ? " mine" : ""}${page.view.status === "finished" ? " finished" : ""}`;
  const dotColour = page.view.status === "playing" ? page.view.players[page.view.current_player] : null;
  const notes = [skipNote(), clockNote()].filter(Boolean);
  banner.replaceChildren(
    dotColour ? swatch(dotColour) : h("span", { class: "flag-end" }, "⚑"),
    h("span", { id: "turn" }, page.sending ? "Sending your move…" : turnText(page.view, page.me)),
    ...notes.map((note) => h("span", { class: "note" }, note)),
    h("span", { class: "spacer" }),
    h("span", { class: "muted watching" }, page.me === null ? "watching" : ""),
  );
}

/** Reads the plies other players made since the last announcement out to screen readers. */
function announce() {
  if (page.announced === null || page.view.ply <= page.announced) {
    page.announced = page.view.ply;
    return;
  }
  const texts = (page.view.recent || [])
    .filter((entry) => entry.ply > page.announced && entry.player !== page.me)
    .map((entry) => (entry.player >= 0 ? `${page.view.players[entry.player]}: ${entry.text}` : entry.text));
  page.announced = page.view.ply;
  if (texts.length) $("announce").textContent = texts.join(". ");
}

function takebackWhy() {
  if (page.view.takeback || page.me === null) return "";
  const mine = (page.view.movers || []).lastIndexOf(page.me);
  if (mine < 0) return "Nothing of yours to take back yet.";
  if ((page.view.movers || []).slice(mine + 1).includes(-1)) return "No take-back: the dice rolled after your move stay rolled.";
  return "Nothing of yours to take back now.";
}

function drawSide() {
  renderPlayers($("players"), page.view, { me: page.me, picture: page.picture, clockBase: page.receivedAt });
  const words = scoreWords(page.view.game);
  $("score-note").textContent = `${words.label}: ${words.means}.`;
  const turns = renderSince($("since"), page.view, page.me);
  $("since-title").textContent = page.me === null ? "The last round" : "Since your last move";
  $("since-panel").classList.toggle("hidden", turns === 0 && !$("since").children.length);
  renderMoves($("moves"), page.view, { selected: page.browsing, onPick: browse });
  renderResult($("result"), page.view);
  const playing = page.view.status === "playing" && !page.view.read_only;
  const seated = page.me !== null;
  $("notation-form").classList.toggle("hidden", !seated || !playing);
  // hints and take-backs are for a person playing only computers (the server's rule)
  // (and never in a rated game: its result counts)
  const alone = page.view.seats.filter((kind) => kind === "human").length === 1 && !page.view.rated;
  $("hint").classList.toggle("hidden", !seated || !playing || !alone);
  $("takeback").classList.toggle("hidden", !seated || !playing || !alone);
  $("takeback", HTMLButtonElement).disabled = !page.view.takeback || page.sending;
  const why = seated && playing && alone ? takebackWhy() : "";
  $("takeback").title = why;
  $("takeback-why").textContent = why;
  $("takeback-why").classList.toggle("hidden", !why);
  $("resign").classList.toggle("hidden", !seated || !playing);
  $("rematch").classList.toggle("hidden", !seated || page.view.status !== "finished" || page.view.read_only);
  $("rematch").textContent = page.view.rematch ? "⟲ Go to the rematch" : "⟲ Rematch";
  const follow = $("follow", HTMLAnchorElement);
  follow.classList.toggle("hidden", seated || !page.view.rematch);
  if (page.view.rematch) follow.href = `/g/${encodeURIComponent(page.view.rematch)}`;
  $("rated-note").classList.toggle("hidden", !page.view.rated);
  drawClaim();
  const join = $("join");
  const open = (page.view.open_seats || []).filter(() => !seated && playing);
  join.classList.toggle("hidden", open.length === 0);
  join.replaceChildren(
    ...open.map((player) =>
      h("button", { class: "btn small primary", type: "button", onclick: () => joinSeat(player) }, `Sit as ${page.view.players[player]}`),
    ),
  );
}

/**
 * "Claim this seat for <name>": shown to a signed-in person holding an anonymous seat's secret.
 */
function drawClaim() {
  const box = $("claim");
  const names = page.view.names || [];
  const anonymous = page.me !== null && secret && !names[page.me] && !page.view.read_only && page.view.status === "playing";
  const seatedElsewhere = page.account && names.some((name) => name && name.toLowerCase() === page.account.name.toLowerCase());
  const show = Boolean(page.account && anonymous && !seatedElsewhere);
  box.classList.toggle("hidden", !show);
  if (!show) {
    box.replaceChildren();
    return;
  }
  if (box.dataset.account === page.account.name && box.children.length) return;
  box.dataset.account = page.account.name;
  box.replaceChildren(
    h("button", { id: "claim-seat", class: "btn small", type: "button", onclick: claimSeat }, `Claim this seat for ${page.account.name}`),
    h("span", { class: "muted small" }, "The game then counts as yours; this link's secret changes."),
  );
}

/** The seat becomes the account's: the server answers a new secret, which replaces the fragment. */
async function claimSeat() {
  if (page.claiming) return;
  page.claiming = true;
  try {
    /** @type {{player: number, token: string, url: string}} */
    const claimed = await send("POST", `/api/games/${encodeURIComponent(id)}/claim`, {}, { token: secret });
    secret = claimed.token;
    history.replaceState(null, "", claimed.url || `${location.pathname}#${claimed.token}`);
    toast(`This seat is now ${page.account.name}'s: the page's address holds its new link.`);
    setView(await fetchView());
  } catch (exc) {
    showMessage(refusal(exc));
  } finally {
    page.claiming = false;
  }
}

async function drawBoard() {
  const ply = page.browsing === null ? page.view.ply : page.browsing;
  let shown;
  try {
    shown = await pictureAt(ply);
  } catch (exc) {
    showMessage(`Cannot draw the position: ${errorText(exc)}`);
    return;
  }
  if ((page.browsing === null ? page.view.ply : page.browsing) !== ply) return; // a newer view arrived meanwhile
  if (page.browsing === null) page.picture = shown;
  const interactive = page.browsing === null && myTurn() && !page.sending;
  page.board.show(shown, { interactive });
  $("board").dataset.ply = String(ply); // the position drawn (tests and scripts wait on it)
  $("board").dataset.interactive = String(interactive);
  $("viewing").classList.toggle("hidden", page.browsing === null);
  $("viewing-text").textContent = page.browsing === null ? "" : `Position after ply ${page.browsing} of ${page.view.ply}`;
  drawSide();
}

/**
 * Takes a view from the server (a reply or the socket) unless it is older than ours, and
 * redraws what it changed.
 * @param {View} next
 */
function setView(next) {
  if (page.view && next.ply < page.view.ply && next.updated <= page.view.updated) return; // stale
  if (page.pending && (next.ply > page.pending.ply || next.status !== "playing")) settlePending(null);
  const plyChanged = !page.view || next.ply !== page.view.ply || next.status !== page.view.status;
  if (page.view && next.ply < page.view.ply) page.pictureCache = new Map(); // a take-back rewrote the tail
  page.view = next;
  page.receivedAt = Date.now();
  drawBanner();
  announce();
  if (plyChanged || !page.picture) drawBoard();
  else drawSide();
}

/**
 * Sends a move: over the socket when it is open (a refusal comes back as a message, the move as
 * the next view); over HTTP otherwise.
 * @param {Move} move
 */
async function sendMove(move) {
  if (!myTurn() || page.sending) return;
  page.sending = true;
  showMessage("");
  $("hint-box").classList.add("hidden");
  if (page.board.showHint) page.board.showHint(null);
  drawBanner();
  /** @type {{ply: number, action?: number, move?: string}} */
  const body = { ply: page.view.ply };
  if (move.action !== undefined && move.action !== null) body.action = move.action;
  else body.move = move.notation;
  if (page.live && page.live.send({ type: "move", token: secret, ...body })) {
    page.pending = {
      ply: page.view.ply,
      timer: setTimeout(() => {
        page.pending = null;
        page.sending = false;
        fetchView().then(setView, () => {});
      }, 15000),
    };
    drawBoard();
    return;
  }
  try {
    /** @type {View} */
    const next = await post(`/api/games/${encodeURIComponent(id)}/moves`, body, { token: secret });
    page.sending = false;
    $("notation", HTMLInputElement).value = "";
    setView(next);
  } catch (exc) {
    page.sending = false;
    showMessage(refusal(exc));
    // the position may have moved on (409): fetch the truth
    try {
      setView(await fetchView());
      drawBoard();
    } catch {
      /* keep the message */
    }
  }
}

/**
 * The move sent over the socket is done with: its view came (refused null) or the server
 * said no.
 * @param {ApiError | null} refused
 */
function settlePending(refused) {
  if (!page.pending) return;
  clearTimeout(page.pending.timer);
  page.pending = null;
  page.sending = false;
  if (refused) showMessage(refusal(refused));
  else $("notation", HTMLInputElement).value = "";
  drawBanner();
}

/**
 * Shows the position after a ply from the move list (the last one: the live position).
 * @param {number} ply
 */
function browse(ply) {
  page.browsing = ply >= page.view.ply ? null : ply;
  drawBanner();
  drawBoard();
}

/** @param {Hint} info */
function showHint(info) {
  const box = $("hint-box");
  box.classList.remove("hidden");
  box.replaceChildren(
    ...renderAnalysis(info, page.view.players, { onPlay: () => sendMove({ action: info.action, notation: info.move }) }),
  );
  if (page.board.showHint && info.final !== false && page.browsing === null) page.board.showHint(info.action);
}

// A hint streams over the socket (the search's progress, then its answer); over HTTP when the
// socket is down.
async function hint() {
  const box = $("hint-box");
  box.classList.remove("hidden");
  box.textContent = "Thinking…";
  if (page.live && page.live.send({ type: "hint", level: "medium", ply: page.view.ply, token: secret })) {
    page.hintAsked = page.view.ply;
    return;
  }
  try {
    /** @type {Hint} */
    const info = await get(`/api/games/${encodeURIComponent(id)}/hint?ply=${page.view.ply}&level=medium`, { token: secret });
    showHint(info);
  } catch (exc) {
    box.textContent = `No hint: ${errorText(exc)}`;
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
  if (!page.resignArmed) {
    page.resignArmed = true;
    button.textContent = "⚑ Really resign?";
    setTimeout(() => {
      page.resignArmed = false;
      button.textContent = "⚑ Resign";
    }, 4000);
    return;
  }
  page.resignArmed = false;
  button.textContent = "⚑ Resign";
  try {
    setView(await post(`/api/games/${encodeURIComponent(id)}/resign`, { ply: page.view.ply }, { token: secret }));
  } catch (exc) {
    showMessage(refusal(exc));
  }
}

async function rematch() {
  if (page.view.rematch) {
    location.assign(`/g/${encodeURIComponent(page.view.rematch)}#${secret}`);
    return;
  }
  try {
    /** @type {Created} */
    const created = await post(`/api/games/${encodeURIComponent(id)}/rematch`, {}, { token: secret });
    location.assign(`/g/${encodeURIComponent(created.id)}#${secret}`);
  } catch (exc) {
    showMessage(refusal(exc));
  }
}

/** @param {number} player */
async function joinSeat(player) {
  try {
    /** @type {Joined} */
    const seat = await post(`/api/games/${encodeURIComponent(id)}/join`, { player });
    location.assign(seat.url);
    location.reload();
  } catch (exc) {
    showMessage(refusal(exc));
  }
}

function tickClocks() {
  if (page.view && page.view.clock && page.view.clock.running !== null && page.view.status === "playing") {
    renderPlayers($("players"), page.view, { me: page.me, picture: page.picture, clockBase: page.receivedAt });
  }
}

/** @param {ServerMessage} message */
function onMessage(message) {
  if (message.type === "view") {
    if (message.view.rematch && (!page.view || !page.view.rematch)) {
      toast(page.me !== null ? "A rematch is waiting: press “Go to the rematch”." : "A rematch has started: “Watch the rematch” follows it.");
    }
    setView(message.view);
  } else if (message.type === "hint") {
    if (page.hintAsked !== null && page.hintAsked === page.view.ply) showHint(message.hint);
    if (message.hint.final !== false) page.hintAsked = null;
  } else if (message.type === "error") {
    if (page.pending) {
      settlePending(new ApiError(message.status, message.error));
      drawBoard();
    } else if (page.hintAsked !== null) {
      page.hintAsked = null;
      $("hint-box").textContent = `No hint: ${message.error}`;
    } else {
      showMessage(message.error);
    }
  } else if (message.type === "clock") {
    fetchView().then(setView, () => {});
  }
}

async function start() {
  if (id === null) {
    missing("There is no game at this address: a game's address is /g/ followed by its id.");
    return;
  }
  try {
    page.view = await fetchView();
  } catch (exc) {
    missing(exc instanceof ApiError && exc.status === 404 ? "No such game: the link may be mistyped, or the game was never made here." : `Cannot load the game: ${errorText(exc)}`);
    return;
  }
  if (secret) {
    try {
      /** @type {{player: number}} */
      const seat = await get(`/api/games/${encodeURIComponent(id)}/seat`, { token: secret });
      page.me = seat.player;
      page.view = await fetchView(); // our arrival may start the clocks
    } catch (exc) {
      if (exc instanceof ApiError && (exc.status === 401 || exc.status === 403)) {
        showMessage("This link's seat secret is not valid for this game: you are watching.");
      }
    }
  }
  document.title = `Cathedral · ${GAME_TITLES[page.view.game] || page.view.game}`;
  $("title").textContent = GAME_TITLES[page.view.game] || page.view.game;
  $("record", HTMLAnchorElement).href = `/api/games/${encodeURIComponent(id)}/record`;
  $("record").setAttribute("download", `cathedral-${page.view.game}-${id}.json`);
  $("replay", HTMLAnchorElement).href = `/replay/${encodeURIComponent(id)}`;
  page.board = await loadBoard(page.view.game, $("board"), { onMove: sendMove, side: $("board-side") });
  setView(page.view);
  page.live = liveGame(id, onMessage);
  onAccount((account) => {
    page.account = account;
    if (page.view) drawSide();
  });
  me();
  setInterval(tickClocks, 500);
  $("notation-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation", HTMLInputElement).value.trim();
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
  $("back-live").addEventListener("click", () => browse(page.view.ply));
  $("copy-watch").addEventListener("click", () =>
    copyText(`${location.origin}/g/${encodeURIComponent(id)}`).then(() => toast("Watch link copied.")),
  );
}

start();
