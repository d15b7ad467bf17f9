// @ts-check
// A lesson: one step at a time, its position on the game's board and its sentence; the learner
// makes the move on the board (or types it), the server's engine says whether it does what the
// step asks and why, and the next step follows. The steps done are kept in this browser.
// /learn/<game> opens the course's first lesson not done yet.

import "./account.js";
import { $, h, swatch } from "./dom.js";
import { ApiError, errorText, get, post } from "./net.js";
import { markStep, showVerdict, stepsDone } from "./study.js";
import { GAME_TITLES, loadBoard } from "./table.js";

/** @typedef {import("./types.js").Board} Board */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Picture} Picture */
/** @typedef {import("./study.js").Courses} Courses */
/** @typedef {import("./study.js").LessonStep} LessonStep */
/** @typedef {import("./study.js").LessonView} LessonView */
/** @typedef {import("./study.js").StepVerdict} StepVerdict */

/**
 * What the page knows that changes.
 * @typedef {object} LessonPage
 * @property {LessonView | null} lesson
 * @property {Board | null} board
 * @property {number} step the step shown (from 0)
 * @property {boolean} solved the step's goal is met: the board waits for "next"
 * @property {boolean} busy a move is being checked
 * @property {number} misses wrong moves at this step so far
 */

/** @type {LessonPage} */
const page = { lesson: null, board: null, step: 0, solved: false, busy: false, misses: 0 };

/**
 * A part of the address, decoded (null when absent or malformed).
 * @param {string | undefined} part
 */
function decoded(part) {
  if (!part) return null;
  try {
    const text = decodeURIComponent(part);
    return /^[A-Za-z0-9_.-]{1,64}$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** @param {string} text */
function missing(text) {
  document.title = "Cathedral · no such lesson";
  $("play").classList.add("hidden");
  $("missing").classList.remove("hidden");
  $("missing-text").textContent = text;
}

/** @returns {LessonStep} */
function current() {
  return page.lesson.steps[page.step];
}

function checkPath() {
  const l = page.lesson;
  return `/api/lessons/${encodeURIComponent(l.game)}/${encodeURIComponent(l.id)}/${encodeURIComponent(current().id)}/check`;
}

function drawSteps() {
  const done = new Set(stepsDone(page.lesson.game, page.lesson.id));
  $("steps").replaceChildren(
    ...page.lesson.steps.map((step, i) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: `step-dot${done.has(step.id) ? " done" : ""}`,
            "aria-current": i === page.step ? "step" : null,
            "aria-label": `Step ${i + 1}${done.has(step.id) ? ", done" : ""}`,
            "data-step": step.id,
            onclick: () => showStep(i),
          },
          done.has(step.id) ? "✓" : String(i + 1),
        ),
      ),
    ),
  );
}

/**
 * Shows a step: its position ready for the learner's move, its sentence, the way on.
 * @param {number} n
 */
