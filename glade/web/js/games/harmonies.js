// The Harmonies table: personal boards, central board, animal cards, spirits, scores and end screen.
// Every board sits in an element with data-board-seat; controls that cannot be used now carry
// aria-disabled="true" and data-refusal (the engine's refusal code and params, from the view's
// "refusals"), which the shell turns into a sentence. During playback the shell passes c.step
// ({entry, seat}: one item of the public log) and the table marks what that step changed.
import { GLYPH, cellLabel, centre, cube, hexPoints, stack, topY, viewBox } from "./hex.js";
import { loadJson } from "../base/assets.js";
import { listWords } from "../base/format.js";
import { esc, refusal, t } from "../base/i18n.js";

let DATA = null; // harmonies-cards.json: boards and the card data (habitats, point tracks)
const CARDS = {};

export async function prepare() {
  if (DATA) return;
  DATA = await loadJson("data/harmonies-cards.json");
  for (const c of DATA.animals) CARDS[c.id] = { ...c, spirit: false };
  for (const c of DATA.spirits) CARDS[c.id] = { ...c, spirit: true };
}

export function cardData(id) {
  return CARDS[id];
}

export function boardCells(side) {
  return DATA.board[side];
}

export { cellLabel };
export const cardName = (id) => t(`card.${id}`);
const colourName = (c) => t(`colour.${c}`);
const tokenWords = (tokens) => listWords(tokens.map((c) => `${GLYPH[c] || ""} ${colourName(c)}`));
const act = (a) => esc(JSON.stringify(a));
const refusalOf = (c, kind) => (c.view.refusals || {})[kind] || null;
const refusalAttrs = (r) => (r ? ` aria-disabled="true" data-refusal="${esc(JSON.stringify({ code: r.code, params: r.params || {} }))}"` : "");
const refusalText = (r) => refusal(r.code, refusalParams(r.code, r.params), r.code);

// A refusal's params as the page shows them: a cell by the board's coordinates ("C4", not "2,2").
// For the shell to pass through before i18n's refusal() builds the sentence.
export function refusalParams(code, params) {
  const out = { ...(params || {}) };
  if (typeof out.cell === "string" && /^-?\d+,-?\d+$/.test(out.cell)) out.cell = cellLabel(out.cell);
  return out;
}

// What a seat's view shows that the other players may not see: its face-down spirit offer.
export function hasSecret(view) {
  return Boolean(view.spirit_offer);
}

// ------------------------------------------------------------------ local selection
export function newUi() {
  return { color: null, card: null };
}
export function resetUi(ui) {
  ui.color = null;
  ui.card = null;
  ui.drawn = null;
}
export function clearUi(ui) {
  const had = ui.card !== null;
  ui.card = null;
  return had;
}
export function syncUi(ui, c) {
  const hand = c.view.hand || [];
  const mineNow = c.seat !== null && c.view.current === c.seat;
  if (!mineNow || !hand.length) ui.color = null;
  else if (!hand.includes(ui.color)) ui.color = hand[0];
  if (ui.card && !c.legal.some((a) => a.type === "place_cube" && a.card === ui.card)) ui.card = null;
}
export function onUi(ui, data) {
  if (data.ui === "color") {
    ui.color = data.color;
    ui.card = null;
  } else if (data.ui === "card") {
    ui.card = ui.card === data.card ? null : data.card;
  }
}
export function applyHint(ui, actions) {
  const place = actions.find((a) => a.type === "place_token");
  if (place) {
    ui.color = place.color;
    ui.card = null;
  }
  const cubeAct = actions.find((a) => a.type === "place_cube");
  if (cubeAct && !place) ui.card = cubeAct.card;
}

// ------------------------------------------------------------------ texts
export function roundText(c) {
  const v = c.view;
  const parts = [t("h.round", { n: v.round })];
  if (v.end_triggered && !v.over) parts.push(t("h.lastRound"));
  return parts.join(" · ");
}

// The reasons the end was triggered, as sentences: `kind` "last" (during the last round) or "end".
function triggerSentences(c, kind) {
  const v = c.view;
  const trig = v.end_trigger;
  if (!trig) return [];
  const solo = v.players === 1 ? ".solo" : "";
  const name = c.nameOf(trig.seat);
  // a board with no empty cell left is full, not "nearly full (0 empty cells left)"
  const full = (why) => (why === "board" && trig.empty_cells === 0 ? "boardFull" : why);
  return (trig.reasons || [trig.reason]).map((why) => t(`h.${kind}${solo}.${full(why)}`, { name, n: trig.empty_cells }));
}

// The "last round" sentence from the moment the end is triggered until the end, or null.
export function lastRound(c) {
  const v = c.view;
  if (!v.end_triggered || v.over) return null;
  const words = triggerSentences(c, "last");
  return words.length ? words.join(" ") : t("h.lastRound");
}

