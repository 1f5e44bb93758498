/* Shared by every page: the language switch, logout, the API helper, ids and string formatting. */
"use strict";
(function () {
  const SM = (window.SM = {});
  SM.lang = document.body.dataset.lang || "ru";
  SM.csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  SM.strings = function (id) {
    const el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : {};
  };
  /* "%(n)s votes" with {n: 3} */
  SM.fmt = function (text, params) {
    return String(text).replace(/%\((\w+)\)s/g, (_, k) => (params && k in params ? String(params[k]) : ""));
  };
  /* a player's fouls as dots: ● for each given, ○ for each left up to `limit` (the rule set's removing foul) */
  SM.dots = function (n, limit) {
    return "●".repeat(Math.min(n, limit)) + "○".repeat(Math.max(0, limit - n));
  };
  /* a <select> of `values` (null: the empty choice), each shown as `text(value)`, `chosen(value)` the selected one */
  SM.select = function (values, text, chosen) {
    const select = document.createElement("select");
    for (const v of values) {
      const o = document.createElement("option");
      o.textContent = String(text(v));
      o.value = v === null ? "" : v;
      if (chosen(v)) o.selected = true;
      select.append(o);
    }
    return select;
  };
  /* the vote's count as every screen shows it: the view's vote.lines (the engine writes each in both languages),
     one line each in `el`, hidden when there is none */
  SM.voteLines = function (el, v) {
    if (!el) return;
    const lines = (v && v.vote && v.vote.lines) || [];
    el.textContent = "";
    for (const line of lines) {
      const span = document.createElement("span");
      span.className = "vote-line";
      span.textContent = line[SM.lang] || line.en;
      el.appendChild(span);
    }
    el.hidden = !lines.length;
  };
  SM.uuid = function () {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16)); // randomUUID needs a secure context (https)
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  /* fetch JSON; returns {status, body}; throws on a network failure */
  SM.api = async function (method, path, body) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method !== "GET" && SM.csrf) headers["X-CSRF-Token"] = SM.csrf;
    const r = await fetch(path, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    if (r.status === 401 && !location.pathname.startsWith("/login")) {
      location.href = "/login?next=" + encodeURIComponent(location.pathname);
    }
    return { status: r.status, body: data };
  };
  SM.errorText = function (body) {
    const err = body && body.error;
    if (!err) return SM.strings("common-i18n").error;
    return err[SM.lang] || err.en || err.code;
  };
  for (const b of document.querySelectorAll(".lang-switch")) {
    b.addEventListener("click", () => {
      document.cookie = `lang=${b.dataset.lang}; path=/; max-age=31536000; samesite=lax`;
      location.reload();
    });
  }
  const logout = document.getElementById("logout");
  if (logout) {
    logout.addEventListener("click", async () => {
      try { await SM.api("POST", "/api/logout"); } finally { location.href = "/login"; }
    });
  }
})();
