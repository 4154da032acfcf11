// The Living Forest table: your spirit large (help line, forest, actions), the shared area (the
// display of Guardian Animals, the circle of spirits, the end-of-round summary) and the other
// spirits compact. Every rule comes from the server: the legal actions, the view's refusals (why
// an action shown cannot be played), its move previews, its end-of-round record and who reached
// 12. This file only draws them.
import { loadJson } from "../base/assets.js";
import { listWords } from "../base/format.js";
import { esc, refusal, t } from "../base/i18n.js";
import { toast } from "../base/ui.js";

const ELEMENTS = ["sun", "water", "plant", "spiral", "flower"];
// A glyph beside every element so that it never depends on colour alone.
const ICON = { sun: "☀", water: "≈", plant: "♣", spiral: "↻", flower: "✿" };
// a rock of the circle by its bonus: the icon of the element that measures the action (as on the
// action buttons), a fragment as a shard; its word in the legend beside the circle and in the
// rock's tooltip (the rocks' abbreviated words, "Frag.", "Ext.", had no legend and were 5 px)
const ROCK_ICON = { attract: "☀", extinguish: "≈", plant: "♣", take_fragment: "◆" };
// the rules section of the action each kind of rock gives (the legend beside the circle links it)
const ROCK_RULE = {
  attract: "living-forest.attract",
  extinguish: "living-forest.extinguish",
  plant: "living-forest.plant",
  take_fragment: "living-forest.take-fragment",
};
const KIND_ELEMENT = { fragment: null, attract: "sun", extinguish: "water", move: "spiral", plant: "plant" };
// one colour and one shape per seat: the pawn, the panel's badge
const PAWN = ["#1f5fae", "#b8412c", "#6b3fa0", "#2f7d3a"];
const SHAPE = ["●", "▲", "■", "◆"];
let DATA = null;
const CARD = {}; // name -> the data file's card (elements, symbol, cost)
const TREE = {}; // id -> {cost, gives}
let TREE_IDS = [];
const CORNERS = {}; // "row,column" (0-based) -> the data file's corner bonus entry
let LINES = []; // the data file's line bonus entries

export async function prepare() {
  if (DATA) return;
  DATA = await loadJson("data/living-forest-cards.json");
  const add = (level) => (c) => (CARD[c.name] = { ...c, level });
  DATA.starting_deck.cards.forEach(add(0));
  ["level1", "level2", "level3"].forEach((key, i) => DATA.guardian_animals[key].forEach(add(i + 1)));
  CARD["Fire Varan"] = { name: "Fire Varan", symbol: "solitary", level: 0 };
  for (const tile of DATA.protective_trees.tiles) TREE[tile.id] = tile;
  TREE_IDS = DATA.protective_trees.tiles.map((x) => x.id);
  for (const c of DATA.forest_board.corner_bonuses) CORNERS[`${c.row - 1},${c.column - 1}`] = c;
  LINES = DATA.forest_board.line_bonuses;
  installRefusalFallback();
}

// A click or Enter on an element shown unavailable says why (the table shell does it when it
// knows data-refusal and marks the event handled; this covers a shell that does not).
let fallbackInstalled = false;
function installRefusalFallback() {
  if (fallbackInstalled || typeof document === "undefined") return;
  fallbackInstalled = true;
  const why = (ev) => {
    if (ev.defaultPrevented) return;
    const el = ev.target.closest && ev.target.closest("[data-refusal]");
    if (!el || !el.closest(".lf-table")) return;
    ev.preventDefault();
    toast(refusalText(el.dataset.refusal));
  };
  document.addEventListener("click", why);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") why(ev);
  });
}

// A refusal's params as the page numbers things: forest rows and columns, and the centre's
// fires, counted from 1 (the engine counts from 0). For the table shell too.
export function refusalParams(code, params) {
  const out = { ...(params || {}) };
  for (const k of ["row", "column", "index"]) if (Number.isInteger(out[k])) out[k] += 1;
  return out;
}

function refusalText(json) {
  try {
    const r = JSON.parse(json);
    return refusal(r.code, refusalParams(r.code, r.params), t("error.refused"));
  } catch (err) {
    return t("error.refused");
  }
}

// ------------------------------------------------------------------ small helpers
const cardName = (name) => t(`lfcard.${name}`);
const act = (a) => esc(JSON.stringify(a));
const elName = (e) => t(`lf.el.${e}`);
const list = listWords;

function elIcon(e, n, { big = false } = {}) {
  return `<span class="el el-${e}${big ? " big" : ""}" title="${esc(elName(e))}"><span class="el-glyph" aria-hidden="true">${ICON[e]}</span><span class="sr-only">${esc(elName(e))}</span><b>${n}</b></span>`;
}

function elementsHtml(source, { zero = false, big = false } = {}) {
  const items = ELEMENTS.filter((e) => zero || source[e]).map((e) => `<li>${elIcon(e, source[e] || 0, { big })}</li>`);
  return `<ul class="elements">${items.join("")}</ul>`;
}

// Refusals of the view, by the action (or part of it) they refuse.
function keyOf(a) {
  return JSON.stringify(Object.keys(a).sort().map((k) => [k, a[k]]));
}
function refusalsOf(c) {
  if (c._refusals) return c._refusals;
  const map = new Map();
  for (const r of c.view.refusals || []) map.set(keyOf(r.action), { code: r.code, params: r.params });
  c._refusals = map;
  return map;
}
// the attributes of an element that cannot be used now, with its reason
function refusedAttrs(c, action) {
  const r = refusalsOf(c).get(keyOf(action));
  if (!r) return "";
  const json = JSON.stringify({ code: r.code, params: r.params });
  return ` aria-disabled="true" tabindex="0" data-refusal="${esc(json)}" title="${esc(refusalText(json))}"`;
}