export function prompt(c) {
  const v = c.view;
  if (v.spirit_offer) return t("h.prompt.spirit");
  if (!v.took_tokens) return t("h.prompt.take");
  if (v.hand.length) return t("h.prompt.place", { n: v.hand.length });
  const canTake = c.legal.some((a) => a.type === "take_card");
  const canCube = c.legal.some((a) => a.type === "place_cube");
  const canDiscard = c.legal.some((a) => a.type === "discard_card");
  if (canTake && canDiscard) return t("h.prompt.finishSolo");
  if (canTake) return t("h.prompt.finish");
  if (canCube) return t("h.prompt.finishCubes");
  return t("h.prompt.finishEnd");
}

function cardInSlot(c, slot) {
  const row = c && c.view && c.view.row;
  return row && row[slot] ? row[slot] : null;
}

// An action in the imperative: hints, the labels of what can be clicked.
export function describeAction(a, c) {
  switch (a.type) {
    case "take_tokens": {
      const tokens = c && c.view && c.view.central ? c.view.central[a.space] : null;
      return tokens && tokens.length
        ? t("h.do.take_tokens", { n: a.space + 1, tokens: tokenWords(tokens) })
        : t("h.do.take_space", { n: a.space + 1 });
    }
    case "place_token":
      return t("h.do.place_token", { colour: colourName(a.color), cell: cellLabel(a.cell) });
    case "take_card": {
      const id = cardInSlot(c, a.slot);
      return id ? t("h.do.take_card", { card: cardName(id) }) : t("h.do.take_slot", { n: a.slot + 1 });
    }
    case "place_cube":
      return t("h.do.place_cube", { card: cardName(a.card), cell: cellLabel(a.cell) });
    case "choose_spirit":
      return t("h.do.choose_spirit", { card: cardName(a.card) });
    case "discard_card": {
      const id = cardInSlot(c, a.slot);
      return id ? t("h.do.discard_card", { card: cardName(id) }) : t("h.do.discard_slot", { n: a.slot + 1 });
    }
    case "end_turn":
      return t("h.do.end_turn");
    case "undo":
      return t("table.undo");
    default:
      return a.type;
  }
}

// What a log entry did, in the past tense, from the entry alone (the log carries the colours
// taken and the card taken).
function didText(entry) {
  const a = entry.action;
  const ch = entry.chance || {};
  switch (a.type) {
    case "take_tokens":
      return ch.taken ? t("h.did.take_tokens", { n: a.space + 1, tokens: tokenWords(ch.taken) }) : t("h.did.take_space", { n: a.space + 1 });
    case "place_token":
      return t("h.did.place_token", { colour: colourName(a.color), cell: cellLabel(a.cell) });
    case "take_card":
      return ch.card ? t("h.did.take_card", { card: cardName(ch.card) }) : t("h.did.take_slot", { n: a.slot + 1 });
    case "place_cube":
      return t("h.did.place_cube", { card: cardName(a.card), cell: cellLabel(a.cell) });
    case "choose_spirit":
      return t("h.did.choose_spirit", { card: cardName(a.card) });
    case "discard_card":
      return t("h.did.discard_slot", { n: a.slot + 1 });
    case "end_turn":
      return t("h.did.end_turn");
    default:
      return a.type;
  }
}

export function describeLog(entry, c) {
  let text = t("log.line", { name: c.nameOf(entry.seat), text: didText(entry) });
  const ch = entry.chance;
  const type = entry.action.type;
  if (ch && type === "discard_card" && ch.cards && ch.cards.length) {
    text = t("log.aside", { text, aside: t("h.log.revealed", { cards: listWords(ch.cards.map(cardName)) }) });
  } else if (ch && type === "end_turn") {
    const extra = [];
    if (ch.tokens && ch.tokens.length) extra.push(t("h.log.refilled", { tokens: tokenWords(ch.tokens) }));
    if (ch.cards && ch.cards.length) extra.push(t("h.log.newCards", { cards: listWords(ch.cards.map(cardName)) }));
    if (extra.length) text = t("log.aside", { text, aside: extra.join(t("log.separator")) });
  }
  return text;
}

// ------------------------------------------------------------------ the step being played back
// What c.step changed, as sets the drawing marks: cells per seat, central spaces, row slots, cards.
function stepMarks(c) {
  const marks = { seat: null, cells: new Set(), spaces: new Set(), slots: new Set(), cards: new Set(), taken: null, type: null };
  const step = c.step;
  if (!step || !step.entry || !step.entry.action) return marks;
  const { entry } = step;
  const a = entry.action;
  const ch = entry.chance || {};
  marks.seat = Number.isInteger(step.seat) ? step.seat : entry.seat;
  marks.type = a.type;
  if (a.cell) marks.cells.add(a.cell);
  if (a.type === "take_tokens") {
    marks.spaces.add(a.space);
    marks.taken = ch.taken || null;
  }
  if (a.type === "take_card" || a.type === "discard_card") marks.slots.add(a.slot);
  if (a.type === "take_card" && ch.card) marks.cards.add(ch.card);
  if (a.type === "place_cube" || a.type === "choose_spirit") marks.cards.add(a.card);
  if (a.type === "discard_card" && ch.cards) for (const id of ch.cards) marks.cards.add(id);
  if (a.type === "end_turn" && c.view) {
    // the spaces refilled and the cards dealt at the end of the turn
    const drawn = ch.tokens || [];
    c.view.central.forEach((tokens, i) => {
      for (let k = 0; k + 3 <= drawn.length; k += 3) if (tokens.join() === drawn.slice(k, k + 3).join()) marks.spaces.add(i);
    });
    for (const id of ch.cards || []) {
      marks.cards.add(id);
      const slot = c.view.row.indexOf(id);
      if (slot >= 0) marks.slots.add(slot);
    }
  }
  return marks;
}

