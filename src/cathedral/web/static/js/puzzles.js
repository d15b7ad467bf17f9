// @ts-check
// The puzzles page: every puzzle, easiest first, filtered by game, theme and whether you have
// tried it; your progress (the puzzle rating with an account, this browser's count without
// one) and the puzzle of the day.

import { onAccount, signinHref } from "./account.js";
import { $, h } from "./dom.js";
import { errorText, get } from "./net.js";
import { bandText, difficultyText, puzzlesTried, themeText } from "./study.js";
import { GAME_TITLES } from "./table.js";

/** @typedef {import("./types.js").Account} Account */
/** @typedef {import("./study.js").PuzzleSummary} PuzzleSummary */
/** @typedef {import("./study.js").PuzzleView} PuzzleView */

const SHOWN = 50; // rows drawn at first, and added by "Show more"

/**
 * What the page knows that changes.
 * @typedef {object} PuzzlesPage
 * @property {string} game "" for every game
 * @property {string} theme "" for every theme
 * @property {string} status "", "new", "solved" or "missed"
 * @property {string[]} games
 * @property {string[]} themes of the game chosen
 * @property {PuzzleSummary[]} items every puzzle of the game and theme chosen
 * @property {number} shown rows drawn
 * @property {Account | null} account
 * @property {number} asked the list asked for last (an older answer is dropped)
 */

/** @type {PuzzlesPage} */
const page = { game: "", theme: "", status: "", games: [], themes: [], items: [], shown: SHOWN, account: null, asked: 0 };

/**
 * The first try's outcome at a puzzle: the server's with an account, this browser's without.
 * @param {PuzzleSummary} item
 * @returns {"solved" | "missed" | null}
 */
function outcome(item) {
  if (page.account && item.tried !== undefined) return item.tried || null;
  return puzzlesTried()[item.id] || null;
}

function drawGames() {
  const games = ["", ...page.games];
  $("game-filter").replaceChildren(
    ...games.map((game) =>
      h(
        "button",
        {
          type: "button",
          class: "chip",
          "aria-pressed": String(game === page.game),
          "data-game": game || "all",
          onclick: () => {
            page.game = game;
            page.theme = "";
            load();
          },
        },
        game ? GAME_TITLES[game] || game : "Every game",
      ),
    ),
  );
}

function drawThemes() {
  const select = $("theme", HTMLSelectElement);
  select.replaceChildren(h("option", { value: "" }, "every theme"), ...page.themes.map((t) => h("option", { value: t, selected: t === page.theme }, themeText(t))));
}

function drawList() {
  const chosen = page.items.filter((item) => {
    const tried = outcome(item);
    if (page.status === "new") return !tried;
    if (page.status) return tried === page.status;
    return true;
  });
  const rows = chosen.slice(0, page.shown).map((item) => {
    const tried = outcome(item);
    return h(
      "tr",
      { "data-puzzle": item.id, class: tried ? `tried-${tried}` : null },
      h("td", {}, h("a", { href: `/puzzles/${encodeURIComponent(item.id)}` }, item.id), h("span", { class: "muted small block" }, GAME_TITLES[item.game] || item.game)),
      h("td", {}, item.goal, h("span", { class: "muted small block" }, themeText(item.theme))),
      h("td", { class: "num" }, String(Math.round(item.difficulty)), h("span", { class: "muted small block" }, bandText(item.difficulty))),
      h("td", { class: "outcome" }, tried === "solved" ? "✓ solved" : tried === "missed" ? "✗ missed" : h("span", { class: "muted" }, "—")),
    );
  });
  $("puzzles").querySelector("tbody").replaceChildren(...rows);
  $("count").textContent = chosen.length ? `${chosen.length} puzzle${chosen.length === 1 ? "" : "s"}${chosen.length > page.shown ? `, the first ${page.shown} shown` : ""}` : "No puzzle fits these filters.";
  $("more").classList.toggle("hidden", chosen.length <= page.shown);
}