function showStep(n) {
  const lesson = page.lesson;
  page.step = Math.max(0, Math.min(lesson.steps.length - 1, n));
  page.solved = false;
  page.misses = 0;
  const step = current();
  again(step.picture);
  if (page.board.showHint) page.board.showHint(null);
  const board = $("board");
  board.dataset.step = step.id;
  board.dataset.solved = "false";
  const mover = step.players[step.current_player] || "";
  $("task").replaceChildren(swatch(mover), h("span", { class: "task-text" }, h("strong", {}, `${mover} to play. `), step.text));
  $("step-count").textContent = `Step ${page.step + 1} of ${lesson.steps.length}`;
  showVerdict($("verdict"), "info", "Make the move on the board, or type it below.");
  $("hint-text").classList.add("hidden");
  $("hint").classList.toggle("hidden", !step.hint);
  $("show").classList.toggle("hidden", !step.answer);
  $("again").classList.add("hidden");
  $("next").classList.add("hidden");
  $("done").classList.add("hidden");
  $("notation-form").classList.remove("hidden");
  $("notation", HTMLInputElement).value = "";
  drawSteps();
  const url = new URL(location.href);
  url.searchParams.set("step", String(page.step + 1));
  history.replaceState(null, "", url.pathname + url.search);
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
 * Sends the learner's move to be checked and shows the verdict: right, the position after it
 * and the way on; wrong, why, and the position again.
 * @param {Move} move
 */
async function tryMove(move) {
  if (page.busy || page.solved || !move.notation) return;
  page.busy = true;
  const step = current();
  showVerdict($("verdict"), "info", "Checking your move…");
  /** @type {StepVerdict} */
  let verdict;
  try {
    verdict = await post(checkPath(), { move: move.notation });
  } catch (exc) {
    page.busy = false;
    showVerdict($("verdict"), "wrong", errorText(exc));
    again(step.picture);
    return;
  }
  page.busy = false;
  if (step !== current()) return; // the learner went to another step meanwhile
  $("notation", HTMLInputElement).value = "";
  if (!verdict.ok) {
    page.misses += 1;
    showVerdict($("verdict"), "wrong", verdict.text);
    again(step.picture);
    if (page.misses >= 2 && step.hint) showHint();
    return;
  }
  page.solved = true;
  markStep(page.lesson.game, page.lesson.id, step.id);
  page.board.show(verdict.after ? verdict.after.picture : step.picture, { interactive: false });
  $("board").dataset.solved = "true";
  showVerdict($("verdict"), "right", verdict.text);
  $("again").classList.remove("hidden");
  $("hint").classList.add("hidden");
  $("show").classList.add("hidden");
  $("hint-text").classList.add("hidden");
  $("notation-form").classList.add("hidden");
  drawSteps();
  const left = page.lesson.steps.findIndex((s) => !stepsDone(page.lesson.game, page.lesson.id).includes(s.id));
  if (page.step < page.lesson.steps.length - 1) {
    $("next").classList.remove("hidden");
    $("next").focus();
  } else if (left >= 0) {
    $("next").textContent = `Step ${left + 1} is still to do →`;
    $("next").dataset.to = String(left);
    $("next").classList.remove("hidden");
    $("next").focus();
  } else {
    finished();
  }
}

/** The lesson is done: the way to the next one (or to the puzzles after the last). */
function finished() {
  const lesson = page.lesson;
  const link = $("next-lesson", HTMLAnchorElement);
  if (lesson.next) {
    link.href = `/learn/${encodeURIComponent(lesson.game)}/${encodeURIComponent(lesson.next)}`;
    link.textContent = "Next lesson →";
    $("done-text").textContent = `You have done every step of “${lesson.title}”.`;
  } else {
    link.href = `/puzzles?game=${encodeURIComponent(lesson.game)}`;
    link.textContent = "Try some puzzles →";
    $("done-text").textContent = `That was the last lesson of the course: well done. Puzzles from the computer's own games come next.`;
  }
  $("done").classList.remove("hidden");
  $("done-title").focus();
}

function showHint() {
  const step = current();
  const box = $("hint-text");
  box.textContent = `Hint: ${step.hint}`;
  box.classList.remove("hidden");
}

/** Marks a move that meets the goal on the board, and names it. */
function showMe() {
  const step = current();
  if (!step.answer) return;
  if (page.board.showHint) page.board.showHint(step.answer.action);
  showVerdict($("verdict"), "info", `One move that does it: ${step.answer.move}. Now play it on the board.`);
}

/**
 * /learn/<game>: the course's first lesson not done yet (its first when all are).
 * @param {string} game
 * @returns {Promise<string | null>}
 */
async function firstLessonLeft(game) {
  /** @type {Courses} */
  const found = await get("/api/lessons");
  const course = found.courses.find((c) => c.game === game);
  if (!course || !course.lessons.length) return null;
  const left = course.lessons.find((l) => stepsDone(game, l.id).length < l.steps);
  return (left || course.lessons[0]).id;
}

async function start() {
  const parts = location.pathname.split("/").filter(Boolean);
  const game = decoded(parts[1]);
  let id = decoded(parts[2]);
  if (!game) {
    location.replace("/learn");
    return;
  }
  try {
    if (!id) {
      id = await firstLessonLeft(game);
      if (!id) {
        missing(`There is no course for “${game}”.`);
        return;
      }
      history.replaceState(null, "", `/learn/${encodeURIComponent(game)}/${encodeURIComponent(id)}`);
    }
    page.lesson = await get(`/api/lessons/${encodeURIComponent(game)}/${encodeURIComponent(id)}`);
  } catch (exc) {
    missing(exc instanceof ApiError && exc.status === 404 ? `There is no lesson “${id}” in the course of “${game}”: the link may be mistyped.` : `The lesson cannot be loaded: ${errorText(exc)}`);
    return;
  }
  const lesson = page.lesson;
  const gameTitle = GAME_TITLES[lesson.game] || lesson.game;
  document.title = `Cathedral · ${lesson.title}`;
  $("title").textContent = gameTitle;
  $("where").textContent = `${lesson.course || gameTitle} · lesson ${lesson.index + 1} of ${lesson.count}`;
  $("lesson-title").textContent = lesson.title;
  page.board = await loadBoard(lesson.game, $("board"), { onMove: tryMove, side: $("board-side") });
  $("hint").addEventListener("click", showHint);
  $("show").addEventListener("click", showMe);
  $("again").addEventListener("click", () => showStep(page.step));
  $("next").addEventListener("click", () => {
    const to = $("next").dataset.to;
    $("next").textContent = "Next step →";
    delete $("next").dataset.to;
    showStep(to ? Number(to) : page.step + 1);
    $("task").focus();
  });
  $("notation-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation", HTMLInputElement).value.trim();
    if (text) tryMove({ notation: text });
  });
  const asked = Number(new URLSearchParams(location.search).get("step"));
  const done = stepsDone(lesson.game, lesson.id);
  const firstLeft = lesson.steps.findIndex((s) => !done.includes(s.id));
  showStep(Number.isInteger(asked) && asked > 0 ? asked - 1 : Math.max(0, firstLeft));
}

start();
