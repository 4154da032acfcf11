// Strings for every language live in ../i18n/<lang>.json; t() falls back to English, then to the key.
export const LANGS = ["en", "ko", "zh"];
const STORE = "glade.lang";
const tables = {};
let current = "en";

async function load(lang) {
  if (!tables[lang]) {
    const resp = await fetch(new URL(`../i18n/${lang}.json`, import.meta.url));
    tables[lang] = await resp.json();
  }
  return tables[lang];
}

export function preferredLang() {
  const saved = localStorage.getItem(STORE);
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGS.includes(nav) ? nav : "en";
}

export async function setLang(lang) {
  if (!LANGS.includes(lang)) lang = "en";
  await load("en");
  await load(lang);
  current = lang;
  localStorage.setItem(STORE, lang);
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

export function lang() {
  return current;
}

export function has(key) {
  return key in (tables[current] || {}) || key in (tables.en || {});
}

export function t(key, params) {
  let text = (tables[current] || {})[key];
  if (text === undefined) text = (tables.en || {})[key];
  if (text === undefined) return key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return text;
}

export function esc(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
