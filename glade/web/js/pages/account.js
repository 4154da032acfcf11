// The account page (#/account: log in, sign up, log out, change the password) and the account
// link of the top bar. Accounts are optional; net/session.js keeps who is logged in.
import { esc, t } from "../base/i18n.js";
import { toast } from "../base/ui.js";
import { api } from "../net/api.js";
import { logIn, logOut, me, onAccount, signUp } from "../net/session.js";

export async function showAccount(root) {
  let busy = false;

  function render() {
    if (me.user) {
      root.innerHTML = `<section class="panel account" data-testid="account-panel" style="max-width:32rem">
        <h1>${esc(t("account.title"))}</h1>
        <p data-testid="account-name">${esc(t("account.loggedInAs", { name: me.user.name }))}</p>
        <p class="hint-text">${esc(t("account.seatsFollow"))}</p>
        <p class="controls"><a class="button" href="#/">${esc(t("account.toLobby"))}</a>
          <button type="button" data-logout>${esc(t("account.logout"))}</button>
          <button type="button" data-logout-all>${esc(t("account.logoutAll"))}</button></p>
        <form data-form="password" class="account-form" style="display:grid;gap:0.5rem">
          <h2>${esc(t("account.changePassword"))}</h2>
          <label class="field"><span>${esc(t("account.oldPassword"))}</span>
            <input name="old" type="password" autocomplete="current-password" required></label>
          <label class="field"><span>${esc(t("account.newPassword"))}</span>
            <input name="new" type="password" autocomplete="new-password" minlength="8" maxlength="200" required></label>
          <button type="submit">${esc(t("account.savePassword"))}</button>
        </form></section>`;
    } else {
      const form = (kind) => `<form data-form="${kind}" class="panel account-form" style="display:grid;gap:0.5rem">
          <h2>${esc(t(kind === "login" ? "account.login" : "account.signup"))}</h2>
          <label class="field"><span>${esc(t("account.name"))}</span>
            <input name="name" autocomplete="username" maxlength="24" required></label>
          <label class="field"><span>${esc(t("account.password"))}</span>
            <input name="password" type="password" autocomplete="${kind === "login" ? "current-password" : "new-password"}"
              ${kind === "login" ? "" : 'minlength="8"'} maxlength="200" required></label>
          ${kind === "signup" ? `<p class="hint-text">${esc(t("account.nameRules"))}</p>` : ""}
          <button type="submit" class="primary">${esc(t(kind === "login" ? "account.loginButton" : "account.signupButton"))}</button>
        </form>`;
      root.innerHTML = `<section class="account" data-testid="account-forms" style="max-width:32rem">
        <h1>${esc(t("account.title"))}</h1>
        <p class="hint-text">${esc(t("account.optional"))}</p>
        ${form("login")}${form("signup")}</section>`;
    }
    bind();
  }

  async function submit(kind, data) {
    if (busy) return;
    busy = true;
    try {
      if (kind === "login") await logIn(data);
      else if (kind === "signup") await signUp(data);
      else if (kind === "password") {
        await api.changePassword(data);
        toast(t("account.passwordChanged"), "info");
        render();
        return;
      }
      toast(t("account.welcome", { name: me.user.name }), "info");
      location.hash = "#/";
    } catch (err) {
      toast(err.message || t("error.network"));
    } finally {
      busy = false;
    }
  }

  async function logout(everywhere) {
    try {
      await logOut(everywhere);
    } catch (err) {
      toast(err.message || t("error.network"));
      return;
    }
    toast(t("account.loggedOut"), "info");
    render();
  }

  function bind() {
    for (const f of root.querySelectorAll("form[data-form]")) {
      f.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const data = Object.fromEntries(new FormData(f).entries());
        if (data.name !== undefined) data.name = data.name.trim();
        submit(f.dataset.form, data);
      });
    }
    const out = root.querySelector("[data-logout]");
    if (out) out.addEventListener("click", () => logout(false));
    const all = root.querySelector("[data-logout-all]");
    if (all) all.addEventListener("click", () => logout(true));
  }

  render();
  const off = onAccount(() => render());
  return { unmount: off, rerender: render };
}

// The account link in the top bar: "Log in" for a guest, the user's name when logged in.
export function mountAccountLink() {
  const nav = document.querySelector(".topnav");
  if (!nav) return;
  let link = document.getElementById("account-link");
  if (!link) {
    link = document.createElement("a");
    link.id = "account-link";
    link.href = "#/account";
    link.dataset.testid = "account-link";
    link.style.color = "inherit";
    nav.prepend(link);
  }
  link.textContent = me.user ? me.user.name : t("account.login");
  link.title = me.user ? t("account.loggedInAs", { name: me.user.name }) : t("account.login");
}
