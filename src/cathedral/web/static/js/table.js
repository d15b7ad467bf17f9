// @ts-check
// What the game page and the replay page share: the board of a game, the players panel, the
// move list grouped by turns, what happened since a player's last turn, and the result.

import { formatClock, formatDays, h, seatColour, swatch } from "./dom.js";

/** @typedef {import("./types.js").Board} Board */
/** @typedef {import("./types.js").BoardHandlers} BoardHandlers */
/** @typedef {import("./types.js").BoardModule} BoardModule */
/** @typedef {import("./types.js").Hint} Hint */
/** @typedef {import("./types.js").Picture} Picture */
/** @typedef {import("./types.js").View} View */

/**
 * A game's score in words.
 * @typedef {object} ScoreWords
 * @property {string} unit after a number
 * @property {string} label the column's title
 * @property {string} means what it counts, and which way wins
 */

/**
 * A turn of the move list, or the set-up before anyone's first turn.
 * @typedef {object} TurnGroup
 * @property {"turn" | "setup"} kind
 * @property {number | null} player who moved (null: not known)
 * @property {number} number the turn's number (0 for the set-up)
 * @property {{ply: number, chance: boolean}[]} plies
 */

/**
 * The board module of each game, loaded when a page needs it.
 * @type {Record<string, () => Promise<BoardModule>>}
 */
const BOARDS = {
  classic: () => import("./boards/classic.js"),
  allmer: () => import("./boards/allmer.js"),
  red: () => import("./boards/red.js"),
};

/** @type {Readonly<Record<string, string>>} */
export const GAME_TITLES = {
  classic: "Cathedral (Moore)",
  allmer: "Cathedral (Allmer)",
  red: "The Red Cathedral",
};

/**
 * Each game's score in its own words: the unit after a number, and what it means.
 * @type {Readonly<Record<string, ScoreWords>>}
 */
export const SCORES = {
  classic: { unit: "unplaced", label: "Unplaced squares", means: "the squares of the buildings still in hand; fewer wins" },
  allmer: { unit: "stones", label: "Stones", means: "stones still on the board; more win" },
  red: { unit: "prestige", label: "Prestige", means: "prestige points; most wins" },
};

/**
 * @param {string} game
 * @returns {ScoreWords}
 */
export function scoreWords(game) {
  return SCORES[game] || { unit: "", label: "Score", means: "the game's score" };
}

/**
 * The plies from..to (numbered from 1) grouped as people read a game: the set-up (chance
 * before anyone's first turn), then one group per turn: its player, its number, and its
 * plies (dice and draws during a turn stay in it, marked `chance`).
 * @param {View} view
 * @param {number} [from]
 * @param {number} [to]
 * @returns {TurnGroup[]}
 */
export function turnGroups(view, from = 1, to = view.ply) {
  const starts = new Set(view.turn_starts || []);
  const movers = view.movers || [];
  /** @type {TurnGroup[]} */
  const groups = [];
  let number = (view.turn_starts || []).filter((ply) => ply < from).length;
  for (let ply = from; ply <= to; ply++) {
    const player = movers[ply - 1] === undefined ? null : movers[ply - 1];
    const last = groups[groups.length - 1];
    const chance = player === -1;
    if (starts.has(ply) || (!chance && (!last || last.kind !== "turn" || last.player !== player))) {
      number += starts.has(ply) ? 1 : 0;
      groups.push({ kind: "turn", player, number, plies: [{ ply, chance }] });
    } else if (last) {
      last.plies.push({ ply, chance });
    } else {
      groups.push({ kind: chance && number === 0 ? "setup" : "turn", player, number, plies: [{ ply, chance }] });
    }
  }
  return groups;
}

/**
 * The ply after the end of `player`'s last completed turn (1 if none): what that player has
 * not seen yet starts there. A turn under way (`view.in_turn`) is not completed.
 * @param {View} view
 * @param {number} player
 * @param {TurnGroup[]} [groups]
 */
export function afterLastTurn(view, player, groups = turnGroups(view)) {
  let mine = groups.filter((g) => g.kind === "turn" && g.player === player);
  const last = groups[groups.length - 1];
  if (view.in_turn && view.current_player === player && mine.length && mine[mine.length - 1] === last) {
    mine = mine.slice(0, -1);
  }
  if (!mine.length) return 1;
  const decisions = mine[mine.length - 1].plies.filter((p) => !p.chance);
  return decisions[decisions.length - 1].ply + 1;
}

/**
 * Loads the board of a game and draws it into root.
 * @param {string} game
 * @param {HTMLElement} root
 * @param {BoardHandlers} handlers
 * @returns {Promise<Board>}
 */
export async function loadBoard(game, root, handlers) {
  const load = BOARDS[game];
  if (!load) throw new Error(`no board for the game ${game}`);
  const module = await load();
  return module.createBoard(root, handlers);
}

