// The learning pages' words (glade/learn/data/ui-text.json, served by GET /api/rules in every
// language): read once at boot, then lt() says one in the page's language, like i18n's t().
import { lang } from "../base/i18n.js";
import { learnApi } from "../net/learn_api.js";

let words = {};

export async function loadLearnWords() {
  try {
    words = (await learnApi.words()).texts || {};
  } catch (err) {
    words = {}; // the server cannot be reached: the pages that need them say so when they load
  }
}

export function lt(key, params) {
  const entry = words[key];
  let text = entry ? entry[lang()] || entry.en : key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return text;
}
