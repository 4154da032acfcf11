// "Your turn": the tab title and favicon show when it is this player's turn in any of their
// games; an optional sound and optional browser notifications (asked for by a button, never by
// default) announce a new turn. The games are looked at every few seconds (myGames).
import { myGames } from "./session.js";
import { t } from "../base/i18n.js";

const EVERY = 10000;
const SOUND = "glade.sound";
const NOTIFY = "glade.notify";
const MARK = "● "; // the title's prefix while it is your turn
const ICON_TURN =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Cpolygon points='8,2 24,2 32,16 24,30 8,30 0,16' fill='%233f9b3f'/%3E%3Ccircle cx='24' cy='8' r='8' fill='%23d7301f'/%3E%3C/svg%3E";

let normalIcon = null;
let timer = null;
let lastTurns = new Set(); // "<game id>" where it was your turn at the last look
let first = true;
export const turns = { games: [], count: 0 };
const listeners = new Set();

export function onTurns(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function soundOn() {
  return localStorage.getItem(SOUND) === "on";
}

export function setSound(on) {
  localStorage.setItem(SOUND, on ? "on" : "off");
  if (on) beep();
}

export function notificationsState() {
  // "unsupported" | "off" | "on" | "denied"
  if (typeof Notification === "undefined") return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return Notification.permission === "granted" && localStorage.getItem(NOTIFY) === "on" ? "on" : "off";
}

export async function askNotifications() {
  if (typeof Notification === "undefined") return "unsupported";
  const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  localStorage.setItem(NOTIFY, answer === "granted" ? "on" : "off");
  return notificationsState();
}

export function stopNotifications() {
  localStorage.setItem(NOTIFY, "off");
}

function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.4);
    osc.onended = () => ctx.close();
  } catch (err) {
    // no sound on this device: the title and the icon still tell
  }
}

function icon() {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  if (normalIcon === null) normalIcon = link.href;
  return link;
}

function show(count) {
  const base = document.title.startsWith(MARK) ? document.title.slice(MARK.length).replace(/^\(\d+\) /, "") : document.title;
  document.title = count > 0 ? `${MARK}(${count}) ${base}` : base;
  document.documentElement.dataset.yourTurn = String(count);
  const link = icon();
  link.href = count > 0 ? ICON_TURN : normalIcon;
}

function announce(fresh) {
  if (soundOn()) beep();
  if (notificationsState() === "on" && document.hidden) {
    const g = fresh[0];
    try {
      const note = new Notification(t("mygames.notifyTitle"), {
        body: t("mygames.notifyBody", { game: t(`game.${g.game}`) }),
        tag: `glade-${g.id}`,
      });
      note.onclick = () => {
        window.focus();
        location.hash = `#/play/${encodeURIComponent(g.id)}`;
      };
    } catch (err) {
      // notifications refused after all: the title still tells
    }
  }
}

export async function look() {
  let games;
  try {
    games = await myGames();
  } catch (err) {
    return; // offline for now: look again later
  }
  const mine = games.filter((g) => g.your_turn && !g.over);
  const now = new Set(mine.map((g) => g.id));
  const fresh = mine.filter((g) => !lastTurns.has(g.id));
  turns.games = games;
  turns.count = mine.length;
  show(mine.length);
  if (!first && fresh.length) announce(fresh);
  first = false;
  lastTurns = now;
  for (const fn of listeners) fn(turns);
}

export function startNotify() {
  if (timer !== null) return;
  look();
  timer = setInterval(look, EVERY);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) look();
  });
}
