// @ts-check
// The shapes the browser code reads (docs/server-api.md and each game's picture.py are their
// source) and the contract every board keeps, as JSDoc types for `tsc --checkJs`. Nothing runs
// here and no page loads this file: modules name its types in comments, as
// `@typedef {import("./types.js").View} View`.

// ---------------------------------------------------------------------------------------------
// The game view: GET /api/games/{id} and every socket "view".

/**
 * A game's clock. `remaining_s` is as of `as_of` (server time); the `running` player's time goes
 * down from there.
 * @typedef {object} Clock
 * @property {number} initial_s
 * @property {number} increment_s
 * @property {number[]} remaining_s per player
 * @property {number | null} running the player whose time goes down, if any
 * @property {number} as_of
 * @property {number[]} [waiting] human seats not arrived yet: the clocks wait for them
 * @property {boolean} [per_move] correspondence: `initial_s` is the days a move, in seconds,
 *   and each move gives the mover the whole time again
 */

/**
 * @typedef {object} Result
 * @property {string} text the result in words
 * @property {number[] | null} [scores]
 * @property {number[] | null} [returns] per player, the higher the better
 * @property {number | null} [resigned] the player who resigned or ran out of time
 * @property {boolean} [timeout] the resignation was a fallen flag
 */

/**
 * One ply of the last round in words.
 * @typedef {object} RecentEntry
 * @property {number} ply
 * @property {number} player -1 for chance
 * @property {string} text its notation, then what it did
 */

/**
 * `human`, or the computer player's level or agent.
 * @typedef {string} SeatKind
 */

/**
 * @typedef {object} View
 * @property {string} id
 * @property {string} game "classic", "allmer" or "red"
 * @property {Record<string, unknown>} params
 * @property {"playing" | "finished"} status
 * @property {number} ply plies played
 * @property {number} current_player -4 when finished
 * @property {string[]} players the seats' names ("Light", "Dark", ...)
 * @property {SeatKind[]} seats
 * @property {number[]} [open_seats] public seats nobody has joined yet
 * @property {string[]} history the notation of every ply, chance outcomes included
 * @property {number[]} [movers] who chose each ply: a player, or -1 for chance
 * @property {number[]} [turn_starts] the plies (from 1) that start a turn
 * @property {[number, number[]][]} [skips] [ply, players the rules skipped after it]
 * @property {number} [turns] turns begun
 * @property {boolean} [in_turn] the player to move goes on with a turn under way
 * @property {RecentEntry[]} [recent] the last round in words
 * @property {number[] | null} [scores]
 * @property {Result | null} result
 * @property {Clock | null} clock
 * @property {boolean} read_only an uploaded record
 * @property {boolean} [public]
 * @property {string | null} rematch the id of the rematch, once there is one
 * @property {string | null} [rematch_of]
 * @property {boolean} takeback whether the only human may take back now
 * @property {number} created
 * @property {number} updated
 * @property {(string | null)[]} [names] the account at each seat ("deleted player" once
 *   deleted), null for an anonymous seat or a computer
 * @property {boolean} [rated]
 * @property {(RatingChange | null)[]} [rating_changes] once a rated game is rated
 */

/**
 * @typedef {object} RatingChange
 * @property {number} before
 * @property {number} after
 */

// ---------------------------------------------------------------------------------------------
// Analysis: GET /api/games/{id}/hint and every socket "hint".

/**
 * @typedef {object} Hint
 * @property {string} [level]
 * @property {number} action
 * @property {string} move its notation
 * @property {string[]} [pv] the line
 * @property {number[]} [expected] per player, expected score 0..1
 * @property {number[]} [values] the same on -1 (loss) .. +1 (win)
 * @property {boolean} [proven]
 * @property {string | null} [solved] "solved: Light wins by 3"
 * @property {number} [depth]
 * @property {number} [nodes]
 * @property {number} [seconds]
 * @property {boolean} [final] false while the search goes on (socket only)
 */

// ---------------------------------------------------------------------------------------------
// The socket, server to client.

/**
 * @typedef {{type: "view", view: View}
 *   | {type: "hint", hint: Hint}
 *   | {type: "error", status: number, error: string}
 *   | {type: "clock", event: string, player: number, ply: number}} ServerMessage
 */

// ---------------------------------------------------------------------------------------------
// Pictures: GET /api/games/{id}/picture, a position drawn. What every game's has, then each
// game's own (src/cathedral/games/*/picture.py).

