// @ts-check
// The puzzle of the day on the home page: its goal, game and difficulty, and a link to solve it
// (the strip stays hidden when the server has no puzzles).

import { $ } from "./dom.js";
import { get } from "./net.js";
import { difficultyText, puzzlesTried } from "./study.js";
import { GAME_TITLES } from "./table.js";

/** @typedef {import("./study.js").PuzzleView} PuzzleView */

/** Fills and shows the strip #daily (#daily-goal, #daily-meta, #daily-link). */
export async function showDaily() {
  /** @type {PuzzleView} */
  let daily;
  try {
    daily = await get("/api/puzzles/daily");
  } catch {
    return; // the strip stays hidden
  }
  if (!daily) return; // 204: no puzzles on this server
  const tried = daily.tried || puzzlesTried()[daily.id] || null;
  $("daily-goal").textContent = daily.goal;
  $("daily-meta").textContent = `${GAME_TITLES[daily.game] || daily.game} · ${difficultyText(daily.difficulty)}${tried ? ` · ${tried === "solved" ? "solved ✓" : "tried"}` : ""}`;
  $("daily-link", HTMLAnchorElement).href = `/puzzles/${encodeURIComponent(daily.id)}`;
  $("daily-link").textContent = tried ? "See it again" : "Solve it";
  $("daily").classList.remove("hidden");
}
