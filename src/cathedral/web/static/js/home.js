// @ts-check
// The home page: pick a game and its parameters (from GET /api/catalog), who sits at each
// seat (a person or a computer level), an optional clock, a public or private table; then
// start it and share the invite links.

import { onAccount } from "./account.js";
import { showDaily } from "./daily.js";
import { $, copyText, h, s, swatch, toast } from "./dom.js";
import { errorText, get, post } from "./net.js";

/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").CatalogGame} CatalogGame */
/** @typedef {import("./types.js").ClockPreset} ClockPreset */
/** @typedef {import("./types.js").Created} Created */
/** @typedef {import("./types.js").CreatedSeat} CreatedSeat */
/** @typedef {import("./types.js").SeatKind} SeatKind */

/**
 * The table being set up: everything the page knows that changes, in one object.
 * @typedef {object} HomePage
 * @property {Catalog | null} catalog what the server offers
 * @property {CatalogGame | null} game the catalog entry chosen
 * @property {Record<string, unknown>} params the game's parameters, by name
 * @property {SeatKind[]} seats per seat: "human" or a level
 * @property {ClockPreset | "days" | null} clock a preset, correspondence (days a move) or none
 * @property {number} days correspondence: the days each move may take
 * @property {boolean} isPublic in the lobby, with open seats
 * @property {boolean} signedIn a rated table may be asked for
 * @property {boolean} rated
 */

/** @type {HomePage} */
const page = { catalog: null, game: null, params: {}, seats: [], clock: null, days: 3, isPublic: false, signedIn: false, rated: false };

/** @type {ClockPreset[]} */
const DEFAULT_CLOCKS = [
  { name: "5 min + 3 s", initial_s: 300, increment_s: 3 },
  { name: "15 min + 10 s", initial_s: 900, increment_s: 10 },
];

/**
 * A small picture of a game's board for its button.
 * @param {string} name
 */
function art(name) {
  const back = /** @type {Record<string, string>} */ ({ classic: "#5b3a22", allmer: "#4a2e1d", red: "#7a2e1f" })[name];
  const svg = s("svg", { class: "art", viewBox: "0 0 240 130", "aria-hidden": "true", preserveAspectRatio: "xMidYMid meet", style: { background: back } });
  if (name === "classic") {
    svg.append(s("rect", { width: 240, height: 130, fill: "#5b3a22" }));
    for (let f = 0; f < 10; f++) {
      for (let r = 0; r < 10; r++) {
        svg.append(s("rect", { x: 70 + f * 10, y: 14 + r * 10, width: 10, height: 10, fill: (f + r) % 2 ? "#d8c69c" : "#cbb68a" }));
      }
    }
    /** @type {(list: [number, number][], fill: string) => void} */
    const cells = (list, fill) => list.forEach(([f, r]) => svg.append(s("rect", { x: 70 + f * 10, y: 14 + r * 10, width: 10, height: 10, fill, stroke: "#0003" })));
    cells([[4, 3], [3, 4], [4, 4], [5, 4], [4, 5], [4, 6]], "#8f8a84");
    cells([[1, 1], [2, 1], [1, 2], [2, 2], [0, 7], [1, 7], [1, 8]], "#f3e3bc");
    cells([[7, 7], [8, 7], [8, 8], [7, 1], [8, 1], [9, 1], [8, 2]], "#5a3420");
  } else if (name === "allmer") {
    svg.append(s("rect", { width: 240, height: 130, fill: "#4a2e1d" }));
    const o = [120 - 56, 65 - 56];
    for (const [fx, fy] of [[5, 0], [0, 5], [5, 5], [10, 5], [5, 10]]) {
      svg.append(s("rect", { x: o[0] + fx * 7.5 - 3, y: o[1] + fy * 7.5 - 3, width: 37, height: 37, rx: 3, fill: fx === 5 && fy === 5 ? "#c9a978" : "#e2cda1" }));
    }
    for (let x = 5; x < 10; x++) {
      for (let y = 0; y < 3; y++) svg.append(s("circle", { cx: o[0] + x * 7.5 + 0.7, cy: o[1] + y * 7.5 + 0.7, r: 3, fill: "#2a2623" }));
      for (let y = 12; y < 15; y++) svg.append(s("circle", { cx: o[0] + x * 7.5 + 0.7, cy: o[1] + y * 7.5 + 0.7, r: 3, fill: "#f7f3ea", stroke: "#8c826f" }));
    }
  } else {
    svg.append(s("rect", { width: 240, height: 130, fill: "#7a2e1f" }));
    svg.append(s("circle", { cx: 120, cy: 65, r: 52, fill: "#a5412b", stroke: "#4b1a10", "stroke-width": 3 }));
    const colours = ["#c08a4e", "#b5462c", "#9ea3a8", "#e3b627", "#2f9e5b", "#8a4fb8", "#d9c27a", "#466fb3"];
    colours.forEach((c, i) => {
      const a = ((-90 + i * 45 + 22.5) * Math.PI) / 180;
      svg.append(s("rect", { x: 120 + Math.cos(a) * 36 - 8, y: 65 + Math.sin(a) * 36 - 8, width: 16, height: 16, rx: 3, fill: c, stroke: "#3a2a1a" }));
    });
    /** @type {[string, number][]} */ ([["#f4f1ea", 0], ["#c0392b", 2], ["#2f64b3", 5]]).forEach(([c, i]) => {
      const a = ((-90 + i * 45 + 22.5) * Math.PI) / 180;
      svg.append(s("rect", { x: 120 + Math.cos(a) * 58 - 6, y: 65 + Math.sin(a) * 58 - 6, width: 12, height: 12, rx: 2, fill: c, stroke: "#222" }));
    });
    svg.append(s("path", { d: "M112 80v-22l8-14 8 14v22z", fill: "#f3e6c8", stroke: "#4b1a10" }));
  }
  return svg;
}

