// The Living Forest table: forest, help line, display, circle of spirits, progress and actions.
import { esc, t } from "./i18n.js";

const ELEMENTS = ["sun", "water", "plant", "spiral", "flower"];
// A glyph beside every element so that it never depends on colour alone.
const ICON = { sun: "☀", water: "≈", plant: "♣", spiral: "↻", flower: "✿" };
const KIND_ELEMENT = { fragment: null, attract: "sun", extinguish: "water", move: "spiral", plant: "plant" };
let DATA = null;
const CARD = {}; // name -> elements and symbol, for the help line (the view names its cards)
const TREE = {}; // id -> {cost, gives}
// the forest board's bonuses, read from the data file (1-based rows and columns there)
const CORNERS = {}; // "row,column" (0-based) -> the data file's corner bonus entry
let LINES = []; // the data file's line bonus entries

export async function prepare() {
  if (DATA) return;
  const resp = await fetch(new URL("../data/living-forest-cards.json", import.meta.url));
  DATA = await resp.json();
  const add = (c) => (CARD[c.name] = c);
  DATA.starting_deck.cards.forEach(add);
  for (const level of ["level1", "level2", "level3"]) DATA.guardian_animals[level].forEach(add);
  CARD["Fire Varan"] = { name: "Fire Varan", symbol: "solitary" };
  for (const tile of DATA.protective_trees.tiles) TREE[tile.id] = tile;
  for (const c of DATA.forest_board.corner_bonuses) CORNERS[`${c.row - 1},${c.column - 1}`] = c;
  LINES = DATA.forest_board.line_bonuses;
}

// "Attract +3 ☀", "Fragment ×2": the bonus's name and what the data file prints beside it
function cornerText(c) {
  const name = t(`lf.bonus.${c.bonus}`);
  if (c.count) return `${name} ×${c.count}`;
  const plus = Object.entries(c.plus || {}).map(([e, v]) => `+${v} ${ICON[e]}`);
  return [name, ...plus].join(" ");
}

// one label per completed-line bonus: "│2 ≈1" for column 2, "─2 ✿2" for row 2 (as printed)
function linesHtml() {
  const items = LINES.map((line) => {
    const where = line.column ? `│${line.column}` : `─${line.row}`;
    const gives = Object.entries(line.gives).map(
      ([e, v]) => `<span aria-hidden="true">${ICON[e]}</span><span class="sr-only">${esc(t(`lf.el.${e}`))}</span>${v}`,
    );
    return `<li>${esc(where)} ${gives.join(" ")}</li>`;
  });
  return `<ul class="muted lines">${items.join("")}</ul>`;
}

const cardName = (name) => t(`lfcard.${name}`);
const act = (a) => esc(JSON.stringify(a));

function elementsHtml(source, { zero = false } = {}) {
  const items = ELEMENTS.filter((e) => zero || source[e]).map(
    (e) => `<li class="el el-${e}" title="${esc(t(`lf.el.${e}`))}"><span aria-hidden="true">${ICON[e]}</span><span class="sr-only">${esc(t(`lf.el.${e}`))}</span> ${source[e] || 0}</li>`,
  );
  return `<ul class="elements">${items.join("")}</ul>`;
}

function symbolText(symbol) {
  if (symbol === "solitary") return `◉ ${t("lf.solitary")}`;
  if (symbol === "gregarious") return `⁂ ${t("lf.gregarious")}`;
  return "";
}

function cardHtml(card, { a = null, level = null } = {}) {
  const data = CARD[card.name] || card;
  const cost = card.cost !== undefined ? `<span class="cost" title="${esc(t("lf.cost"))}">☀ ${card.cost}</span>` : "";
  const attrs = a ? ` data-act="${act(a)}" data-key="pick-${a.level}-${a.slot}" tabindex="0" role="button"` : "";
  return `<article class="lfcard ${a ? "legal" : ""} ${card.name === "Fire Varan" ? "varan" : ""}"${attrs} aria-label="${esc(cardName(card.name))}">
    <h4>${esc(cardName(card.name))} ${level ? `<span class="muted">${esc(t("lf.level", { n: level }))}</span>` : ""}</h4>
    ${cost}${elementsHtml(data)}<span class="muted">${esc(symbolText(data.symbol))}</span></article>`;
}

// Living Forest shows every seat the same public table: nothing to cover in hot-seat.
export function hasSecret() {
  return false;
}

