// @ts-check
// The leaderboard: a tab per rating setting; its ranked players (RD under 110) and the
// computer's levels with their fixed ratings.

import { playerLink, ratingText, settingTitle } from "./account.js";
import { $, h } from "./dom.js";
import { ApiError, errorText, get } from "./net.js";

/** @typedef {import("./types.js").Leaderboard} Leaderboard */

const DEFAULT_SETTINGS = ["classic", "allmer2", "allmer4", "red2", "red3", "red4"];

/**
 * What the page knows that changes.
 * @typedef {object} LeaderboardPage
 * @property {string} setting the tab shown
 * @property {string[]} settings every tab
 * @property {number} asked the request whose answer is awaited (an older answer is dropped)
 */

/** @type {LeaderboardPage} */
const page = { setting: "classic", settings: DEFAULT_SETTINGS, asked: 0 };

function drawTabs() {
  const list = $("settings");
  list.replaceChildren(
    ...page.settings.map((setting) =>
      h(
        "button",
        {
          id: `tab-${setting}`,
          class: "tab",
          type: "button",
          role: "tab",
          "aria-selected": String(setting === page.setting),
          "aria-controls": "board-panel",
          tabindex: setting === page.setting ? "0" : "-1",
          "data-setting": setting,
          onclick: () => pick(setting),
        },
        settingTitle(setting),
      ),
    ),
  );
  $("board-panel").setAttribute("aria-labelledby", `tab-${page.setting}`);
}

/**
 * Arrow keys move between the tabs (the tab pattern of WAI-ARIA), Home and End to the ends.
 * @param {KeyboardEvent} event
 */
function onKey(event) {
  const at = page.settings.indexOf(page.setting);
  /** @type {Record<string, number>} */
  const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: page.settings.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const next = page.settings[(moves[event.key] + page.settings.length) % page.settings.length];
  pick(next).then(() => $(`tab-${next}`).focus());
}

/** @param {string} setting */
async function pick(setting) {
  page.setting = setting;
  const url = new URL(location.href);
  url.searchParams.set("setting", setting);
  history.replaceState(null, "", url);
  drawTabs();
  await load();
}

async function load() {
  const asked = ++page.asked;
  /** @type {Leaderboard} */
  let board;
  try {
    board = await get(`/api/leaderboard?setting=${encodeURIComponent(page.setting)}`);
  } catch (exc) {
    if (exc instanceof ApiError && exc.status === 422 && page.setting !== DEFAULT_SETTINGS[0]) {
      page.settings = DEFAULT_SETTINGS; // an address naming no setting: the first one instead
      pick(DEFAULT_SETTINGS[0]);
      return;
    }
    $("board-error").textContent = `The leaderboard is not available: ${errorText(exc)}`;
    $("board-error").classList.remove("hidden");
    return;
  }
  if (asked !== page.asked) return;
  $("board-error").classList.add("hidden");
  if (Array.isArray(board.settings) && board.settings.length && board.settings.join() !== page.settings.join()) {
    page.settings = board.settings;
    drawTabs();
  }
  const players = board.players || [];
  $("ranked").querySelector("tbody").replaceChildren(
    ...(players.length
      ? players.map((p) =>
          h(
            "tr",
            { "data-name": p.name },
            h("td", { class: "rank" }, String(p.rank)),
            h("td", {}, playerLink(p.name)),
            h("td", { class: "num" }, ratingText(p.rating)),
            h("td", { class: "num muted" }, `± ${Math.round(p.rd)}`),
            h("td", { class: "num" }, String(p.games)),
          ),
        )
      : [h("tr", {}, h("td", { colspan: 5, class: "muted" }, `Nobody is ranked in ${settingTitle(page.setting)} yet: a rating is ranked once its deviation falls under 110, after some rated games.`))]),
  );
  const computers = board.computers || [];
  $("computers").querySelector("tbody").replaceChildren(
    ...computers.map((c) => h("tr", { "data-level": c.level }, h("td", {}, `Computer · ${c.level}`), h("td", { class: "num" }, ratingText(c.rating)))),
  );
}

function start() {
  const wanted = new URLSearchParams(location.search).get("setting");
  if (wanted && /^[a-z0-9]{1,20}$/.test(wanted)) page.setting = wanted;
  if (!page.settings.includes(page.setting)) page.settings = [...page.settings, page.setting];
  $("settings").addEventListener("keydown", onKey);
  drawTabs();
  load();
}

start();
