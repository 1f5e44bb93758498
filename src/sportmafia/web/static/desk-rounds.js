/* The judge's desk, Rounds tab: each round's tables (opening a round, its games' state, links to the console and
   the sheet); roundCards also draws the final's rounds (desk-final.js). Registered as SM.deskTabs.rounds
   (tournament-desk.js). */
"use strict";
(function () {
  const { $, el, link, call } = SM.tour;
  (SM.deskTabs = SM.deskTabs || {}).rounds = function (d) {
    const { base, canJudge, me, S, loginOf, state, picks, loadAll } = d;

    /* --- rounds (main and final) --- */
    function gameState(g) {
      if (g.accepted_at) return "accepted";
      if (g.signed_at) return "signed";
      return g.status;
    }
    function roundCards(box, plan, stage) {
      box.replaceChildren();
      if (!plan) return;
      for (const r of plan.plan) {
        const games = state.games.filter((g) => g.stage === stage && g.round === r.round)
          .sort((a, b) => a.table - b.table);
        const card = el("div", "round-card");
        card.dataset.round = r.round;
        const head = el("div", "round-head");
        head.append(el("h3", "", SM.fmt(S.round_n, { n: r.round })));
        if (games.length) {
          const done = games.filter((g) => g.accepted_at).length;
          head.append(el("span", done === games.length ? "pill ok" : "pill",
            SM.fmt(S.round_state, { done, all: games.length })));
        } else if (canJudge) {
          const b = el("button", "primary", SM.fmt(stage === "main" ? S.open_round : S.open_final_round, { n: r.round }));
          b.type = "button";
          b.className = "primary open-round";
          b.addEventListener("click", () => openRound(stage, r, b));
          head.append(b);
        }
        card.append(head);
        if (games.length) {
          const list = el("div", "tables");
          for (const g of games) {
            const tc = el("div", "table-card game-card");
            tc.dataset.game = g.game_id;
            const st = gameState(g);
            tc.dataset.state = st;
            const h = el("h3", "", SM.fmt(S.table_n, { n: g.table }));
            h.append(el("span", `pill state-${st}`, S["g_" + st] || st));
            tc.append(h);
            const hostLine = el("p", "note", g.host_id ? SM.fmt(S.hosted_by, { login: loginOf(g.host_id) }) : S.no_host);
            if (g.host_id === me) {
              tc.classList.add("mine");
              hostLine.append(" ", el("strong", "pill mine", S.your_table));  // a word apart, not only a margin
            }
            tc.append(hostLine);
            const links = el("p", "links");
            links.append(link(`/games/${g.game_id}`, "ghost", S.console));
            if (st === "over" || st === "signed" || st === "accepted") links.append(link(`/games/${g.game_id}/sheet`, "ghost", S.sheet));
            if (SM.deskObservers && canJudge) SM.deskObservers(links, g.game_id);  // B.observers
            tc.append(links);
            const ol = el("ol", "seat-order");
            g.names.forEach((n, i) => {
              const li = el("li");
              li.append(el("span", "seat-no", i + 1), el("span", "", n));
              ol.append(li);
            });
            tc.append(ol);
            list.append(tc);
          }
          card.append(list);
        } else {
          const hosts = (r.hosts || []).map(loginOf).join(", ");
          card.append(el("p", "note", r.tables.map((tb) => `${SM.fmt(S.table_n, { n: tb.table })}: ${tb.seats.length}`)
            .join(" · ") + (hosts ? " · " + hosts : "")));
        }
        box.append(card);
      }
    }
    async function openRound(stage, r, button) {
      if (!window.confirm(SM.fmt(S.confirm_open, { n: r.round }))) return;
      const path = stage === "main" ? `${base}/rounds/${r.round}/open` : `${base}/final/rounds/${r.round}/open`;
      const picked = stage === "main" ? picks.seat : picks.final;
      const body = (r.hosts && r.hosts.length) || !picked.length ? undefined : { hosts: picked.slice() };
      button.disabled = true;
      const out = await call("POST", path, body, stage === "main" ? "rounds-error" : "final-error");
      button.disabled = false;
      if (out) loadAll();
    }
    function renderRounds() {
      $("no-rounds").hidden = !!state.seating;
      roundCards($("round-list"), state.seating, "main");
    }

    d.roundCards = roundCards;   // the final's rounds too (desk-final.js)

    return { render() { renderRounds(); } };
  };
})();
