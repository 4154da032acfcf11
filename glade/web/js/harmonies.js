// The Harmonies table: personal boards, central board, animal cards, spirits, scores and end screen.
import { COLORS, GLYPH, centre, cube, hexPoints, stack, topY, viewBox } from "./hex.js";
import { esc, t } from "./i18n.js";

let DATA = null; // harmonies-cards.json: boards and the card data (habitats, point tracks)
const CARDS = {};

export async function prepare() {
  if (DATA) return;
  const resp = await fetch(new URL("../data/harmonies-cards.json", import.meta.url));
  DATA = await resp.json();
  for (const c of DATA.animals) CARDS[c.id] = { ...c, spirit: false };
  for (const c of DATA.spirits) CARDS[c.id] = { ...c, spirit: true };
}

export function cardData(id) {
  return CARDS[id];
}

export function boardCells(side) {
  return DATA.board[side];
}

export const cardName = (id) => t(`card.${id}`);
const colourName = (c) => t(`colour.${c}`);

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

export function prompt(c) {
  const v = c.view;
  if (v.spirit_offer) return t("h.prompt.spirit");
  if (!v.took_tokens) return t("h.prompt.take");
  if (v.hand.length) return t("h.prompt.place", { n: v.hand.length });
  return t("h.prompt.finish");
}

export function describeAction(a) {
  switch (a.type) {
    case "take_tokens":
      return t("h.act.take_tokens", { n: a.space + 1 });
    case "place_token":
      return t("h.act.place_token", { colour: colourName(a.color), cell: a.cell });
    case "take_card":
      return t("h.act.take_card", { n: a.slot + 1 });
    case "place_cube":
      return t("h.act.place_cube", { card: cardName(a.card), cell: a.cell });
    case "choose_spirit":
      return t("h.act.choose_spirit", { card: cardName(a.card) });
    case "discard_card":
      return t("h.act.discard_card", { n: a.slot + 1 });
    case "end_turn":
      return t("h.act.end_turn");
    case "undo":
      return t("table.undo");
    default:
      return a.type;
  }
}

export function describeLog(entry, c) {
  let text = `${c.nameOf(entry.seat)}: ${describeAction(entry.action)}`;
  const ch = entry.chance;
  if (ch && ch.cards && ch.cards.length && entry.action.type === "discard_card") {
    text += ` (${t("h.log.revealed", { cards: ch.cards.map(cardName).join(", ") })})`;
  } else if (ch && ch.cards && ch.cards.length) {
    text += ` (${t("h.log.newCards", { cards: ch.cards.map(cardName).join(", ") })})`;
  }
  return text;
}

// ------------------------------------------------------------------ drawing
const act = (a) => esc(JSON.stringify(a));

// Cells whose stack or cube changed since the table was last drawn: they glow once, so that a
// player sees at a glance what the others just did.
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

function boardSvg(board, { size, legalToken, cubeCells, hintCells, interactive, label, fresh }) {
  const cells = boardCells(board.side);
  const [x, y, w, h] = viewBox(cells, size);
  const cubes = new Set(board.cubes || []);
  let body = "";
  for (const [q, r] of cells) {
    const name = `${q},${r}`;
    const [cx, cy] = centre(q, r, size);
    const tokens = board.stacks[name] || [];
    const tokenAct = legalToken && legalToken.get(name);
    const cubeAct = cubeCells && cubeCells.get(name);
    const a = tokenAct || cubeAct || (interactive && interactive(name));
    const classes = ["cell"];
    if (tokenAct) classes.push("legal");
    if (cubeAct) classes.push("cube-ok");
    if (hintCells && hintCells.has(name)) classes.push("hinted");
    if (fresh && fresh.has(name)) classes.push("fresh");
    const desc = tokens.length
      ? t("h.cellStack", { cell: name, stack: tokens.map(colourName).join(" › ") })
      : t("h.cellEmpty", { cell: name });
    const attrs = a
      ? ` data-act="${act(a)}" data-key="cell-${name}" tabindex="0" role="button" aria-label="${esc(`${desc}. ${describeAction(a)}`)}"`
      : ` aria-label="${esc(desc)}" role="img"`;
    body += `<g class="${classes.join(" ")}" data-cell="${name}" data-height="${tokens.length}"${attrs}>`;
    body += `<polygon class="hex" points="${hexPoints(cx, cy, size * 0.96)}"/>`;
    body += stack(cx, cy, size, tokens);
    if (cubes.has(name)) body += cube(cx, topY(cy, size, tokens.length) - size * 0.18, size * 0.24, "placed");
    if (cubeAct) body += cube(cx + size * 0.45, cy - size * 0.5, size * 0.2, "ghost");
    body += `</g>`;
  }
  return `<svg class="hboard" viewBox="${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}" role="group" aria-label="${esc(label)}">${body}</svg>`;
}

