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
  /* Fit the players' names (class fit-name) under `root` into their tiles: a name wraps between its words and is
     hyphenated where the browser knows the page's language (CSS hyphens: auto); a word still wider than its tile
     (no hyphenation dictionary, a long nickname on a phone) gets a smaller font, down to 60 %, and past that an
     ellipsis (the whole name stays in the tile's label) — never a break inside a word without a hyphen. Called
     after a grid is drawn, and again for the whole page when the window's size changes. */
  SM.fitNames = function (root) {
    for (const el of (root || document).querySelectorAll(".fit-name")) {
      el.style.fontSize = "";
      el.classList.remove("fit-cut");
      if (el.scrollWidth <= el.clientWidth) continue;
      const full = parseFloat(getComputedStyle(el).fontSize);
      let scale = 1;
      while (el.scrollWidth > el.clientWidth && scale > 0.6) {
        scale -= 0.05;
        el.style.fontSize = `${(full * scale).toFixed(1)}px`;
      }
      if (el.scrollWidth > el.clientWidth) el.classList.add("fit-cut");
    }
  };
  let fitting = false;
  window.addEventListener("resize", () => {
    if (fitting) return;
    fitting = true;
    requestAnimationFrame(() => { fitting = false; SM.fitNames(document); });
  });
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