/**
 * @typedef {object} PictureBase
 * @property {string[]} players
 * @property {number} to_move the player to move, negative when nobody is (chance, the end)
 * @property {string | null} result the result in words once the game is over
 * @property {string} [hint] what the player to move decides, in words
 * @property {number[]} [scores] the scores in this position (the server adds them)
 * @property {boolean[]} [alive] who is still in (Allmer; the others leave nobody out)
 */

/**
 * A legal placement of classic: its squares, and what it would claim and capture.
 * @typedef {object} ClassicMove
 * @property {number} action
 * @property {string} notation
 * @property {number[]} squares 0..99, rank * 10 + file
 * @property {number[]} [claims]
 * @property {number[]} [captures]
 */

/**
 * A building in a tray: its distinct rotations as [file, rank] offsets from its lower left.
 * @typedef {object} TrayItem
 * @property {string} building
 * @property {string} letter
 * @property {number} in_hand
 * @property {number} copies
 * @property {number} size squares
 * @property {[number, number][][]} shapes
 */

/**
 * @typedef {PictureBase & {
 *   game: "classic",
 *   size: number,
 *   files: string,
 *   opening: string,
 *   cathedral: {state: string, squares: number[]},
 *   buildings: {player: number, building: string, letter: string, action: number, squares: number[]}[],
 *   territory: number[][],
 *   trays: TrayItem[][],
 *   unplaced: number[],
 *   last_move: {action: number, notation: string, squares: number[], player: number} | null,
 *   moves: ClassicMove[],
 * }} ClassicPicture
 */

/**
 * A point of Allmer's cross: box coordinates x (0 west .. 14 east) and y (0 north .. 14 south).
 * @typedef {object} AllmerPoint
 * @property {number} x
 * @property {number} y
 * @property {string} name
 * @property {boolean} strong
 */

/**
 * A landing of a stone: where it goes, how, and the points whose stones it would convert.
 * @typedef {object} AllmerStep
 * @property {number} action
 * @property {string} notation
 * @property {number} to
 * @property {string} kind
 * @property {number[]} converts
 */

/**
 * @typedef {PictureBase & {
 *   game: "allmer",
 *   letters: string,
 *   field: string,
 *   withdraw: boolean,
 *   points: AllmerPoint[],
 *   segments: [number, number][],
 *   passages: [number, number][],
 *   stones: number[],
 *   counts: number[],
 *   eliminated: number[],
 *   turns: number,
 *   quiet_turns: number,
 *   chain: {stone: number, name: string, touched: number[], stop: {action: number, notation: string} | null} | null,
 *   moves: {from: number, steps: AllmerStep[]}[],
 *   last_move: {action?: number, from?: number, to?: number, notation?: string} | null,
 *   termination: string | null,
 * }} AllmerPicture
 */

/**
 * @typedef {object} RedDie
 * @property {number} die
 * @property {string} colour
 * @property {number} pips
 */

/**
 * @typedef {object} RedSpace
 * @property {number} space
 * @property {string | null} resource
 * @property {number} yield
 * @property {string | null} group
 * @property {RedDie[]} dice
 * @property {boolean} visited
 */

/**
 * @typedef {object} RedInfluence
 * @property {number} quadrant
 * @property {[number, number]} spaces
 * @property {string} group
 * @property {string} card
 * @property {{text: string, lightning: boolean}[]} actions
 */

/**
 * A slot of a tower: empty (`card` null) or a card with what it costs, needs and gives.
 * @typedef {object} RedSlot
 * @property {number} slot
 * @property {string} name
 * @property {string | null} card
 * @property {string} [level]
 * @property {Record<string, number>} [cost]
 * @property {Record<string, number>} [need]
 * @property {number} [recognition]
 * @property {number} [rubles]
 * @property {number | null} [owner]
 * @property {boolean} [built]
 * @property {{kind: string, owner: number, gems: string} | null} [ornament]
 * @property {{id: string, text: string} | null} [tile]
 * @property {number[] | null} [penalties]
 */

/**
 * @typedef {object} RedWorkshopSpace
 * @property {number} space
 * @property {string} die
 * @property {number} cost
 * @property {string | null} ornament
 * @property {string | null} tile
 * @property {boolean} up
 * @property {string | null} text
 */

/**
 * @typedef {object} RedHolding
 * @property {string} name
 * @property {string} die
 * @property {number} rubles
 * @property {number} recognition
 * @property {number} prestige
 * @property {number} next_prestige_space
 * @property {Record<string, number>} inventory
 * @property {number} free_slots
 * @property {number} banners_in_inventory
 * @property {number} banners_outside
 * @property {Record<string, number>} ornaments
 * @property {number} ornaments_placed
 * @property {number} completed
 * @property {RedWorkshopSpace[]} workshop
 */