/**
 * The seats' names for the number of players chosen.
 * @returns {string[]}
 */
function playerNames() {
  const count = /** @type {number | undefined} */ (page.params.players) || (page.game.players && Object.keys(page.game.players).length === 1 ? Number(Object.keys(page.game.players)[0]) : 2);
  const table = page.game.players || {};
  if (Array.isArray(table)) {
    const entry = table.find((t) => t.count === count) || table[0];
    return entry ? entry.names : [];
  }
  return table[String(count)] || table[count] || Object.values(table)[0] || [];
}

/** @returns {string[]} the computer's levels */
function levels() {
  return (page.catalog.levels || ["random", "easy", "medium", "hard", "max"]).map((l) => (typeof l === "string" ? l : l.name));
}

/**
 * A group of toggle buttons, one pressed: the value `current`.
 * @template T
 * @param {HTMLElement} group
 * @param {[T, string][]} options value and label
 * @param {T} current
 * @param {(value: T) => void} onPick
 */
function chips(group, options, current, onPick) {
  group.replaceChildren(
    ...options.map(([value, label]) =>
      h(
        "button",
        {
          class: "chip",
          type: "button",
          "aria-pressed": String(value === current),
          "data-value": String(value),
          onclick: () => onPick(value),
        },
        label,
      ),
    ),
  );
}

function drawGames() {
  $("games").replaceChildren(
    ...page.catalog.games.map((g) =>
      h(
        "button",
        {
          class: "game-box",
          type: "button",
          "aria-pressed": String(page.game && page.game.name === g.name),
          "data-game": g.name,
          onclick: () => pickGame(g.name),
        },
        art(g.name),
        h("span", { class: "label" }, h("strong", {}, g.title), h("span", {}, g.summary)),
      ),
    ),
  );
}

/** @param {string} name */
function pickGame(name) {
  page.game = page.catalog.games.find((g) => g.name === name);
  page.params = {};
  for (const p of page.game.parameters || []) page.params[p.name] = p.default;
  page.seats = [];
  drawGames();
  drawParams();
  drawSeats();
  $("invites").classList.add("hidden");
}