/** Asks the server for every puzzle of the game and theme chosen (a page at a time). */
async function load() {
  const mine = ++page.asked;
  page.shown = SHOWN;
  drawGames();
  const url = new URL(location.href);
  if (page.game) url.searchParams.set("game", page.game);
  else url.searchParams.delete("game");
  history.replaceState(null, "", url.pathname + url.search);
  /** @type {PuzzleSummary[]} */
  const items = [];
  let offset = 0;
  try {
    for (;;) {
      const query = new URLSearchParams({ offset: String(offset), limit: "1000" });
      if (page.game) query.set("game", page.game);
      if (page.theme) query.set("theme", page.theme);
      /** @type {{puzzles: PuzzleSummary[], total: number, games: string[], themes: string[]}} */
      const found = await get(`/api/puzzles?${query}`);
      if (mine !== page.asked) return;
      items.push(...found.puzzles);
      const order = ["classic", "allmer", "red"];
      page.games = [...found.games].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
      page.themes = found.themes;
      offset += found.puzzles.length;
      if (!found.puzzles.length || offset >= found.total) break;
    }
  } catch (exc) {
    $("list-error").textContent = `The puzzles cannot be listed: ${errorText(exc)}`;
    $("list-error").classList.remove("hidden");
    return;
  }
  $("list-error").classList.add("hidden");
  page.items = items;
  drawGames();
  drawThemes();
  drawList();
}

async function drawProgress() {
  const box = $("progress");
  if (page.account) {
    try {
      /** @type {{rating: {rating: number, rd: number, tried: number, solved: number} | null, tried: Record<string, boolean>}} */
      const mine = await get("/api/me/puzzles");
      if (!mine.rating) {
        box.replaceChildren(h("p", {}, "Your puzzle rating starts with your first try: the first try at each puzzle counts, against the puzzle's difficulty."));
        return;
      }
      box.replaceChildren(
        h("p", { class: "rating-line" }, h("span", { class: "rating-number", id: "puzzle-rating" }, String(Math.round(mine.rating.rating))), h("span", { class: "muted" }, ` ± ${Math.round(2 * mine.rating.rd)}`)),
        h("p", { class: "small" }, `${mine.rating.solved} solved of ${mine.rating.tried} tried at the first try.`),
      );
    } catch (exc) {
      box.replaceChildren(h("p", { class: "muted" }, `Your rating cannot be read: ${errorText(exc)}`));
    }
    return;
  }
  const tried = Object.values(puzzlesTried());
  const solved = tried.filter((t) => t === "solved").length;
  box.replaceChildren(
    h("p", {}, tried.length ? `${solved} solved of ${tried.length} tried in this browser.` : "Nothing tried yet in this browser."),
    h("p", { class: "small" }, h("a", { href: signinHref() }, "Sign in"), " to keep a puzzle rating: the first try at each puzzle counts."),
  );
}

async function drawDaily() {
  try {
    /** @type {PuzzleView} */
    const daily = await get("/api/puzzles/daily");
    if (!daily) return; // 204: no puzzles on this server
    $("daily-goal").textContent = daily.goal;
    $("daily-meta").textContent = `${GAME_TITLES[daily.game] || daily.game} · ${themeText(daily.theme)} · difficulty ${difficultyText(daily.difficulty)}`;
    $("daily-link", HTMLAnchorElement).href = `/puzzles/${encodeURIComponent(daily.id)}`;
    $("daily").classList.remove("hidden");
  } catch {
    /* no puzzles on this server: no daily one either */
  }
}

function start() {
  const query = new URLSearchParams(location.search);
  page.game = query.get("game") || "";
  $("theme").addEventListener("change", () => {
    page.theme = $("theme", HTMLSelectElement).value;
    load();
  });
  $("status").addEventListener("change", () => {
    page.status = $("status", HTMLSelectElement).value;
    page.shown = SHOWN;
    drawList();
  });
  $("more").addEventListener("click", () => {
    page.shown += SHOWN;
    drawList();
  });
  onAccount((account) => {
    const first = page.asked === 0;
    page.account = account;
    drawProgress();
    if (first || account) load();
    else drawList();
  });
  drawDaily();
}

start();
