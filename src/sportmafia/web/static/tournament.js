/* Tournaments: the club's list and a new tournament (/tournaments), and the judge's desk (/tournaments/{id}):
   participants and staff, seating, rounds, the inbox of signed sheets, sanctions, standings, the final,
   exports. Everything goes through the JSON API (/api/tournaments/...). */
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
  const DEFAULT_TB = ["points", "wins", "fewer_games", "head_to_head"];

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

  /* ---------------------------------------------------------------------------- /tournaments */
  function listPage() {
    const S = SM.strings("tournaments-i18n");
    async function loadList() {
      const body = await call("GET", "/api/tournaments", undefined, "list-error");
      if (!body) return;
      const ul = $("tournament-list");
      ul.replaceChildren();
      for (const t of body.tournaments) {
        const li = el("li");
        const a = link(`/tournaments/${t.id}`, "game-link t-item");
        a.append(el("strong", "", t.name));
        const dates = [t.starts_on, t.ends_on !== t.starts_on ? t.ends_on : null].filter(Boolean).join(" – ");
        const bits = [dates, S[t.status] || t.status, SM.fmt(S.rules, { rules: t.ruleset })];
        if (t.published) bits.push(S.published);
        a.append(el("span", "note", " · " + bits.filter(Boolean).join(" · ")));
        li.append(a);
        ul.append(li);
      }
      $("no-tournaments").hidden = body.tournaments.length > 0;
    }
    loadList();
    const form = $("new-tournament-form");
    if (!form) return;
    const fields = tournamentForm();
    fields.fill(null);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = fields.read();
      if (!body) {
        $("t-name").focus();
        return show("new-tournament-error", SM.strings("t-form-i18n").need_name);
      }
      for (const key of ["starts_on", "ends_on"]) if (body[key] === null) delete body[key];
      $("create-tournament").disabled = true;
      const made = await call("POST", "/api/tournaments", body, "new-tournament-error");
      $("create-tournament").disabled = false;
      if (made) location.href = `/tournaments/${made.id}`;
    });
  }

  /* A tournament's settings (_tournament_fields.html), on the new-tournament form and the judge's Settings tab:
     fill(t) shows a tournament's settings (null: a new one's defaults); read() gives the API body (null when
     the name is missing). The rules read as unchanged ("as now") for a rule set that is none of the choices. */
  function tournamentForm() {
    const S = SM.strings("t-form-i18n");
    const rules = $("t-rules");
    const rows = $("custom-rows");
    const scoringRadio = (value) => document.querySelector(`input[name=scoring][value=${value}]`);
    SM.api("GET", "/api/variants").then((r) => {
      if (r.status !== 200 || !r.body.variants.length) return;
      const group = $("t-variants");
      for (const v of r.body.variants) {
        const o = el("option", "", v.name);
        o.value = `variant:${v.id}`;
        group.append(o);
      }
      group.hidden = false;
    }).catch(() => {});
    for (const role of Object.keys(L.roles)) {
      const tr = el("tr");
      tr.append(el("th", "", L.roles[role]));
      for (const outcome of ["win", "loss", "draw"]) {
        const td = el("td");
        const input = el("input");
        input.type = "number";
        input.step = "0.05";
        input.dataset.role = role;
        input.dataset.outcome = outcome;
        input.setAttribute("aria-label", `${L.roles[role]} ${outcome}`);
        td.append(input);
        tr.append(td);
      }
      rows.append(tr);
    }
    const syncCustom = () => {
      $("custom-table").hidden = document.querySelector("input[name=scoring]:checked").value !== "custom";
    };
    for (const radio of document.querySelectorAll("input[name=scoring]")) radio.addEventListener("change", syncCustom);

    function fill(t) {
      $("t-name").value = t ? t.name : "";
      $("t-starts").value = (t && t.starts_on) || "";
      $("t-ends").value = (t && t.ends_on) || "";
      const current = rules.querySelector("option[value=current]");
      if (current) current.remove();
      if (!t) rules.value = "preset:tournament";
      else if (rules.querySelector(`option[value="preset:${t.ruleset}"]`)) rules.value = `preset:${t.ruleset}`;
      else {
        const o = el("option", "", SM.fmt(S.current_rules, { rules: t.ruleset }));
        o.value = "current";
        rules.prepend(o);
        rules.value = "current";
      }
      const name = t ? t.scoring.name : "regulation";
      const custom = name !== "regulation" && name !== "fiim";
      scoringRadio(custom ? "custom" : name).checked = true;
      for (const input of rows.querySelectorAll("input")) input.value = "";
      if (custom) {
        for (const [role, outcome, points] of t.scoring.role_points || []) {
          const input = rows.querySelector(`input[data-role="${role}"][data-outcome="${outcome}"]`);
          if (input) input.value = String(points);
        }
      }
      syncCustom();
      tieBreakList($("tie-breaks"), S, t ? t.tie_breaks : DEFAULT_TB);
      const final = (t && t.final) || {};
      $("t-finalists").value = final.finalists || 12;
      $("t-games-each").value = final.games_each || 3;
      $("t-carry").checked = final.carry_over !== undefined ? !!final.carry_over : true;
    }

    function read() {
      const name = $("t-name").value.trim();
      if (!name) return null;
      const body = { name, tie_breaks: readTieBreaks($("tie-breaks")),
        starts_on: $("t-starts").value || null, ends_on: $("t-ends").value || null };
      const [kind, value] = rules.value.split(":");
      if (kind === "variant") {
        body.preset = null;
        body.variant = Number(value);
      } else if (kind === "preset") {
        body.preset = value;
      }
      const scoring = document.querySelector("input[name=scoring]:checked").value;
      if (scoring === "custom") {
        const table = {};
        for (const input of rows.querySelectorAll("input")) {
          if (input.value.trim() === "") continue;
          (table[input.dataset.role] = table[input.dataset.role] || {})[input.dataset.outcome] = Number(input.value);
        }
        body.scoring = Object.keys(table).length ? { base: "regulation", table } : "regulation";
      } else {
        body.scoring = scoring;
      }
      body.final = {
        finalists: Number($("t-finalists").value) || 12,
        games_each: Number($("t-games-each").value) || 3,
        carry_over: $("t-carry").checked,
      };
      return body;
    }
    return { fill, read };
  }

  /* the tie-break order: a list of checkboxes with up/down buttons; points stays first */
  function tieBreakList(ol, S, chosen) {
    ol.replaceChildren();
    const order = [...chosen, ...L.tie_breaks.filter((k) => !chosen.includes(k))];
    for (const key of order) {
      const li = el("li", "tie-item");
      li.dataset.key = key;
      const label = el("label", "check");
      const box = el("input");
      box.type = "checkbox";
      box.checked = chosen.includes(key);
      box.disabled = key === "points";
      label.append(box, document.createTextNode(" " + (S["tb_" + key] || key)));
      li.append(label);
      if (key !== "points") {
        for (const [dir, text] of [[-1, "↑"], [1, "↓"]]) {
          const b = el("button", "tool small", text);
          b.type = "button";
          b.title = dir < 0 ? S.up : S.down;
          b.setAttribute("aria-label", `${b.title}: ${S["tb_" + key] || key}`);
          b.addEventListener("click", () => {
            const sib = dir < 0 ? li.previousElementSibling : li.nextElementSibling;
            if (!sib || sib.dataset.key === "points") return;
            if (dir < 0) ol.insertBefore(li, sib);
            else ol.insertBefore(sib, li);
          });
          li.append(b);
        }
      }
      ol.append(li);
    }
  }
  function readTieBreaks(ol) {
    return Array.from(ol.querySelectorAll("li"))
      .filter((li) => li.querySelector("input").checked).map((li) => li.dataset.key);
  }

  /* ---------------------------------------------------------------------------- /tournaments/{id} */
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
    let openForms = 0;
    if (!canJudge) root.classList.add("read-only");

    /* --- tabs --- */
    const tabs = Array.from(document.querySelectorAll(".tab"));
    function select(name) {
      if (!tabs.some((b) => b.dataset.tab === name)) name = "people";
      for (const b of tabs) {
        const on = b.dataset.tab === name;
        b.setAttribute("aria-selected", on ? "true" : "false");
        $("tab-" + b.dataset.tab).hidden = !on;
      }
      if (location.hash.slice(1) !== name) history.replaceState(null, "", "#" + name);
    }
    for (const b of tabs) {
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
      if (document.hidden || openForms > 0 || !state.t) return;
      try {
        const [games, inbox, standings] = await Promise.all([
          SM.api("GET", `${base}/games`),
          canJudge ? SM.api("GET", `${base}/inbox`) : Promise.resolve({ status: 0 }),
          SM.api("GET", `${base}/standings`)]);
        if (openForms > 0) return;
        if (games.status === 200) state.games = games.body.games;
        if (inbox.status === 200) state.inbox = inbox.body.sheets;
        if (standings.status === 200) state.standings = standings.body;
        renderRounds();
        renderInbox();
        renderStandings();
        renderFinal();
      } catch (e) { /* the next tick retries */ }
    }
    setInterval(refreshLive, 6000);

    function render() {
      const t = state.t;
      const dates = [t.starts_on, t.ends_on !== t.starts_on ? t.ends_on : null].filter(Boolean).join(" – ");
      const sizes = t.table_sizes[0] === t.table_sizes[1] ? String(t.table_sizes[0]) : t.table_sizes.join("-");
      const status = [S[t.status] || t.status, t.published ? S.published : S.not_published].join(", ");
      $("t-summary").textContent = SM.fmt(S.summary, { dates: dates || "—", rules: t.ruleset, sizes,
        scoring: t.scoring.name, status });
      renderPeople();
      renderStaff();
      renderSeating();
      renderRounds();
      renderInbox();
      renderSanctions();
      renderStandings();
      renderFinal();
      renderSettings();
    }

    /* --- participants --- */
    function renderPeople() {
      const t = state.t;
      const body = $("people-rows");
      body.replaceChildren();
      t.participants.forEach((p, i) => {
        const tr = el("tr");
        tr.dataset.participant = p.id;
        tr.append(el("td", "num", i + 1), el("td", "nick", p.nickname), el("td", "", p.club || ""),
          el("td", "", p.team || ""), el("td", p.status === "active" ? "" : "warn-text", S[p.status] || p.status));
        const td = el("td", "judge-only");
        if (canJudge && !state.seating && !state.games.length) {
          const b = el("button", "tool small delete", "✕");
          b.type = "button";
          b.title = `${S.delete}: ${p.nickname}`;
          b.setAttribute("aria-label", b.title);
          b.addEventListener("click", async () => {
            if (await call("DELETE", `${base}/participants/${p.id}`, undefined, "people-error")) loadAll();
          });
          td.append(b);
        }
        tr.append(td);
        body.append(tr);
      });
      $("no-people").hidden = t.participants.length > 0;
      $("count-people").textContent = t.participants.length ? `(${t.participants.length})` : "";
      for (const id of ["add-one", "add-pasted", "add-csv"]) $(id).disabled = !!state.seating;
    }
    async function addParticipants(body, resetId) {
      const override = $("ban-override") && $("ban-override").value.trim();
      if (override) body.ban_override = override;  /* B.sanctions: a banned player, with the judge's reason */
      const r = await call("POST", `${base}/participants`, body, "people-error");
      if (r) {
        notice(SM.fmt(S.added, { n: r.added.length }));
        if (resetId) $(resetId).reset();
        loadAll();
      }
    }
    $("add-one-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const nickname = $("one-nick").value.trim();
      if (!nickname) return show("people-error", S.need_nick);
      addParticipants({ participants: [{ nickname, club: $("one-club").value.trim() || null,
        team: $("one-team").value.trim() || null }] }, "add-one-form");
    });
    $("paste-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("paste-text").value;
      if (!text.trim()) return show("people-error", S.need_text);
      addParticipants({ text }, "paste-form");
    });
    $("csv-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const file = $("csv-file").files[0];
      if (!file) return show("people-error", S.choose_file);
      show("people-error", "");
      const data = new FormData();
      data.append("file", file);
      try {
        const r = await fetch(`${base}/participants/csv`, {
          method: "POST", body: data, credentials: "same-origin",
          headers: { Accept: "application/json", "X-CSRF-Token": SM.csrf } });
        const body = await r.json().catch(() => null);
        if (r.status === 201) {
          notice(SM.fmt(S.added, { n: body.added.length }));
          $("csv-form").reset();
          loadAll();
        } else {
          show("people-error", SM.errorText(body));
        }
      } catch (e) {
        show("people-error", NET());
      }
    });

    /* --- staff --- */
    function renderStaff() {
      const box = $("staff-rows");
      box.replaceChildren();
      const roleOf = {};
      for (const s of state.t.staff) roleOf[s.user_id] = s.role;
      for (const u of users) {
        const label = el("label", "staff-row");
        label.append(el("span", "", u.login));
        const sel = el("select");
        sel.dataset.user = u.id;
        sel.setAttribute("aria-label", u.login);
        for (const v of ["", "host", "judge"]) {
          const o = el("option", "", v ? S[v] : S.none);
          o.value = v;
          if ((roleOf[u.id] || "") === v) o.selected = true;
          sel.append(o);
        }
        label.append(sel);
        box.append(label);
      }
    }
    $("staff-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const staff = Array.from($("staff-rows").querySelectorAll("select"))
        .filter((s) => s.value).map((s) => ({ user_id: Number(s.dataset.user), role: s.value }));
      if (await call("PUT", `${base}/staff`, { staff }, "staff-error")) {
        notice(S.staff_saved);
        loadAll();
      }
    });

    /* --- host chips: tap in table order --- */
    function hostChips(boxId, key) {
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
          hostChips(boxId, key);
        });
        box.append(b);
      }
      return hosts.length;
    }

    /* --- seating --- */
    function renderSeating() {
      const n = hostChips("seat-hosts", "seat");
      $("no-hosts").hidden = n > 0;
      const plan = state.seating;
      const mainGames = state.games.filter((g) => g.stage === "main");
      $("generate").disabled = mainGames.length > 0;
      $("regenerate").hidden = !plan || !mainGames.length;
      $("seating-view").hidden = !plan;
      if (!plan) return;
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
      const add = (term, value) => { dl.append(el("dt", "", term), el("dd", "", value)); };
      if (q.pair_min !== undefined) {
        add(S.q_pairs, SM.fmt(S.q_pairs_value, { min: q.pair_min, max: q.pair_max, rmse: num(q.pair_rmse),
          bound: num(q.pair_rmse_bound) }));
      }
      if (q.seat_rmse !== undefined) {
        add(S.q_seats, SM.fmt(S.q_seats_value, { rmse: num(q.seat_rmse), floor: num(q.seat_rmse_floor) }));
      }
      const plan = state.seating;
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
    $("seating-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
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
    });
    $("regenerate").addEventListener("click", async () => {
      $("seating-busy").hidden = false;
      const r = await call("POST", `${base}/seating/regenerate`, { seed: Number($("seat-seed").value) || 0 },
        "seating-error");
      $("seating-busy").hidden = true;
      if (r) loadAll();
    });

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
              hostLine.append(el("strong", "pill mine", S.your_table));
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

    /* --- inbox --- */
    const SHEET_FIELDS = ["winner", "result", "first_killed", "best_move_black"];
    const FIELDS = ["winner", "result", "role", "fouls", "warnings", "removed", "removal_reason", "first_killed",
      "best_move_black"];
    function shown(field, value) {
      if (value === null || value === undefined || value === "") {
        return field === "winner" ? S.no_team : field === "removed" ? S.not_removed : "—";
      }
      if (field === "winner") return L.teams[value] || value;
      if (field === "result") return L.results[value] || value;
      if (field === "role") return L.roles[value] || value;
      if (field === "removed") return L.scopes[value] || value;
      return String(value);
    }
    function renderInbox() {
      if (openForms > 0) return;
      const box = $("inbox-list");
      box.replaceChildren();
      $("inbox-empty").hidden = state.inbox.length > 0;
      $("count-inbox").textContent = state.inbox.length ? `(${state.inbox.length})` : "";
      for (const s of state.inbox) box.append(sheetCard(s));
    }
    function sheetCard(s) {
      const card = el("article", "sheet-card-t");
      card.dataset.game = s.game_id;
      const title = SM.fmt(S.sheet_title, { round: s.round, table: s.table,
        stage: s.stage === "final" ? S.final_stage : S.main_stage });
      card.append(el("h3", "", title));
      const sh = s.sheet;
      if (!sh) return card;
      const winner = sh.winner === "red" ? S.winner_red : sh.winner === "black" ? S.winner_black : S.no_winner;
      const line = el("p", `sheet-winner-line team-${sh.winner || "none"}`);
      line.append(el("strong", "", winner), el("span", "note",
        ` · ${L.results[sh.result] || sh.result} · ${SM.fmt(S.signed_at, { when: when(s.signed_at) })}`));
      card.append(line);
      const wrap = el("div", "table-wrap");
      const table = el("table", "t-table compact sheet-rows");
      const tbody = el("tbody");
      for (const p of sh.players) {
        const tr = el("tr", p.team === sh.winner ? "won" : "");
        const notes = [];
        if (p.fouls) notes.push(SM.fmt(S.fouls_n, { n: p.fouls }));
        if (p.removed) notes.push(SM.fmt(S.removed_scope, { scope: L.scopes[p.removed] || p.removed }));
        tr.append(el("td", "num", p.seat), el("td", "nick", p.nickname),
          el("td", `role-${p.team}`, L.roles[p.role] || p.role), el("td", "note", notes.join(", ")));
        tbody.append(tr);
      }
      table.append(tbody);
      wrap.append(table);
      card.append(wrap);
      if (s.corrections.length) {
        const ul = el("ul", "plain-list corrections");
        for (const c of s.corrections) ul.append(el("li", "", SM.fmt(S.correction_line, { who: c.login || "", reason: c.reason })));
        card.append(ul);
      }
      const err = el("p", "error");
      err.hidden = true;
      err.setAttribute("role", "alert");
      const actions = el("div", "row actions");
      actions.append(link(`/games/${s.game_id}/sheet`, "ghost", S.open_sheet));
      const corr = el("button", "tool correct", S.correct);
      corr.type = "button";
      const acc = el("button", "primary accept", S.accept);
      acc.type = "button";
      actions.append(corr, acc);
      card.append(actions, err);
      const fail = (text) => { err.textContent = text || ""; err.hidden = !text; };
      acc.addEventListener("click", async () => {
        if (!window.confirm(S.confirm_accept)) return;
        acc.disabled = true;
        try {
          const r = await SM.api("POST", `${base}/games/${s.game_id}/accept`);
          if (r.status === 200) {
            notice(S.accepted_ok);
            loadAll();
          } else fail(SM.errorText(r.body));
        } catch (e) { fail(NET()); }
        acc.disabled = false;
      });
      corr.addEventListener("click", () => {
        if (card.querySelector("form")) return;
        openForms += 1;
        card.append(correctionForm(s, card, fail));
      });
      return card;
    }
    function correctionForm(s, card, fail) {
      const sh = s.sheet;
      const form = el("form", "t-form correction-form");
      form.noValidate = true;
      const row = el("div", "row");
      const fieldLabel = el("label", "", S.what);
      const field = el("select", "corr-field");
      for (const f of FIELDS) {
        const o = el("option", "", S["f_" + f]);
        o.value = f;
        field.append(o);
      }
      fieldLabel.append(field);
      const seatLabel = el("label", "", S.seat);
      const seat = el("select", "corr-seat");
      for (const p of sh.players) {
        const o = el("option", "", `${p.seat} · ${p.nickname}`);
        o.value = String(p.seat);
        seat.append(o);
      }
      seatLabel.append(seat);
      const valueLabel = el("label", "", S.new_value);
      const slot = el("span", "value-slot");
      valueLabel.append(slot);
      row.append(fieldLabel, seatLabel, valueLabel);
      const reasonLabel = el("label", "", S.reason);
      const reason = el("textarea", "corr-reason");
      reason.rows = 2;
      reason.maxLength = 1000;
      reasonLabel.append(reason);
      const buttons = el("div", "row");
      const save = el("button", "primary", S.save_correction);
      save.type = "submit";
      const cancel = el("button", "tool", S.cancel);
      cancel.type = "button";
      buttons.append(save, cancel);
      form.append(row, reasonLabel, buttons);
      const current = () => {
        const f = field.value;
        if (SHEET_FIELDS.includes(f)) return sh[f];
        const p = sh.players.find((x) => x.seat === Number(seat.value));
        return p ? p[f] : null;
      };
      const roles = Array.from(new Set([...sh.players.map((p) => p.role), ...Object.keys(L.roles)]));
      function valueInput() {
        const f = field.value;
        seatLabel.hidden = SHEET_FIELDS.includes(f);
        const now = current();
        let choices = null;
        if (f === "winner") choices = ["red", "black", null];
        if (f === "result") choices = Object.keys(L.results);
        if (f === "role") choices = roles;
        if (f === "removed") choices = [...Object.keys(L.scopes), null];
        let input;
        if (choices) {
          input = el("select");
          for (const v of choices) {
            const o = el("option", "", shown(f, v));
            o.value = v === null ? "" : v;
            if (v === now || (v === null && (now === null || now === undefined))) o.selected = true;
            input.append(o);
          }
        } else {
          input = el("input");
          input.type = f === "removal_reason" ? "text" : "number";
          if (input.type === "number") { input.min = "0"; input.inputMode = "numeric"; }
          input.value = now === null || now === undefined ? "" : String(now);
        }
        input.className = "corr-value";
        slot.replaceChildren(input);
      }
      field.addEventListener("change", valueInput);
      seat.addEventListener("change", valueInput);
      valueInput();
      const close = () => { form.remove(); openForms = Math.max(0, openForms - 1); };
      cancel.addEventListener("click", close);
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        fail("");
        const f = field.value;
        const raw = slot.firstChild.value;
        let value = raw;
        if (["winner", "removed", "removal_reason", "best_move_black"].includes(f) && raw === "") value = null;
        else if (["fouls", "warnings", "first_killed", "best_move_black"].includes(f)) {
          if (!/^\d+$/.test(raw.trim())) return fail(S.need_value);
          value = Number(raw);
        }
        if (!reason.value.trim()) {
          reason.focus();
          return fail(S.need_reason);
        }
        const change = { field: f, new: value };
        if (!SHEET_FIELDS.includes(f)) change.seat = Number(seat.value);
        save.disabled = true;
        try {
          const r = await SM.api("POST", `${base}/games/${s.game_id}/corrections`,
            { reason: reason.value.trim(), changes: [change] });
          if (r.status === 201) {
            close();
            const i = state.inbox.findIndex((x) => x.game_id === s.game_id);
            if (i >= 0) state.inbox[i] = r.body;
            const fresh = sheetCard(r.body);
            card.replaceWith(fresh);
            const ok = el("p", "t-notice", S.corrected_ok);
            ok.setAttribute("role", "status");
            fresh.append(ok);
          } else fail(SM.errorText(r.body));
        } catch (e) { fail(NET()); }
        save.disabled = false;
      });
      return form;
    }

    /* --- sanctions --- */
    function renderSanctions() {
      const t = state.t;
      const who = $("sanction-who");
      const keep = who.value;
      who.replaceChildren();
      const blank = el("option", "", "—");
      blank.value = "";
      who.append(blank);
      for (const p of t.participants) {
        const o = el("option", "", p.nickname);
        o.value = String(p.id);
        who.append(o);
      }
      who.value = keep;
      const ul = $("sanction-list");
      ul.replaceChildren();
      for (const s of t.sanctions) {
        const li = el("li");
        li.append(el("strong", "", nameOf(s.participant_id)), document.createTextNode(
          " — " + SM.fmt(S["s_" + s.kind], { round: s.round }) + ": " + s.reason));
        ul.append(li);
      }
      $("no-sanctions").hidden = t.sanctions.length > 0;
    }
    $("sanction-kind").addEventListener("change", () => {
      $("sanction-round-label").hidden = $("sanction-kind").value !== "round";
    });
    $("sanction-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const pid = Number($("sanction-who").value);
      if (!pid) return show("sanction-error", S.need_who);
      const reason = $("sanction-reason").value.trim();
      if (!reason) return show("sanction-error", S.need_sanction_reason);
      if (!window.confirm(S.confirm_sanction)) return;
      const kind = $("sanction-kind").value;
      const body = { participant_id: pid, kind, reason };
      if (kind === "round") body.round = Number($("sanction-round").value);
      if (await call("POST", `${base}/sanctions`, body, "sanction-error")) {
        $("sanction-reason").value = "";
        notice(S.sanction_saved);
        loadAll();
      }
    });

    /* --- standings --- */
    function renderStandings() {
      const doc = state.standings;
      const t = state.t;
      $("publish").hidden = t.published;
      $("unpublish").hidden = !t.published;
      $("public-link").hidden = !t.published;
      if (!doc) return;
      $("standings-note").textContent = SM.fmt(S.accepted_games, { n: doc.accepted_games });
      SM.standingsTable($("standings-table"), doc.standings, S, L, null);
    }
    async function setPublished(on) {
      const r = await call("PATCH", base, { published: on }, "t-message");
      if (r) {
        notice(on ? S.published_ok : S.hidden_ok);
        loadAll();
      }
    }
    $("publish").addEventListener("click", () => setPublished(true));
    $("unpublish").addEventListener("click", () => setPublished(false));

    /* --- final --- */
    let tiePick = null;
    function renderFinal() {
      const t = state.t;
      hostChips("final-hosts", "final");
      if (!$("final-k").value) $("final-k").value = t.final.finalists;
      $("final-form").hidden = !canJudge || t.finalists !== null;
      const doc = state.standings && state.standings.final;
      $("final-view").hidden = !state.final;
      if (!state.final) return;
      $("final-summary").textContent = SM.fmt(S.final_summary, { n: t.finalists.length, games: t.final.games_each,
        carry: t.final.carry_over ? S.carry_yes : S.carry_no });
      roundCards($("final-rounds"), state.final, "final");
      if (doc) {
        SM.standingsTable($("final-table"), doc.standings, S, L, null, true);
        $("final-winners").textContent = doc.complete && doc.winners.length
          ? SM.fmt(S.winners, { names: doc.winners.map((w) => `${w.place}. ${w.nickname}`).join(", ") }) : "";
      }
      $("finish").hidden = !canJudge || t.status === "finished";
    }
    $("final-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = { k: Number($("final-k").value) || null, include_ties: $("final-ties").checked,
        seed: Number($("final-seed").value) || 0, hosts: picks.final.slice(), tie_pick: [] };
      if (tiePick) body.tie_pick = Array.from($("tie-pick-list").querySelectorAll("[aria-pressed=true]"), (b) => Number(b.dataset.participant));
      show("final-error", "");
      try {
        const r = await SM.api("POST", `${base}/final`, body);
        if (r.status === 200) {
          tiePick = null;
          $("tie-pick").hidden = true;
          loadAll();
          return;
        }
        show("final-error", SM.errorText(r.body));
        if (r.body && Array.isArray(r.body.tied) && !body.include_ties) {
          tiePick = r.body;
          const cut = state.standings.standings.find((x) => x.participant_id === r.body.tied[0]);
          $("tie-pick-legend").textContent = SM.fmt(S.tie_pick, { place: cut ? cut.place : "?", n: r.body.pick });
          const box = $("tie-pick-list");
          box.replaceChildren();
          for (const pid of r.body.tied) {
            const b = el("button", "chip", nameOf(pid));
            b.type = "button";
            b.dataset.participant = pid;
            b.setAttribute("aria-pressed", "false");
            b.addEventListener("click", () => b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true"));
            box.append(b);
          }
          $("tie-pick").hidden = false;
        }
      } catch (e) { show("final-error", NET()); }
    });
    $("finish").addEventListener("click", async () => {
      if (!window.confirm(S.confirm_finish)) return;
      if (await call("POST", `${base}/finish`, undefined, "final-error")) {
        notice(S.finished_ok);
        loadAll();
      }
    });

    /* --- settings: the fields the judge changed since they were shown are sent, nothing else --- */
    const fields = tournamentForm();
    let shownSettings = null;  // the API body the form read when it last showed the tournament
    const changedSettings = () => {
      const now = fields.read();
      if (!now || !shownSettings) return now;
      const out = {};
      for (const key of new Set([...Object.keys(now), ...Object.keys(shownSettings)])) {
        if (JSON.stringify(now[key]) !== JSON.stringify(shownSettings[key])) out[key] = key in now ? now[key] : null;
      }
      return out;
    };
    function renderSettings() {
      // a form the judge is changing is left as it is; otherwise it shows the tournament as it is now
      const changed = shownSettings && changedSettings();
      if (changed && Object.keys(changed).length) return;
      fields.fill(state.t);
      shownSettings = fields.read();
      SM.ruleChanges(state.t.rule_changes);
      SM.ruleChangeReason(state.t);
    }
    if (!canJudge) for (const input of $("settings-form").querySelectorAll("input, select, button")) input.disabled = true;
    $("settings-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const changes = changedSettings();
      if (!changes) {
        $("t-name").focus();
        return show("settings-error", SM.strings("t-form-i18n").need_name);
      }
      if (!Object.keys(changes).length) { show("settings-error", ""); notice(S.settings_same); return; }
      const reason = SM.ruleChangeReason(state.t);  // B.announce: after round 1
      if (reason) changes.reason = reason;
      $("save-settings").disabled = true;
      const t = await call("PATCH", base, changes, "settings-error");
      $("save-settings").disabled = false;
      if (!t) return;
      state.t = t;
      shownSettings = null;
      $("settings-reason").value = "";
      $("t-title").textContent = t.name;
      render();
      notice(S.settings_saved);
    });

    loadAll();
  }

  if ($("tournaments-page")) listPage();
  if ($("judge")) judgePage();
})();
