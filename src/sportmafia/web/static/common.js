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
  /* The names of a rule set (a preset, "<preset>-variant", or a club's variant: its own name) and of a scoring
     system ("regulation", "fiim", "<base>-variant", "<base>-custom", or a name of its own), in the page's language */
  function named(key, name) {
    const C = SM.strings("common-i18n");
    const names = C[key] || {};
    if (typeof name !== "string" || !name) return name;
    if (names[name]) return names[name];
    const m = /^(.+)-(variant|custom)$/.exec(name);
    if (m && names[m[1]]) return SM.fmt(C[m[2]], { name: names[m[1]] });
    return name;
  }
  SM.rulesetName = (name) => named("rulesets", name);
  SM.scoringName = (name) => named("scorings", name);
  /* Dates in the page's language (<html lang>): a day ("2026-12-02"), a span of days, a moment (ISO with a time,
     shown in the browser's time zone) */
  const locale = () => document.documentElement.lang || SM.lang;
  const DAY = { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" };
  const day = (iso) => (/^\d{4}-\d{2}-\d{2}$/.test(iso || "") ? new Date(iso + "T00:00:00Z") : null);
  SM.date = function (iso) {
    const d = day(iso);
    return d ? new Intl.DateTimeFormat(locale(), DAY).format(d) : iso || "";
  };
  SM.dates = function (from, to) {
    const a = day(from), b = day(to);
    if (a && b && from !== to) {
      const f = new Intl.DateTimeFormat(locale(), DAY);
      return f.formatRange ? f.formatRange(a, b) : `${f.format(a)} – ${f.format(b)}`;
    }
    return SM.date(from || to);
  };
  SM.dateTime = function (iso) {
    const d = new Date(iso);
    return !iso || isNaN(d) ? iso || "" : new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" }).format(d);
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
  /* The step a timer belongs to, keyed as the host's console keys it (static/console-timer.js): {key, seconds}, the
     seconds being the step's own time (at the end, the final minute while last words are spoken: A.win), 0 for a
     step without a timer. Every screen keeps the host's timer only for the step its key names, so a new step
     shows its own time (or none) at once, and a timer of a step gone by is never shown. */
  SM.timerStep = function (v, rules) {
    const last = v.final_words && v.final_words.length ? Number(rules && rules.last_word_seconds) || 0 : 0;
    const seconds = v.over ? last : v.seconds || 0;
    return { key: `${v.step}|${v.day}|${v.seat}|${v.round}|${seconds}`, seconds };
  };
  SM.clockText = function (s) {
    const whole = Math.max(0, Math.ceil(s));
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  };
  /* The language switch (pages.switch_lang): its answer sets the cookie. A cookie written here with a reload at once
     can race (the reload leaves before the browser stores the cookie) and the page came back in the old language.
     The script asks with a POST and reloads once answered (the page's address, tab and all, sent in no other
     request); without an answer, the switch's own link goes there and back. */
  for (const b of document.querySelectorAll(".lang-switch")) {
    b.addEventListener("click", async (ev) => {
      ev.preventDefault();
      const headers = SM.csrf ? { "X-CSRF-Token": SM.csrf } : {};
      try {
        const r = await fetch(`/lang/${encodeURIComponent(b.dataset.lang)}`, { method: "POST", headers, credentials: "same-origin" });
        if (r.ok) { location.reload(); return; }
      } catch (e) { /* offline: the link below */ }
      location.href = b.href;
    });
  }
  const logout = document.getElementById("logout");
  if (logout) {
    logout.addEventListener("click", async () => {
      try { await SM.api("POST", "/api/logout"); } finally { location.href = "/login"; }
    });
  }
})();
