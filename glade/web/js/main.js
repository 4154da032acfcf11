// The router: one page at a time in <main id="app">, chosen by the address. Nothing imports it.
// Routes: #/ lobby · #/play/<id>[/<token>] a table (a token: an invite) · #/watch/<id> spectator ·
// #/replay/<id>[/<move>] · #/review/<id> · #/leaderboard/<game> · #/profile/<name> · #/account ·
// #/rules/<game>[/<section>] · #/learn/<game>.
import { esc, preferredLang, setLang, t } from "./base/i18n.js";
import { startNotify } from "./net/notify.js";
import { loadAccount, onAccount } from "./net/session.js";
import { loadLearnWords } from "./parts/learn_words.js";
import { mountAccountLink, showAccount } from "./pages/account.js";
import { inviteRoute, showInvite } from "./pages/invite.js";
import { showLobby } from "./pages/lobby.js";
import { showProfile } from "./pages/profile.js";
import { showLearn } from "./pages/learn.js";
import { showLeaderboard } from "./pages/ratings.js";
import { showReplay } from "./pages/replay.js";
import { showReview } from "./pages/review.js";
import { showRules } from "./pages/rules.js";
import { showTable } from "./pages/table.js";

const app = document.getElementById("app");
let current = null; // the mounted page: {unmount(), rerender()}

function page(parts) {
  const [where, a, b] = parts;
  if (where === "play" && a && b) return showInvite(app, a, b);
  if (where === "play" && a) return showTable(app, a, { spectator: false });
  if (where === "watch" && a) return showTable(app, a, { spectator: true });
  if (where === "replay" && a) return showReplay(app, a, b);
  if (where === "review" && a) return showReview(app, a);
  if (where === "profile" && a) return showProfile(app, a);
  if (where === "leaderboard" || where === "profile") return showLeaderboard(app, a);
  if (where === "account") return showAccount(app);
  if (where === "rules" && a) return showRules(app, a, b);
  if (where === "learn" && a) return showLearn(app, a);
  return showLobby(app);
}

async function route() {
  if (current) current.unmount();
  current = null;
  app.innerHTML = "";
  const invite = inviteRoute();
  if (invite) history.replaceState(null, "", `${location.pathname}${invite}`);
  const parts = (location.hash.replace(/^#\/?/, "") || "").split("/").filter(Boolean).map(decodeURIComponent);
  try {
    current = await page(parts);
  } catch (err) {
    console.error(err);
    app.innerHTML = `<section class="panel"><p class="error" role="alert"></p><p><a href="#/">${esc(t("nav.lobby"))}</a></p></section>`;
    app.querySelector(".error").textContent = err.message || t("error.network");
  }
}

async function boot() {
  const select = document.getElementById("lang-select");
  await Promise.all([setLang(preferredLang()), loadLearnWords()]);
  select.value = document.documentElement.lang;
  select.addEventListener("change", async () => {
    await setLang(select.value);
    mountAccountLink();
    if (current && current.rerender) current.rerender();
    else route();
  });
  window.addEventListener("hashchange", route);
  await loadAccount();
  mountAccountLink();
  onAccount(mountAccountLink);
  await route();
  startNotify();
}

boot();