// ------------------------------------------------------------------ local selection: the tree to plant
export function newUi() {
  return { tree: null };
}
export function resetUi(ui) {
  ui.tree = null;
}
export function clearUi(ui) {
  const had = ui.tree !== null;
  ui.tree = null;
  return had;
}
export function syncUi(ui, c) {
  const trees = new Set(c.legal.filter((a) => a.type === "plant").map((a) => a.tree));
  if (!trees.has(ui.tree)) ui.tree = trees.size ? [...trees].sort((x, y) => TREE[y].cost - TREE[x].cost)[0] : null;
}
export function onUi(ui, data) {
  if (data.ui === "tree") ui.tree = data.tree;
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
  if (step.step === "attract") return t("lf.prompt.attract", { n: step.left });
  if (step.step === "extinguish") return t("lf.prompt.extinguish", { n: step.left });
  if (step.step === "move") return t("lf.prompt.move");
  if (step.step === "plant") return t("lf.prompt.plant");
  if (step.step === "steal") return t("lf.prompt.steal", { name: c.nameOf(step.from[0]) });
  return "";
}

export function describeAction(a) {
  switch (a.type) {
    case "choose_action":
      return t("lf.act.choose", { action: t(`lf.kind.${a.action}`) });
    case "pick_card":
      return t("lf.act.pick_card", { level: a.level, n: a.slot + 1 });
    case "pick_fire":
      return t("lf.act.pick_fire", { n: a.index + 1 });
    case "steal":
      return t("lf.act.steal", { tile: t(`lf.tile.${a.tile}`) });
    case "move":
      return t("lf.act.move", { n: a.steps });
    case "plant":
      return t("lf.act.plant", { cost: TREE[a.tree] ? TREE[a.tree].cost : a.tree, row: a.row + 1, column: a.column + 1 });
    case "undo":
      return t("table.undo");
    default:
      return t(`lf.act.${a.type}`);
  }
}

export function describeLog(entry, c) {
  let text = `${c.nameOf(entry.seat)}: ${describeAction(entry.action)}`;
  const ch = entry.chance;
  if (ch && ch.card) text += ` (${cardName(ch.card)}${ch.reshuffled ? `, ${t("lf.log.reshuffled")}` : ""})`;
  else if (ch && ch.revealed && ch.revealed.length) text += ` (${t("lf.log.revealed", { cards: ch.revealed.map(cardName).join(", ") })})`;
  return text;
}

// ------------------------------------------------------------------ drawing
function forestHtml(spirit, c, own) {
  const plants = new Map();
  if (own && c.ui.tree) {
    for (const a of c.legal) if (a.type === "plant" && a.tree === c.ui.tree) plants.set(`${a.row},${a.column}`, a);
  }
  const cells = [];
  spirit.forest.forEach((row, r) =>
    row.forEach((tree, col) => {
      const key = `${r},${col}`;
      const a = plants.get(key);
      const bonus = CORNERS[key] ? cornerText(CORNERS[key]) : "";
      let inner;
      if (tree === "start") inner = `<b aria-hidden="true">♣</b><span>${esc(t("lf.startTree"))}</span>`;
      else if (tree) inner = `<b>${esc(t("lf.treeCost", { cost: TREE[tree].cost }))}</b>${elementsHtml(TREE[tree].gives)}`;
      else inner = bonus ? `<span class="muted">${esc(bonus)}</span>` : "";
      const attrs = a ? ` data-act="${act(a)}" data-key="plant-${key}" tabindex="0" role="button" aria-label="${esc(describeAction(a))}"` : "";
      cells.push(`<div class="slot ${bonus ? "bonus" : ""} ${a ? "legal" : ""} ${tree ? "tree" : ""}" data-slot="${key}"${attrs}>${inner}</div>`);
    }),
  );
  const lines = linesHtml();
  return `<div class="forest" role="group" aria-label="${esc(t("lf.forest"))}">${cells.join("")}</div>${own ? lines : ""}`;
}

function progressHtml(spirit) {
  return `<div class="progress">${["trees", "fires", "flowers"]
    .map((k) => `<label>${esc(t(`lf.progress.${k}`))} <b>${spirit.progress[k]}</b>/12 <meter min="0" max="12" value="${spirit.progress[k]}"></meter></label>`)
    .join("")}</div>`;
}

function helpLineHtml(spirit) {
  if (!spirit.help_line.length) return `<p class="muted">${esc(t("lf.emptyHelpLine"))}</p>`;
  return `<div class="cards help-line">${spirit.help_line.map((name) => cardHtml({ name })).join("")}</div>`;
}