// ------------------------------------------------------------------ playback highlight
// The shell passes c.step = {entry, seat} during playback: what that entry changed glows.
function highlightOf(c) {
  const h = { seat: null, slots: new Set(), cells: new Set(), rock: null, fires: false, help: false, tiles: false, centre: false, summary: false, text: "" };
  const step = c.step;
  if (!step || !step.entry) return h;
  const e = step.entry;
  const a = e.action || {};
  h.seat = e.seat;
  if (a.type === "pick_card") h.slots.add(`${a.level},${a.slot}`);
  if (a.type === "pick_fire") (h.fires = true), (h.centre = true);
  if (a.type === "plant") h.cells.add(`${e.seat}:${a.row},${a.column}`);
  if (a.type === "move") h.rock = e.seat;
  if (a.type === "steal") h.tiles = true;
  if (a.type === "draw" || a.type === "use_fragment" || a.type === "stop") h.help = true;
  if (e.chance && e.chance.revealed) {
    h.summary = true;
    h.centre = true;
    const last = c.view.last_round;
    if (last) for (const r of last.refilled) h.slots.add(`${r.level},${r.slot}`);
  }
  return h;
}

// ------------------------------------------------------------------ a card, drawn as a card
function symbolHtml(symbol, { words = false } = {}) {
  if (symbol !== "solitary" && symbol !== "gregarious") return "";
  const glyph = symbol === "solitary" ? "◉" : "⁂";
  const label = t(`lf.${symbol}`);
  return `<span class="sym sym-${symbol}" title="${esc(label)}"><span aria-hidden="true">${glyph}</span>${words ? ` ${esc(label)}` : `<span class="sr-only">${esc(label)}</span>`}</span>`;
}

function mainElement(data) {
  let best = null;
  for (const e of ELEMENTS) if (data[e] && (!best || data[e] > data[best])) best = e;
  return best || "none";
}

export function cardHtml(card, { a = null, refused = "", fresh = false, mini = false, big = false, taken = "", slot = "" } = {}) {
  const data = { ...(CARD[card.name] || {}), ...card };
  const level = data.level || 0;
  const varan = card.name === "Fire Varan";
  const cost = level ? `<span class="cost" title="${esc(t("lf.cost"))}"><span aria-hidden="true">☀</span><span class="sr-only">${esc(t("lf.cost"))}</span>${data.cost}</span>` : "";
  const pips = level ? `<span class="lvl" title="${esc(t("lf.level", { n: level }))}">${"•".repeat(level)}<span class="sr-only">${esc(t("lf.level", { n: level }))}</span></span>` : "";
  const els = ELEMENTS.filter((e) => data[e]).map((e) => elIcon(e, data[e], { big }));
  const attrs = a ? ` data-act="${act(a)}" data-key="pick-${a.level}-${a.slot}" tabindex="0" role="button"` : refused;
  const zoom = mini ? "" : `<button type="button" class="zoom" data-ui="zoom" data-card="${esc(card.name)}" aria-label="${esc(t("lf.zoom", { name: cardName(card.name) }))}">⤢</button>`;
  const cls = ["lfcard", `lv${level}`, `main-${mainElement(data)}`, a ? "legal" : "", refused ? "refused" : "", varan ? "varan" : "", fresh ? "fresh" : "", mini ? "mini" : ""];
  const article = `<article class="${cls.filter(Boolean).join(" ")}" data-card="${esc(card.name)}"${slot ? ` data-slot="${slot}"` : ""}${attrs} aria-label="${esc(cardName(card.name))}">
    <header>${cost}${pips}${symbolHtml(data.symbol)}</header>
    <div class="art" aria-hidden="true">${varan ? "♨" : ""}</div>
    <div class="card-els">${els.join("") || (varan ? "" : "")}</div>
    <h4>${esc(cardName(card.name))}</h4>${taken ? `<p class="taken">${esc(taken)}</p>` : ""}</article>`;
  if (!zoom) return article;
  // the enlarge button sits beside the card, not in it: it works even when the card cannot be used
  return `<div class="lfcard-wrap">${article}${zoom}</div>`;
}

function zoomHtml(name) {
  const data = CARD[name] || { name };
  const level = data.level || 0;
  const parts = [];
  if (level) parts.push(esc(t("lf.level", { n: level })), esc(t("lf.zoomCost", { n: data.cost })));
  const els = ELEMENTS.filter((e) => data[e]).map((e) => `<li>${elIcon(e, data[e], { big: true })} ${esc(elName(e))}</li>`);
  const sym = data.symbol === "solitary" || data.symbol === "gregarious" ? `<p>${symbolHtml(data.symbol, { words: true })} — ${esc(t(`lf.symbolHelp.${data.symbol}`))}</p>` : "";
  return `<div class="lf-zoom-backdrop" data-ui="zoom-close"><section class="panel lf-zoom" role="dialog" aria-modal="true" aria-label="${esc(cardName(name))}" data-testid="lf-zoom">
    <div class="zoom-card">${cardHtml({ name }, { big: true, mini: true }).replace("lfcard ", "lfcard zoomed ").replace(" mini", "")}</div>
    <div class="zoom-text"><h2>${esc(cardName(name))}</h2>${parts.length ? `<p>${parts.join(" · ")}</p>` : ""}<ul class="zoom-els">${els.join("")}</ul>${sym}
    <button type="button" data-ui="zoom-close" data-key="zoom-close" class="primary">${esc(t("lf.close"))}</button></div></section></div>`;
}

// ------------------------------------------------------------------ local selection
export function hasSecret() {
  return false; // every seat sees the same public table: nothing to cover in hot-seat
}
export function newUi() {
  return { tree: null, zoom: null };
}
export function resetUi(ui) {
  ui.tree = null;
  ui.zoom = null;
}
export function clearUi(ui) {
  const had = ui.tree !== null || ui.zoom !== null;
  if (ui.zoom !== null) ui.zoom = null;
  else ui.tree = null;
  return had;
}
export function syncUi(ui, c) {
  const trees = new Set(c.legal.filter((a) => a.type === "plant").map((a) => a.tree));
  if (!trees.has(ui.tree)) ui.tree = trees.size ? [...trees].sort((x, y) => TREE[y].cost - TREE[x].cost)[0] : null;
}
export function onUi(ui, data) {
  if (data.ui === "tree") ui.tree = data.tree;
  if (data.ui === "zoom") ui.zoom = data.card;
  if (data.ui === "zoom-close") ui.zoom = null;
}
export function applyHint(ui, actions) {
  const plant = actions.find((a) => a.type === "plant");
  if (plant) ui.tree = plant.tree;
}