function drawParams() {
  $("game-title").textContent = page.game.title;
  $("game-summary").textContent = page.game.summary || "";
  const box = $("params");
  box.replaceChildren();
  const more = h("details", {}, h("summary", {}, "More rules"));
  for (const p of page.game.parameters || []) {
    if (p.name === "components") continue; // only the shipped set over the web
    const group = h("div", { class: "chips", role: "group", "aria-label": p.name });
    const range = p.maximum !== null && p.maximum !== undefined ? ` (${p.minimum} to ${p.maximum} on this server)` : "";
    const field = h("div", { class: "field", "data-param": p.name }, h("span", { class: "label" }, p.name.replace(/_/g, " ")), group, p.help ? h("small", {}, p.help + range) : null);
    /** @type {[unknown, string][] | null} */
    let options = null;
    if (p.choices && p.choices.length) options = p.choices.map((c) => [c, String(c)]);
    else if (p.type === "bool" || typeof p.default === "boolean") options = [[false, "no"], [true, "yes"]];
    if (options) {
      const redraw = () =>
        chips(group, options, page.params[p.name], (value) => {
          page.params[p.name] = value;
          redraw();
          if (p.name === "players") drawSeats();
        });
      redraw();
    } else {
      const input = h("input", {
        type: "text",
        inputmode: "numeric",
        value: page.params[p.name] === null || page.params[p.name] === undefined ? "" : String(page.params[p.name]),
        placeholder: p.default === null ? "default" : "",
        "aria-label": p.name,
        oninput: (event) => {
          const text = /** @type {HTMLInputElement} */ (event.target).value.trim();
          page.params[p.name] = text === "" ? p.default : /^\d+$/.test(text) ? Number(text) : text;
        },
      });
      group.append(input);
    }
    const main = ["players", "opening", "workshop", "field", "withdraw"].includes(p.name);
    (main ? box : more).append(field);
  }
  if (more.children.length > 1) box.append(more);
  const presets = page.catalog.clocks || page.catalog.clock_presets || DEFAULT_CLOCKS;
  /** @type {[ClockPreset | "days" | null, string][]} */
  const clockOptions = [
    [null, "No clock"],
    ...presets.map((c) => /** @type {[ClockPreset, string]} */ ([c, c.name || `${c.initial_s / 60} min + ${c.increment_s} s`])),
    ["days", "Correspondence"],
  ];
  const drawClocks = () => {
    chips($("clocks"), clockOptions, page.clock, (value) => {
      page.clock = value;
      drawClocks();
    });
    $("days-field").classList.toggle("hidden", page.clock !== "days");
  };
  drawClocks();
  const drawVisibility = () =>
    chips($("visibility"), [[false, "Private (invite links)"], [true, "Public (in the lobby)"]], page.isPublic, (value) => {
      page.isPublic = value;
      drawVisibility();
    });
  drawVisibility();
}

function drawSeats() {
  const names = playerNames();
  const previous = page.seats;
  page.seats = names.map((_, i) => previous[i] || (i === 0 ? "human" : "medium"));
  /** @type {[string, string][]} */
  const options = [["human", "Person"], ...levels().map((l) => /** @type {[string, string]} */ ([l, `Computer · ${l}`]))];
  $("seats").replaceChildren(
    ...names.map((name, i) => {
      const select = h(
        "select",
        {
          "aria-label": `${name} is played by`,
          "data-seat": i,
          onchange: (event) => {
            page.seats[i] = /** @type {HTMLSelectElement} */ (event.target).value;
          },
        },
        ...options.map(([value, label]) => h("option", { value, selected: page.seats[i] === value }, label)),
      );
      return h(
        "div",
        { class: "seat" },
        h("span", { class: "who" }, swatch(name), name),
        select,
      );
    }),
  );
}

async function startGame() {
  const button = $("start", HTMLButtonElement);
  $("start-error").textContent = "";
  /** @type {{game: string, params: Record<string, unknown>, seats: SeatKind[], clock?: import("./types.js").ClockSpec, public?: boolean, rated?: boolean}} */
  const body = { game: page.game.name, params: {}, seats: [...page.seats] };
  for (const p of page.game.parameters || []) {
    if (p.name === "components") continue;
    if (page.params[p.name] !== p.default) body.params[p.name] = page.params[p.name];
  }
  if (page.clock === "days") body.clock = { days_per_move: page.days };
  else if (page.clock) body.clock = { initial_s: page.clock.initial_s, increment_s: page.clock.increment_s };
  if (page.isPublic) body.public = true;
  if (page.signedIn && page.rated) body.rated = true;
  button.disabled = true;
  /** @type {Created} */
  let created;
  try {
    created = await post("/api/games", body);
  } catch (exc) {
    $("start-error").textContent = errorText(exc);
    button.disabled = false;
    return;
  }
  button.disabled = false;
  const humans = created.seats.filter((seat) => seat.kind === "human");
  const withLinks = humans.filter((seat) => seat.url);
  if (withLinks.length <= 1 && !page.isPublic) {
    location.assign(withLinks.length ? withLinks[0].url : created.watch_url);
    return;
  }
  showInvites(created, humans);
}

