/* The judge's desk (/tournaments/{id}): the tournament's state, the tabs, loading and the live refresh (every
   6 s: the games, the inbox and the standings), the host chips shared by the Seating and Final tabs. Each tab's
   logic is a file of its own, loaded before this one (docs/tournament.md, "The desk's scripts"):
   desk-people.js (participants and staff), desk-seating.js, desk-rounds.js, desk-sheets.js (the inbox of signed
   sheets and their corrections), desk-sanctions.js, desk-standings.js, desk-final.js, desk-settings.js; each
   registers SM.deskTabs[tab](d), called here with the desk `d` and giving {render}. The Sanctions tab's
   discipline is tournament-discipline.js. */
"use strict";
(function () {
  const { $, el, show, call } = SM.tour;
  const TABS = ["people", "seating", "rounds", "inbox", "sanctions", "standings", "final", "settings"];
  const LIVE = ["rounds", "inbox", "standings", "final"];   // what the live refresh redraws

  function judgePage() {
    const root = $("judge");
    const id = root.dataset.tournament;
    const base = `/api/tournaments/${id}`;
    const canJudge = root.dataset.canJudge === "yes";
    const me = Number(root.dataset.user);
    const S = SM.strings("judge-i18n");
    const users = SM.strings("t-users");
    const loginOf = (uid) => (users.find((u) => u.id === uid) || {}).login || `#${uid}`;
    const state = { t: null, seating: null, final: null, games: [], inbox: [], standings: null };
    const picks = { seat: [], final: [] };
    const d = { root, id, base, canJudge, me, S, users, loginOf, state, picks, openForms: 0 };
    if (!canJudge) root.classList.add("read-only");

    /* --- tabs --- */
    const buttons = Array.from(document.querySelectorAll(".tab"));
    function select(name) {
      if (!buttons.some((b) => b.dataset.tab === name)) name = "people";
      for (const b of buttons) {
        const on = b.dataset.tab === name;
        b.setAttribute("aria-selected", on ? "true" : "false");
        $("tab-" + b.dataset.tab).hidden = !on;
      }
      if (location.hash.slice(1) !== name) history.replaceState(null, "", "#" + name);
    }
    for (const b of buttons) {
      b.addEventListener("click", () => {
        select(b.dataset.tab);
        refreshLive();
      });
    }
    select(location.hash.slice(1));
    window.addEventListener("hashchange", () => select(location.hash.slice(1)));

    const nameOf = (pid) => {
      const p = state.t && state.t.participants.find((x) => x.id === pid);
      return p ? p.nickname : `#${pid}`;
    };
    const notice = (text) => {
      show("t-notice", text);
      if (text) setTimeout(() => { if ($("t-notice").textContent === text) show("t-notice", ""); }, 5000);
    };

    /* --- loading --- */
    async function loadAll() {
      const r = await call("GET", base, undefined, "t-message");
      if (!r) return;
      state.t = r;
      const [seating, games, inbox, standings] = await Promise.all([
        SM.api("GET", `${base}/seating`), SM.api("GET", `${base}/games`),
        canJudge ? SM.api("GET", `${base}/inbox`) : Promise.resolve({ status: 0 }),
        SM.api("GET", `${base}/standings`)]);
      if (seating.status === 200) {
        state.seating = seating.body.seating;
        state.final = seating.body.final;
      }
      if (games.status === 200) state.games = games.body.games;
      if (inbox.status === 200) state.inbox = inbox.body.sheets;
      if (standings.status === 200) state.standings = standings.body;
      render();
    }
    async function refreshLive() {
      if (document.hidden || d.openForms > 0 || !state.t) return;
      try {
        const [games, inbox, standings] = await Promise.all([
          SM.api("GET", `${base}/games`),
          canJudge ? SM.api("GET", `${base}/inbox`) : Promise.resolve({ status: 0 }),
          SM.api("GET", `${base}/standings`)]);
        if (d.openForms > 0) return;
        if (games.status === 200) state.games = games.body.games;
        if (inbox.status === 200) state.inbox = inbox.body.sheets;
        if (standings.status === 200) state.standings = standings.body;
        for (const name of LIVE) tabs[name].render();
      } catch (e) { /* the next tick retries */ }
    }
    setInterval(refreshLive, 6000);

    function render() {
      const t = state.t;
      const dates = SM.dates(t.starts_on, t.ends_on);
      const sizes = t.table_sizes[0] === t.table_sizes[1] ? String(t.table_sizes[0]) : t.table_sizes.join("-");
      const status = [S[t.status] || t.status, t.published ? S.published : S.not_published].join(", ");
      $("t-summary").textContent = SM.fmt(S.summary, { dates: dates || "—", rules: SM.rulesetName(t.ruleset), sizes,
        scoring: SM.scoringName(t.scoring.name), status });
      for (const name of TABS) tabs[name].render();
    }


    /* --- host chips: tap in table order --- */
    function hostChips(boxId, key, onChange) {
      const box = $(boxId);
      box.replaceChildren();
      const hosts = state.t.staff.filter((s) => s.role === "host");
      picks[key] = picks[key].filter((u) => hosts.some((h) => h.user_id === u));
      for (const h of hosts) {
        const b = el("button", "chip");
        b.type = "button";
        b.dataset.user = h.user_id;
        const at = picks[key].indexOf(h.user_id);
        b.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
        b.textContent = (at >= 0 ? `${at + 1}. ` : "") + h.login;
        b.addEventListener("click", () => {
          const i = picks[key].indexOf(h.user_id);
          if (i >= 0) picks[key].splice(i, 1);
          else picks[key].push(h.user_id);
          hostChips(boxId, key, onChange);
          if (onChange) onChange();
        });
        box.append(b);
      }
      return hosts.length;
    }

    Object.assign(d, { nameOf, notice, loadAll, render, hostChips });
    const tabs = {};
    for (const name of TABS) tabs[name] = SM.deskTabs[name](d);
    loadAll();
  }

  if ($("judge")) judgePage();
})();