// ------------------------------------------------------------------ texts
export function roundText(c) {
  return t("lf.round", { n: c.view.round });
}

export function prompt(c) {
  const v = c.view;
  if (v.phase === "draw") return t("lf.prompt.draw");
  const step = v.in_progress;
  if (!step) return t("lf.prompt.choose", { n: v.actions_left });
  const bonus = step.bonus ? `${t("lf.prompt.bonus")} ` : "";
  if (step.step === "attract") return bonus + t("lf.prompt.attract", { n: step.left });
  if (step.step === "extinguish") return bonus + t("lf.prompt.extinguish", { n: step.left });
  if (step.step === "move") return t("lf.prompt.move");
  if (step.step === "plant") return bonus + t("lf.prompt.plant");
  if (step.step === "steal") return t("lf.prompt.steal", { name: c.nameOf(step.from[0]) });
  return "";
}

const kindWord = (k) => t(`lf.progress.${k}`);
const whatWord = (k) => t(`lf.what.${k}`);
function reachedText(c, r) {
  return t("lf.reachedOne", { name: c.nameOf(r.seat), what: list(r.kinds.map(whatWord)), n: c.view.target || 12 });
}

// The "last round" sentence: someone has 12 of something, the game ends after this action phase.
export function lastRound(c) {
  const v = c.view;
  if (!v || v.phase === "over" || !v.reached || !v.reached.length) return null;
  return t("lf.lastRound", { who: list(v.reached.map((r) => reachedText(c, r))) });
}

// What an action does, in the imperative (hints, buttons, labels).
export function describeAction(a, c) {
  const v = c && c.view;
  switch (a.type) {
    case "choose_action":
      return t("lf.do.choose", { action: t(`lf.kind.${a.action}`) });
    case "pick_card": {
      const card = v && v.display && v.display[a.level - 1] && v.display[a.level - 1][a.slot];
      return card ? t("lf.do.pick_card", { card: cardName(card.name), level: a.level }) : t("lf.do.pick_slot", { level: a.level, n: a.slot + 1 });
    }
    case "pick_fire": {
      const value = v && v.centre_fires ? v.centre_fires[a.index] : undefined;
      return value ? t("lf.do.pick_fire", { value }) : t("lf.do.pick_fire_n", { n: a.index + 1 });
    }
    case "steal":
      return t("lf.act.steal", { tile: t(`lf.tile.${a.tile}`) });
    case "move":
      return t("lf.act.move", { n: a.steps });
    case "plant":
      return t("lf.do.plant", { cost: TREE[a.tree] ? TREE[a.tree].cost : a.tree, row: a.row + 1, column: a.column + 1 });
    case "undo":
      return t("table.undo");
    default:
      return t(`lf.act.${a.type}`);
  }
}

// A line of the log, in the past tense, from its structured move and chance.
export function describeLog(entry, c) {
  const a = entry.action;
  const ch = entry.chance;
  let text;
  switch (a.type) {
    case "draw":
      text = ch && ch.card ? t(ch.reshuffled ? "lf.did.drew_reshuffled" : "lf.did.drew", { card: cardName(ch.card) }) : t("lf.did.draw");
      break;
    case "choose_action":
      text = t("lf.did.choose", { action: t(`lf.kind.${a.action}`) });
      break;
    case "pick_card":
      text = t("lf.did.pick_card", { level: a.level, n: a.slot + 1 });
      break;
    case "pick_fire":
      text = t("lf.did.pick_fire", { n: a.index + 1 });
      break;
    case "steal":
      text = t("lf.did.steal", { tile: t(`lf.tile.${a.tile}`) });
      break;
    case "move":
      text = t("lf.did.move", { n: a.steps });
      break;
    case "plant":
      text = t("lf.did.plant", { cost: TREE[a.tree] ? TREE[a.tree].cost : a.tree, row: a.row + 1, column: a.column + 1 });
      break;
    case "undo":
      text = t("table.undo");
      break;
    default:
      text = t(`lf.did.${a.type}`);
  }
  text = t("log.line", { name: c.nameOf(entry.seat), text });
  if (ch && ch.revealed) {
    const end = ch.revealed.length ? t("log.aside", { text: t("lf.log.roundEnd"), aside: t("lf.log.revealed", { cards: list(ch.revealed.map(cardName)) }) }) : t("lf.log.roundEnd");
    text += ` — ${end}`;
  }
  return text;
}

// ------------------------------------------------------------------ your forest and theirs
// A Protective Tree: its cost and what it gives. In a forest cell (`inCell`) the cost goes by the
// tree glyph, the words for a screen reader, so that it fits the cell in every language.
function treeTile(id, { inCell = false } = {}) {
  const tree = TREE[id];
  const words = t("lf.treeCost", { cost: tree.cost });
  const cost = inCell ? `<span aria-hidden="true">♣${tree.cost}</span><span class="sr-only">${esc(words)}</span>` : esc(words);
  return `<b class="tree-cost" title="${esc(words)}">${cost}</b><span class="tree-gives">${Object.entries(tree.gives)
    .map(([e, n]) => elIcon(e, n))
    .join("")}</span>`;
}

function cornerText(c, short = false) {
  const name = t(`lf.${short ? "bonusShort" : "bonus"}.${c.bonus}`);
  if (c.count) return `${name} ×${c.count}`;
  const plus = Object.entries(c.plus || {}).map(([e, v]) => `+${v} ${ICON[e]}`);
  return [name, ...plus].join(" ");
}

// A corner's bonus in its cell: the action on one line, what it adds on the next.
function cornerCell(c) {
  const name = t(`lf.bonusShort.${c.bonus}`);
  const plus = c.count ? `×${c.count}` : Object.entries(c.plus || {}).map(([e, v]) => `+${v}${ICON[e]}`).join(" ");
  return `<span class="corner-name">${esc(name)}</span><span class="corner-plus">${esc(plus)}</span>`;
}

