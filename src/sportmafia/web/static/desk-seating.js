/* The judge's desk, Seating tab: the hosts to seat (tapped in table order), generating or regenerating the seating,
   its quality, a round's tables and a player's seats across the rounds; the constraints' card is
   desk-constraints.js. Registered as SM.deskTabs.seating
   (tournament-desk.js). */
"use strict";
(function () {
  const { $, el, num, call } = SM.tour;
  (SM.deskTabs = SM.deskTabs || {}).seating = function (d) {
    const { base, S, loginOf, state, picks, nameOf, loadAll, hostChips } = d;
    const constraints = SM.deskConstraints(d);

    /* --- seating --- */
    /* how many tables a round has (the server's plan of the active participants) and the hosts tapped */
    const tablesPerRound = () => ((state.t && state.t.table_plan) || { tables: [] }).tables.length;
    function fewHosts() {
      const tables = tablesPerRound();
      return tables > 0 && picks.seat.length < tables ? { tables, hosts: picks.seat.length } : null;
    }
    function renderHostsWarning() {
      const few = fewHosts();
      const mainGames = state.games.filter((g) => g.stage === "main");
      $("hosts-warning").hidden = !few || mainGames.length > 0;
      $("hosts-warning").textContent = few ? SM.fmt(S.few_hosts, few) : "";
    }
    let fromPlan = false;
    /* the form starts from the stored plan's request, so "another seating" changes only the number */
    function formFromPlan(plan) {
      if (fromPlan || !plan || !plan.request) return;
      fromPlan = true;
      const req = plan.request;
      if (!picks.seat.length && Array.isArray(req.hosts)) picks.seat = req.hosts.slice();
      if (Array.isArray(req.apart_by)) {
        $("apart-team").checked = req.apart_by.includes("team");
        $("apart-club").checked = req.apart_by.includes("club");
      }
      if (req.games_per_player) $("seat-games").value = req.games_per_player;
    }
    function renderSeating() {
      formFromPlan(state.seating);
      const n = hostChips("seat-hosts", "seat", renderHostsWarning);
      $("no-hosts").hidden = n > 0;
      const tp = state.t.table_plan;
      $("seat-tables").textContent = tp ? tp.text[SM.lang] || tp.text.en : "";
      renderHostsWarning();
      const plan = state.seating;
      const mainGames = state.games.filter((g) => g.stage === "main");
      $("generate").disabled = mainGames.length > 0;
      $("reseat").hidden = !plan || mainGames.length > 0;
      $("regenerate").hidden = !plan || !mainGames.length;
      $("seating-view").hidden = !plan;
      if (!plan) return;
      if (plan.seed !== undefined && plan.seed !== null) $("seat-seed").value = plan.seed;
      if (plan.request && plan.request.rounds) $("seat-rounds").value = plan.request.rounds;
      renderQuality($("quality"), plan.quality || {});
      const sel = $("view-round");
      const keep = sel.value;
      sel.replaceChildren();
      for (const r of plan.plan) {
        const o = el("option", "", SM.fmt(S.round_n, { n: r.round }));
        o.value = String(r.round);
        sel.append(o);
      }
      if (keep && plan.plan.some((r) => String(r.round) === keep)) sel.value = keep;
      const who = $("view-player");
      const keepWho = who.value;
      who.replaceChildren(el("option", "", "—"));
      who.firstChild.value = "";
      for (const pid of plan.participants) {
        const o = el("option", "", nameOf(pid));
        o.value = String(pid);
        who.append(o);
      }
      who.value = keepWho;
      renderRoundTables();
      renderPlayerSeats();
    }
    function renderQuality(dl, q) {
      dl.replaceChildren();
      const more = $("quality-more");
      more.replaceChildren();
      const add = (term, value, box) => { (box || dl).append(el("dt", "", term), el("dd", "", value)); };
      const plan = state.seating;
      /* in a judge's words: how often pairs meet, how evenly the seats fall (the server says it, with plurals) */
      const words = (plan && plan.words) || {};
      if (words.pairs) add(S.q_pairs, words.pairs[SM.lang] || words.pairs.en);
      if (words.seats) add(S.q_seats, words.seats[SM.lang] || words.seats.en);
      /* what the judge's constraints cost against the least any seating of these tables reaches without them */
      if (words.constraints) add(S.q_constraints, words.constraints[SM.lang] || words.constraints.en);
      if (words.strength) add(S.q_strength, words.strength[SM.lang] || words.strength.en);
      /* the figures behind them, and the seating's number, for the record */
      if (q.pair_min !== undefined) {
        add(S.q_pairs, SM.fmt(S.q_pairs_value, { min: q.pair_min, max: q.pair_max, rmse: num(q.pair_rmse),
          bound: num(q.pair_rmse_least !== undefined ? q.pair_rmse_least : q.pair_rmse_bound) }), more);
      }
      if (q.seat_rmse !== undefined) {
        add(S.q_seats, SM.fmt(S.q_seats_value, { rmse: num(q.seat_rmse),
          floor: num(q.seat_rmse_least !== undefined ? q.seat_rmse_least : q.seat_rmse_floor) }), more);
      }
      if (plan && plan.seed !== undefined && plan.seed !== null) add(S.q_seed, String(plan.seed), more);
      if (plan) {
        const counts = {};
        for (const r of plan.plan) for (const tb of r.tables) for (const p of tb.seats) counts[p] = (counts[p] || 0) + 1;
        const values = plan.participants.map((p) => counts[p] || 0);
        if (values.length) add(S.q_games, `${Math.min(...values)}–${Math.max(...values)}`);
        const sizes = plan.plan.length ? plan.plan[0].tables.map((tb) => tb.seats.length).join(", ") : "";
        add(S.q_tables, sizes);
      }
    }
    function tableCard(round, tb, hosts) {
      const card = el("div", "table-card");
      card.append(el("h3", "", SM.fmt(S.table_n, { n: tb.table })));
      const host = hosts && hosts[tb.table - 1];
      card.append(el("p", "note", host ? SM.fmt(S.hosted_by, { login: loginOf(host) }) : S.no_host));
      const ol = el("ol", "seat-order");
      tb.seats.forEach((pid, i) => {
        const li = el("li");
        li.append(el("span", "seat-no", i + 1), el("span", "", tb.names ? tb.names[i] : nameOf(pid)));
        ol.append(li);
      });
      card.append(ol);
      return card;
    }
    function renderRoundTables() {
      const plan = state.seating;
      const box = $("round-tables");
      box.replaceChildren();
      const r = plan.plan.find((x) => String(x.round) === $("view-round").value) || plan.plan[0];
      if (!r) return;
      for (const tb of r.tables) box.append(tableCard(r.round, tb, r.hosts));
      if (r.sitting_out.length) {
        box.append(el("p", "note sitting-out", SM.fmt(S.sitting_out, { names: r.sitting_out.map(nameOf).join(", ") })));
      }
    }
    function renderPlayerSeats() {
      const box = $("player-seats");
      const pid = Number($("view-player").value);
      box.hidden = !pid;
      box.replaceChildren();
      if (!pid) return;
      const ul = el("ul", "plain-list");
      for (const r of state.seating.plan) {
        const tb = r.tables.find((x) => x.seats.includes(pid));
        ul.append(el("li", "", tb
          ? SM.fmt(S.player_seat, { round: r.round, table: tb.table, seat: tb.seats.indexOf(pid) + 1 })
          : SM.fmt(S.player_out, { round: r.round })));
      }
      box.append(ul);
    }
    $("view-round").addEventListener("change", renderRoundTables);
    $("view-player").addEventListener("change", renderPlayerSeats);
    $("seating-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      generate();
    });
    /* another seating: the same request with a new number drawn */
    $("reseat").addEventListener("click", () => {
      $("seat-seed").value = String(Math.floor(Math.random() * 1_000_000) + 1);
      generate();
    });
    async function generate() {
      const few = fewHosts();
      if (few && !window.confirm(SM.fmt(S.confirm_few_hosts, few))) return;
      const body = { rounds: Number($("seat-rounds").value), seed: Number($("seat-seed").value) || 0,
        hosts: picks.seat.slice(), apart_by: [] };
      if ($("apart-team").checked) body.apart_by.push("team");
      if ($("apart-club").checked) body.apart_by.push("club");
      if ($("seat-games").value) body.games_per_player = Number($("seat-games").value);
      $("generate").disabled = true;
      $("seating-busy").hidden = false;
      const r = await call("POST", `${base}/seating`, body, "seating-error");
      $("seating-busy").hidden = true;
      $("generate").disabled = false;
      if (r) loadAll();
    }
    /* regenerating the remaining rounds: first a preview (nothing saved) with who moves where, then publish; the
       judge compares the published rounds mended with the fewest changes and seated anew for the best balance */
    const place = (p) => (p ? SM.fmt(S.regen_place, { table: p.table, seat: p.seat }) : S.regen_out);
    let regenMode = "fewest";
    async function preview() {
      for (const b of $("regen-modes").children) b.setAttribute("aria-pressed", String(b.dataset.mode === regenMode));
      $("seating-busy").hidden = false;
      $("regen-preview").hidden = false;
      $("regen-changes").replaceChildren();
      $("regen-summary").textContent = "";
      $("regen-publish").disabled = true;
      const r = await call("POST", `${base}/seating/regenerate`,
        { seed: Number($("seat-seed").value) || 0, preview: true, mode: regenMode }, "regen-error");
      $("seating-busy").hidden = true;
      if (!r) return;
      const list = $("regen-changes");
      for (const c of r.changes) {
        list.append(el("li", "", SM.fmt(S.regen_move, { round: c.round, name: c.name, from: place(c.from),
          to: place(c.to) })));
      }
      if (!r.changes.length) list.append(el("li", "", S.regen_none));
      const words = (r.seating && r.seating.words) || {};
      const said = [SM.fmt(S.regen_count, { n: r.changes.length })];
      for (const key of ["pairs", "seats"]) {
        const w = words[key] && (words[key][SM.lang] || words[key].en);
        if (w) said.push(w.charAt(0).toUpperCase() + w.slice(1) + (/[.!?]$/.test(w) ? "" : "."));
      }
      $("regen-summary").textContent = said.join(" ");
      $("regen-publish").disabled = false;
    }
    $("regenerate").addEventListener("click", () => {
      regenMode = "fewest";
      preview();
    });
    for (const b of $("regen-modes").children) {
      b.addEventListener("click", () => {
        regenMode = b.dataset.mode;
        preview();
      });
    }
    $("regen-cancel").addEventListener("click", () => { $("regen-preview").hidden = true; });
    $("regen-publish").addEventListener("click", async () => {
      $("seating-busy").hidden = false;
      const r = await call("POST", `${base}/seating/regenerate`,
        { seed: Number($("seat-seed").value) || 0, mode: regenMode }, "regen-error");
      $("seating-busy").hidden = true;
      if (!r) return;
      $("regen-preview").hidden = true;
      loadAll();
    });

    return { render() { renderSeating(); constraints.render(); } };
  };
})();
