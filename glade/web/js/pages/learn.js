// A guided first game (#/learn/<game>): the server plays it from its script (glade.learn's
// Tutorial, POST /api/learn/<game>/check); this page draws the table with the game's own drawing
// module, says each step (what to do and why), lights the move it teaches, shows why any other
// move is refused, then lets the player finish the game against the bot. The progress (the
// server's save) is kept in localStorage: the page resumes it, "Start again" drops it.
import { botLabel } from "../base/format.js";
import { esc, lang, refusal, t } from "../base/i18n.js";
import { GAMES } from "../games/index.js";
import { learnApi } from "../net/learn_api.js";
import { lt } from "../parts/learn_words.js";
import { playerAidHtml } from "../parts/player_aid.js";
import { attachScoreLight } from "../parts/score_light.js";

const STORE = (game) => `glade.learn.${game}`;

function canonical(action) {
  return JSON.stringify(Object.keys(action).sort().map((k) => [k, action[k]]));
}

// The elements a step's highlight names (docs/learn.md, "The guided first game").
function highlighted(root, game, seat, highlight) {
  const q = (sel) => [...root.querySelectorAll(sel)];
  const board = `[data-board-seat="${seat}"]`;
  const out = [];
  for (const [kind, items] of Object.entries(highlight || {})) {
    for (const item of items) {
      if (kind === "cells") out.push(...q(`${board} [data-cell="${CSS.escape(item)}"]`));
      else if (kind === "central") out.push(...q(`[data-space="${item}"]`));
      else if (kind === "cards") out.push(...q(`.row [data-slot="${item}"]`));
      else if (kind === "display") out.push(...q(`.display [data-slot="${item[0]},${item[1]}"]`));
      else if (kind === "fires") out.push(...q(`[data-key="fire-${item}"], [data-key="firebtn-${item}"]`));
      else if (kind === "forest") out.push(...q(`${board} .forest [data-slot="${item[0]},${item[1]}"]`));
      else if (kind === "buttons") out.push(...q(`[data-key="${CSS.escape(String(item).replace(/^action\./, "choose-"))}"]`));
    }
  }
  return out;
}