function lineWhere(line) {
  return line.column ? t("lf.lineColumn", { n: line.column }) : t("lf.lineRow", { n: line.row });
}

export function forestHtml(spirit, c, own, h) {
  const plants = new Map();
  const planting = own && c.view.in_progress && c.view.in_progress.step === "plant" && c.view.current === spirit.seat;
  if (own && c.ui.tree) for (const a of c.legal) if (a.type === "plant" && a.tree === c.ui.tree) plants.set(`${a.row},${a.column}`, a);
  const cells = [];
  const cols = spirit.forest[0].length;
  // a column's or row's number carries what filling it gives (the line bonuses), said in words
  // to a screen reader in the forest's label
  const lineGives = (line) => Object.entries(line.gives).map(([e, v]) => `<span class="line-gives el-${e}" title="${esc(`${lineWhere(line)}: ${elName(e)} +${v}`)}">${ICON[e]}${v}</span>`).join("");
  const lineOf = (kind, n) => LINES.find((line) => line[kind] === n);
  if (own) {
    cells.push(`<span class="coord corner" aria-hidden="true"></span>`);
    for (let col = 0; col < cols; col++) {
      const line = lineOf("column", col + 1);
      cells.push(`<span class="coord${line ? " has-line" : ""}" aria-hidden="true">${col + 1}${line ? lineGives(line) : ""}</span>`);
    }
  }
  spirit.forest.forEach((row, r) => {
    if (own) {
      const line = lineOf("row", r + 1);
      cells.push(`<span class="coord${line ? " has-line" : ""}" aria-hidden="true">${r + 1}${line ? lineGives(line) : ""}</span>`);
    }
    row.forEach((tree, col) => {
      const key = `${r},${col}`;
      const a = plants.get(key);
      const bonus = CORNERS[key] ? cornerText(CORNERS[key]) : "";
      let inner;
      if (tree === "start") inner = `<b class="tree-glyph" aria-hidden="true" title="${esc(t("lf.startTree"))}">♣</b><span class="sr-only">${esc(t("lf.startTree"))}</span>`;
      else if (tree) inner = treeTile(tree, { inCell: true });
      else inner = bonus ? `<span class="corner-bonus" title="${esc(bonus)}"><span aria-hidden="true" class="corner-words">${cornerCell(CORNERS[key])}</span><span class="sr-only">${esc(bonus)}</span></span>` : "";
      const where = t("lf.cell", { row: r + 1, column: col + 1 });
      let attrs = ` aria-label="${esc(where)}"`;
      if (a) attrs = ` data-act="${act(a)}" data-key="plant-${key}" tabindex="0" role="button" aria-label="${esc(`${where}: ${describeAction(a)}`)}"`;
      else if (planting && !tree) attrs += refusedAttrs(c, { type: "plant", row: r, column: col });
      const fresh = h.cells.has(`${spirit.seat}:${key}`);
      const cls = ["slot", bonus ? "bonus" : "", a ? "legal" : "", tree ? "tree" : "", tree === "start" ? "start" : "", fresh ? "fresh" : "", attrs.includes("data-refusal") ? "refused" : ""];
      cells.push(`<div class="${cls.filter(Boolean).join(" ")}" data-slot="${key}"${attrs}>${inner}</div>`);
    });
  });
  const label = own ? `${t("lf.forest")}. ${t("lf.lineBonusesTitle")}: ${LINES.map((line) => `${lineWhere(line)} ${Object.entries(line.gives).map(([e, v]) => `${elName(e)} +${v}`).join(", ")}`).join("; ")}` : t("lf.forest");
  return `<div class="forest ${own ? "with-coords" : ""}" role="group" aria-label="${esc(label)}" data-testid="${own ? "my-forest" : ""}">${cells.join("")}</div>`;
}

function progressHtml(spirit, c) {
  const target = c.view.target || 12;
  return `<div class="progress">${["trees", "fires", "flowers"]
    .map((k) => {
      const n = spirit.progress[k];
      const pct = Math.min(100, Math.round((100 * n) / target));
      return `<div class="prog prog-${k}${n >= target ? " reached" : ""}" title="${esc(kindWord(k))}"><span class="prog-label">${esc(kindWord(k))}</span><span class="bar" aria-hidden="true"><i style="width:${pct}%"></i></span><b>${n}</b><span class="muted">/${target}</span></div>`;
    })
    .join("")}</div>`;
}

function helpLineHtml(spirit, c, own, h) {
  if (!spirit.help_line.length) return `<p class="muted help-empty">${esc(t(own ? "lf.emptyHelpLine" : "lf.emptyHelpLineOther"))}</p>`;
  const last = spirit.help_line.length - 1;
  const fresh = (i) => h.help && h.seat === spirit.seat && i === last;
  // your own help line keeps its newest card in sight when it scrolls inside its column (a laptop)
  return `<div class="cards help-line${own ? "" : " small"}"${own ? " data-keep-end" : ""}>${spirit.help_line.map((name, i) => cardHtml({ name }, { mini: !own, fresh: fresh(i) })).join("")}</div>`;
}

// Another spirit's help line in words, for its compact board (the cards show when enlarged).
function helpNamesHtml(spirit, h) {
  const names = spirit.help_line.map(cardName);
  const fresh = h.help && h.seat === spirit.seat ? " fresh" : "";
  return `<p class="help-names${fresh}" data-testid="help-names" title="${esc(list(names))}"><span class="muted">${esc(t("lf.helpLine"))}:</span> ${esc(names.length ? list(names) : "—")}</p>`;
}