function habitatSvg(card, size = 13) {
  const cells = card.cells.map((cell) => [cell.q, cell.r]);
  // one frame size for every card, so that a habitat's cells are drawn at the same scale
  const [bx, by, bw, bh] = viewBox(cells, size, 2);
  const w = Math.max(bw, size * 5.6);
  const h = Math.max(bh, size * 5.6);
  const x = bx - (w - bw) / 2;
  const y = by - (h - bh) / 2;
  let body = "";
  for (const cell of card.cells) {
    const [cx, cy] = centre(cell.q, cell.r, size);
    body += `<polygon class="hex mini" points="${hexPoints(cx, cy, size * 0.95)}"/>`;
    body += stack(cx, cy, size, cell.stack, { badge: false });
    if (cell.cube) body += cube(cx + size * 0.55, topY(cy, size, cell.stack.length) - size * 0.35, size * 0.3, "marker");
  }
  return `<svg class="habitat" viewBox="${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}" aria-hidden="true">${body}</svg>`;
}

function habitatWords(card) {
  return card.cells
    .map((cell) => `${cell.stack.map((s) => (s === "*" ? t("h.anyBase") : colourName(s))).join("+")}${cell.cube ? " ■" : ""}`)
    .join(", ");
}

// A card: its name, its habitat drawn from the card data, and its point track with the cubes on it.
function cardHtml(id, { placed = null, left = null, buttons = "", selected = false, cls = "" } = {}) {
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
  return `<article class="hcard ${card.spirit ? "spirit" : "animal"} ${selected ? "selected" : ""} ${cls}" data-card="${esc(id)}"
    aria-label="${esc(`${cardName(id)}: ${habitatWords(card)}`)}">
    <h3>${esc(cardName(id))}</h3>${habitatSvg(card)}${track}${cubesLeft}${buttons ? `<div class="card-buttons">${buttons}</div>` : ""}</article>`;
}

function tokenChip(colour, extra = "") {
  return `<span class="chip tok-${colour}" aria-hidden="true">${GLYPH[colour]}</span>${extra}`;
}

function centralHtml(c) {
  const v = c.view;
  const legal = new Set(c.legal.filter((a) => a.type === "take_tokens").map((a) => a.space));
  const spaces = v.central
    .map((tokens, i) => {
      const a = { type: "take_tokens", space: i };
      const chips = tokens.length ? tokens.map((col) => tokenChip(col)).join("") : `<span class="muted">—</span>`;
      const label = tokens.length
        ? t("h.spaceTokens", { n: i + 1, tokens: tokens.map(colourName).join(", ") })
        : t("h.spaceEmpty", { n: i + 1 });
      return legal.has(i)
        ? `<button type="button" class="space legal" data-tokens="${tokens.join(",")}" data-act="${act(a)}" data-key="space-${i}" aria-label="${esc(`${label}. ${describeAction(a)}`)}"><span class="space-n">${i + 1}</span>${chips}</button>`
        : `<div class="space" aria-label="${esc(label)}"><span class="space-n">${i + 1}</span>${chips}</div>`;
    })
    .join("");
  return `<section class="panel central" aria-labelledby="central-title">
    <h2 id="central-title">${esc(t("h.central"))}</h2>
    <div class="spaces">${spaces}</div>
    <p class="pouch" data-testid="pouch">${esc(t("h.pouch", { n: v.pouch.count }))}${v.players === 1 ? ` · ${esc(t("h.outOfGame", { n: v.out_of_game }))}` : ""}</p>
  </section>`;
}

function rowHtml(c) {
  const v = c.view;
  const takeable = new Set(c.legal.filter((a) => a.type === "take_card").map((a) => a.slot));
  const discardable = new Set(c.legal.filter((a) => a.type === "discard_card").map((a) => a.slot));
  const cards = v.row
    .map((id, slot) => {
      if (!id) return `<article class="hcard empty">${esc(t("h.emptySlot"))}</article>`;
      let buttons = "";
      if (takeable.has(slot)) {
        const a = { type: "take_card", slot };
        buttons += `<button type="button" data-act="${act(a)}" data-key="take-${slot}">${esc(t("h.takeCard"))}</button>`;
      }
      if (discardable.has(slot)) {
        const a = { type: "discard_card", slot };
        buttons += `<button type="button" class="secondary" data-act="${act(a)}" data-key="discard-${slot}">${esc(t("h.discard"))}</button>`;
      }
      return cardHtml(id, { buttons });
    })
    .join("");
  return `<section class="panel row" aria-labelledby="row-title">
    <h2 id="row-title">${esc(t("h.animalCards"))} <span class="muted">${esc(t("h.deck", { n: v.deck }))}</span></h2>
    <div class="cards">${cards}</div></section>`;
}

function heldHtml(c, board, seat) {
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
    const cls = held.complete ? "complete" : cubeCards.has(held.card) && own ? "ready" : "";
    list.push(cardHtml(held.card, { placed, left, buttons, selected: own && c.ui.card === held.card, cls }));
  }
  if (!list.length) return `<p class="muted">${esc(t("h.noCards"))}</p>`;
  return `<div class="cards held">${list.join("")}</div>`;
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

function spiritOfferHtml(c) {
  const offer = c.view.spirit_offer;
  if (!offer) return "";
  const cards = offer
    .map((id) => {
      const a = { type: "choose_spirit", card: id };
      return cardHtml(id, { buttons: `<button type="button" data-act="${act(a)}" data-key="spirit-${esc(id)}">${esc(t("h.chooseSpirit"))}</button>` });
    })
    .join("");
  return `<section class="panel offer"><h2>${esc(t("h.spiritOffer"))}</h2><div class="cards">${cards}</div></section>`;
}

