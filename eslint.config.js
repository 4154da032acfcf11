// The lint of the browser client (glade/web/js, plain ES modules), run by `make lint`.
// Its layers, bottom to top: base/ (assets, ui, i18n, format) · net/ (api: the only client of the
// web API; session; notify) · games/ (each game's table drawing) · parts/ (pieces several pages
// show) · pages/ · main.js (the router). A module imports only from its own layer or below
// (pages never from another page), nothing imports the router, and no import cycle anywhere.
import importPlugin from "eslint-plugin-import";
import globals from "globals";

const JS = "./glade/web/js";
const zone = (target, from, message) => ({ target: `${JS}/${target}`, from: from.map((f) => `${JS}/${f}`), message });
const LAYERS = [
  zone("base", ["net", "games", "parts", "pages", "main.js"], "base/ is the bottom layer: it imports only base/"),
  zone("net", ["games", "parts", "pages", "main.js"], "net/ imports only base/ and net/"),
  zone("games", ["net", "parts", "pages", "main.js"], "games/ draw a table: they import only base/ and games/"),
  zone("parts", ["pages", "main.js"], "parts/ import base/, net/, games/ and parts/, never a page"),
  zone("pages", ["main.js"], "nothing imports the router"),
];

export default [
  {
    files: ["glade/web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.browser } },
    plugins: { import: importPlugin },
    settings: { "import/resolver": { node: { extensions: [".js"] } } },
    rules: {
      "import/no-cycle": ["error", { maxDepth: Infinity }],
      "import/no-self-import": "error",
      "import/no-unresolved": "error",
      "import/named": "error",
      "import/no-restricted-paths": ["error", { zones: LAYERS }],
      "no-undef": "error",
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      // fetch and sockets only in net/api.js (the web API) and base/assets.js (static files)
      "no-restricted-globals": [
        "error",
        { name: "fetch", message: "talk to the server through net/api.js" },
        { name: "WebSocket", message: "talk to the server through net/api.js" },
        { name: "XMLHttpRequest", message: "talk to the server through net/api.js" },
      ],
      // no test or debugging hooks on window
      "no-restricted-syntax": [
        "error",
        { selector: "AssignmentExpression > MemberExpression.left[object.name='window']", message: "no hooks on window" },
      ],
    },
  },
  {
    files: ["glade/web/js/net/api.js", "glade/web/js/base/assets.js"],
    rules: { "no-restricted-globals": "off" },
  },
  {
    // a page imports no other page (what two pages share is a part, below them)
    files: ["glade/web/js/pages/*.js"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["./*"], message: "a page imports no other page: move the shared piece to parts/" }] }],
    },
  },
];