// ------------------------------------------------------------------ drawing
// Cells whose stack or cube changed since the table was last drawn: they glow once, so that a
// player sees at a glance what just changed.
function freshCells(ui, seat, board) {
  const now = {};
  for (const [cell, tokens] of Object.entries(board.stacks)) now[cell] = tokens.join(",");
  for (const cell of board.cubes || []) now[cell] = `${now[cell] || ""}#`;
  const before = ui.drawn && ui.drawn[seat];
  ui.drawn = ui.drawn || {};
  ui.drawn[seat] = now;
  const fresh = new Set();
  if (!before) return fresh;
  for (const cell of new Set([...Object.keys(now), ...Object.keys(before)])) if (now[cell] !== before[cell]) fresh.add(cell);
  return fresh;
}

export function boardSvg(board, { size, legalToken, cubeCells, hintCells, interactive, label, fresh, stepCells, labels = true }) {
  const cells = boardCells(board.side);
  const [x, y, w, h] = viewBox(cells, size);
  const cubes = new Set(board.cubes || []);
  let body = "";
  for (const [q, r] of cells) {
    const name = `${q},${r}`;
    const shown = cellLabel(name);
    const [cx, cy] = centre(q, r, size);
    const tokens = board.stacks[name] || [];
    const tokenAct = legalToken && legalToken.get(name);
    const cubeAct = cubeCells && cubeCells.get(name);
    const a = tokenAct || cubeAct || (interactive && interactive(name));
    const classes = ["cell"];
    if (tokenAct) classes.push("legal");
    if (cubeAct) classes.push("cube-ok");
    if (hintCells && hintCells.has(name)) classes.push("hinted");
    const isStep = stepCells && stepCells.has(name);
    if (isStep) classes.push("step");
    else if (fresh && fresh.has(name)) classes.push("fresh");
    const desc = tokens.length
      ? t("h.cellStack", { cell: shown, stack: tokens.map(colourName).join(" › ") })
      : t("h.cellEmpty", { cell: shown });
    const attrs = a
      ? ` data-act="${act(a)}" data-key="cell-${name}" tabindex="0" role="button" aria-label="${esc(`${desc}. ${describeAction(a)}`)}"`
      : ` aria-label="${esc(desc)}" role="img"`;
    body += `<g class="${classes.join(" ")}" data-cell="${name}" data-label="${shown}" data-height="${tokens.length}"${attrs}>`;
    body += `<polygon class="hex" points="${hexPoints(cx, cy, size * 0.96)}"/>`;
    if (labels) body += `<text class="coord" x="${cx.toFixed(1)}" y="${(cy - size * 0.66).toFixed(1)}" font-size="${(size * 0.27).toFixed(1)}" text-anchor="middle" dominant-baseline="central">${shown}</text>`;
    body += stack(cx, cy, size, tokens, { topClass: isStep || (fresh && fresh.has(name)) ? "drop" : "" });
    if (cubes.has(name)) body += cube(cx, topY(cy, size, tokens.length) - size * 0.18, size * 0.24, isStep && !tokenAct ? "placed drop" : "placed");
    if (cubeAct) body += cube(cx + size * 0.45, cy - size * 0.5, size * 0.2, "ghost");
    if (isStep) body += `<polygon class="step-ring" points="${hexPoints(cx, cy, size * 0.9)}"/>`;
    body += `</g>`;
  }
  return `<svg class="hboard" viewBox="${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}" role="group" aria-label="${esc(label)}">${body}</svg>`;
}

// A habitat drawn from the card data; `big`: the enlarged card (every height numbered).
export function habitatSvg(card, { size = 13, big = false } = {}) {
  const cells = card.cells.map((cell) => [cell.q, cell.r]);
  // one frame size for every card, so that a habitat's cells are drawn at the same scale
  const [bx, by, bw, bh] = viewBox(cells, size, 2);
  const frame = big ? 5.6 : 4;
  const w = Math.max(bw, size * frame);
  const h = Math.max(bh, size * frame);
  const x = bx - (w - bw) / 2;
  const y = by - (h - bh) / 2;
  let body = "";
  for (const cell of card.cells) {
    const [cx, cy] = centre(cell.q, cell.r, size);
    body += `<polygon class="hex mini${cell.cube ? " cube-cell" : ""}" points="${hexPoints(cx, cy, size * 0.95)}"/>`;
    body += stack(cx, cy, size, cell.stack, { badge: big ? "always" : false });
    if (cell.cube) body += cube(cx + (big ? 0 : size * 0.55), topY(cy, size, cell.stack.length) - size * (big ? 0.45 : 0.35), size * (big ? 0.26 : 0.3), "marker");
  }
  return `<svg class="habitat${big ? " big" : ""}" viewBox="${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}" aria-hidden="true">${body}</svg>`;
}