function statsHtml(spirit, c, h) {
  const tiles = ["fire", "flower", "tree"]
    .map((k) => `<span class="vt vt-${k}${spirit.victory_tiles[k] ? "" : " gone"}" title="${esc(t("lf.victoryTile", { tile: t(`lf.tile.${k}`) }))}">${esc(t(`lf.tile.${k}`))}${spirit.victory_tiles[k] > 1 ? ` ×${spirit.victory_tiles[k]}` : ""}</span>`)
    .join("");
  const fires = spirit.fires.length ? spirit.fires.map((v) => `<span class="flame small">${v}</span>`).join("") : `<span class="muted">—</span>`;
  const glow = (on) => (on && h.seat === spirit.seat ? " fresh" : "");
  return `<div class="stats">
    <span class="stat solitary" data-testid="${c.seat === spirit.seat ? "solitary" : ""}" title="${esc(t("lf.solitary"))}">${symbolHtml("solitary")} ${esc(t("lf.solitaryCount", { n: spirit.solitary }))}</span>
    <span class="stat">${esc(t("lf.deck", { n: spirit.draw_stack_count, d: spirit.discard_count }))}</span>
    <span class="stat">${esc(t("lf.fragments", { n: spirit.fragments }))}</span>
    <span class="stat kept-fires${glow(h.fires)}" title="${esc(t("lf.firesKept", { n: spirit.fires.length }))}"><span class="sr-only">${esc(t("lf.firesKept", { n: spirit.fires.length }))}</span>${fires}</span>
    <span class="stat tiles${glow(h.tiles)}" aria-label="${esc(t("lf.victoryTilesTitle"))}">${tiles}</span></div>`;
}

function actionBar(c) {
  const v = c.view;
  const mine = c.seat !== null && v.to_act.includes(c.seat);
  const me = v.spirits[c.seat];
  const legal = new Map(c.legal.map((a) => [keyOf(a), a]));
  const buttons = [];
  const button = (a, key, label, cls = "") => {
    const ok = legal.get(keyOf(a));
    if (ok) return `<button type="button" class="${cls}" data-act="${act(a)}" data-key="${key}">${label}</button>`;
    const refused = refusedAttrs(c, a);
    return refused ? `<button type="button" class="${cls} refused" data-key="x-${key}"${refused}>${label}</button>` : "";
  };
  if (v.phase === "draw") {
    buttons.push(button({ type: "draw" }, "draw", esc(t("lf.act.draw")), "primary"));
    buttons.push(button({ type: "use_fragment" }, "use_fragment", esc(t("lf.act.use_fragment"))));
    buttons.push(button({ type: "stop" }, "stop", esc(t("lf.act.stop"))));
  } else if (v.current === c.seat && !v.in_progress) {
    for (const k of ["fragment", "attract", "extinguish", "move", "plant"]) {
      const el = KIND_ELEMENT[k];
      const strength = el ? ` <span class="strength">${ICON[el]} ${me.elements[el]}</span>` : "";
      buttons.push(button({ type: "choose_action", action: k }, `choose-${k}`, `${esc(t(`lf.kind.${k}`))}${strength}`, `kind kind-${k}`));
    }
    buttons.push(button({ type: "end_actions" }, "end_actions", esc(t("lf.act.end_actions"))));
  } else if (v.current === c.seat && v.in_progress) {
    const step = v.in_progress.step;
    if (step === "move") {
      for (const m of v.in_progress.moves || []) buttons.push(moveButton(c, m));
      for (const r of v.refusals || []) if (r.action.type === "move") buttons.push(button(r.action, `move-${r.action.steps}`, esc(t("lf.act.move", { n: r.action.steps }))));
    } else if (step === "steal") {
      for (const k of ["fire", "flower", "tree"]) buttons.push(button({ type: "steal", tile: k }, `steal-${k}`, esc(t("lf.act.steal", { tile: t(`lf.tile.${k}`) }))));
    } else {
      buttons.push(button({ type: "done" }, "done", esc(t("lf.act.done")), "primary"));
    }
  }
  let trees = "";
  if (v.current === c.seat && v.in_progress && v.in_progress.step === "plant") {
    const usable = new Set(c.legal.filter((a) => a.type === "plant").map((a) => a.tree));
    trees = TREE_IDS.filter((id) => v.tree_supply[id] > 0)
      .map((id) => {
        const on = c.ui.tree === id;
        const label = `${treeTile(id)}<span class="muted left">×${v.tree_supply[id]}</span>`;
        if (usable.has(id)) return `<button type="button" class="tree-btn${on ? " on" : ""}" data-ui="tree" data-tree="${esc(id)}" data-key="tree-${esc(id)}" aria-pressed="${on}">${label}</button>`;
        return `<button type="button" class="tree-btn refused" data-key="treex-${esc(id)}"${refusedAttrs(c, { type: "plant", tree: id })}>${label}</button>`;
      })
      .join("");
    trees = `<p class="pick-tree">${esc(t("lf.pickTree"))}</p><div class="action-list trees">${trees}</div>`;
  }
  if (!mine && !buttons.length) return "";
  return `<div class="action-list" data-testid="lf-actions">${buttons.join("")}</div>${trees}`;
}

function moveButton(c, m) {
  const a = { type: "move", steps: m.steps };
  const ok = c.legal.some((x) => x.type === "move" && x.steps === m.steps);
  return `<button type="button" class="move-btn" ${ok ? `data-act="${act(a)}"` : ""} data-key="move-${m.steps}" data-preview="${m.rock}">${esc(t("lf.act.move", { n: m.steps }))}<span class="preview">${esc(previewText(c, m))}</span></button>`;
}

function previewText(c, m) {
  const parts = [t("lf.preview.lands", { n: m.rock + 1, bonus: t(`lf.bonus.${m.bonus}`) })];
  if (m.jumped.length) parts.push(t("lf.preview.jumps", { names: list(m.jumped.map(c.nameOf)) }));
  if (m.steal_from.length) parts.push(t("lf.preview.steals", { names: list(m.steal_from.map(c.nameOf)) }));
  return parts.join(" · ");
}