function actionBar(c) {
  const v = c.view;
  const mine = c.seat !== null && c.view.to_act.includes(c.seat);
  if (!mine) return "";
  const me = v.spirits[c.seat];
  const buttons = [];
  for (const a of c.legal) {
    if (a.type === "draw" || a.type === "stop" || a.type === "use_fragment" || a.type === "done" || a.type === "end_actions") {
      const primary = a.type === "draw" ? " primary" : "";
      buttons.push(`<button type="button" class="lf-${a.type}${primary}" data-act="${act(a)}" data-key="${a.type}">${esc(t(`lf.act.${a.type}`))}</button>`);
    } else if (a.type === "choose_action") {
      const el = KIND_ELEMENT[a.action];
      const strength = el ? ` ${ICON[el]} ${me.elements[el]}` : "";
      buttons.push(`<button type="button" data-act="${act(a)}" data-key="choose-${a.action}">${esc(t(`lf.kind.${a.action}`))}${strength}</button>`);
    } else if (a.type === "move") {
      buttons.push(`<button type="button" data-act="${act(a)}" data-key="move-${a.steps}">${esc(t("lf.act.move", { n: a.steps }))}</button>`);
    } else if (a.type === "steal") {
      buttons.push(`<button type="button" data-act="${act(a)}" data-key="steal-${a.tile}">${esc(t("lf.act.steal", { tile: t(`lf.tile.${a.tile}`) }))}</button>`);
    }
  }
  const trees = [...new Set(c.legal.filter((a) => a.type === "plant").map((a) => a.tree))].sort((x, y) => TREE[x].cost - TREE[y].cost);
  const treeButtons = trees
    .map((id) => {
      const on = c.ui.tree === id;
      return `<button type="button" data-ui="tree" data-tree="${esc(id)}" data-key="tree-${esc(id)}" aria-pressed="${on}" class="${on ? "on" : ""}">${esc(t("lf.treeCost", { cost: TREE[id].cost }))} ${Object.entries(TREE[id].gives)
        .map(([e, n]) => `${ICON[e]}${n}`)
        .join(" ")}</button>`;
    })
    .join("");
  return `<div class="action-list" data-testid="lf-actions">${buttons.join("")}</div>${treeButtons ? `<p>${esc(t("lf.pickTree"))}</p><div class="action-list">${treeButtons}</div>` : ""}`;
}

function displayHtml(c) {
  const v = c.view;
  const picks = new Map(c.legal.filter((a) => a.type === "pick_card").map((a) => [`${a.level},${a.slot}`, a]));
  const rows = v.display
    .map(
      (row, i) => `<div class="display-row"><h3>${esc(t("lf.level", { n: i + 1 }))} <span class="muted">${esc(t("lf.stack", { n: v.stack_counts[i] }))}</span></h3>
      <div class="cards">${row.map((card, slot) => (card ? cardHtml(card, { a: picks.get(`${i + 1},${slot}`) || null }) : `<article class="lfcard muted">${esc(t("lf.emptySlot"))}</article>`)).join("")}</div></div>`,
    )
    .join("");
  return `<section class="panel display" aria-labelledby="display-title"><h2 id="display-title">${esc(t("lf.display"))}</h2>${rows}</section>`;
}

function circleHtml(c) {
  const v = c.view;
  const fires = new Map(c.legal.filter((a) => a.type === "pick_fire").map((a) => [a.index, a]));
  // the twelve rocks drawn clockwise around the centre, rock 1 at the top
  const R = 92;
  const PAWN = ["#1f5fae", "#b8412c", "#6b3fa0", "#2f7d3a"];
  const rocks = v.circle
    .map((r) => {
      const ang = (Math.PI * 2 * r.rock) / 12 - Math.PI / 2;
      const x = (R * Math.cos(ang)).toFixed(1);
      const y = (R * Math.sin(ang)).toFixed(1);
      const who = r.spirit === null ? "" : c.nameOf(r.spirit);
      const px = ((R + 24) * Math.cos(ang)).toFixed(1);
      const py = ((R + 24) * Math.sin(ang)).toFixed(1);
      const pawn =
        r.spirit === null
          ? ""
          : `<circle cx="${px}" cy="${py}" r="9" fill="${PAWN[r.spirit]}" stroke="#fff" stroke-width="2"/><text x="${px}" y="${py}" class="pawn-label" text-anchor="middle" dominant-baseline="central">${esc(who.slice(0, 1).toUpperCase())}</text>`;
      return `<g class="rock" data-rock="${r.rock}" role="img" aria-label="${esc(`${r.rock + 1}: ${t(`lf.bonus.${r.bonus}`)}${who ? ` · ${who}` : ""}`)}">
        <circle cx="${x}" cy="${y}" r="21" class="rock-disc"/>
        <text x="${x}" y="${(Number(y) + 1).toFixed(1)}" text-anchor="middle" dominant-baseline="central" class="rock-label">${esc(t(`lf.bonusShort.${r.bonus}`))}</text>
        <text x="${x}" y="${(Number(y) + 14).toFixed(1)}" text-anchor="middle" class="rock-n">${r.rock + 1}</text>${pawn}</g>`;
    })
    .join("");
  const fireDots = v.centre_fires
    .map((value, i) => {
      const ang = (Math.PI * 2 * i) / Math.max(v.centre_fires.length, 1);
      const rr = v.centre_fires.length > 1 ? 28 : 0;
      return `<text x="${(rr * Math.cos(ang)).toFixed(1)}" y="${(rr * Math.sin(ang)).toFixed(1)}" text-anchor="middle" dominant-baseline="central" class="centre-fire">♨${value}</text>`;
    })
    .join("");
  const ring = `<svg class="ring" viewBox="-130 -130 260 260" role="group" aria-label="${esc(t("lf.circle"))}">
    <circle r="${R}" class="ring-path"/>${fireDots}${rocks}</svg>`;
  const centre = v.centre_fires.length
    ? v.centre_fires
        .map((value, i) => {
          const a = fires.get(i);
          return a
            ? `<button type="button" class="fire legal" data-act="${act(a)}" data-key="fire-${i}">♨ ${value}</button>`
            : `<span class="fire">♨ ${value}</span>`;
        })
        .join(" ")
    : `<span class="muted">${esc(t("lf.noFire"))}</span>`;
  return `<section class="panel circle-panel" aria-labelledby="circle-title"><h2 id="circle-title">${esc(t("lf.circle"))}</h2>
    ${ring}<p>${esc(t("lf.centreFires"))}: ${centre}</p>
    <p class="muted">${esc(t("lf.sacredTree", { name: c.nameOf(v.sacred_tree) }))}</p></section>`;
}