function cellWords(cell) {
  const colours = cell.stack.map((s) => (s === "*" ? t("h.anyBase") : colourName(s))).join(" › ");
  const what = t(`h.land.${cell.landscape}`, { n: cell.height });
  return `${what} (${colours})${cell.cube ? ` — ${t("h.cubeHere")}` : ""}`;
}

function habitatWords(card) {
  return card.cells.map(cellWords).join(", ");
}

// The enlarged card shown on hover, focus or tap of its picture (a focusable span, not a button:
// it acts on nothing): the habitat with every
// height, the cube's cell, and the point track, large.
function zoomHtml(id, placed) {
  const card = CARDS[id];
  let track = "";
  if (card.spirit) {
    track = `<p class="rule">${esc(t(`spirit.rule.${id}`))}</p>`;
  } else {
    const cells = card.points
      .map((p, i) => `<li class="${placed !== null && i < placed ? "covered" : "open"}"><span class="n">${esc(t("h.cubeN", { n: i + 1 }))}</span><b>${esc(t("h.points", { n: p }))}</b></li>`)
      .join("");
    track = `<ol class="track big" aria-label="${esc(t("h.pointTrack"))}">${cells}</ol>`;
  }
  const words = card.cells.map((cell) => `<li>${esc(cellWords(cell))}</li>`).join("");
  return `<div class="hcard-zoom" role="tooltip" data-testid="card-zoom">
    <h4 class="zoom-title">${esc(cardName(id))}</h4>${habitatSvg(card, { size: 30, big: true })}<ul class="habitat-words">${words}</ul>${track}</div>`;
}

// A card: its name, its habitat drawn from the card data, and its point track with the cubes on it.
function cardHtml(id, { placed = null, left = null, buttons = "", selected = false, cls = "", key = "" } = {}) {
  const card = CARDS[id];
  let track = "";
  if (card.spirit) {
    track = `<p class="rule">${esc(t(`spirit.rule.${id}`))}</p>`;
  } else {
    const slots = card.points.map((p, i) => {
      const covered = placed !== null && i >= placed;
      const current = placed !== null && placed > 0 && i === placed - 1;
      return `<li class="${covered ? "covered" : "open"}${current ? " current" : ""}" title="${esc(t("h.slot", { n: i + 1, points: p }))}">${p}</li>`;
    });
    track = `<ol class="track" aria-label="${esc(t("h.pointTrack"))}">${slots.join("")}</ol>`;
  }
  const cubesLeft = left !== null ? `<span class="cubes-left">${esc(t("h.cubesLeft", { n: left }))}</span>` : "";
  const zoomKey = `zoom-${key || id}`;
  return `<article class="hcard ${card.spirit ? "spirit" : "animal"} land-${esc(card.cube_on || "any")} ${selected ? "selected" : ""} ${cls}" data-card="${esc(id)}"
    aria-label="${esc(`${cardName(id)}: ${habitatWords(card)}`)}">
    <h3>${esc(cardName(id))}</h3>
    <span class="zoom" role="button" tabindex="0" data-key="${esc(zoomKey)}" data-zoom="${esc(id)}" aria-label="${esc(t("h.enlarge", { card: cardName(id) }))}">${habitatSvg(card)}</span>
    ${zoomHtml(id, placed)}${track}${cubesLeft}${buttons ? `<div class="card-buttons">${buttons}</div>` : ""}</article>`;
}

function tokenChip(colour, extra = "") {
  return `<span class="chip tok-${colour}" aria-hidden="true">${GLYPH[colour]}</span>${extra}`;
}

