/* The admin's users page: the club's users (GET /api/users), the roster player each account is
   (PUT /api/users/{id}/player: a game with that player at a seat is closed to the account), disable and
   enable, a new user; the club's settings (GET/PUT /api/club/settings). */
"use strict";
(function () {
  const page = document.getElementById("users-page");
  const me = Number(page.dataset.me);
  const list = document.getElementById("user-list");
  const error = document.getElementById("users-error");
  const T = SM.strings("users-i18n");
  const show = (el, text) => { el.textContent = text; el.hidden = !text; };
  let roster = [];

  function playerSelect(u) {
    const label = document.createElement("label");
    label.className = "user-player";
    label.append(T.plays_as + " ");
    const select = document.createElement("select");
    select.name = "player";
    select.dataset.user = String(u.id);
    const none = document.createElement("option");
    none.value = "";
    none.textContent = T.nobody;
    select.append(none);
    for (const p of roster) {
      const o = document.createElement("option");
      o.value = String(p.id);
      o.textContent = p.name;
      select.append(o);
    }
    select.value = u.player_id == null ? "" : String(u.player_id);
    select.addEventListener("change", () => link(u, select));
    label.append(select);
    return label;
  }

  function item(u) {
    const li = document.createElement("li");
    li.className = "game-link user-item" + (u.disabled ? " disabled" : "");
    li.dataset.login = u.login;
    const name = document.createElement("strong");
    name.textContent = u.login;
    const info = document.createElement("span");
    info.className = "note";
    const bits = [T.roles[u.role] || u.role];
    if (u.id === me) bits.push(T.you);
    if (u.disabled) bits.push(T.disabled);
    info.textContent = " · " + bits.join(" · ");
    li.append(name, info, playerSelect(u));
    if (u.id !== me) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "ghost user-toggle";
      b.textContent = u.disabled ? T.enable : T.disable;
      b.addEventListener("click", () => toggle(u, b));
      li.append(b);
    }
    return li;
  }

  async function load() {
    try {
      const players = await SM.api("GET", "/api/players");
      if (players.status === 200) roster = players.body.players;
      const r = await SM.api("GET", "/api/users");
      if (r.status !== 200) return show(error, SM.errorText(r.body));
      list.replaceChildren(...r.body.users.map(item));
      show(error, "");
    } catch (e) {
      show(error, SM.strings("common-i18n").network);
    }
  }

  async function toggle(u, button) {
    if (!u.disabled && !window.confirm(SM.fmt(T.confirm, { login: u.login }))) return;
    button.disabled = true;
    try {
      const r = await SM.api("POST", `/api/users/${u.id}/${u.disabled ? "enable" : "disable"}`);
      if (r.status !== 200) show(error, SM.errorText(r.body));
      await load();
    } catch (e) {
      show(error, SM.strings("common-i18n").network);
      button.disabled = false;
    }
  }

  async function link(u, select) {
    select.disabled = true;
    try {
      const r = await SM.api("PUT", `/api/users/${u.id}/player`,
                             { player_id: select.value === "" ? null : Number(select.value) });
      if (r.status !== 200) show(error, SM.errorText(r.body));
      await load();
    } catch (e) {
      show(error, SM.strings("common-i18n").network);
      select.disabled = false;
    }
  }

  const form = document.getElementById("new-user-form");
  const formError = document.getElementById("new-user-error");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    show(formError, "");
    const body = { login: form.login.value.trim(), password: form.password.value, role: form.role.value };
    try {
      const r = await SM.api("POST", "/api/users", body);
      if (r.status === 201) {
        form.reset();
        await load();
      } else {
        show(formError, SM.errorText(r.body));
      }
    } catch (e) {
      show(formError, SM.strings("common-i18n").network);
    }
  });
  // ---------------------------------------------------------------- the club's settings
  const settings = document.getElementById("club-settings-form");
  const settingsError = document.getElementById("club-settings-error");
  const saved = document.getElementById("club-settings-saved");
  async function loadSettings() {
    try {
      const r = await SM.api("GET", "/api/club/settings");
      if (r.status !== 200) return show(settingsError, SM.errorText(r.body));
      settings.autostart_timer.checked = !!r.body.autostart_timer;
    } catch (e) {
      show(settingsError, SM.strings("common-i18n").network);
    }
  }
  settings.autostart_timer.addEventListener("change", () => { saved.hidden = true; });
  settings.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    show(settingsError, "");
    saved.hidden = true;
    try {
      const r = await SM.api("PUT", "/api/club/settings", { autostart_timer: settings.autostart_timer.checked });
      if (r.status !== 200) return show(settingsError, SM.errorText(r.body));
      settings.autostart_timer.checked = !!r.body.autostart_timer;
      saved.hidden = false;
    } catch (e) {
      show(settingsError, SM.strings("common-i18n").network);
    }
  });
  load();
  loadSettings();
})();