/**
 * Fills the players list: name, who sits there, score in the game's unit, clock (or "waiting"
 * while the clocks wait for that person to open their link); marks the player to move.
 * `clockBase` is when the view arrived, so running clocks tick between views; `scores`
 * replaces the view's (a replay shows those of the position on the board).
 * @param {HTMLElement} list
 * @param {View} view
 * @param {{me?: number | null, picture?: Picture | null, clockBase?: number | null, scores?: number[] | null}} [options]
 */
export function renderPlayers(list, view, { me = null, picture = null, clockBase = null, scores = null } = {}) {
  const clock = view.clock;
  const words = scoreWords(view.game);
  const shown = scores || view.scores;
  const waiting = new Set((clock && clock.waiting) || []);
  list.replaceChildren(
    ...view.players.map((name, player) => {
      const out = picture && picture.alive && !picture.alive[player];
      let clockText = null;
      if (clock && waiting.has(player)) {
        clockText = h("span", { class: "clock waiting", "data-clock": player, title: "The clocks start when every player has opened their link" }, "waiting");
      } else if (clock) {
        let left = clock.remaining_s[player];
        if (clock.running === player && clockBase) left -= (Date.now() - clockBase) / 1000;
        clockText = h(
          "span",
          {
            class: `clock${clock.running === player ? " running" : ""}${clock.per_move ? " per-move" : ""}`,
            "data-clock": player,
            "aria-label": clock.per_move ? `${name}'s time left for this move` : `${name}'s clock`,
            title: clock.per_move ? "Correspondence: the time left for the move; each move gives the whole time again" : null,
          },
          clock.per_move ? formatDays(left) : formatClock(left),
        );
      }
      const kind = view.seats[player];
      const account = view.names ? view.names[player] : null;
      return h(
        "li",
        {
          class: `${view.status === "playing" && view.current_player === player ? "to-move" : ""}${out ? " out" : ""}`,
          "data-player": player,
        },
        swatch(name),
        h(
          "span",
          {},
          h("strong", {}, name),
          " ",
          h("span", { class: "seat-kind" }, player === me ? "you" : account ? "" : kind === "human" ? "human" : `computer · ${kind}`),
          account ? h("span", { class: "seat-line" }, accountName(account)) : null,
          out ? h("span", { class: "seat-kind" }, " · out") : null,
        ),
        h(
          "span",
          { class: "row", style: { gap: "0.4rem" } },
          clockText,
          shown ? h("span", { class: "score", title: `${words.label}: ${words.means}` }, String(shown[player]), h("span", { class: "unit" }, ` ${words.unit}`)) : null,
        ),
      );
    }),
  );
}

/**
 * The account at a seat: a link to its page ("deleted player" as words).
 * @param {string} name
 */
export function accountName(name) {
  if (name === "deleted player") return h("span", { class: "seat-account deleted" }, name);
  return h("a", { class: "seat-account", href: `/@/${encodeURIComponent(name)}`, "data-account": name }, name);
}

/**
 * Who a list of players is, in words: "Dark", "Blue and Red".
 * @param {View} view
 * @param {number[]} players
 */
export function namesOf(view, players) {
  const names = players.map((p) => view.players[p]);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0] || "";
}

/**
 * The players skipped after each ply: ply -> [players].
 * @param {View} view
 * @returns {Map<number, number[]>}
 */
function skipsByPly(view) {
  return new Map((view.skips || []).map(([ply, players]) => [ply, players]));
}

/**
 * Fills the move list: the set-up folded, then a line per turn with its number, its player's
 * colour and name, each of its plies (a button that shows the position after it; dice and
 * draws small), and who was skipped. `selected` is the ply shown (null: the live position).
 * @param {HTMLElement} list
 * @param {View} view
 * @param {{selected?: number | null, onPick?: (ply: number) => void}} [options]
 */