function centralHtml(c, marks) {
  const v = c.view;
  const legal = new Set(c.legal.filter((a) => a.type === "take_tokens").map((a) => a.space));
  const mine = c.seat !== null && v.current === c.seat;
  const refused = mine ? refusalOf(c, "take_tokens") : null;
  const spaces = v.central
    .map((tokens, i) => {
      const a = { type: "take_tokens", space: i };
      const step = marks.spaces.has(i);
      let chips = tokens.length ? tokens.map((col) => tokenChip(col)).join("") : `<span class="muted">—</span>`;
      // during playback, the space just emptied still shows, faded, the tokens that were taken
      if (step && marks.type === "take_tokens" && marks.taken) chips = `<span class="taken" data-testid="taken-tokens">${marks.taken.map((col) => tokenChip(col)).join("")}</span>`;
      const label = tokens.length
        ? t("h.spaceTokens", { n: i + 1, tokens: listWords(tokens.map(colourName)) })
        : t("h.spaceEmpty", { n: i + 1 });
      const cls = `space${step ? " step" : ""}`;
      if (legal.has(i)) {
        return `<button type="button" class="${cls} legal" data-space="${i}" data-tokens="${tokens.join(",")}" data-act="${act(a)}" data-key="space-${i}" aria-label="${esc(`${label}. ${describeAction(a, c)}`)}"><span class="space-n">${i + 1}</span>${chips}</button>`;
      }
      if (refused && tokens.length) {
        return `<div class="${cls} off" data-space="${i}" role="button" tabindex="0" data-key="off-space-${i}"${refusalAttrs(refused)} aria-label="${esc(`${label}. ${refusalText(refused)}`)}"><span class="space-n">${i + 1}</span>${chips}</div>`;
      }
      return `<div class="${cls}" data-space="${i}" aria-label="${esc(label)}"><span class="space-n">${i + 1}</span>${chips}</div>`;
    })
    .join("");
  const solo = v.players === 1 ? ` · ${esc(t("h.outOfGame", { n: v.out_of_game }))}` : "";
  return `<section class="panel central" aria-labelledby="central-title">
    <div class="central-head"><h2 id="central-title">${esc(t("h.central"))}</h2><span class="muted pouch" data-testid="pouch">${esc(t("h.pouch", { n: v.pouch.count }))}${solo}</span></div>
    <div class="spaces">${spaces}</div>
  </section>`;
}

function rowHtml(c, marks) {
  const v = c.view;
  const mine = c.seat !== null && v.current === c.seat && !v.spirit_offer;
  const takeable = new Set(c.legal.filter((a) => a.type === "take_card").map((a) => a.slot));
  const discardable = new Set(c.legal.filter((a) => a.type === "discard_card").map((a) => a.slot));
  const takeRefused = mine ? refusalOf(c, "take_card") : null;
  const discardRefused = mine && v.players === 1 ? refusalOf(c, "discard_card") : null;
  // at the 4-card limit the Take buttons give way to the reason, said once over the row
  const full = takeRefused && takeRefused.code === "harmonies.card.hand_full";
  const cards = v.row
    .map((id, slot) => {
      const step = marks.slots.has(slot) ? " step" : "";
      if (!id) return `<article class="hcard empty${step}" data-slot="${slot}">${esc(t("h.emptySlot"))}</article>`;
      let buttons = "";
      if (takeable.has(slot)) {
        const a = { type: "take_card", slot };
        buttons += `<button type="button" data-act="${act(a)}" data-key="take-${slot}" aria-label="${esc(describeAction(a, c))}">${esc(t("h.takeCard"))}</button>`;
      } else if (full) {
        buttons += `<span class="refused-here" role="button" tabindex="0" data-key="off-take-${slot}"${refusalAttrs(takeRefused)} title="${esc(refusalText(takeRefused))}">${esc(t("h.cardLimit", { n: takeRefused.params.limit }))}</span>`;
      } else if (takeRefused && !v.took_card) {
        buttons += `<button type="button" class="off" data-key="off-take-${slot}"${refusalAttrs(takeRefused)} title="${esc(refusalText(takeRefused))}">${esc(t("h.takeCard"))}</button>`;
      }
      if (discardable.has(slot)) {
        const a = { type: "discard_card", slot };
        buttons += `<button type="button" class="secondary" data-act="${act(a)}" data-key="discard-${slot}" aria-label="${esc(describeAction(a, c))}">${esc(t("h.discard"))}</button>`;
      } else if (discardRefused && !v.took_card && !v.discarded) {
        buttons += `<button type="button" class="secondary off" data-key="off-discard-${slot}"${refusalAttrs(discardRefused)} title="${esc(refusalText(discardRefused))}">${esc(t("h.discard"))}</button>`;
      }
      return cardHtml(id, { buttons, cls: `${step} ${marks.cards.has(id) ? "step" : ""}`, key: `row-${slot}` }).replace("<article ", `<article data-slot="${slot}" `);
    })
    .join("");
  const reason = full ? `<p class="row-reason" data-testid="take-refused">${esc(refusalText(takeRefused))}</p>` : "";
  return `<section class="panel row" aria-labelledby="row-title">
    <h2 id="row-title">${esc(t("h.animalCards"))} <span class="muted">${esc(t("h.deck", { n: v.deck }))}</span></h2>
    ${reason}<div class="cards">${cards}</div></section>`;
}

