// @ts-check
// A puzzle: its position on the game's board and its goal; the solver makes a move (on the
// board or typed), the server says whether it is one of the answers the proof accepts and why.
// Solved or given up, the solution line plays out step by step. Signed in, the first try counts
// against the puzzle rating; without an account, this browser keeps the first try's outcome.
// /puzzles/daily opens today's puzzle.

import { onAccount } from "./account.js";
import { $, h, swatch } from "./dom.js";
import { ApiError, errorText, get, post } from "./net.js";
import { difficultyText, markPuzzle, puzzlesTried, showVerdict, themeText } from "./study.js";
import { GAME_TITLES, loadBoard } from "./table.js";

/** @typedef {import("./types.js").Account} Account */
/** @typedef {import("./types.js").Board} Board */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Picture} Picture */
/** @typedef {import("./study.js").LinePly} LinePly */
/** @typedef {import("./study.js").PuzzleVerdict} PuzzleVerdict */
/** @typedef {import("./study.js").PuzzleView} PuzzleView */

const STEP_MS = 1300; // a ply of the solution, played through

/**
 * What the page knows that changes.
 * @typedef {object} PuzzlePage
 * @property {PuzzleView | null} puzzle
 * @property {Board | null} board
 * @property {boolean} busy a try is being checked
 * @property {boolean} over solved or given up: the solution is shown
 * @property {boolean} tried a first try was made (here, or before on this account or browser)
 * @property {LinePly[]} line the solution, once shown
 * @property {number} at the ply of the solution shown (0: the puzzle's position)
 * @property {number} timer the play-through's interval (0: none)
 * @property {Account | null} account
 */

/** @type {PuzzlePage} */
const page = { puzzle: null, board: null, busy: false, over: false, tried: false, line: [], at: 0, timer: 0, account: null };

/** @param {string} text */
function missing(text) {
  document.title = "Cathedral · no such puzzle";
  $("play").classList.add("hidden");
  $("missing").classList.remove("hidden");
  $("missing-text").textContent = text;
}

function checkPath() {
  return `/api/puzzles/${encodeURIComponent(page.puzzle.id)}/check`;
}

/**
 * The rating change of a first try, in words.
 * @param {{rating: number, rd: number, before: number | null} | null | undefined} rating
 */
function showRating(rating) {
  const box = $("rating-change");
  if (!rating) {
    box.classList.add("hidden");
    return;
  }
  const after = Math.round(rating.rating);
  const before = rating.before === null ? null : Math.round(rating.before);
  const delta = before === null ? null : after - before;
  box.textContent = before === null ? `Your puzzle rating: ${after} (your first puzzle).` : `Your puzzle rating: ${before} → ${after} (${delta >= 0 ? "+" : "−"}${Math.abs(delta)}).`;
  box.classList.remove("hidden");
}

/**
 * Shows the position again for another try, nothing picked on the board.
 * @param {Picture} picture
 */
function again(picture) {
  page.board.show(picture, { interactive: false }); // puts down what was picked
  page.board.show(picture, { interactive: true });
}

/**
 * Sends a try (or giving up) and shows the verdict; solved or given up, the solution.
 * @param {{move?: string, give_up?: boolean}} body
 */
async function send(body) {
  if (page.busy || page.over) return;
  page.busy = true;
  showVerdict($("verdict"), "info", body.give_up ? "Fetching the solution…" : "Checking your move…");
  /** @type {PuzzleVerdict} */
  let verdict;
  try {
    verdict = await post(checkPath(), body);
  } catch (exc) {
    page.busy = false;
    showVerdict($("verdict"), "wrong", errorText(exc));
    again(page.puzzle.picture);
    return;
  }
  page.busy = false;
  $("notation", HTMLInputElement).value = "";
  const first = !page.tried;
  page.tried = true;
  $("counts-note").classList.add("hidden");
  if (first) markPuzzle(page.puzzle.id, verdict.ok ? "solved" : "missed");
  showRating(verdict.rating);
  $("board").dataset.outcome = verdict.ok ? "solved" : body.give_up ? "given-up" : "missed";
  if (verdict.ok) {
    showVerdict($("verdict"), "right", verdict.text);
    finish(verdict, verdict.after || null);
    return;
  }
  if (body.give_up) {
    showVerdict($("verdict"), "info", verdict.text);
    finish(verdict, null);
    play();
    return;
  }
  showVerdict($("verdict"), "wrong", `${verdict.text}${first ? "" : " Try again, or show the solution."}`);
  again(page.puzzle.picture);
}

/**
 * The puzzle is over: the way on, and its solution to step through.
 * @param {PuzzleVerdict} verdict
 * @param {Picture | null} after the position after the solver's move
 */
function finish(verdict, after) {
  page.over = true;
  page.line = verdict.positions || [];
  $("give-up").classList.add("hidden");
  $("notation-form").classList.add("hidden");
  $("next").classList.remove("hidden");
  $("solution").classList.remove("hidden");
  drawLine();
  if (after) {
    page.at = -1; // the solver's own move, not a ply of the line
    page.board.show(after, { interactive: false });
    $("board").dataset.at = "mine";
  } else {
    showAt(0);
  }
  $("next").focus();
}