function spiritPanel(c, spirit, own, h) {
  const v = c.view;
  const active = v.to_act.includes(spirit.seat);
  const title = own ? `${c.nameOf(spirit.seat)} · ${t("lf.yourForest")}` : c.nameOf(spirit.seat);
  const sacred = v.sacred_tree === spirit.seat ? `<span class="sacred" title="${esc(t("lf.sacredTree", { name: c.nameOf(spirit.seat) }))}"><span aria-hidden="true">♣</span><span class="sr-only">${esc(t("lf.sacredTree", { name: c.nameOf(spirit.seat) }))}</span></span>` : "";
  const badge = `<span class="pawn-badge" style="--pawn:${PAWN[spirit.seat]}" aria-hidden="true">${SHAPE[spirit.seat]}</span>`;
  const state = v.phase === "draw" ? (spirit.drawing ? t("lf.state.drawing") : t("lf.state.stopped")) : active ? t("lf.state.acting") : "";
  const fresh = h.seat === spirit.seat ? " stepping" : "";
  return `<section class="panel spirit ${active ? "active" : ""} ${own ? "mine" : "other"}${fresh}" data-spirit="${spirit.seat}" data-board-seat="${spirit.seat}">
    <h2>${badge}${esc(title)} ${sacred}${state ? `<span class="state">${esc(state)}</span>` : ""}</h2>
    ${progressHtml(spirit, c)}
    <div class="spirit-els">${elementsHtml(spirit.elements, { zero: true })}</div>
    ${own ? actionBar(c) : ""}
    ${statsHtml(spirit, c, h)}
    ${own ? "" : helpNamesHtml(spirit, h)}
    <div class="spirit-body">
      <div class="help-wrap"><h3>${esc(t("lf.helpLine"))}${spirit.help_line.length ? ` <span class="count">${spirit.help_line.length}</span>` : ""}</h3>${helpLineHtml(spirit, c, own, h)}</div>
      <div class="forest-wrap"><h3>${esc(t("lf.forest"))}</h3>${forestHtml(spirit, c, own, h)}</div>
    </div>
  </section>`;
}

// ------------------------------------------------------------------ the shared area
function displayHtml(c, h) {
  const v = c.view;
  const picks = new Map(c.legal.filter((a) => a.type === "pick_card").map((a) => [`${a.level},${a.slot}`, a]));
  const rows = v.display
    .map((row, i) => {
      const cards = row
        .map((card, slot) => {
          const key = `${i + 1},${slot}`;
          const fresh = h.slots.has(key);
          if (!card) {
            const taken = fresh && h.seat !== null && !h.summary ? t("lf.takenBy", { name: c.nameOf(h.seat) }) : "";
            return `<article class="lfcard empty${fresh ? " fresh" : ""}" data-slot="${key}"><span>${esc(taken || t("lf.emptySlot"))}</span></article>`;
          }
          const a = picks.get(key) || null;
          return cardHtml(card, { a, refused: a ? "" : refusedAttrs(c, { type: "pick_card", level: i + 1, slot }), fresh, slot: key });
        })
        .join("");
      return `<div class="display-row lv${i + 1}"><h3><span class="lvl-tag">${esc(t("lf.level", { n: i + 1 }))}</span> <span class="muted">${esc(t("lf.stack", { n: v.stack_counts[i] }))}</span></h3><div class="card-row">${cards}</div></div>`;
    })
    .join("");
  return `<section class="panel display" aria-labelledby="display-title"><h2 id="display-title">${esc(t("lf.display"))}</h2>${rows}</section>`;
}

