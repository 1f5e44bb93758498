/* Tournaments, what their scripts share (SM.tour): the page's labels (engine names and the tournament's
   defaults, web/tournament_pages.py labels), element builders, a short date, numbers, and `call`, an API call
   that shows its refusal in place. Loaded first by the club's list (/tournaments: tournament-form.js,
   tournament-list.js) and the judge's desk (/tournaments/{id}: tournament-form.js, one desk-*.js per tab,
   tournament-desk.js, tournament-discipline.js). Everything goes through the JSON API (/api/tournaments/...). */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const L = SM.strings("t-labels");
  const NET = () => SM.strings("common-i18n").network;
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  const link = (href, cls, text) => {
    const a = el("a", cls, text);
    a.href = href;
    return a;
  };
  function show(id, text) {
    const p = $(id);
    if (!p) return;
    p.textContent = text || "";
    p.hidden = !text;
  }
  const when = (iso) => {
    const d = new Date(iso);
    return isNaN(d) ? iso : d.toLocaleString(SM.lang === "ru" ? "ru-RU" : "en-GB",
      { month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
  };
  const NUM = new Intl.NumberFormat(SM.lang === "ru" ? "ru-RU" : "en-GB", { maximumFractionDigits: 2 });
  const num = (x) => NUM.format(Number(x));

  /* an API call that shows its refusal in `errorId`; returns the body on success, else null */
  async function call(method, path, body, errorId, ok) {
    show(errorId, "");
    try {
      const r = await SM.api(method, path, body);
      if ((ok || [200, 201]).includes(r.status)) return r.body || {};
      show(errorId, SM.errorText(r.body));
      return null;
    } catch (e) {
      show(errorId, NET());
      return null;
    }
  }

  SM.tour = { $, L, NET, el, link, show, when, num, call };
})();