/**
 * A legal choice of the decision, with what it yields the chooser and the others.
 * @typedef {object} RedChoice
 * @property {number} action
 * @property {string} notation
 * @property {string} kind "die", "take", "claim", "deliver", ...
 * @property {Record<string, number>} yields
 * @property {Record<string, Record<string, number>>} [others] by player name
 * @property {number} [slot]
 * @property {boolean} [completes]
 * @property {string} [die]
 * @property {number} [extra]
 * @property {number} [space]
 * @property {{resource: string, up_to: number}} [take]
 * @property {number} [index]
 */

/**
 * @typedef {object} RedDecision
 * @property {number} player
 * @property {string} phase
 * @property {string} hint
 * @property {number | null} deliveries_left
 * @property {string | null} claimed
 * @property {RedChoice[]} choices
 */

/**
 * @typedef {PictureBase & {
 *   game: "red",
 *   stage: string,
 *   round: number,
 *   current: number,
 *   workshop_side: string,
 *   materials: string[],
 *   track: {length: number, prestige_spaces: number[]},
 *   market: RedSpace[],
 *   influence: RedInfluence[],
 *   plan: string | null,
 *   towers: {tower: number, height: number, slots: RedSlot[]}[],
 *   supply: Record<string, number>,
 *   holdings: RedHolding[],
 *   trigger: number | null,
 *   last_turns_left: number | null,
 *   rolling: string[],
 *   decision: RedDecision | null,
 *   final: unknown,
 *   last_move?: unknown,
 * }} RedPicture
 */

/** @typedef {ClassicPicture | AllmerPicture | RedPicture} Picture */

// ---------------------------------------------------------------------------------------------
// The board contract: what every module under boards/ exports, and what game.js and replay.js
// call on it. A page always loads the board of the view's game, so a board's pictures are of
// its own game.

/**
 * A move a board hands its page: the action (preferred) or the notation.
 * @typedef {object} Move
 * @property {number | null} [action]
 * @property {string} [notation]
 */

/**
 * @typedef {object} ShowOptions
 * @property {boolean} [interactive] the page's player is to move here and may play on the board
 * @property {boolean} [hideLast] leave the last move unmarked
 */

/**
 * What a page hands a board.
 * @typedef {object} BoardHandlers
 * @property {(move: Move) => void} onMove
 * @property {HTMLElement | null} [side] the page's side column: a board may put its choices
 *   there on a wide screen (red does)
 */

/**
 * A board drawn into its root: `show` draws a picture (again at every position), `showHint`
 * marks a hint's action (null: none), `destroy` takes its listeners and elements away.
 * Methods, not function properties, so that a board of one game's pictures is a Board.
 * @template {Picture} [P=Picture]
 * @typedef {{
 *   show(picture: P, options?: ShowOptions): void,
 *   showHint?(action: number | null): void,
 *   destroy(): void,
 * }} Board
 */

/**
 * What every module under boards/ exports.
 * @typedef {object} BoardModule
 * @property {(root: HTMLElement, handlers: BoardHandlers) => Board} createBoard
 */

// ---------------------------------------------------------------------------------------------
// The home page and the lobby.

/**
 * @typedef {object} CatalogParameter
 * @property {string} name
 * @property {string} type
 * @property {unknown} default
 * @property {unknown[]} [choices]
 * @property {string} [help]
 * @property {boolean} [optional]
 * @property {number | null} [minimum]
 * @property {number | null} [maximum]
 */

/**
 * @typedef {object} CatalogGame
 * @property {string} name
 * @property {string} title
 * @property {string} [summary]
 * @property {boolean} [lower_score_wins]
 * @property {CatalogParameter[]} [parameters]
 * @property {Record<string, string[]> | {count: number, names: string[]}[]} [players]
 *   the seats' names by the number of players
 */

/**
 * @typedef {object} ClockPreset
 * @property {string} [name]
 * @property {number} initial_s
 * @property {number} increment_s
 */

/**
 * @typedef {object} Catalog
 * @property {CatalogGame[]} games
 * @property {(string | {name: string})[]} [levels]
 * @property {string[]} [agents]
 * @property {ClockPreset[]} [clocks]
 * @property {ClockPreset[]} [clock_presets]
 */

