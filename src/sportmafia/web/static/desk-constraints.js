/* The judge's desk, Seating tab: the seating constraints (docs/tournament.md, "Seating constraints") edited as a
   draft and saved whole (PUT /api/tournaments/{id}/seating/constraints): pairs that never meet or meet at most
   k times, groups kept apart as far as possible, hosts' conflicts, rounds sat out, ratings (typed, or taken from
   the club's Elo or OpenSkill: GET .../seating/ratings) with the tables' tolerance, and seat wishes where the
   regulation allows them. The server checks everything and refuses with the reason; nothing is kept until
   "Save". Made by desk-seating.js as SM.deskConstraints(d), which calls its render(). */
"use strict";
(function () {
  const { $, el, num, call } = SM.tour;
  const EMPTY = () => ({ never: [], at_most: [], keep_apart: [], keep_apart_by: [], host_conflicts: [], ratings: {},
    tolerance: null, seat_wishes: {}, seat_wishes_allowed: false, sit_out: {} });

  SM.deskConstraints = function (d) {
    const { base, S, loginOf, state, nameOf, notice } = d;
    let draft = EMPTY();
    let dirty = false;
    let stored = null;  /* the stored constraints the draft was made from (JSON), to see when they change */

    const collator = new Intl.Collator(SM.lang === "ru" ? "ru" : "en", { sensitivity: "base", numeric: true });
    const active = () => (state.t.participants || []).filter((p) => p.status === "active")
      .sort((a, b) => collator.compare(a.nickname, b.nickname));
    const hosts = () => (state.t.staff || []).filter((s) => s.role === "host");
    const clubs = () => Array.from(new Set((state.t.participants || []).map((p) => p.club).filter(Boolean)))
      .sort(collator.compare);
    const error = (text) => SM.tour.show("cons-error", text);

    function changed() {
      dirty = true;
      error("");
      draw();
    }
    /* "2, 5" -> [2, 5]; null unless every part is a whole number from 1 */
    function numbers(text) {
      const parts = String(text).split(/[\s,;]+/).filter(Boolean);
      if (!parts.length || parts.some((x) => !/^\d+$/.test(x) || Number(x) < 1)) return null;
      return Array.from(new Set(parts.map(Number))).sort((a, b) => a - b);
    }
    function options(select, items, blank) {
      const keep = select.value;
      select.replaceChildren();
      if (blank !== undefined) {
        const o = el("option", "", blank);
        o.value = "";
        select.append(o);
      }
      for (const [value, text] of items) {
        const o = el("option", "", text);
        o.value = String(value);
        select.append(o);
      }
      if (Array.from(select.options).some((o) => o.value === keep)) select.value = keep;
    }
    /* a list of the draft's entries, each with its remove button */
    function list(id, entries) {
      const ul = $(id);
      ul.replaceChildren();
      entries.forEach(([text, remove]) => {
        const li = el("li", "cons-item");
        const b = el("button", "tool small", "✕");
        b.type = "button";
        b.setAttribute("aria-label", `${S.remove}: ${text}`);
        b.title = S.remove;
        b.addEventListener("click", () => { remove(); changed(); });
        li.append(el("span", "", text), b);
        ul.append(li);
      });
    }

    function summary() {
      const c = draft;
      const parts = [];
      const add = (n, key, extra) => { if (n) parts.push(SM.fmt(S[key], Object.assign({ n }, extra || {}))); };
      add(c.never.length, "cs_never");
      add(c.at_most.length, "cs_at_most");
      add(c.keep_apart.length, "cs_groups");
      if (c.keep_apart_by.includes("club")) parts.push(S.cs_by_club);
      if (c.keep_apart_by.includes("team")) parts.push(S.cs_by_team);
      add(c.host_conflicts.length, "cs_conflicts");
      add(Object.keys(c.sit_out).length, "cs_sit_out");
      add(Object.keys(c.ratings).length, "cs_ratings");
      if (c.tolerance !== null && c.tolerance !== undefined) parts.push(SM.fmt(S.cs_tolerance, { tolerance: num(c.tolerance) }));
      if (c.seat_wishes_allowed) add(Object.keys(c.seat_wishes).length, "cs_wishes");
      return parts.length ? parts.join(" · ") : S.cons_none;
    }

    function draw() {
      const people = active().map((p) => [p.id, p.nickname]);
      for (const id of ["never-a", "never-b", "atmost-a", "atmost-b", "sitout-who", "wish-who"]) options($(id), people, "—");
      options($("group-pick"), people);
      options($("conflict-host"), hosts().map((h) => [h.user_id, h.login]), "—");
      options($("conflict-club"), clubs().map((c) => [c, c]), "—");
      options($("conflict-player"), people, "—");
      const c = draft;
      list("never-list", c.never.map((pair, i) => [SM.fmt(S.c_pair, { a: nameOf(pair[0]), b: nameOf(pair[1]) }),
        () => c.never.splice(i, 1)]));
      list("atmost-list", c.at_most.map((cap, i) => [SM.fmt(S.c_at_most, { a: nameOf(cap.players[0]),
        b: nameOf(cap.players[1]), k: cap.times }), () => c.at_most.splice(i, 1)]));
      list("group-list", c.keep_apart.map((g, i) => [SM.fmt(S.c_group, { names: g.map(nameOf).join(", ") }),
        () => c.keep_apart.splice(i, 1)]));
      $("soft-club").checked = c.keep_apart_by.includes("club");
      $("soft-team").checked = c.keep_apart_by.includes("team");
      const conflicts = [];
      c.host_conflicts.forEach((hc, i) => {
        if (hc.club) conflicts.push([SM.fmt(S.c_conflict_club, { host: loginOf(hc.host), club: hc.club }), () => {
          hc.club = null;
          if (!hc.players.length) c.host_conflicts.splice(i, 1);
        }]);
        hc.players.forEach((pid, j) => conflicts.push([SM.fmt(S.c_conflict_player, { host: loginOf(hc.host),
          name: nameOf(pid) }), () => {
          hc.players.splice(j, 1);
          if (!hc.club && !hc.players.length) c.host_conflicts.splice(i, 1);
        }]));
      });
      list("conflict-list", conflicts);
      list("sitout-list", Object.entries(c.sit_out).map(([pid, rounds]) => [SM.fmt(S.c_sit_out,
        { name: nameOf(Number(pid)), rounds: rounds.join(", ") }), () => { delete c.sit_out[pid]; }]));
      $("wishes-allowed").checked = !!c.seat_wishes_allowed;
      $("wishes-box").hidden = !c.seat_wishes_allowed;
      list("wish-list", Object.entries(c.seat_wishes).map(([pid, seats]) => [SM.fmt(S.c_wish,
        { name: nameOf(Number(pid)), seats: seats.join(", ") }), () => { delete c.seat_wishes[pid]; }]));
      drawRatings();
      $("cons-summary").textContent = summary();
      $("cons-dirty").hidden = !dirty;
    }

    function drawRatings() {
      const c = draft;
      const people = active();
      const rated = people.filter((p) => c.ratings[String(p.id)] !== undefined).length;
      $("ratings-count").textContent = SM.fmt(S.ratings_n, { n: rated, m: people.length });
      const rows = $("ratings-rows");
      if (document.activeElement && rows.contains(document.activeElement)) return;  /* typing in it */
      rows.replaceChildren();
      for (const p of people) {
        const tr = el("tr");
        const input = el("input");
        input.type = "number";
        input.step = "any";
        input.dataset.pid = String(p.id);
        input.setAttribute("aria-label", p.nickname);
        const value = c.ratings[String(p.id)];
        input.value = value === undefined ? "" : String(value);
        input.addEventListener("change", () => {
          const text = input.value.trim();
          if (text === "") delete c.ratings[String(p.id)];
          else if (Number.isFinite(Number(text))) c.ratings[String(p.id)] = Number(text);
          else return error(S.c_rating_bad);
          changed();
        });
        const cell = el("td");
        cell.append(input);
        tr.append(el("td", "nick", p.nickname), cell);
        rows.append(tr);
      }
      const on = c.tolerance !== null && c.tolerance !== undefined;
      $("balance-on").checked = on;
      $("tolerance-label").hidden = !on;
      if (on && document.activeElement !== $("tolerance")) $("tolerance").value = String(c.tolerance);
    }

    function pick(id) {
      const v = $(id).value;
      return v === "" ? null : Number(v);
    }
    function pair(a, b) {
      const x = pick(a);
      const y = pick(b);
      if (x === null || y === null || x === y) {
        error(S.c_two);
        return null;
      }
      return [x, y];
    }
    const same = (p, q) => (p[0] === q[0] && p[1] === q[1]) || (p[0] === q[1] && p[1] === q[0]);

    $("never-add").addEventListener("click", () => {
      const p = pair("never-a", "never-b");
      if (!p) return;
      if (!draft.never.some((q) => same(p, q))) draft.never.push(p);
      changed();
    });
    $("atmost-add").addEventListener("click", () => {
      const p = pair("atmost-a", "atmost-b");
      if (!p) return;
      const k = Number($("atmost-k").value);
      if (!Number.isInteger(k) || k < 0) return error(S.c_numbers);
      draft.at_most = draft.at_most.filter((q) => !same(p, q.players));
      draft.at_most.push({ players: p, times: k });
      changed();
    });
    $("group-add").addEventListener("click", () => {
      const chosen = Array.from($("group-pick").selectedOptions).map((o) => Number(o.value));
      if (chosen.length < 2) return error(S.c_group_two);
      draft.keep_apart.push(chosen);
      for (const o of $("group-pick").options) o.selected = false;
      changed();
    });
    for (const [id, attr] of [["soft-club", "club"], ["soft-team", "team"]]) {
      $(id).addEventListener("change", () => {
        draft.keep_apart_by = draft.keep_apart_by.filter((x) => x !== attr);
        if ($(id).checked) draft.keep_apart_by.push(attr);
        changed();
      });
    }
    $("conflict-add").addEventListener("click", () => {
      const host = pick("conflict-host");
      const club = $("conflict-club").value;
      const player = pick("conflict-player");
      if (host === null || (!club && player === null)) return error(S.c_host);
      let hc = draft.host_conflicts.find((x) => x.host === host);
      if (!hc) {
        hc = { host, club: null, players: [] };
        draft.host_conflicts.push(hc);
      }
      if (club) {
        if (hc.club && hc.club !== club) {  /* one club per entry: another club is an entry of its own */
          hc = { host, club: null, players: [] };
          draft.host_conflicts.push(hc);
        }
        hc.club = club;
      }
      if (player !== null && !hc.players.includes(player)) hc.players.push(player);
      changed();
    });
    /* a player and his numbers (the rounds he sits out, the seats he may take) into the draft's ``key`` */
    function addNumbers(whoId, inputId, key) {
      const who = pick(whoId);
      if (who === null) return error(S.c_one);
      const values = numbers($(inputId).value);
      if (!values) return error(S.c_numbers);
      draft[key][String(who)] = values;
      $(inputId).value = "";
      changed();
    }
    $("sitout-add").addEventListener("click", () => addNumbers("sitout-who", "sitout-rounds", "sit_out"));
    $("wishes-allowed").addEventListener("change", () => {
      draft.seat_wishes_allowed = $("wishes-allowed").checked;
      if (!draft.seat_wishes_allowed) draft.seat_wishes = {};
      changed();
    });
    $("wish-add").addEventListener("click", () => addNumbers("wish-who", "wish-seats", "seat_wishes"));
    $("balance-on").addEventListener("change", () => {
      const t = Number($("tolerance").value);
      draft.tolerance = $("balance-on").checked ? (Number.isFinite(t) && $("tolerance").value !== "" ? t : 0) : null;
      changed();
    });
    $("tolerance").addEventListener("change", () => {
      const t = Number($("tolerance").value);
      if ($("tolerance").value === "" || !Number.isFinite(t) || t < 0) return error(S.c_tolerance_bad);
      draft.tolerance = t;
      changed();
    });
    $("ratings-clear").addEventListener("click", () => {
      draft.ratings = {};
      draft.tolerance = null;
      $("ratings-note").textContent = "";
      changed();
    });
    async function take(source) {
      const r = await call("GET", `${base}/seating/ratings?source=${source}`, undefined, "cons-error");
      if (!r) return;
      draft.ratings = Object.assign({}, r.ratings);
      const unrated = (r.unrated || []).map(nameOf);
      $("ratings-note").textContent = SM.fmt(S.ratings_taken, { n: Object.keys(r.ratings).length }) +
        (unrated.length ? " " + SM.fmt(S.ratings_unrated, { names: unrated.join(", ") }) : "");
      changed();
    }
    $("ratings-elo").addEventListener("click", () => take("elo"));
    $("ratings-skill").addEventListener("click", () => take("skill"));

    $("cons-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      $("cons-save").disabled = true;
      const r = await call("PUT", `${base}/seating/constraints`, draft, "cons-error");
      $("cons-save").disabled = false;
      if (!r) return;
      state.t.seating_constraints = r.constraints;
      stored = null;
      dirty = false;
      render();
      notice(S.cons_saved);
    });

    function render() {
      if (!state.t) return;
      const now = JSON.stringify(state.t.seating_constraints || null);
      if (!dirty && now !== stored) {
        draft = Object.assign(EMPTY(), JSON.parse(JSON.stringify(state.t.seating_constraints || {})));
        stored = now;
      }
      draw();
    }
    return { render };
  };
})();
