// The learning routes of the web API (glade/server/api/learn.py): the rules pages' content, the
// guided games (the page keeps a guided game's save and sends it back with each move) and the
// learning pages' words. Requests go through api.js's call().
import { call } from "./api.js";

const enc = encodeURIComponent;

export const learnApi = {
  words: () => call("GET", "/api/rules"),
  rules: (game, lang) => call("GET", `/api/rules/${enc(game)}?lang=${enc(lang)}`),
  start: (game, lang) => call("GET", `/api/learn/${enc(game)}?lang=${enc(lang)}`),
  check: (game, state, action, lang) => call("POST", `/api/learn/${enc(game)}/check`, { body: action ? { state, action, lang } : { state, lang } }),
};
