// @ts-check
// What the lesson and puzzle pages share: their shapes (the answers of /api/lessons and
// /api/puzzles), the progress kept in this browser (localStorage: lessons' steps done, puzzles
// solved or missed without an account), a verdict in words and a move typed in notation.

import { h } from "./dom.js";

/** @typedef {import("./types.js").Picture} Picture */

/**
 * A position as the server sends it for a board: the state, its picture, who plays.
 * @typedef {object} Position
 * @property {string} state the state's JSON
 * @property {Picture & {scores?: number[]}} picture
 * @property {string[]} players
 * @property {number} current_player
 * @property {number} ply
 */

/**
 * A lesson's step: a position, a sentence, a hint and a move that does it.
 * @typedef {Position & {
 *   id: string,
 *   index: number,
 *   text: string,
 *   hint: string | null,
 *   answer: {move: string, action: number} | null,
 * }} LessonStep
 */

/**
 * GET /api/lessons/{game}/{lesson}.
 * @typedef {object} LessonView
 * @property {string} game
 * @property {string} course the course's title
 * @property {string} id
 * @property {string} title
 * @property {number} index the lesson's place in its course (from 0)
 * @property {number} count the course's lessons
 * @property {string | null} previous
 * @property {string | null} next
 * @property {LessonStep[]} steps
 */

/**
 * GET /api/lessons.
 * @typedef {{courses: {game: string, title: string, lessons: {id: string, title: string, steps: number}[]}[]}} Courses
 */

/**
 * POST /api/lessons/{game}/{lesson}/{step}/check.
 * @typedef {object} StepVerdict
 * @property {boolean} ok
 * @property {string} text
 * @property {boolean} last the lesson's last step
 * @property {string} [move]
 * @property {string} [said] the game's words for the move
 * @property {Position} [after] the position after the move (when ok)
 */

/**
 * A puzzle in a list.
 * @typedef {object} PuzzleSummary
 * @property {string} id
 * @property {string} game
 * @property {string} goal
 * @property {string} theme
 * @property {number} difficulty
 * @property {"solved" | "missed" | null} [tried] signed in: the first try's outcome
 */

/**
 * GET /api/puzzles/{id} (and /daily, with its date).
 * @typedef {PuzzleSummary & Position & {
 *   params: Record<string, unknown>,
 *   player: number,
 *   proof: {method: string | null},
 *   next: string | null,
 *   date?: string,
 * }} PuzzleView
 */

/**
 * A ply of a puzzle's solution, with the position after it (to look at).
 * @typedef {{move: string, text: string, player: number, picture: Picture}} LinePly
 */

/**
 * POST /api/puzzles/{id}/check.
 * @typedef {object} PuzzleVerdict
 * @property {boolean} ok
 * @property {string} text
 * @property {boolean} [gave_up]
 * @property {string[]} [line]
 * @property {LinePly[]} [positions]
 * @property {Picture} [after] the position after the solver's move (when ok)
 * @property {{rating: number, rd: number, before: number | null} | null} [rating]
 */

const LESSONS_KEY = "cathedral.lessons";
const PUZZLES_KEY = "cathedral.puzzles";

/**
 * Reads a JSON object from localStorage ({} when absent, unreadable or refused).
 * @param {string} key
 * @returns {Record<string, any>}
 */
function load(key) {
  try {
    const found = JSON.parse(localStorage.getItem(key) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}

/**
 * @param {string} key
 * @param {Record<string, any>} value
 */
function save(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage refused (private mode, full): the page works, the progress is not kept */
  }
}

/**
 * The steps done of a lesson, by step id.
 * @param {string} game
 * @param {string} lesson
 * @returns {string[]}
 */
export function stepsDone(game, lesson) {
  const found = load(LESSONS_KEY)[`${game}/${lesson}`];
  return Array.isArray(found) ? found.filter((id) => typeof id === "string") : [];
}

/**
 * Marks a lesson's step done.
 * @param {string} game
 * @param {string} lesson
 * @param {string} step
 */
export function markStep(game, lesson, step) {
  const all = load(LESSONS_KEY);
  const key = `${game}/${lesson}`;
  const done = new Set(Array.isArray(all[key]) ? all[key] : []);
  done.add(step);
  all[key] = [...done];
  save(LESSONS_KEY, all);
}

/**
 * The puzzles tried in this browser: id -> "solved" or "missed" (the first try's outcome).
 * @returns {Record<string, "solved" | "missed">}
 */
export function puzzlesTried() {
  return load(PUZZLES_KEY);
}

/**
 * Keeps a puzzle's first try (a later one changes nothing, as on the server).
 * @param {string} id
 * @param {"solved" | "missed"} outcome
 */
export function markPuzzle(id, outcome) {
  const all = load(PUZZLES_KEY);
  if (!all[id]) all[id] = outcome;
  save(PUZZLES_KEY, all);
}

/**
 * Fills a verdict box: a mark, the sentence, and a class for its colour.
 * @param {HTMLElement} box
 * @param {"right" | "wrong" | "info"} kind
 * @param {string} text
 */
export function showVerdict(box, kind, text) {
  box.className = `verdict ${kind}`;
  const mark = kind === "right" ? "✓" : kind === "wrong" ? "✗" : "";
  const words = h("span", {}, kind === "wrong" ? "Not quite. " : "", text);
  if (mark) box.replaceChildren(h("span", { class: "mark", "aria-hidden": "true" }, mark), words);
  else box.replaceChildren(words);
}

/**
 * A puzzle's difficulty in words: its rating and a band.
 * @param {number} difficulty
 */
export function difficultyText(difficulty) {
  return `${Math.round(difficulty)} · ${bandText(difficulty)}`;
}

/**
 * A puzzle's difficulty as a word: easy, medium, hard or very hard.
 * @param {number} difficulty
 */
export function bandText(difficulty) {
  const n = Math.round(difficulty);
  return n < 1300 ? "easy" : n < 1600 ? "medium" : n < 1900 ? "hard" : "very hard";
}

/**
 * A theme's name in words ("endgame", "capture-threat" -> "capture threat").
 * @param {string} theme
 */
export function themeText(theme) {
  return String(theme || "").replace(/[-_]/g, " ");
}