export function circleHtml(c, h) {
  const v = c.view;
  const fires = new Map(c.legal.filter((a) => a.type === "pick_fire").map((a) => [a.index, a]));
  const step = v.in_progress;
  const moves = step && step.step === "move" && v.current === c.seat ? step.moves || [] : [];
  const landing = new Map(moves.map((m) => [m.rock, m]));
  const R = 92;
  const at = (rock, r) => {
    const ang = (Math.PI * 2 * rock) / 12 - Math.PI / 2;
    return [(r * Math.cos(ang)).toFixed(1), (r * Math.sin(ang)).toFixed(1)];
  };
  const rocks = v.circle
    .map((r) => {
      const [x, y] = at(r.rock, R);
      const m = landing.get(r.rock);
      const a = m && c.legal.some((x2) => x2.type === "move" && x2.steps === m.steps) ? { type: "move", steps: m.steps } : null;
      const label = `${t("lf.rock", { n: r.rock + 1 })}: ${t(`lf.bonus.${r.bonus}`)}${r.spirit !== null ? ` · ${c.nameOf(r.spirit)}` : ""}${m ? ` — ${t("lf.act.move", { n: m.steps })}: ${previewText(c, m)}` : ""}`;
      const attrs = a ? ` data-act="${act(a)}" data-key="rock-${r.rock}" tabindex="0" role="button"` : ` role="img"`;
      return `<g class="rock rock-${r.bonus}${m ? " landing" : ""}" data-rock="${r.rock}"${attrs} aria-label="${esc(label)}">
        <circle cx="${x}" cy="${Number(y) + 3}" r="21" class="rock-shadow"/>
        <circle cx="${x}" cy="${y}" r="21" class="rock-disc"/>
        <text x="${x}" y="${(Number(y) - 3).toFixed(1)}" text-anchor="middle" dominant-baseline="central" class="rock-icon" aria-hidden="true">${ROCK_ICON[r.bonus]}</text>
        <text x="${x}" y="${(Number(y) + 13).toFixed(1)}" text-anchor="middle" class="rock-n">${r.rock + 1}</text><title>${esc(label)}</title>
        ${m ? `<text x="${x}" y="${(Number(y) - 26).toFixed(1)}" text-anchor="middle" class="landing-n">+${m.steps}</text>` : ""}</g>`;
    })
    .join("");
  const pawns = v.spirits
    .map((s) => {
      const [px, py] = at(s.rock, R + 27);
      const fresh = h.rock === s.seat ? " fresh" : "";
      const sacred = v.sacred_tree === s.seat ? `<text x="${px}" y="${(Number(py) - 14).toFixed(1)}" text-anchor="middle" class="pawn-tree">♣</text>` : "";
      return `<g class="pawn${fresh}" data-pawn="${s.seat}" data-rock="${s.rock}"><circle cx="${px}" cy="${Number(py) + 2}" r="11" class="pawn-shadow"/><circle cx="${px}" cy="${py}" r="11" fill="${PAWN[s.seat]}" class="pawn-disc"/>
        <text x="${px}" y="${py}" class="pawn-label" text-anchor="middle" dominant-baseline="central">${SHAPE[s.seat]}</text>${sacred}<title>${esc(c.nameOf(s.seat))}</title></g>`;
    })
    .join("");
  const n = v.centre_fires.length;
  const flames = v.centre_fires
    .map((value, i) => {
      const ang = (Math.PI * 2 * i) / Math.max(n, 1) - Math.PI / 2;
      const rr = n > 1 ? 34 : 0;
      const x = (rr * Math.cos(ang)).toFixed(1);
      const y = (rr * Math.sin(ang)).toFixed(1);
      const a = fires.get(i);
      const refused = a ? "" : refusedAttrs(c, { type: "pick_fire", index: i });
      const attrs = a ? ` data-act="${act(a)}" data-key="fire-${i}" tabindex="0" role="button"` : refused;
      return `<g class="flame-g${a ? " legal" : ""}${refused ? " refused" : ""}" transform="translate(${x} ${y})"${attrs} aria-label="${esc(t("lf.fireValue", { value }))}">
        <path class="flame-path v${value}" d="M0,-17 C9,-8 13,0 11,7 C9,14 -9,14 -11,7 C-13,0 -6,-6 -3,-12 C-2,-6 2,-4 0,-17 Z"/>
        <text y="5" text-anchor="middle" class="flame-n">${value}</text></g>`;
    })
    .join("");
  const power = n ? `<text y="${n > 1 ? 62 : 30}" text-anchor="middle" class="onibi-power">${esc(t("lf.onibiPower", { n: v.centre_fires.reduce((x, y) => x + y, 0) }))}</text>` : "";
  const ring = `<svg class="ring${h.centre ? " fresh" : ""}" viewBox="-150 -150 300 300" role="group" aria-label="${esc(t("lf.circle"))}">
    <defs><radialGradient id="lf-ground" cx="50%" cy="45%" r="60%"><stop offset="0" stop-color="#35573b"/><stop offset="0.7" stop-color="#1f3b27"/><stop offset="1" stop-color="#142a1b"/></radialGradient>
    <radialGradient id="lf-rock" cx="40%" cy="35%" r="70%"><stop offset="0" stop-color="#f1ead6"/><stop offset="1" stop-color="#a89d82"/></radialGradient></defs>
    <circle r="140" class="ring-ground"/><circle r="${R}" class="ring-path"/>${flames}${power}${rocks}${pawns}</svg>`;
  const centre = n
    ? v.centre_fires
        .map((value, i) => {
          const a = fires.get(i);
          return a ? `<button type="button" class="fire legal" data-act="${act(a)}" data-key="firebtn-${i}">♨ ${value}</button>` : `<span class="fire">♨ ${value}</span>`;
        })
        .join(" ")
    : `<span class="muted">${esc(t("lf.noFire"))}</span>`;
  return `<section class="panel circle-panel" aria-labelledby="circle-title"><h2 id="circle-title">${esc(t("lf.circle"))}</h2>
    <div class="ring-wrap">${ring}<div class="ring-side"><p class="ring-legend" data-testid="ring-legend">${Object.entries(ROCK_ICON).map(([bonus, icon]) => `<a class="rock-${bonus}" href="#/rules/living-forest/${ROCK_RULE[bonus]}" data-bonus="${bonus}"><b aria-hidden="true">${icon}</b> ${esc(t(`lf.bonus.${bonus}`))}</a>`).join(" ")}</p><p class="centre-line">${esc(t("lf.centreFires"))}: ${centre}</p>
    <p class="muted">${esc(t("lf.sacredTree", { name: c.nameOf(v.sacred_tree) }))}</p></div></div></section>`;
}

// What the last end of round did, as the engine recorded it.
function summaryHtml(c, h) {
  const s = c.view.last_round;
  if (!s) return "";
  const lines = [];
  const o = s.onibi;
  if (o.fires.length) lines.push(`<li data-testid="lf-sum-onibi" data-power="${o.power}">${esc(t("lf.sum.onibi", { fires: o.fires.join(" + "), n: o.power }))}</li>`);
  else lines.push(`<li data-testid="lf-sum-onibi" data-power="0">${esc(t("lf.sum.noOnibi"))}</li>`);
  for (const sp of s.spirits) {
    const name = c.nameOf(sp.seat);
    let text;
    if (!o.fires.length) text = t("lf.sum.safeNoFire", { name, water: sp.water });
    else if (sp.attacked) text = sp.varans ? t("lf.sum.attacked", { name, water: sp.water, power: o.power, n: sp.varans }) : t("lf.sum.attackedNone", { name, water: sp.water, power: o.power });
    else text = t("lf.sum.safe", { name, water: sp.water, power: o.power });
    if (sp.reshuffles) text += ` ${t("lf.sum.reshuffled", { n: sp.reshuffles })}`;
    lines.push(`<li class="sum-spirit${sp.attacked ? " hit" : ""}" data-summary-seat="${sp.seat}" data-water="${sp.water}" data-varans="${sp.varans}" data-attacked="${sp.attacked}" data-reshuffles="${sp.reshuffles}">${SHAPE[sp.seat]} ${esc(text)}</li>`);
  }
  if (s.varans_short) lines.push(`<li>${esc(t("lf.sum.varansShort"))}</li>`);
  const taken = s.taken.reduce((x, y) => x + y, 0);
  let fires = s.fires_added.length ? t("lf.sum.firesAdded", { n: s.fires_added.length, fires: list(s.fires_added.map(String)), animals: taken }) : t("lf.sum.noFireAdded");
  if (s.fires_capped) fires += ` ${t("lf.sum.capped")}`;
  if (s.centre_refired) fires += ` ${t("lf.sum.refired", { value: s.centre_refired })}`;
  lines.push(`<li data-testid="lf-sum-fires" data-fires="${s.fires_added.join(",")}">${esc(fires)}</li>`);
  const refill = s.refilled.length ? t("lf.sum.refilled", { n: s.refilled.length, cards: list(s.refilled.map((r) => `${cardName(r.card)} (${t("lf.level", { n: r.level })})`)) }) : t("lf.sum.noRefill");
  lines.push(`<li data-testid="lf-sum-refill" data-refilled="${esc(s.refilled.map((r) => r.card).join("|"))}">${esc(refill)}${s.empty_slots ? ` ${esc(t("lf.sum.emptySlots", { n: s.empty_slots }))}` : ""}</li>`);
  lines.push(`<li data-testid="lf-sum-sacred" data-from="${s.sacred_tree.from}" data-to="${s.sacred_tree.to}">${esc(t("lf.sum.sacred", { from: c.nameOf(s.sacred_tree.from), to: c.nameOf(s.sacred_tree.to) }))}</li>`);
  const open = h.summary || (c.view.phase === "draw" && c.view.round === s.round + 1);
  return `<details class="panel lf-summary${h.summary ? " fresh" : ""}" data-testid="lf-summary" data-round="${s.round}"${open ? " open" : ""}>
    <summary><h2>${esc(t("lf.sum.title", { n: s.round }))}</h2></summary><ul>${lines.join("")}</ul></details>`;
}

