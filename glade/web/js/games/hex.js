// SVG drawing of Harmonies hexes, token stacks and cubes (flat-top axial cells "q,r").
export const COLORS = ["blue", "gray", "brown", "green", "yellow", "red"];
// A glyph on every token so that colours never need to be told apart by hue alone.
export const GLYPH = { blue: "≈", gray: "▲", brown: "▮", green: "♣", yellow: "✿", red: "⌂", "*": "✱" };
export const SQ3 = Math.sqrt(3);

// The board's coordinate system, as printed on every cell: a column letter (left to right) and a
// row number (top to bottom within the column), from the axial cell "q,r" (odd-q offset rows).
const LETTERS = "ABCDEFGHIJ";
export function cellLabel(name) {
  const [q, r] = String(name).split(",").map(Number);
  if (!Number.isInteger(q) || !Number.isInteger(r) || q < 0 || q >= LETTERS.length) return String(name);
  return `${LETTERS[q]}${r + (q - (q & 1)) / 2 + 1}`;
}

export function centre(q, r, size) {
  return [size * 1.5 * q, size * SQ3 * (r + q / 2)];
}

export function hexPoints(cx, cy, size) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(cx + size * Math.cos(a)).toFixed(1)},${(cy + size * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

// viewBox "x y w h" enclosing hexes of `size` at the given [q, r] cells, with a margin.
export function viewBox(cells, size, margin = 4) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [q, r] of cells) {
    const [x, y] = centre(q, r, size);
    minX = Math.min(minX, x - size);
    maxX = Math.max(maxX, x + size);
    minY = Math.min(minY, y - (size * SQ3) / 2);
    maxY = Math.max(maxY, y + (size * SQ3) / 2);
  }
  return [minX - margin, minY - margin, maxX - minX + 2 * margin, maxY - minY + 2 * margin];
}

// One token as a coin seen slightly from above; `colour` "*" is a building base (red, brown or gray).
function coin(cx, cy, size, colour, showGlyph, cls = "") {
  const rx = size * 0.62;
  const ry = size * 0.33;
  const depth = size * 0.16;
  const fill = colour === "*" ? "url(#tok-any)" : `var(--tok-${colour})`;
  const side = colour === "*" ? "var(--tok-any-side)" : `var(--tok-${colour}-side)`;
  let out = cls ? `<g class="${cls}">` : "";
  out += `<ellipse cx="${cx.toFixed(1)}" cy="${(cy + depth).toFixed(1)}" rx="${rx.toFixed(1)}" ry="${ry.toFixed(1)}" fill="${side}" stroke="var(--tok-edge)" stroke-width="0.8"/>`;
  out += `<rect x="${(cx - rx).toFixed(1)}" y="${cy.toFixed(1)}" width="${(2 * rx).toFixed(1)}" height="${depth.toFixed(1)}" fill="${side}"/>`;
  out += `<ellipse cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" rx="${rx.toFixed(1)}" ry="${ry.toFixed(1)}" fill="${fill}" stroke="var(--tok-edge)" stroke-width="0.8"/>`;
  // a soft highlight on the top face gives the token its depth
  out += `<ellipse cx="${(cx - rx * 0.25).toFixed(1)}" cy="${(cy - ry * 0.3).toFixed(1)}" rx="${(rx * 0.5).toFixed(1)}" ry="${(ry * 0.4).toFixed(1)}" fill="#fff" opacity="0.18"/>`;
  if (showGlyph) {
    const ink = colour === "yellow" || colour === "*" ? "#3a2f00" : "#fff";
    out += `<text x="${cx.toFixed(1)}" y="${(cy + size * 0.02).toFixed(1)}" font-size="${(size * 0.42).toFixed(1)}" fill="${ink}" text-anchor="middle" dominant-baseline="central" class="glyph">${GLYPH[colour]}</text>`;
  }
  if (cls) out += "</g>";
  return out;
}

// A whole stack, bottom to top, every token visible; a height number when it is 2 or more.
// `badge`: true (2 or more), "always" (every height, for an enlarged card) or false; `topClass`:
// a class on the top token (the placement animation).
export function stack(cx, cy, size, tokens, { badge = true, topClass = "" } = {}) {
  let out = "";
  const step = size * 0.27;
  const base = cy + size * 0.22 + ((tokens.length - 1) * step) / 2;
  tokens.forEach((colour, i) => {
    const top = i === tokens.length - 1;
    out += coin(cx, base - i * step, size, colour, top, top ? topClass : "");
  });
  if ((badge === "always" && tokens.length) || (badge && tokens.length > 1)) {
    const bx = cx + size * 0.62;
    const by = cy + size * 0.55;
    out += `<circle cx="${bx.toFixed(1)}" cy="${by.toFixed(1)}" r="${(size * 0.2).toFixed(1)}" fill="#fff" stroke="#555" stroke-width="0.8"/>`;
    out += `<text x="${bx.toFixed(1)}" y="${by.toFixed(1)}" font-size="${(size * 0.26).toFixed(1)}" text-anchor="middle" dominant-baseline="central" class="height">${tokens.length}</text>`;
  }
  return out;
}

export function topY(cy, size, height) {
  const step = size * 0.27;
  const base = cy + size * 0.22 + ((height - 1) * step) / 2;
  return height ? base - (height - 1) * step : cy;
}

// An animal cube drawn as a small isometric cube.
export function cube(cx, cy, s, cls = "") {
  const h = s * 0.5;
  const w = s * 0.87;
  const top = `${cx},${cy - s} ${cx + w},${cy - h} ${cx},${cy} ${cx - w},${cy - h}`;
  const left = `${cx - w},${cy - h} ${cx},${cy} ${cx},${cy + s} ${cx - w},${cy + h}`;
  const right = `${cx + w},${cy - h} ${cx},${cy} ${cx},${cy + s} ${cx + w},${cy + h}`;
  return `<g class="cube ${cls}"><polygon points="${top}" class="cube-top"/><polygon points="${left}" class="cube-left"/><polygon points="${right}" class="cube-right"/></g>`;
}