export async function showLearn(root, game) {
  const mod = GAMES[game];
  if (!mod) throw new Error(t("error.unknownGame"));
  await mod.prepare();
  let answer = null;
  let rules = null;
  let ui = mod.newUi();
  let refused = null; // the sentence of the last refusal, until the next move
  let note = null; // "resumed"
  let busy = false;
  let alive = true;

  function keep() {
    localStorage.setItem(STORE(game), JSON.stringify(answer.state));
  }

  async function begin() {
    const saved = localStorage.getItem(STORE(game));
    if (saved) {
      try {
        answer = await learnApi.check(game, JSON.parse(saved), null, lang());
        note = lt("learn.resumed");
      } catch (err) {
        answer = null; // a save of an older script, or damaged: start again
      }
    }
    if (!answer) answer = await learnApi.start(game, lang());
    rules = await learnApi.rules(game, lang());
    keep();
  }

  const nameOf = (seat) => (answer && seat === answer.seat ? lt("learn.you") : botLabel(answer ? answer.opponent : "greedy"));

  function ctx() {
    return { state: answer, view: answer.view, legal: answer.legal_actions, seat: answer.seat, mine: [answer.seat], watching: false, nameOf, ui, hint: null, step: null };
  }

  function sync() {
    mod.syncUi(ui, ctx());
    if (answer.step) mod.applyHint(ui, [answer.step.next]);
  }

  function stepHtml() {
    const s = answer.step;
    const head = s ? lt("step", { k: s.index + 1, n: s.count }) : lt("learn.free");
    let say;
    let why = "";
    if (answer.over) say = answer.texts.over;
    else if (s) {
      say = s.say;
      why = `<p class="tutorial-why"><b>${esc(lt("learn.why"))}</b> ${esc(s.why)}</p>`;
    } else say = `${answer.texts.free} ${lt("learn.yourMove")}`;
    const intro = s && s.index === 0 && s.done === 0 ? `<p class="tutorial-intro">${esc(answer.texts.intro)}</p>` : "";
    const refusedHtml = refused ? `<p class="tutorial-refused" data-testid="tutorial-refused" role="alert">${esc(refused)}</p>` : "";
    const noteHtml = note ? `<p class="muted tutorial-note">${esc(note)}</p>` : "";
    // what the last move gained, in words (the server's check measures it with the one scorer)
    const gainedHtml = answer.gained ? `<p class="tutorial-gained" data-testid="learn-gained">${esc(lt("gains", { lines: answer.gained }))}</p>` : "";
    return `<div class="tutorial-box" aria-live="polite"><p class="tutorial-count" data-testid="tutorial-count">${esc(head)}</p>${intro}
      <p class="tutorial-step" data-testid="tutorial-step" data-step="${esc(s ? s.id : answer.over ? "over" : "free")}">${esc(say)}</p>${why}${gainedHtml}${refusedHtml}${noteHtml}</div>`;
  }

  function endHtml(c) {
    if (!answer.over || !answer.view.result) return "";
    const scoring = game === "harmonies" ? "harmonies.trees" : "living-forest.victory";
    return `<section class="panel end learn-end" data-testid="end-screen"><h2>${esc(t("end.title"))}</h2>${mod.endScreen(c)}
      <p class="end-links"><a href="#/rules/${game}/${scoring}">${esc(lt("rules.link"))}</a> <button type="button" data-restart>${esc(lt("learn.restart"))}</button></p></section>`;
  }

  function render() {
    if (!alive) return;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const c = ctx();
    const v = answer.view;
    root.innerHTML = `
    <div class="table learn ${esc(game)} players-${v.boards ? v.boards.length : v.spirits.length}" data-testid="tutorial" data-seat="${answer.seat}" data-free="${answer.free}" data-over="${answer.over}" data-moves="${answer.moves}">
      <section class="status learn-status">
        <h1 class="status-title">${esc(lt("learn.title", { game: t(`game.${game}`) }))} <span class="muted">${esc(mod.roundText(c))}</span></h1>
        ${stepHtml()}
        <div class="controls">${answer.over ? "" : mod.controls(c)}
          <button type="button" data-restart data-key="restart">${esc(lt("learn.restart"))}</button>
          <a href="#/rules/${esc(game)}" data-testid="rules-link">${esc(lt("learn.toRules"))}</a></div>
      </section>
      <div class="play">${endHtml(c)}${mod.render(c)}</div>
      <aside class="side">
        <section class="panel scores"><h2>${esc(lt("learn.score"))}</h2>${mod.scores(c)}<p class="score-note" data-score-note data-testid="score-note" aria-live="polite"></p><p class="muted small">${esc(lt("score.light"))}</p></section>
        ${playerAidHtml(rules)}
      </aside>
    </div>`;
    const next = answer.step && !answer.over ? canonical(answer.step.next) : null;
    const taught = new Set(highlighted(root, game, answer.seat, answer.step ? answer.step.highlight : null));
    for (const el of taught) el.classList.add("taught");
    // the control that plays the taught move itself
    if (next) for (const el of root.querySelectorAll("[data-act]")) if (canonical(JSON.parse(el.dataset.act)) === next) el.classList.add("taught", "taught-act");
    if (focused) {
      const el = root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      if (el) el.focus();
    }
  }

  async function send(action) {
    if (busy) return;
    busy = true;
    try {
      const next = await learnApi.check(game, answer.state, action, lang());
      if (!alive) return;
      note = null;
      if (next.verdict) {
        const v = next.verdict;
        refused = lt("refused", { why: v.explanation });
        if (v.engine) refused += ` ${lt("engine", { why: refusal(v.engine.code, mod.refusalParams(v.engine.code, v.engine.params), v.engine.text) })}`;
      } else {
        refused = null;
        answer = next;
        keep();
        sync();
      }
    } catch (err) {
      refused = err.message || t("error.network");
    } finally {
      busy = false;
    }
    render();
  }

  async function restart() {
    localStorage.removeItem(STORE(game));
    answer = await learnApi.start(game, lang());
    ui = mod.newUi();
    refused = null;
    note = null;
    keep();
    sync();
    render();
  }

  function activate(el) {
    if (el.dataset.restart !== undefined) {
      restart();
    } else if (el.dataset.refusal !== undefined) {
      // a control the rules refuse now: the step's reason, and the rules' own
      let engine = el.dataset.refusal;
      try {
        const r = JSON.parse(engine);
        engine = refusal(r.code, mod.refusalParams(r.code, r.params), r.code);
      } catch (err) {
        // a plain sentence
      }
      refused = answer.explain ? `${lt("refused", { why: answer.explain })} ${lt("engine", { why: engine })}` : engine;
      render();
    } else if (el.getAttribute("aria-disabled") === "true") {
      // nothing to do
    } else if (el.dataset.act) {
      send(JSON.parse(el.dataset.act));
    } else if (el.dataset.ui) {
      mod.onUi(ui, el.dataset, ctx());
      render();
    }
  }

  const SELECTOR = "[data-refusal],[aria-disabled=true],[data-act],[data-ui],[data-restart]";
  function onClick(ev) {
    const el = ev.target.closest(SELECTOR);
    if (el && root.contains(el) && !el.disabled) {
      ev.preventDefault();
      activate(el);
    }
  }
  function onKey(ev) {
    const el = ev.target.closest && ev.target.closest(SELECTOR);
    if (el && (ev.key === "Enter" || ev.key === " ") && el.tagName !== "BUTTON" && el.tagName !== "A") {
      ev.preventDefault();
      activate(el);
    }
  }
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKey);
  const unlight = attachScoreLight(root, () => answer && answer.view);
  await begin();
  sync();
  render();
  return {
    unmount() {
      alive = false;
      root.removeEventListener("click", onClick);
      root.removeEventListener("keydown", onKey);
      unlight();
    },
    async rerender() {
      answer = await learnApi.check(game, answer.state, null, lang());
      rules = await learnApi.rules(game, lang());
      refused = null;
      render();
    },
  };
}