export function renderMoves(list, view, { selected = null, onPick } = {}) {
  const skips = skipsByPly(view);
  /** @type {(ply: number, chance: boolean) => HTMLButtonElement} */
  const button = (ply, chance) =>
    h(
      "button",
      {
        type: "button",
        class: chance ? "chance" : null,
        "aria-current": String(selected === ply),
        "aria-label": `${chance ? "chance" : view.players[view.movers ? view.movers[ply - 1] : 0] || ""}: ${view.history[ply - 1]} (ply ${ply})`,
        "data-ply": ply,
        onclick: () => onPick(ply),
      },
      view.history[ply - 1],
    );
  list.replaceChildren(
    ...turnGroups(view).map((group) => {
      if (group.kind === "setup") {
        const draws = group.plies.length;
        const open = selected !== null && group.plies.some((p) => p.ply === selected);
        return h(
          "li",
          { class: "setup" },
          h("details", { open: open || null }, h("summary", {}, `Set-up · ${draws} draw${draws === 1 ? "" : "s"}`), h("span", { class: "plies" }, group.plies.map((p) => button(p.ply, true)))),
        );
      }
      const name = view.players[group.player] || "";
      const skipped = group.plies.flatMap((p) => skips.get(p.ply) || []);
      return h(
        "li",
        { class: "turn", "data-turn": group.number, "data-player": group.player },
        h("span", { class: "n" }, `${group.number}.`),
        swatch(name),
        h("span", { class: "who" }, name),
        h("span", { class: "plies" }, group.plies.map((p) => button(p.ply, p.chance))),
        skipped.length ? h("span", { class: "skip" }, `${namesOf(view, skipped)} skipped`) : null,
      );
    }),
  );
  // scroll the list itself (never the page) to the shown move
  const current = list.querySelector('[aria-current="true"]');
  const target = /** @type {HTMLElement | null} */ (current ? current.closest("li") : list.lastElementChild);
  if (target) {
    const top = target.offsetTop; // the list is the offset parent (position: relative)
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + target.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + target.offsetHeight - list.clientHeight;
    }
  }
}

/**
 * What happened since `me`'s last completed turn, in the game's words: each other player's
 * turn (colour, name, what each decision did), dice and draws folded into one line, players
 * skipped. A spectator (`me` null) sees the last round. Returns the number of turns shown.
 * @param {HTMLElement} list
 * @param {View} view
 * @param {number | null} me
 * @returns {number}
 */
export function renderSince(list, view, me) {
  const groups = turnGroups(view);
  const recent = view.recent || [];
  const first = recent.length ? recent[0].ply : view.ply + 1;
  const from = me === null ? first : Math.max(afterLastTurn(view, me, groups), 1);
  const texts = new Map(recent.map((r) => [r.ply, r.text]));
  /** @type {(ply: number) => string} */
  const text = (ply) => texts.get(ply) || view.history[ply - 1];
  const items = [];
  let turns = 0;
  const skips = skipsByPly(view);
  for (const group of groups) {
    // players passed over right after our own last move: said first, in plain words
    if (group.kind === "turn" && group.player === me) {
      for (const p of group.plies.filter((q) => q.ply === from - 1 && skips.has(q.ply))) {
        const skipped = skips.get(p.ply);
        items.push(h("li", { class: "skip" }, `${namesOf(view, skipped)} could not move and ${skipped.length > 1 ? "were" : "was"} skipped`));
      }
    }
    const plies = group.plies.filter((p) => p.ply >= from);
    if (!plies.length || (group.kind === "turn" && group.player === me)) continue;
    const decisions = plies.filter((p) => !p.chance);
    const chance = plies.filter((p) => p.chance);
    const name = group.kind === "turn" ? view.players[group.player] || "" : "";
    if (decisions.length) turns += 1;
    items.push(
      h(
        "li",
        { class: decisions.length ? "turn" : "chance", "data-player": group.kind === "turn" ? group.player : null },
        decisions.length ? h("div", { class: "who" }, swatch(name), h("strong", {}, name)) : null,
        ...decisions.map((p) => h("div", { class: "did", "data-ply": p.ply }, text(p.ply))),
        chance.length
          ? h("div", { class: "dice", "data-plies": chance.map((p) => p.ply).join(" ") }, `Dice and draws: ${chance.length > 8 ? `${chance.length} of them` : chance.map((p) => view.history[p.ply - 1]).join(" · ")}`)
          : null,
      ),
    );
  }
  list.replaceChildren(...items);
  return turns;
}

