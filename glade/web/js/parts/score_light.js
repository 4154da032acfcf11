// A score that explains itself: pointing at a score line (hover, focus or tap) lights the cells
// that earned it, each part's points on its first cell. The parts are the one scorer's explained
// breakdown the views carry: Harmonies `boards[seat].score.parts`, Living Forest
// `spirits[seat].parts` ({category, points, cells}). A score line is a row with data-cat; a cell of
// it with data-score-seat names the seat, else the seat on screen (data-seat of the page's root).
// A list item with data-part-cells (a rules figure's parts) lights its own cells. The parts with no
// cell (Living Forest's victory tiles, fires kept, flowers of the help line) are said in words in
// the page's [data-score-note], if it has one.
import { listWords } from "../base/format.js";
import { t } from "../base/i18n.js";

export function partsOf(view, seat) {
  if (!view) return [];
  if (view.boards && view.boards[seat]) return (view.boards[seat].score || {}).parts || [];
  if (view.spirits && view.spirits[seat]) return view.spirits[seat].parts || [];
  return [];
}

function cellEl(board, cell) {
  return board.querySelector(`[data-cell="${CSS.escape(cell)}"]`) || board.querySelector(`.forest [data-slot="${CSS.escape(cell)}"]`);
}

// A part with no cell, in words: "tree victory tile +1", "fire of 3 ×2: +2".
function noteWords(part) {
  const p = part.params || {};
  let what = part.what;
  if (part.what === "victory_tile") what = t("lf.victoryTile", { tile: t(`lf.tile.${p.tile}`) });
  else if (part.what === "fires") what = t("lf.fireValue", { value: p.value });
  else if (part.what === "help_line") what = `${t("lf.helpLine")} (${listWords((p.cards || []).map((c) => t(`lfcard.${c}`)))})`;
  const count = p.count > 1 ? ` ×${p.count}` : "";
  return `${what}${count}: +${part.points}`;
}

export function clearLight(root) {
  for (const el of root.querySelectorAll("[data-score-note]")) el.textContent = "";
  for (const el of root.querySelectorAll(".part-lit")) el.classList.remove("part-lit");
  for (const el of root.querySelectorAll(".part-points")) el.remove();
  for (const el of root.querySelectorAll(".score-lit")) el.classList.remove("score-lit");
}

function badge(el, points) {
  const text = `${points >= 0 ? "+" : ""}${points}`;
  if (el instanceof SVGGraphicsElement) {
    const box = el.getBBox();
    const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
    label.setAttribute("x", (box.x + box.width / 2).toFixed(1));
    label.setAttribute("y", (box.y + box.height * 0.93).toFixed(1));
    label.setAttribute("text-anchor", "middle");
    label.setAttribute("class", "part-points");
    label.textContent = text;
    el.appendChild(label);
  } else {
    const span = document.createElement("span");
    span.className = "part-points";
    span.textContent = text;
    el.appendChild(span);
  }
}

// Light `parts` on the board element: every cell of every part, the part's points once.
export function lightParts(board, parts) {
  const lit = [];
  for (const part of parts) {
    part.cells.forEach((cell, i) => {
      const el = cellEl(board, cell);
      if (!el) return;
      el.classList.add("part-lit");
      if (i === 0) badge(el, part.points);
      lit.push(cell);
    });
  }
  return lit;
}

// Wire the lighting on `root`; `viewOf()` is the view on screen now. Returns the unwiring.
export function attachScoreLight(root, viewOf) {
  let pinned = null; // a tapped line stays lit until another tap
  function light(target) {
    const part = target.closest && target.closest("[data-part-cells]");
    if (part && root.contains(part)) {
      clearLight(root);
      const board = part.closest("figure").querySelector("[data-board-seat]");
      const cells = part.dataset.partCells.split(" ").filter(Boolean);
      lightParts(board, [{ cells, points: Number(part.dataset.partPoints) }]);
      part.classList.add("score-lit");
      return true;
    }
    const row = target.closest && target.closest("tr[data-cat]");
    if (!row || !root.contains(row)) return false;
    const cell = target.closest("[data-score-seat]");
    const shown = root.querySelector("[data-seat]");
    const seat = cell ? Number(cell.dataset.scoreSeat) : Number(shown ? shown.dataset.seat : 0) || 0;
    const board = root.querySelector(`[data-board-seat="${seat}"]`);
    clearLight(root);
    if (!board) return true;
    const parts = partsOf(viewOf(), seat).filter((p) => p.category === row.dataset.cat);
    lightParts(board, parts);
    const note = root.querySelector("[data-score-note]");
    if (note) note.textContent = listWords(parts.filter((p) => !p.cells.length).map(noteWords));
    (cell || row).classList.add("score-lit");
    return true;
  }
  function off(ev) {
    if (pinned) return;
    const from = ev.target.closest && ev.target.closest("tr[data-cat], [data-part-cells]");
    const to = ev.relatedTarget && ev.relatedTarget.closest && ev.relatedTarget.closest("tr[data-cat], [data-part-cells]");
    if (from && from !== to) clearLight(root);
  }
  const handlers = {
    pointerover: (ev) => {
      if (ev.pointerType === "touch") return; // a tap is a click
      if (!pinned) light(ev.target);
    },
    pointerout: off,
    focusin: (ev) => {
      pinned = null;
      light(ev.target);
    },
    focusout: off,
    click: (ev) => {
      const line = ev.target.closest && ev.target.closest("[data-score-seat], [data-part-cells]");
      if (!line || !root.contains(line)) return;
      if (pinned === line) {
        pinned = null;
        clearLight(root);
      } else if (light(line)) {
        pinned = line;
      }
    },
  };
  for (const [name, fn] of Object.entries(handlers)) root.addEventListener(name, fn);
  // the page calls this when it is unmounted
  return () => {
    for (const [name, fn] of Object.entries(handlers)) root.removeEventListener(name, fn);
  };
}