function spiritPanel(c, spirit, own) {
  const v = c.view;
  const active = v.to_act.includes(spirit.seat);
  const title = own ? t("lf.yourForest") : c.nameOf(spirit.seat);
  const solitary = `<p class="solitary" data-testid="${own ? "solitary" : ""}">${esc(t("lf.solitaryCount", { n: spirit.solitary }))}
    · ${esc(t("lf.deck", { n: spirit.draw_stack_count, d: spirit.discard_count }))}
    · ${esc(t("lf.fragments", { n: spirit.fragments }))} · ${esc(t("lf.firesKept", { n: spirit.fires.length }))}
    · ${esc(t("lf.victoryTiles", { tiles: ["fire", "flower", "tree"].filter((k) => spirit.victory_tiles[k]).map((k) => t(`lf.tile.${k}`)).join(", ") || "—" }))}</p>`;
  return `<section class="panel spirit ${active ? "active" : ""} ${own ? "mine" : "other"}" data-spirit="${spirit.seat}">
    <h2>${esc(title)}</h2>
    ${progressHtml(spirit)}
    <h3>${esc(t("lf.elements"))}</h3>${elementsHtml(spirit.elements, { zero: true })}
    ${own ? actionBar(c) : ""}
    <h3>${esc(t("lf.helpLine"))}</h3>${solitary}${helpLineHtml(spirit)}
    <h3>${esc(t("lf.forest"))}</h3>${forestHtml(spirit, c, own)}
  </section>`;
}

export function controls() {
  return "";
}

export function render(c) {
  const v = c.view;
  const me = c.seat === null ? 0 : c.seat;
  const others = v.spirits.filter((s) => s.seat !== me).map((s) => spiritPanel(c, s, false)).join("");
  return `<div class="lf-layout">
    <div>${spiritPanel(c, v.spirits[me], c.seat !== null)}</div>
    <div>${circleHtml(c)}${displayHtml(c)}</div>
  </div><div class="others">${others}</div>`;
}

function breakdownTable(c, rows) {
  const head = rows.map((_, s) => `<th scope="col">${esc(c.nameOf(s))}</th>`).join("");
  let body = ["trees", "fires", "flowers"]
    .map((k) => `<tr><th scope="row">${esc(t(`lf.progress.${k}`))}</th>${rows.map((r) => `<td>${r[k]}</td>`).join("")}</tr>`)
    .join("");
  body += `<tr class="total"><th scope="row">${esc(t("h.cat.total"))}</th>${rows.map((r, s) => `<td data-total-seat="${s}">${r.total}</td>`).join("")}</tr>`;
  return `<table class="breakdown"><thead><tr><td></td>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export function scores(c) {
  return breakdownTable(
    c,
    c.view.spirits.map((s) => ({ ...s.progress, total: s.progress.trees + s.progress.fires + s.progress.flowers })),
  );
}

export function endScreen(c) {
  const result = c.view.result;
  const winners = result.winners.map(c.nameOf);
  const headline = winners.length > 1 ? t("end.shared", { names: winners.join(", ") }) : t("end.winner", { name: winners[0] });
  const reached = result.breakdown.filter((b) => b.reached).length;
  const tie = reached > 1 ? `<p class="tiebreak">${esc(t("lf.end.tiebreak"))}</p>` : "";
  return `<p class="headline" data-testid="winner">${esc(headline)}</p>${tie}${breakdownTable(c, result.breakdown)}`;
}

// The public log names the moves; Living Forest's positions are not rebuilt here, only listed.
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