function heldHtml(c, board, seat, marks) {
  const own = seat === c.seat;
  const list = [];
  const cubeCards = new Set(c.legal.filter((a) => a.type === "place_cube").map((a) => a.card));
  const cards = [...(board.cards || [])].sort((a, b) => a.complete - b.complete);
  if (board.spirit) cards.push({ card: board.spirit.card, placed: board.spirit.placed ? 1 : 0, spirit: true, complete: board.spirit.placed });
  for (const held of cards) {
    let buttons = "";
    if (own && cubeCards.has(held.card)) {
      const on = c.ui.card === held.card;
      buttons = `<button type="button" data-ui="card" data-card="${esc(held.card)}" data-key="cube-${esc(held.card)}" aria-pressed="${on}" class="${on ? "on" : ""}">${esc(t("h.placeCube"))}</button>`;
    }
    const placed = held.spirit ? null : held.placed;
    const left = held.spirit ? null : held.cubes_left;
    let cls = held.complete ? "complete" : cubeCards.has(held.card) && own ? "ready" : "";
    if (marks.seat === seat && marks.cards.has(held.card)) cls += " step";
    list.push(cardHtml(held.card, { placed, left, buttons, selected: own && c.ui.card === held.card, cls, key: `held-${seat}-${held.card}` }));
  }
  if (!list.length) return `<p class="muted no-cards">${esc(t("h.noCards"))}</p>`;
  return `<div class="cards held">${list.join("")}</div>`;
}

// Another player's cards, one line each (name and point track), each enlargeable like a card.
function heldLines(c, board, seat, marks) {
  const cards = [...(board.cards || [])].sort((a, b) => a.complete - b.complete);
  if (board.spirit) cards.push({ card: board.spirit.card, placed: board.spirit.placed ? 1 : 0, spirit: true, complete: board.spirit.placed });
  if (!cards.length) return `<p class="muted no-cards">${esc(t("h.noCards"))}</p>`;
  const lines = cards.map((held) => {
    const card = CARDS[held.card];
    const placed = held.spirit ? null : held.placed;
    let track = "";
    if (!held.spirit) {
      track = card.points
        .map((p, i) => `<span class="${i < held.placed ? "on" : ""}${i === held.placed - 1 ? " current" : ""}">${p}</span>`)
        .join("");
    }
    const cls = `${held.spirit ? "spirit" : "animal"} land-${card.cube_on || "any"}${held.complete ? " complete" : ""}${marks.seat === seat && marks.cards.has(held.card) ? " step" : ""}`;
    const label = held.spirit ? cardName(held.card) : `${cardName(held.card)}: ${t("h.cubesLeft", { n: held.cubes_left })}`;
    return `<li class="hline hcard ${cls}" data-card="${esc(held.card)}"><span class="zoom" role="button" tabindex="0" data-key="zoom-line-${seat}-${esc(held.card)}" data-zoom="${esc(held.card)}" aria-label="${esc(`${label}. ${t("h.enlarge", { card: cardName(held.card) })}`)}">${esc(cardName(held.card))}</span>${zoomHtml(held.card, placed)}<span class="mini-track">${track}</span></li>`;
  });
  return `<ul class="held-lines">${lines.join("")}</ul>`;
}

function handHtml(c) {
  const v = c.view;
  if (c.seat === null || v.current !== c.seat || !v.hand.length) return "";
  const chips = v.hand
    .map((col, i) => {
      const on = c.ui.color === col && !c.ui.card;
      return `<button type="button" class="token-btn tok-${col} ${on ? "on" : ""}" data-ui="color" data-color="${col}" data-key="hand-${i}" aria-pressed="${on}" aria-label="${esc(colourName(col))}">${GLYPH[col]}<span>${esc(colourName(col))}</span></button>`;
    })
    .join("");
  return `<div class="hand" data-testid="hand"><span>${esc(t("h.yourTokens"))}</span>${chips}</div>`;
}

// The tokens another player took and has not placed yet, shown on that player's board.
function otherHandHtml(c, seat) {
  const v = c.view;
  if (v.current !== seat || seat === c.seat || !v.hand || !v.hand.length) return "";
  return `<p class="their-hand" data-testid="their-hand">${esc(t("h.holding"))} ${v.hand.map((col) => tokenChip(col)).join("")}</p>`;
}

function spiritOfferHtml(c) {
  const offer = c.view.spirit_offer;
  if (!offer) return "";
  const cards = offer
    .map((id) => {
      const a = { type: "choose_spirit", card: id };
      return cardHtml(id, { buttons: `<button type="button" data-act="${act(a)}" data-key="spirit-${esc(id)}">${esc(t("h.chooseSpirit"))}</button>`, key: `offer-${id}` });
    })
    .join("");
  return `<section class="panel offer"><h2>${esc(t("h.spiritOffer"))}</h2><div class="cards">${cards}</div></section>`;
}

export function controls(c) {
  const v = c.view;
  const end = c.legal.find((a) => a.type === "end_turn");
  if (end) return `<button type="button" class="primary" data-act='{"type":"end_turn"}' data-key="end_turn" title="E">${esc(t("h.endTurn"))}</button>`;
  const refused = c.seat !== null && v.current === c.seat && !v.over ? refusalOf(c, "end_turn") : null;
  if (!refused || v.spirit_offer) return "";
  return `<button type="button" class="primary off" data-key="off-end_turn"${refusalAttrs(refused)} title="${esc(refusalText(refused))}">${esc(t("h.endTurn"))}</button>`;
}