/** @param {number} n */
function ordinal(n) {
  return `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
}

/**
 * How each player finished, in words: won, lost, drew, resigned, out of time, or a place.
 * @param {View} view
 * @returns {string[]}
 */
export function outcomes(view) {
  const result = view.result;
  const returns = result.returns || [];
  return view.players.map((_, p) => {
    if (result.resigned === p) return result.timeout ? "out of time" : "resigned";
    if (view.players.length === 2) return returns[p] > 0 ? "won" : returns[p] < 0 ? "lost" : "drew";
    const place = 1 + returns.filter((r) => r > returns[p]).length;
    const shared = returns.filter((r) => r === returns[p]).length > 1;
    return `${shared ? "shared " : ""}${ordinal(place)}`;
  });
}

/**
 * Fills the result panel (hidden while the game goes on): who won and how, the scores in the
 * game's words, and a word when the game ended before its rules did.
 * @param {HTMLElement} panel
 * @param {View} view
 */
export function renderResult(panel, view) {
  if (view.status !== "finished" || !view.result) {
    panel.classList.add("hidden");
    return;
  }
  panel.classList.remove("hidden");
  const result = view.result;
  const words = scoreWords(view.game);
  const how = outcomes(view);
  const changes = view.rating_changes || null;
  const rows = view.players.map((name, p) =>
    h(
      "tr",
      { "data-player": p },
      h("td", {}, swatch(name), " ", name),
      h("td", {}, String(result.scores ? result.scores[p] : "")),
      h("td", {}, how[p]),
    ),
  );
  const ratings = changes
    ? h(
        "ul",
        { class: "rating-changes", "aria-label": "Rating changes" },
        view.players.map((name, p) =>
          changes[p] ? h("li", {}, swatch(name), h("span", {}, view.names && view.names[p] ? view.names[p] : name), h("span", { class: "rating-change", "data-player": p }, ratingChange(changes[p]))) : null,
        ),
      )
    : null;
  const early = result.resigned !== null && result.resigned !== undefined;
  panel.replaceChildren(
    h("h3", {}, "Result"),
    h("div", { class: "result-text" }, resultText(view)),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", { title: words.means }, words.label), h("th", {}, ""))),
      h("tbody", {}, rows),
    ),
    ...(ratings ? [h("h4", { class: "ratings-title" }, "Ratings"), ratings] : []),
    ...(view.rated && !changes ? [h("p", { class: "muted small" }, "A rated game: the ratings change once it is rated.")] : []),
    h("p", { class: "muted small" }, early ? `The game ended before its rules did: ${words.label.toLowerCase()} as they stood.` : `${words.label}: ${words.means}.`),
  );
}

/**
 * A seat's rating change in words: "1500 → 1662 (+162)"; empty for a seat not rated.
 * @param {{before: number, after: number} | null | undefined} change
 */
export function ratingChange(change) {
  if (!change) return "";
  const before = Math.round(change.before);
  const after = Math.round(change.after);
  const delta = after - before;
  return `${before} → ${after} (${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${Math.abs(delta)})`;
}

/**
 * The result in one sentence: a resignation or a fallen flag says so, with the winner.
 * @param {View} view
 */
export function resultText(view) {
  const result = view.result;
  if (!result) return "The game is over.";
  if (result.resigned !== null && result.resigned !== undefined && view.players.length === 2) {
    const loser = view.players[result.resigned];
    const winner = view.players[1 - result.resigned];
    return result.timeout ? `${loser} ran out of time: ${winner} wins` : `${loser} resigned: ${winner} wins`;
  }
  return result.text;
}

/**
 * One line for the banner: whose turn, or the result.
 * @param {View} view
 * @param {number | null} me
 */
export function turnText(view, me) {
  if (view.status === "finished") return resultText(view);
  const player = view.current_player;
  const name = view.players[player];
  if (player === me) return `Your move — ${name}`;
  const kind = view.seats[player];
  if (kind && kind !== "human") return `${name} (${kind}) is thinking…`;
  return `${name} to move`;
}

/**
 * Shows a hint or an analysis: the best move, each player's expected score as a bar (0..1;
 * from `expected`, or `values` on the -1..1 scale), the line, and "solved: ..." when proven.
 * @param {Hint} info
 * @param {string[]} players
 * @param {{onPlay?: (() => void) | null}} [options]
 * @returns {HTMLElement[]}
 */
export function renderAnalysis(info, players, { onPlay = null } = {}) {
  const expected = info.expected || (info.values || []).map((v) => (Number(v) + 1) / 2);
  const bars = expected.map((e, p) => {
    const pct = Math.round(Math.max(0, Math.min(1, Number(e))) * 100);
    const bar = h("span", { class: "bar" }, h("span", { class: "fill", style: { width: `${pct}%`, background: seatColour(players[p]) } }));
    return h("div", { class: "expect" }, swatch(players[p]), h("span", { class: "who" }, players[p]), bar, h("span", { class: "pct" }, `${pct}%`));
  });
  const thinking = info.final === false;
  const detail = [info.depth ? `depth ${info.depth}` : null, info.nodes ? `${Number(info.nodes).toLocaleString("en")} positions` : null]
    .filter(Boolean)
    .join(" · ");
  return [
    h(
      "div",
      {},
      thinking ? "Thinking… so far: " : "Best move: ",
      h("strong", { class: thinking ? "draft-move" : "best-move" }, info.move),
      info.proven ? " (proven)" : "",
    ),
    detail ? h("div", { class: "muted" }, detail) : null,
    info.solved ? h("div", { class: "solved" }, info.solved) : null,
    bars.length ? h("div", { class: "muted" }, "Expected score") : null,
    ...bars,
    info.pv && info.pv.length > 1 ? h("div", { class: "muted" }, `Line: ${info.pv.join(" · ")}`) : null,
    onPlay && !thinking ? h("button", { class: "btn small", type: "button", onclick: onPlay }, "Play it") : null,
  ].filter(Boolean);
}