export function controls(c) {
  const end = c.legal.find((a) => a.type === "end_turn");
  return end ? `<button type="button" class="primary" data-act='{"type":"end_turn"}' data-key="end_turn" title="E">${esc(t("h.endTurn"))}</button>` : "";
}

export function render(c) {
  const v = c.view;
  const me = c.seat === null ? 0 : c.seat;
  const myTurn = c.seat !== null && v.current === c.seat;
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
  const board = v.boards[me];
  const mineLabel = c.seat === null ? c.nameOf(0) : t("h.yourBoard");
  const others = v.boards
    .map((b, s) => ({ b, s }))
    .filter(({ s }) => s !== me)
    .map(
      ({ b, s }) => `<section class="panel other ${v.current === s ? "active" : ""}" data-board="${s}">
      <h3>${esc(c.nameOf(s))} <span class="muted">${esc(t("h.points", { n: b.score ? b.score.total : 0 }))}</span></h3>
      ${boardSvg(b, { size: 20, label: t("h.boardOf", { name: c.nameOf(s) }), fresh: freshCells(c.ui, s, b) })}
      ${heldHtml(c, b, s)}</section>`,
    )
    .join("");
  const phase = myTurn && !v.took_tokens && !v.spirit_offer ? "phase-take" : "";
  return `
  ${spiritOfferHtml(c)}
  <div class="h-layout ${phase}">
    <section class="panel mine ${myTurn ? "active" : ""}" data-board="${me}" aria-labelledby="mine-title">
      <h2 id="mine-title">${esc(mineLabel)} <span class="muted" data-testid="my-score">${esc(t("h.points", { n: board.score ? board.score.total : 0 }))}</span></h2>
      ${handHtml(c)}
      ${boardSvg(board, { size: 34, legalToken, cubeCells, hintCells, interactive, label: mineLabel, fresh: freshCells(c.ui, me, board) })}
      <h3>${esc(t("h.heldCards"))}</h3>
      ${heldHtml(c, board, me)}
    </section>
    <div class="h-centre">${centralHtml(c)}${rowHtml(c)}</div>
  </div>
  ${others ? `<div class="others">${others}</div>` : ""}`;
}

const CATEGORIES = ["trees", "mountains", "fields", "buildings", "water", "animals", "spirit"];

function categoryLabel(cat, side) {
  if (cat === "water") return t(side === "B" ? "h.cat.islands" : "h.cat.river");
  return t(`h.cat.${cat}`);
}

function breakdownTable(c, rows, { result = null } = {}) {
  const v = c.view;
  const side = v.options.side || "A";
  const seats = rows.map((_, s) => s);
  const head = seats.map((s) => `<th scope="col" class="${v.current === s ? "active" : ""}">${v.current === s ? "▶ " : ""}${esc(c.nameOf(s))}</th>`).join("");
  const cats = CATEGORIES.filter((cat) => cat !== "spirit" || v.options.spirits);
  let body = cats
    .map((cat) => `<tr><th scope="row">${esc(categoryLabel(cat, side))}</th>${rows.map((r) => `<td>${r[cat] ?? 0}</td>`).join("")}</tr>`)
    .join("");
  body += `<tr class="total"><th scope="row">${esc(t("h.cat.total"))}</th>${rows.map((r, s) => `<td data-total-seat="${s}">${r.total}</td>`).join("")}</tr>`;
  if (v.players === 1 && rows[0].suns !== undefined) {
    body += `<tr><th scope="row">${esc(t("h.cat.suns"))}</th><td data-suns>${"☀".repeat(rows[0].suns)} ${rows[0].suns}</td></tr>`;
  }
  if (result && result.tiebreak) {
    body += `<tr><th scope="row">${esc(t("h.cat.cubes"))}</th>${result.tiebreak.map((n) => `<td>${n}</td>`).join("")}</tr>`;
  }
  return `<table class="breakdown"><thead><tr><td></td>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export function scores(c) {
  return breakdownTable(
    c,
    c.view.boards.map((b) => b.score || { total: 0 }),
  );
}

export function endScreen(c) {
  const v = c.view;
  const result = v.result;
  const winners = result.winners.map(c.nameOf);
  let headline;
  if (v.players === 1) headline = t("end.soloScore", { n: result.scores[0], suns: result.suns });
  else if (winners.length > 1) headline = t("end.shared", { names: winners.join(", ") });
  else headline = t("end.winner", { name: winners[0] });
  let tie = "";
  if (v.players > 1) {
    const best = Math.max(...result.scores);
    const tied = result.scores.filter((s) => s === best).length;
    if (tied > 1) tie = `<p class="tiebreak">${esc(t("end.tiebreak", { names: winners.join(", ") }))}</p>`;
  }
  return `<p class="headline" data-testid="winner">${esc(headline)}</p>${tie}${breakdownTable(c, result.breakdown, { result })}`;
}