export function controls() {
  return "";
}

export function render(c) {
  const v = c.view;
  const h = highlightOf(c);
  const me = c.seat === null ? (Number.isInteger(c.focus) ? c.focus : v.current ?? v.sacred_tree ?? 0) : c.seat;
  const others = v.spirits.filter((s) => s.seat !== me).map((s) => spiritPanel(c, s, false, h)).join("");
  const zoom = c.ui && c.ui.zoom ? zoomHtml(c.ui.zoom) : "";
  return `<div class="lf-table players-${v.spirits.length}${h.seat !== null ? " lf-stepping" : ""}">
    <div class="lf-mine">${spiritPanel(c, v.spirits[me], c.seat !== null, h)}</div>
    <div class="lf-shared">${displayHtml(c, h)}</div><div class="lf-ring">${circleHtml(c, h)}${summaryHtml(c, h)}</div>
    <div class="others lf-others">${others}</div>${zoom}
  </div>`;
}

// ------------------------------------------------------------------ scores and the end
// The scores by seat. Three or four players in the narrow side column: each column headed by the
// seat's shape, the names whole in a line under the table (never cut or broken inside a word).
function breakdownTable(c, rows, { wide = false } = {}) {
  const marks = rows.length > 2 && !wide;
  const head = rows
    .map((_, s) => `<th scope="col" title="${esc(c.nameOf(s))}"><span aria-hidden="true">${SHAPE[s]}</span>${marks ? `<span class="sr-only">${esc(c.nameOf(s))}</span>` : `&nbsp;<span class="name">${esc(c.nameOf(s))}</span>`}</th>`)
    .join("");
  const legend = marks
    ? `<p class="score-names" aria-hidden="true">${rows.map((_, s) => `<span class="score-name">${SHAPE[s]} ${esc(c.nameOf(s))}</span>`).join(" ")}</p>`
    : "";
  let body = ["trees", "fires", "flowers"]
    .map((k) => `<tr data-cat="${k}"><th scope="row"><a href="#/rules/living-forest/living-forest.victory">${esc(kindWord(k))}</a></th>${rows.map((r, s) => `<td data-score-seat="${s}" tabindex="0" class="${r[k] >= (c.view.target || 12) ? "reached" : ""}">${r[k]}</td>`).join("")}</tr>`)
    .join("");
  body += `<tr class="total"><th scope="row">${esc(t("lf.total"))}</th>${rows.map((r, s) => `<td data-total-seat="${s}">${r.total}</td>`).join("")}</tr>`;
  return `<table class="breakdown lf-breakdown players-${rows.length}"><thead><tr><td></td>${head}</tr></thead><tbody>${body}</tbody></table>${legend}`;
}

export function scores(c) {
  return breakdownTable(
    c,
    c.view.spirits.map((s) => ({ ...s.progress, total: s.progress.trees + s.progress.fires + s.progress.flowers })),
  );
}

export function endScreen(c) {
  const v = c.view;
  const result = v.result;
  const winners = result.winners.map(c.nameOf);
  const headline = winners.length > 1 ? t("end.shared", { names: list(winners) }) : t("end.winner", { name: winners[0] });
  const reached = v.reached || result.breakdown.map((b, seat) => ({ seat, kinds: b.reached ? ["trees", "fires", "flowers"].filter((k) => b[k] >= 12) : [], total: b.total })).filter((r) => r.kinds.length);
  const why = reached.map((r) => `<li data-reached-seat="${r.seat}">${esc(t("lf.end.reached", { name: c.nameOf(r.seat), what: list(r.kinds.map(whatWord)), n: v.target || 12, round: v.round }))}</li>`).join("");
  let tie = "";
  if (reached.length > 1) {
    const totals = list(reached.map((r) => t("lf.end.totalOf", { name: c.nameOf(r.seat), n: r.total })));
    tie = `<p class="tiebreak" data-testid="lf-tiebreak">${esc(t("lf.end.tiebreak"))} ${esc(totals)}${winners.length > 1 ? ` ${esc(t("lf.end.stillTied"))}` : ""}</p>`;
  }
  return `<p class="headline" data-testid="winner">${esc(headline)}</p><ul class="end-why" data-testid="lf-end-why">${why}</ul>${tie}${breakdownTable(c, result.breakdown, { wide: true })}`;
}

// Replays draw the server's past views with the same drawing (replay.js asks for them).
export function replayViews(log) {
  return [log.initial_view, ...log.moves.map(() => null)];
}

export function replayStep(views, step, final, last) {
  if (last) return final;
  return views[step];
}

export function replayRender(c) {
  if (c.view && c.view.spirits) return render(c);
  return `<p class="muted">${esc(t("lf.replayList"))}</p>`;
}