/**
 * The links of a table just made: each human seat's (or "open seat"), and the watch link.
 * @param {Created} created
 * @param {CreatedSeat[]} humans
 */
function showInvites(created, humans) {
  const names = playerNames();
  const box = $("invites");
  box.classList.remove("hidden");
  /** @type {(url: string) => string} */
  const absolute = (url) => new URL(url, location.origin).href;
  const rows = humans.map((seat, k) => {
    const name = names[seat.player] || `Player ${seat.player + 1}`;
    if (!seat.url) {
      const who = page.isPublic ? "anyone in the lobby" : "anyone with the watch link";
      const open = page.signedIn && page.rated ? `open seat: ${who} who is signed in may sit here` : `open seat: ${who} may sit here`;
      return h("div", { class: "invite" }, h("span", { class: "who" }, name), h("span", { class: "muted" }, open));
    }
    const link = absolute(seat.url);
    return h(
      "div",
      { class: "invite", "data-player": seat.player },
      h("span", { class: "who" }, swatch(name), " ", name),
      h("input", { type: "text", readonly: true, value: link, "aria-label": `${name}'s link`, onfocus: (e) => /** @type {HTMLInputElement} */ (e.target).select() }),
      h("button", { class: "btn small", type: "button", onclick: () => copyText(link).then(() => toast(`${name}'s link copied.`)) }, "Copy"),
      h("a", { class: `btn small${k === 0 ? " primary" : ""}`, href: seat.url }, k === 0 ? "Play" : "Open"),
    );
  });
  box.replaceChildren(
    h("h3", {}, "The table is ready"),
    h("p", { class: "muted" }, "Each link is a seat's key: send it only to the person who plays that seat. Anyone may watch with the watch link."),
    ...rows,
    h(
      "div",
      { class: "invite" },
      h("span", { class: "who" }, "Watch"),
      h("input", { type: "text", readonly: true, value: absolute(created.watch_url), "aria-label": "Watch link" }),
      h("button", { class: "btn small", type: "button", onclick: () => copyText(absolute(created.watch_url)).then(() => toast("Watch link copied.")) }, "Copy"),
      h("a", { class: "btn small", href: created.watch_url }, "Watch"),
    ),
  );
  box.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

function drawRated() {
  $("rated-field").classList.toggle("hidden", !page.signedIn);
  $("rated", HTMLInputElement).checked = page.rated;
}

async function start() {
  showDaily();
  $("days").replaceChildren(...[1, 2, 3, 5, 7, 10, 14].map((d) => h("option", { value: String(d), selected: d === page.days }, `${d} day${d === 1 ? "" : "s"}`)));
  $("days").addEventListener("change", () => {
    page.days = Number($("days", HTMLSelectElement).value);
  });
  $("rated").addEventListener("change", () => {
    page.rated = $("rated", HTMLInputElement).checked;
  });
  onAccount((account) => {
    page.signedIn = Boolean(account);
    drawRated();
  });
  try {
    page.catalog = await get("/api/catalog");
  } catch (exc) {
    $("game-title").textContent = "The server cannot list its games";
    $("game-summary").textContent = errorText(exc);
    return;
  }
  if (!Array.isArray(page.catalog.games) && page.catalog.games) page.catalog.games = Object.values(page.catalog.games);
  const order = ["classic", "allmer", "red"];
  page.catalog.games.sort((a, b) => (order.indexOf(a.name) + 99) % 99 - (order.indexOf(b.name) + 99) % 99);
  const wanted = new URLSearchParams(location.search).get("game");
  drawGames();
  pickGame(page.catalog.games.some((g) => g.name === wanted) ? wanted : page.catalog.games[0].name);
  $("start").addEventListener("click", startGame);
}

start();
