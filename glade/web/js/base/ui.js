// What every page shows the same way: the toast under the page (a refusal, a confirmation).
let timer = null;

// `kind` "error" (red, stays 7 s) or "info" (3.5 s).
export function toast(message, kind = "error") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = message;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => (el.hidden = true), kind === "error" ? 7000 : 3500);
}