function drawLine() {
  const players = page.puzzle.players;
  $("line").replaceChildren(
    ...page.line.map((ply, i) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            "aria-current": String(page.at === i + 1),
            "data-ply": i + 1,
            onclick: () => {
              stop();
              showAt(i + 1);
            },
          },
          swatch(players[ply.player] || ""),
          ` ${ply.move}`,
        ),
      ),
    ),
  );
}

/**
 * Shows the position after n plies of the solution (0: the puzzle's own position).
 * @param {number} n
 */
function showAt(n) {
  page.at = Math.max(0, Math.min(page.line.length, n));
  const picture = page.at === 0 ? page.puzzle.picture : page.line[page.at - 1].picture;
  page.board.show(picture, { interactive: false });
  $("board").dataset.at = String(page.at);
  const ply = page.at ? page.line[page.at - 1] : null;
  $("line-said").textContent = ply ? `${page.puzzle.players[ply.player] || ""}: ${ply.text || ply.move}` : "The puzzle's position.";
  drawLine();
}

function stop() {
  if (page.timer) clearInterval(page.timer);
  page.timer = 0;
  $("play-line").textContent = "▶ Play";
  $("play-line").setAttribute("aria-label", "Play the solution through");
}

/** Plays the solution through from the puzzle's position, a ply every STEP_MS. */
function play() {
  if (page.timer) {
    stop();
    return;
  }
  showAt(0);
  $("play-line").textContent = "Pause";
  $("play-line").setAttribute("aria-label", "Pause the solution");
  page.timer = setInterval(() => {
    showAt(page.at + 1);
    if (page.at >= page.line.length) stop();
  }, STEP_MS);
}

/** @param {Move} move */
function onMove(move) {
  if (!move.notation) return;
  send({ move: move.notation });
}

async function start() {
  const parts = location.pathname.split("/").filter(Boolean);
  let id = null;
  try {
    id = parts[1] ? decodeURIComponent(parts[1]) : null;
  } catch {
    id = null;
  }
  if (!id || !/^[A-Za-z0-9_.-]{1,64}$/.test(id)) {
    missing("There is no puzzle at this address: a puzzle's address is /puzzles/ followed by its id.");
    return;
  }
  try {
    page.puzzle = await get(`/api/puzzles/${encodeURIComponent(id)}`);
  } catch (exc) {
    missing(exc instanceof ApiError && exc.status === 404 ? `There is no puzzle “${id}”: the link may be mistyped.` : `The puzzle cannot be loaded: ${errorText(exc)}`);
    return;
  }
  const puzzle = page.puzzle;
  const gameTitle = GAME_TITLES[puzzle.game] || puzzle.game;
  document.title = `Cathedral · puzzle ${puzzle.id}`;
  $("title").textContent = gameTitle;
  $("where").textContent = `${puzzle.date ? `Puzzle of the day, ${puzzle.date}` : `Puzzle ${puzzle.id}`} · ${gameTitle}`;
  $("puzzle-title").textContent = puzzle.goal;
  $("meta").textContent = `Theme: ${themeText(puzzle.theme)} · difficulty ${difficultyText(puzzle.difficulty)}${puzzle.proof && puzzle.proof.method ? ` · proved by ${puzzle.proof.method}` : ""}`;
  const mover = puzzle.players[puzzle.current_player] || "";
  $("task").replaceChildren(swatch(mover), h("span", { class: "task-text" }, h("strong", {}, puzzle.goal)));
  if (puzzle.next) $("next", HTMLAnchorElement).href = `/puzzles/${encodeURIComponent(puzzle.next)}`;
  page.board = await loadBoard(puzzle.game, $("board"), { onMove, side: $("board-side") });
  page.board.show(puzzle.picture, { interactive: true });
  $("board").dataset.puzzle = puzzle.id;
  onAccount((account) => {
    page.account = account;
    const before = account ? puzzle.tried : puzzlesTried()[puzzle.id];
    page.tried = Boolean(before);
    $("counts-note").classList.toggle("hidden", !account || page.tried || page.over);
    const note = $("before");
    note.classList.toggle("hidden", !before);
    if (before) {
      note.textContent = `You ${before === "solved" ? "solved" : "missed"} this one at your first try${account ? ": this try leaves your rating as it is" : ""}.`;
    }
  });
  $("give-up").addEventListener("click", () => send({ give_up: true }));
  $("notation-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation", HTMLInputElement).value.trim();
    if (text) send({ move: text });
  });
  $("play-line").addEventListener("click", play);
  $("first").addEventListener("click", () => {
    stop();
    showAt(0);
  });
  $("prev").addEventListener("click", () => {
    stop();
    showAt(page.at - 1);
  });
  $("step").addEventListener("click", () => {
    stop();
    showAt(page.at + 1);
  });
  $("last").addEventListener("click", () => {
    stop();
    showAt(page.line.length);
  });
}

start();
