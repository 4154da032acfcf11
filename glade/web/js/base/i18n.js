// Strings for every language live in i18n/<lang>.json; the game terms every language shares
// (card and animal names, the games' titles) live once in i18n/glossary.json. t() looks a key
// up in the chosen language, then in the glossary, then in English, and falls back to the key.
// A counted string is an object of plural forms picked by Intl.PluralRules:
//   {"one": "{n} cube left", "other": "{n} cubes left"}      counts the parameter n
//   {"$n": "points", "one": "…", "other": "…"}               counts the parameter points
// and a form may itself be such an object when a string counts two things.
import { loadJson } from "./assets.js";

export const LANGS = ["en", "ko", "zh"];
const STORE = "glade.lang";
const tables = {};
const rules = {};
let terms = null;
let refusalParams = {};
let current = "en";

const fetchJson = (name) => loadJson(`i18n/${name}.json`);

async function load(lang) {
  if (!terms) {
    terms = (await fetchJson("glossary")).terms;
    refusalParams = (await fetchJson("refusal-params")).params;
  }
  if (!tables[lang]) tables[lang] = await fetchJson(lang);
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

function lookup(language, key) {
  const table = tables[language] || {};
  if (key in table) return table[key];
  const term = terms && terms[key];
  return term ? term[language] : undefined;
}

export function has(key) {
  return lookup(current, key) !== undefined || lookup("en", key) !== undefined;
}

function pluralRules(language) {
  if (!rules[language]) rules[language] = new Intl.PluralRules(language);
  return rules[language];
}

// The plural form of `value` for the counts in `params` (a plain string is its own only form).
export function plural(value, params, language = current) {
  while (value !== null && typeof value === "object") {
    const count = Number((params || {})[value.$n || "n"]);
    const form = Number.isFinite(count) ? pluralRules(language).select(count) : "other";
    value = form in value ? value[form] : value.other;
  }
  return value;
}

export function t(key, params) {
  let language = current;
  let text = lookup(language, key);
  if (text === undefined) {
    language = "en";
    text = lookup(language, key);
  }
  if (text === undefined) return key;
  text = plural(text, params, language);
  if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return text;
}

// The sentence of an engine refusal ({code, params} of a 422 answer) in the chosen language: the
// key refusal.<code>, its params that are game words translated by refusal-params.json (a colour
// through the glossary, a card id to its card's name); `fallback` (the server's English) when the
// page has no such key.
export function refusal(code, params, fallback) {
  const key = `refusal.${code}`;
  if (!code || !has(key)) return fallback;
  const shown = { ...(params || {}) };
  for (const [name, template] of Object.entries(refusalParams[code] || {})) {
    const valueKey = template.replace(/\{(\w+)\}/g, (m, p) => String((params || {})[p]));
    if (has(valueKey)) shown[name] = t(valueKey);
  }
  return t(key, shown);
}

export function esc(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
