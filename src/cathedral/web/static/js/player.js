// @ts-check
// A player's page (/@/<name>): each setting's rating with its history drawn as a chart (the
// rating's line, its RD as a band, a point per rated game), the player's games, and a link to
// download every finished game's record.

import { changeText, dateText, me, playerLink, ratingText, settingTitle } from "./account.js";
import { $, h, s } from "./dom.js";
import { ApiError, errorText, get } from "./net.js";

/** @typedef {import("./types.js").Player} Player */
/** @typedef {import("./types.js").PlayerGame} PlayerGame */
/** @typedef {import("./types.js").PlayerRating} PlayerRating */
/** @typedef {import("./types.js").RatingPoint} RatingPoint */

const SETTING_ORDER = ["classic", "allmer2", "allmer4", "red2", "red3", "red4"];

/**
 * The player's name from the address (/@/<name>), or null when it cannot be one.
 * @returns {string | null}
 */
function nameFromPath() {
  let raw;
  try {
    raw = decodeURIComponent(location.pathname.replace(/^\/@\//, "").replace(/\/$/, ""));
  } catch {
    return null;
  }
  return /^[A-Za-z0-9_-]{1,40}$/.test(raw) ? raw : null;
}

/**
 * Round ticks for a range: about `count` of them, at 1, 2, 2.5 or 5 times a power of ten.
 * @param {number} lo
 * @param {number} hi
 * @param {number} count
 * @returns {number[]}
 */
function ticks(lo, hi, count) {
  const span = Math.max(hi - lo, 1e-9);
  const raw = span / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((m) => m >= raw) || 10 * power;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

/**
 * The chart of a rating's history: x the rated games in order, y the rating, the band
 * rating ± RD, a point per game (its <title> says the date, rating and RD), axes with ticks.
 * An SVG image with a title and a description for screen readers.
 * The chart is drawn at the width it is shown at (its text stays readable on a phone).
 * @param {string} setting
 * @param {RatingPoint[]} history
 * @param {number} width the width it has on the page, in CSS pixels
 * @returns {SVGSVGElement}
 */
function ratingChart(setting, history, width) {
  const W = Math.max(280, Math.round(width));
  const H = W < 480 ? 200 : 230;
  const M = { left: 50, right: 16, top: 14, bottom: 38 };
  const n = history.length;
  const lows = history.map((p) => p.rating - p.rd);
  const highs = history.map((p) => p.rating + p.rd);
  let lo = Math.min(...lows, ...history.map((p) => p.rating));
  let hi = Math.max(...highs, ...history.map((p) => p.rating));
  if (hi - lo < 100) {
    const mid = (hi + lo) / 2;
    lo = mid - 50;
    hi = mid + 50;
  }
  const yTicks = ticks(lo, hi, 5);
  lo = Math.min(lo, yTicks[0]);
  hi = Math.max(hi, yTicks[yTicks.length - 1]);
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  /** @type {(i: number) => number} */
  const x = (i) => M.left + (n === 1 ? plotW / 2 : (i / (n - 1)) * plotW);
  /** @type {(v: number) => number} */
  const y = (v) => M.top + (1 - (v - lo) / (hi - lo)) * plotH;
  const id = `chart-${setting}`;
  const last = history[n - 1];
  const best = Math.max(...history.map((p) => p.rating));
  const description = `${n} rated game${n === 1 ? "" : "s"}: from ${Math.round(history[0].rating)} after the first to ${Math.round(last.rating)} now (± ${Math.round(last.rd)}); highest ${Math.round(best)}. The band is the rating ± its deviation.`;
  const svg = s("svg", {
    class: "rating-chart",
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`,
    "data-setting": setting,
    "data-points": n,
  });
  svg.append(s("title", { id: `${id}-title` }, `Rating history, ${settingTitle(setting)}`), s("desc", { id: `${id}-desc` }, description));
  // grid and the y axis's ticks
  const grid = s("g", { class: "grid" });
  for (const v of yTicks) {
    grid.append(
      s("line", { x1: M.left, x2: W - M.right, y1: y(v), y2: y(v) }),
      s("text", { x: M.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(Math.round(v))),
    );
  }
  svg.append(grid);
  // the x axis: game numbers
  const xTicks = n === 1 ? [1] : ticks(1, n, Math.min(n - 1, Math.floor(plotW / 60))).filter((v) => Number.isInteger(v) && v >= 1 && v <= n);
  const axis = s("g", { class: "axis" }, s("line", { x1: M.left, x2: W - M.right, y1: H - M.bottom, y2: H - M.bottom }), s("line", { x1: M.left, x2: M.left, y1: M.top, y2: H - M.bottom }));
  for (const v of xTicks) {
    axis.append(
      s("line", { x1: x(v - 1), x2: x(v - 1), y1: H - M.bottom, y2: H - M.bottom + 5 }),
      s("text", { x: x(v - 1), y: H - M.bottom + 17, "text-anchor": "middle", class: "tick" }, String(v)),
    );
  }
  axis.append(s("text", { x: M.left + plotW / 2, y: H - 4, "text-anchor": "middle", class: "axis-label" }, "rated games"));
  svg.append(axis);
  // the band: rating ± RD
  if (n === 1) {
    svg.append(s("rect", { class: "band", x: x(0) - 10, width: 20, y: y(highs[0]), height: Math.max(1, y(lows[0]) - y(highs[0])), rx: 4 }));
  } else {
    const upper = history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating + p.rd).toFixed(1)}`);
    const lower = history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating - p.rd).toFixed(1)}`).reverse();
    svg.append(s("polygon", { class: "band", points: [...upper, ...lower].join(" ") }));
    svg.append(s("polyline", { class: "line", points: history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ") }));
  }
  const points = s("g", { class: "points" });
  history.forEach((p, i) => {
    points.append(
      s(
        "circle",
        { class: "point", cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: n > 60 ? 2.5 : 4, "data-game-id": p.game_id || null },
        s("title", {}, `Game ${i + 1}, ${dateText(p.at)}: ${Math.round(p.rating)} ± ${Math.round(p.rd)}`),
      ),
    );
  });
  svg.append(points);
  return svg;
}

/**
 * A setting's rating: the number, its RD and games, and the chart.
 * @param {string} setting
 * @param {PlayerRating} rating
 */
function ratingCard(setting, rating) {
  const history = rating.history || [];
  return h(
    "article",
    { class: "rating-card", "data-setting": setting },
    h("h3", {}, settingTitle(setting)),
    h(
      "p",
      { class: "rating-line" },
      h("span", { class: "rating-number" }, ratingText(rating.rating, rating.provisional)),
      h("span", { class: "muted" }, ` ± ${Math.round(rating.rd)} · ${rating.games} game${rating.games === 1 ? "" : "s"}`),
      rating.provisional ? h("span", { class: "muted small" }, " · provisional until the deviation falls under 110") : null,
    ),
    history.length ? h("div", { class: "chart-box", "data-setting": setting }) : h("p", { class: "muted" }, "No rated game yet."),
  );
}

/**
 * Draws every rating's chart at the width its box has now (again when the window changes).
 * @param {Player} player
 */
function drawCharts(player) {
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".chart-box"))) {
    const setting = box.dataset.setting;
    const width = box.clientWidth;
    if (!width || box.dataset.width === String(width)) continue;
    box.dataset.width = String(width);
    box.replaceChildren(ratingChart(setting, player.ratings[setting].history, width));
  }
}

/**
 * @param {PlayerGame} game
 * @param {string} name the page's player
 */
function gameRow(game, name) {
  const others = (game.names || []).filter((_, seat) => seat !== game.player);
  const result = game.result === null || game.result === undefined ? "playing" : game.result;
  const change = game.change === null || game.change === undefined ? "" : changeText(game.change);
  return h(
    "tr",
    { "data-game-id": game.id, class: `result-${String(result).split(" ")[0]}` },
    h("td", {}, dateText(game.at)),
    h("td", {}, settingTitle(game.setting), game.rated ? h("span", { class: "tag rated" }, "rated") : null),
    h("td", {}, others.length ? others.flatMap((other, i) => [i ? ", " : "", playerLink(other, "guest or computer")]) : "—"),
    h("td", { class: "outcome" }, result),
    h("td", { class: `change${game.change > 0 ? " up" : game.change < 0 ? " down" : ""}` }, change),
    h("td", {}, h("a", { href: game.replay_url || `/replay/${encodeURIComponent(game.id)}`, "aria-label": `Replay the game of ${dateText(game.at)} (${name})` }, "Replay")),
  );
}

/**
 * The page for an address that names nobody.
 * @param {string} text
 */
function unknown(text) {
  document.title = "Cathedral · no such player";
  $("player-name").textContent = "No such player";
  $("player-summary").textContent = "";
  $("unknown").classList.remove("hidden");
  $("unknown-text").textContent = text;
}

async function start() {
  const name = nameFromPath();
  if (!name) {
    unknown("This address names no player: a player's page is /@/ followed by their name.");
    return;
  }
  /** @type {Player} */
  let player;
  try {
    player = await get(`/api/players/${encodeURIComponent(name)}`);
  } catch (exc) {
    unknown(exc instanceof ApiError && exc.status === 404 ? `Nobody here is named “${name}”: the name may be mistyped, or the account was deleted.` : `Cannot load the player: ${errorText(exc)}`);
    return;
  }
  document.title = `Cathedral · ${player.name}`;
  $("player-name").textContent = player.name;
  const account = await me();
  const own = account && account.name.toLowerCase() === player.name.toLowerCase();
  $("player-summary").textContent = `${own ? "Your page · " : ""}playing here since ${dateText(player.created)}`;
  $("player").classList.remove("hidden");
  const settings = Object.keys(player.ratings || {}).sort((a, b) => (SETTING_ORDER.indexOf(a) + 99) % 99 - (SETTING_ORDER.indexOf(b) + 99) % 99);
  $("ratings").replaceChildren(
    ...(settings.length ? settings.map((setting) => ratingCard(setting, player.ratings[setting])) : [h("p", { class: "muted" }, "No rated game yet: every setting starts at 1500.")]),
  );
  drawCharts(player);
  let resizing = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => drawCharts(player), 150);
  });
  const records = $("records", HTMLAnchorElement);
  records.href = `/api/players/${encodeURIComponent(player.name)}/records`;
  records.setAttribute("download", `cathedral-${player.name}.json`);
  const games = player.games || [];
  const body = $("player-games").querySelector("tbody");
  body.replaceChildren(...(games.length ? games.map((g) => gameRow(g, player.name)) : [h("tr", {}, h("td", { colspan: 6, class: "muted" }, "No games yet."))]));
}

start();