/**
 * A seat of a table just made: a human seat's secret and link, or an open seat of a public
 * table, or a computer.
 * @typedef {object} CreatedSeat
 * @property {number} player
 * @property {SeatKind} kind
 * @property {string} [token]
 * @property {string} [url]
 * @property {boolean} [open]
 */

/**
 * POST /api/games and /rematch.
 * @typedef {object} Created
 * @property {string} id
 * @property {CreatedSeat[]} seats
 * @property {string} watch_url
 */

/**
 * POST /api/games/{id}/join.
 * @typedef {object} Joined
 * @property {number} player
 * @property {string} token
 * @property {string} url
 */

/**
 * @typedef {object} LobbyGame
 * @property {string} id
 * @property {string} game
 * @property {string[]} players
 * @property {SeatKind[]} seats
 * @property {number[]} [open_seats]
 * @property {string} status
 * @property {number} ply
 * @property {number} [turns]
 * @property {boolean} [rated]
 * @property {(string | null)[]} [names]
 */

/**
 * @typedef {object} Lobby
 * @property {LobbyGame[]} [open]
 * @property {LobbyGame[]} [playing]
 * @property {LobbyGame[]} [finished]
 */

// ---------------------------------------------------------------------------------------------
// Accounts, ratings, challenges (docs/accounts.md).

/**
 * @typedef {object} NotifySettings
 * @property {boolean} page
 * @property {boolean} browser
 * @property {boolean} email
 */

/**
 * The signed-in account: GET /api/me and every sign-in answer.
 * @typedef {object} Account
 * @property {string} name
 * @property {string} csrf the token every write with the session cookie carries
 * @property {string | null} email
 * @property {NotifySettings} notify
 * @property {number} passkeys
 * @property {boolean} password
 * @property {number} created
 */

/**
 * @typedef {object} AccountNotification
 * @property {number} id
 * @property {"turn" | "challenge" | "accepted" | string} kind
 * @property {string} text
 * @property {string | null} url
 * @property {number} created
 * @property {boolean} read
 */

/**
 * A correspondence clock (days a move) or a clock with an increment.
 * @typedef {{initial_s: number, increment_s: number} | {days_per_move: number}} ClockSpec
 */

/**
 * A game of an account: GET /api/me/games.
 * @typedef {object} AccountGame
 * @property {string} id
 * @property {string} game
 * @property {Record<string, unknown>} params
 * @property {string | null} setting
 * @property {(string | null)[]} names
 * @property {number} player the account's seat
 * @property {boolean} your_turn
 * @property {"playing" | "finished"} status
 * @property {Result | string | null} result
 * @property {boolean} rated
 * @property {Clock | ClockSpec | null} clock
 * @property {number} updated
 * @property {string} url
 */

/**
 * @typedef {object} Challenge
 * @property {number | string} id
 * @property {{name: string, rating: number | null}} by
 * @property {string | null} to
 * @property {string} game
 * @property {Record<string, unknown>} params
 * @property {string | null} setting
 * @property {ClockSpec | null} clock
 * @property {boolean} rated
 * @property {[number, number] | null} range
 * @property {"open" | "accepted" | "declined" | "cancelled"} status
 * @property {string | null} game_id
 * @property {string | null} url
 * @property {number} created
 */

/**
 * @typedef {object} Challenges
 * @property {Challenge[]} open
 * @property {Challenge[]} mine
 * @property {Challenge[]} to_me
 */

/**
 * @typedef {object} RatingPoint
 * @property {number} at
 * @property {number} rating
 * @property {number} rd
 * @property {string | null} game_id
 */

/**
 * @typedef {object} PlayerRating
 * @property {number} rating
 * @property {number} rd
 * @property {number} games
 * @property {boolean} provisional
 * @property {RatingPoint[]} history
 */

/**
 * @typedef {object} PlayerGame
 * @property {string} id
 * @property {string} game
 * @property {string | null} setting
 * @property {(string | null)[]} names
 * @property {number} player
 * @property {string | null} result "win", "loss", "draw", "place N of M"
 * @property {boolean} rated
 * @property {number | null} change
 * @property {number} at
 * @property {string} replay_url
 */

/**
 * GET /api/players/{name}.
 * @typedef {object} Player
 * @property {string} name
 * @property {number} created
 * @property {Record<string, PlayerRating>} ratings
 * @property {PlayerGame[]} games
 */

/**
 * GET /api/leaderboard.
 * @typedef {object} Leaderboard
 * @property {string} setting
 * @property {string[]} settings
 * @property {{rank: number, name: string, rating: number, rd: number, games: number}[]} players
 * @property {{level: string, rating: number}[]} computers
 */

export {};
