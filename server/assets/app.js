"use strict";
// Damka's page: a board to set a position up on, the server's answer in words,
// every move with its outcome, and the best line played move by move. All
// knowledge of the rules stays on the server: the board's squares, the FEN
// reader, the counters in force and how they advance all come from the API.

const $ = (id) => document.getElementById(id);

const state = {
  variants: [],        // /api/health's variants
  variant: null,       // "russian" or "international"
  board: null,         // /api/board: {width, squares: [{name, file, rank}]}
  pieces: new Map(),   // square name -> {color, king}
  side: "white",
  flipped: false,
  last: [],            // the squares of the move just played
  rules: "",           // a preset name, or "" for no rules
  counters: [],        // the set's counters in this position (/api/counters)
  played: new Map(),   // counter id -> moves already played, as typed ("4", "4.5")
  answer: null,        // the last /api/probe answer
  seq: 0,              // number of the latest refresh; older answers are dropped
  pending: null,       // the AbortController of the refresh under way
  playing: false,      // "play the best line" is running
};

/** GET /api/<path>?<params>; throws the server's error message. An aborted
 * `signal` closes the connection, and the server stops the request's search. */
async function api(path, params, signal) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/${path}?${query}`, { signal });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(body.error || `HTTP ${response.status}`);
  }
  return body;
}

/** The position on the board as canonical PDN FEN (the server lists the
 * squares in notation order). */
function fen() {
  const list = (color) => state.board.squares
    .filter((sq) => state.pieces.get(sq.name)?.color === color)
    .map((sq) => (state.pieces.get(sq.name).king ? "K" : "") + sq.name)
    .join(",");
  return `${state.side === "white" ? "W" : "B"}:W${list("white")}:B${list("black")}`;
}

function sideName(side) {
  return side === "white" ? "White" : "Black";
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "13 moves (25 plies)": the moves of the side that makes the last one. */
function movesAndPlies(plies) {
  return `${plural(Math.ceil(plies / 2), "move")} (${plies} ${plies === 1 ? "ply" : "plies"})`;
}

// ---- The board -------------------------------------------------------------

function drawBoard() {
  const el = $("board");
  const width = state.board.width;
  const numbered = /^\d+$/.test(state.board.squares[0].name);
  el.replaceChildren();
  el.style.gridTemplateColumns = `repeat(${width}, 1fr)`;
  el.style.gridTemplateRows = `repeat(${width}, 1fr)`;
  const at = new Map(state.board.squares.map((sq) => [`${sq.file},${sq.rank}`, sq]));
  for (let row = 0; row < width; row++) {
    for (let col = 0; col < width; col++) {
      const file = state.flipped ? width - 1 - col : col;
      const rank = state.flipped ? row : width - 1 - row;
      const sq = at.get(`${file},${rank}`);
      const cell = document.createElement(sq ? "button" : "div");
      cell.className = "square";
      if (sq) {
        drawDarkSquare(cell, sq, numbered);
      }
      if (!numbered && row === width - 1) {
        cell.append(edge("file", String.fromCharCode(97 + file)));
      }
      if (!numbered && col === 0) {
        cell.append(edge("rank", String(rank + 1)));
      }
      el.append(cell);
    }
  }
}

function drawDarkSquare(cell, sq, numbered) {
  cell.type = "button";
  cell.classList.add("dark");
  if (state.last.includes(sq.name)) {
    cell.classList.add("last");
  }
  cell.dataset.square = sq.name;
  const piece = state.pieces.get(sq.name);
  const what = piece ? `${piece.color} ${piece.king ? "king" : "man"}` : "empty";
  cell.setAttribute("aria-label", `${sq.name}: ${what}`);
  cell.addEventListener("click", () => clickSquare(sq.name));
  if (numbered) {
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = sq.name;
    cell.append(name);
  }
  if (piece) {
    const disc = document.createElement("span");
    disc.className = `piece ${piece.color}${piece.king ? " king" : ""}`;
    cell.append(disc);
  }
}

function edge(kind, text) {
  const label = document.createElement("span");
  label.className = `edge ${kind}`;
  label.textContent = text;
  return label;
}

/** Places the chosen piece, or removes it when the square already holds it. */
function clickSquare(name) {
  const choice = document.querySelector("input[name=piece]:checked").value;
  const piece = { color: choice[0] === "w" ? "white" : "black", king: choice[1] === "k" };
  const current = state.pieces.get(name);
  if (current && current.color === piece.color && current.king === piece.king) {
    state.pieces.delete(name);
  } else {
    state.pieces.set(name, piece);
  }
  edited();
}

/** Puts a position from /api/board on the board. */
function setPosition(position) {
  state.pieces = new Map(position.pieces.map((p) => [p.square, { color: p.color, king: p.king }]));
  state.side = position.side;
}

// ---- Refreshing the answer -------------------------------------------------

/** A change made by hand: stops the best line, forgets the last move. */
function edited() {
  state.playing = false;
  state.last = [];
  return changed();
}

/** Redraws the board and asks the server again. */
function changed() {
  $("side").textContent = `${sideName(state.side)} to move`;
  $("fen").value = fen();
  drawBoard();
  return refresh();
}

function playedText() {
  return state.counters
    .filter((c) => c.in_force && Number(state.played.get(c.id) || 0) > 0)
    .map((c) => `${c.id}=${state.played.get(c.id)}`)
    .join(",");
}

async function refresh() {
  const seq = ++state.seq;
  state.pending?.abort();
  const pending = new AbortController();
  state.pending = pending;
  const position = fen();
  state.answer = null;
  showAnswer(null);
  if (state.pieces.size === 0) {
    state.counters = [];
    drawCounters();
    $("headline").textContent = "Place pieces of both colours on the board.";
    return;
  }
  $("headline").textContent = "…";
  try {
    if (state.rules) {
      const counters = await api("counters", { variant: state.variant, rules: state.rules, fen: position }, pending.signal);
      if (seq !== state.seq) return;
      state.counters = counters.counters;
    } else {
      state.counters = [];
    }
    drawCounters();
    const params = { variant: state.variant, fen: position, pv: "true" };
    if (state.rules) {
      params.rules = state.rules;
      params.played = playedText();
    }
    const answer = await api("probe", params, pending.signal);
    if (seq !== state.seq) return;
    state.answer = answer;
    showAnswer(answer);
  } catch (error) {
    if (seq !== state.seq) return;
    showAnswer(null);
    $("error").textContent = error.message;
    $("error").hidden = false;
  }
}

/** One input per counter in force, for the moves already played; kept while
 * the same counters stay in force, so typing is not interrupted. */
function drawCounters() {
  const box = $("counters");
  const inForce = state.counters.filter((c) => c.in_force);
  const ids = inForce.map((c) => c.id).join(",");
  if (box.dataset.ids === ids) {
    for (const input of box.querySelectorAll("input")) {
      if (input !== document.activeElement) {
        input.value = state.played.get(input.dataset.counter) || "0";
      }
    }
    return;
  }
  box.dataset.ids = ids;
  box.replaceChildren();
  if (state.counters.length > 0 && inForce.length === 0) {
    box.textContent = "No counter of this rule set is in force here.";
  }
  for (const counter of inForce) {
    const label = document.createElement("label");
    label.title = counter.description;
    const limit = counter.limit_moves == null ? "" : ` of ${counter.limit_moves}`;
    label.append(`${counter.id}: moves played${limit}`);
    const input = document.createElement("input");
    input.type = "number";
    input.min = "0";
    input.step = "0.5";
    input.dataset.counter = counter.id;
    input.id = `played-${counter.id}`;
    input.value = state.played.get(counter.id) || "0";
    input.addEventListener("focus", () => input.select());
    input.addEventListener("change", () => {
      state.played.set(counter.id, input.value.trim() || "0");
      state.playing = false;
      refresh();
    });
    label.append(input);
    box.append(label);
  }
}

// ---- The answer in words ---------------------------------------------------

function theoryWords(answer, side) {
  const winner = answer.wdl === "win" ? side : (side === "white" ? "black" : "white");
  if (answer.wdl === "draw") return "Draw";
  if (answer.dtw === 0) return `${sideName(side)} has no move: ${sideName(winner)} has won`;
  return `${sideName(winner)} wins in ${movesAndPlies(answer.dtw)}`;
}

function rulesWords(rules, side) {
  const other = side === "white" ? "black" : "white";
  const counter = state.counters.find((c) => c.id === rules.rule);
  const notEnough = () => {
    let text = `drawn by ${rules.rule}`;
    if (counter && counter.limit_moves != null) {
      text += `: ${plural(counter.limit_moves, "move")} ${counter.limit_moves === 1 ? "is" : "are"} not enough`;
      const played = counter.in_force ? Number(state.played.get(counter.id) || 0) : 0;
      if (played > 0) text += ` with ${played} already played`;
    }
    return text;
  };
  // The phase may end on either side's ply (a forced capture of a sacrificed
  // king), so its length is given in plies only.
  const phase = () => `the next capture or promotion comes in ${rules.distance} ${rules.distance === 1 ? "ply" : "plies"}`;
  switch (rules.wdl) {
    case "win": return `${sideName(side)} wins under ${rules.set}: ${phase()}`;
    case "loss": return `${sideName(other)} wins under ${rules.set}: ${phase()}`;
    case "cursed-win": return `Win, but ${notEnough()}`;
    case "blessed-loss": return `Loss, but ${notEnough()}`;
    case "draw": return `Draw under ${rules.set}`;
    default: return `Unknown: ${rules.reason || "no exact answer"}`;
  }
}

function valueText(wdl, distance, rule, reason) {
  if (wdl === "unknown") return `unknown (${reason || "?"})`;
  let text = wdl.replace("-", " ");
  if (rule) text += ` (${rule})`;
  if (distance != null && (wdl === "win" || wdl === "loss")) text += ` in ${distance}`;
  return text;
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function showAnswer(answer) {
  $("error").hidden = true;
  for (const id of ["rule-line", "best", "pv"]) $(id).textContent = "";
  const body = $("moves").querySelector("tbody");
  body.replaceChildren();
  $("rules-head").hidden = !state.rules;
  $("step").disabled = !bestMove(answer);
  $("play-line").disabled = !bestMove(answer);
  $("play-line").textContent = state.playing ? "Stop" : "Play the best line";
  if (state.playing) $("play-line").disabled = false;
  if (!answer) return;
  const side = answer.fen.startsWith("B") ? "black" : "white";
  $("headline").textContent = theoryWords(answer, side);
  if (answer.rules) $("rule-line").textContent = rulesWords(answer.rules, side);
  const best = [];
  if (answer.best_move) best.push(`Best move: ${answer.best_move}`);
  if (answer.rules && answer.rules.best_move) best.push(`under ${answer.rules.set}: ${answer.rules.best_move}`);
  $("best").textContent = best.join(" · ");
  const line = bestLine(answer);
  if (line.length) $("pv").textContent = `Best line: ${line.join(" ")}`;
  for (const entry of answer.moves) {
    const tr = document.createElement("tr");
    const play = document.createElement("button");
    play.type = "button";
    play.textContent = entry.notation;
    play.dataset.move = entry.notation;
    play.addEventListener("click", () => {
      state.playing = false;
      playMove(entry);
    });
    const first = document.createElement("td");
    first.append(play);
    tr.append(first, cell(valueText(entry.wdl, entry.dtw), entry.wdl));
    if (entry.rules) {
      const r = entry.rules;
      tr.append(cell(valueText(r.wdl, r.distance, r.rule, r.reason), r.wdl));
    }
    body.append(tr);
  }
}

// ---- Playing moves ---------------------------------------------------------

function bestMove(answer) {
  if (!answer) return null;
  return answer.rules ? answer.rules.best_move : answer.best_move;
}

function bestLine(answer) {
  return (answer.rules ? answer.rules.pv : answer.pv) || [];
}

/** Plays a move of the list: its position after, and the counts after it. */
async function playMove(entry) {
  try {
    const board = await api("board", { variant: state.variant, fen: entry.after });
    setPosition(board.position);
    if (entry.rules) {
      state.played = new Map(entry.rules.played.split(",").filter(Boolean).map((item) => item.split("=")));
    }
    state.last = [entry.from, entry.to];
    await changed();
  } catch (error) {
    $("error").textContent = error.message;
    $("error").hidden = false;
  }
}

async function step() {
  const notation = bestMove(state.answer);
  const entry = state.answer?.moves.find((m) => m.notation === notation);
  if (entry) await playMove(entry);
}

/** Steps through the best line as it stands, one move every 0.7 s. */
async function playLine() {
  if (state.playing) {
    state.playing = false;
    showAnswer(state.answer);
    return;
  }
  const line = bestLine(state.answer);
  state.playing = true;
  for (const notation of line) {
    const entry = state.answer?.moves.find((m) => m.notation === notation);
    if (!state.playing || !entry) break;
    await playMove(entry);
    await new Promise((done) => setTimeout(done, 700));
  }
  state.playing = false;
  showAnswer(state.answer);
}

// ---- Variant, rules, FEN ---------------------------------------------------

async function chooseVariant(name) {
  state.variant = name;
  state.board = await api("board", { variant: name });
  state.pieces = new Map();
  state.last = [];
  const summary = state.variants.find((v) => v.variant === name);
  const select = $("rules");
  select.replaceChildren(new Option("No rules", ""));
  for (const set of summary.rule_sets) {
    const tables = set.slices ? `rule tables up to ${set.max_pieces} pieces` : "no rule tables";
    select.append(new Option(`${set.name} (${tables})`, set.name));
  }
  const withTables = summary.rule_sets.find((set) => set.slices > 0);
  state.rules = withTables ? withTables.name : "";
  select.value = state.rules;
  await edited();
}

async function setFen(text) {
  try {
    const board = await api("board", { variant: state.variant, fen: text });
    setPosition(board.position);
    await edited();
  } catch (error) {
    showAnswer(null);
    $("error").textContent = error.message;
    $("error").hidden = false;
  }
}

async function start() {
  try {
    const health = await api("health", {});
    state.variants = health.variants;
    const limits = health.limits;
    $("status").textContent = health.variants
      .map((v) => `${v.variant}: tables up to ${v.max_pieces} pieces`)
      .join(" · ") + ` · rule searches stop after ${limits.time_limit} ms`;
    for (const v of health.variants) {
      $("variant").append(new Option(v.variant[0].toUpperCase() + v.variant.slice(1), v.variant));
    }
    await chooseVariant(health.variants[0].variant);
  } catch (error) {
    $("error").textContent = `The server did not answer: ${error.message}`;
    $("error").hidden = false;
  }
}

$("variant").addEventListener("change", (e) => chooseVariant(e.target.value));
$("rules").addEventListener("change", (e) => {
  state.rules = e.target.value;
  state.playing = false;
  refresh();
});
$("side").addEventListener("click", () => {
  state.side = state.side === "white" ? "black" : "white";
  edited();
});
$("flip").addEventListener("click", () => {
  state.flipped = !state.flipped;
  drawBoard();
});
$("clear").addEventListener("click", () => {
  state.pieces = new Map();
  edited();
});
$("fen-form").addEventListener("submit", (e) => {
  e.preventDefault();
  setFen($("fen").value.trim());
});
$("step").addEventListener("click", () => {
  state.playing = false;
  step();
});
$("play-line").addEventListener("click", playLine);
start();