function pointsOf(board) {
  return board.score ? board.score.total : 0;
}

export function render(c) {
  const v = c.view;
  // a spectator (and the replay) sees the board of c.focus large, when given
  const me = c.seat === null ? (Number.isInteger(c.focus) ? c.focus : 0) : c.seat;
  const myTurn = c.seat !== null && v.current === c.seat;
  const marks = stepMarks(c);
  let legalToken = null;
  let cubeCells = null;
  let interactive = null;
  if (myTurn) {
    legalToken = new Map();
    cubeCells = new Map();
    if (c.ui.card) {
      for (const a of c.legal) if (a.type === "place_cube" && a.card === c.ui.card) cubeCells.set(a.cell, a);
    } else {
      if (c.ui.color) for (const a of c.legal) if (a.type === "place_token" && a.color === c.ui.color) legalToken.set(a.cell, a);
      for (const a of c.legal) if (a.type === "place_cube" && !cubeCells.has(a.cell)) cubeCells.set(a.cell, a);
    }
    // a click on any other cell still asks the server, which answers with the reason it is refused
    if (c.ui.color && !c.ui.card) interactive = (cell) => ({ type: "place_token", color: c.ui.color, cell });
  }
  let hintCells = null;
  if (c.hint) hintCells = new Set(c.hint.filter((a) => a.cell).map((a) => a.cell));
  const stepCellsOf = (seat) => (marks.seat === seat ? marks.cells : null);
  const board = v.boards[me];
  const mineLabel = c.seat === null ? c.nameOf(me) : t("h.yourBoard");
  const others = v.boards
    .map((b, s) => ({ b, s }))
    .filter(({ s }) => s !== me)
    .map(
      ({ b, s }) => `<section class="panel other board-panel ${v.current === s ? "active" : ""} ${marks.seat === s ? "step-board" : ""}" data-board="${s}" data-board-seat="${s}">
      <h3>${v.current === s ? `<span class="turn-dot" aria-hidden="true">▶</span> ` : ""}${esc(c.nameOf(s))} <span class="muted">${esc(t("h.points", { n: pointsOf(b) }))}</span></h3>
      ${otherHandHtml(c, s)}
      <div class="other-body">${boardSvg(b, { size: 20, label: t("h.boardOf", { name: c.nameOf(s) }), fresh: freshCells(c.ui, s, b), stepCells: stepCellsOf(s) })}
      ${heldLines(c, b, s, marks)}</div></section>`,
    )
    .join("");
  const phase = myTurn && !v.took_tokens && !v.spirit_offer ? "phase-take" : "";
  return `
  ${spiritOfferHtml(c)}
  <div class="h-layout players-${v.players} ${phase}">
    <section class="panel mine board-panel ${myTurn ? "active" : ""} ${marks.seat === me ? "step-board" : ""}" data-board="${me}" data-board-seat="${me}" aria-labelledby="mine-title">
      <h2 id="mine-title">${esc(mineLabel)} <span class="muted" data-testid="my-score">${esc(t("h.points", { n: pointsOf(board) }))}</span></h2>
      ${handHtml(c)}${c.seat === null ? otherHandHtml(c, me) : ""}
      ${boardSvg(board, { size: 34, legalToken, cubeCells, hintCells, interactive, label: mineLabel, fresh: freshCells(c.ui, me, board), stepCells: stepCellsOf(me) })}
      ${heldHtml(c, board, me, marks)}
    </section>
    <div class="h-centre">${centralHtml(c, marks)}${rowHtml(c, marks)}</div>
    ${others ? `<div class="others n-${v.players - 1}">${others}</div>` : ""}
  </div>`;
}

const CATEGORIES = ["trees", "mountains", "fields", "buildings", "water", "animals", "spirit"];

// The rules section of a score line (#/rules/harmonies/<section>).
const ruleOf = (cat, side) => `harmonies.${{ water: side === "B" ? "islands" : "river", spirit: "spirits" }[cat] || cat}`;

function categoryLabel(cat, side) {
  if (cat === "water") return t(side === "B" ? "h.cat.islands" : "h.cat.river");
  return t(`h.cat.${cat}`);
}

// The scores by seat. Three or four players in the narrow side column (not the end screen): each
// column headed by the seat's number, the names whole in a line under the table.
function breakdownTable(c, rows, { result = null } = {}) {
  const v = c.view;
  const side = v.options.side || "A";
  const seats = rows.map((_, s) => s);
  const marks = rows.length > 2 && !result;
  const head = seats
    .map((s) => {
      const turn = v.current === s && !result ? "▶\u00a0" : "";
      const label = marks ? `<span class="seat-mark">${s + 1}</span><span class="sr-only">${esc(c.nameOf(s))}</span>` : `<span class="name">${esc(c.nameOf(s))}</span>`;
      return `<th scope="col" class="${v.current === s ? "active" : ""}${marks ? " mark-head" : ""}" title="${esc(c.nameOf(s))}">${turn}${label}</th>`;
    })
    .join("");
  const legend = marks
    ? `<p class="score-names" aria-hidden="true">${seats.map((s) => `<span class="score-name"><span class="seat-mark">${s + 1}</span> ${esc(c.nameOf(s))}</span>`).join(" ")}</p>`
    : "";
  const cats = CATEGORIES.filter((cat) => cat !== "spirit" || v.options.spirits);
  let body = cats
    .map((cat) => `<tr data-cat="${cat}"><th scope="row"><a href="#/rules/harmonies/${ruleOf(cat, side)}">${esc(categoryLabel(cat, side))}</a></th>${rows.map((r, s) => `<td data-score-seat="${s}" tabindex="0">${r[cat] ?? 0}</td>`).join("")}</tr>`)
    .join("");
  body += `<tr class="total"><th scope="row">${esc(t("h.cat.total"))}</th>${rows.map((r, s) => `<td data-total-seat="${s}">${r.total}</td>`).join("")}</tr>`;
  if (result && v.players === 1 && result.suns !== undefined) {
    body += `<tr><th scope="row">${esc(t("h.cat.suns"))}</th><td data-suns>${"☀".repeat(result.suns)} ${result.suns}</td></tr>`;
  }
  if (result && result.tiebreak && v.players > 1) {
    body += `<tr class="tiebreak-row"><th scope="row">${esc(t("h.cat.cubes"))}</th>${result.tiebreak.map((n) => `<td>${n}</td>`).join("")}</tr>`;
  }
  return `<table class="breakdown h-breakdown players-${rows.length}${result ? " final" : ""}"><thead><tr><td></td>${head}</tr></thead><tbody>${body}</tbody></table>${legend}`;
}

// Solo: the sun track as it stands (suns are counted at the end: the score's threshold plus the
// side's and the spirit's modifiers, which the view gives).
function sunTrack(v) {
  const s = v.solo_suns;
  if (!s) return "";
  const parts = [t("h.sun.fromScore", { n: s.score })];
  if (s.next !== null && s.next !== undefined) parts.push(t("h.sun.next", { n: s.next }));
  const bonus = [t("h.sun.side", { n: s.side, side: v.options.side || "A" })];
  if (s.spirit_known) bonus.push(t(v.boards[0].spirit ? "h.sun.spirit" : "h.sun.noSpirit", { n: s.spirit }));
  else bonus.push(t("h.sun.spiritLater"));
  return `<p class="sun-track" data-testid="sun-track">☀ ${esc(parts.join(" · "))}<br><span class="muted">${esc(t("h.sun.atEnd", { bonus: bonus.join(", ") }))}</span></p>`;
}

export function scores(c) {
  const v = c.view;
  const table = breakdownTable(
    c,
    v.boards.map((b) => b.score || { total: 0 }),
  );
  return v.players === 1 && !v.over ? table + sunTrack(v) : table;
}

export function endScreen(c) {
  const v = c.view;
  const result = v.result;
  const winners = result.winners.map(c.nameOf);
  let headline;
  if (v.players === 1) headline = t("end.soloScore", { n: result.scores[0], suns: result.suns });
  else if (winners.length > 1) headline = t("end.shared", { names: listWords(winners) });
  else headline = t("end.winner", { name: winners[0] });
  const why = triggerSentences(c, "end")
    .map((s) => `<p class="end-why" data-testid="end-why">${esc(s)}</p>`)
    .join("");
  let tie = "";
  if (v.players > 1) {
    const best = Math.max(...result.scores);
    const tied = result.scores.filter((s) => s === best).length;
    if (tied > 1 && winners.length === 1) tie = `<p class="tiebreak" data-testid="tiebreak">${esc(t("end.tiebreak", { names: listWords(winners) }))}</p>`;
    else if (tied > 1) tie = `<p class="tiebreak" data-testid="tiebreak">${esc(t("h.end.tieShared"))}</p>`;
    else tie = `<p class="tiebreak muted" data-testid="tiebreak">${esc(t("h.end.noTie"))}</p>`;
  }
  let suns = "";
  if (v.players === 1 && v.solo_suns) {
    const s = v.solo_suns;
    const spirit = v.boards[0].spirit;
    suns = `<p class="sun-sum" data-testid="sun-sum">${esc(
      t("h.end.suns", {
        score: s.score,
        side: t("h.sun.side", { n: s.side, side: v.options.side || "A" }),
        spirit: spirit ? t("h.sun.spiritNamed", { n: s.spirit, card: cardName(spirit.card) }) : t("h.sun.noSpirit", { n: s.spirit }),
        n: s.suns,
      }),
    )}</p>`;
  }
  return `<p class="headline" data-testid="winner">${esc(headline)}</p>${why}${tie}${suns}${breakdownTable(c, result.breakdown, { result })}`;
}
