/* Tournament standings: the table (SM.standingsTable, used by the judge's desk too), the live public page
   /t/{id} (and the judge's print view), which polls the standings every few seconds, and a participant's
   page /t/{id}/players/{pid}. Only public facts: the API gives roles of accepted games only. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  const NUM = new Intl.NumberFormat(SM.lang === "ru" ? "ru-RU" : "en-GB", { maximumFractionDigits: 2 });
  const num = (x) => NUM.format(Number(x));

  /* The final's outcome in words (fin: the standings' "final", complete): its winners, and those who share a
     place across the prize places, whom the judge decides among (T.total, T.judge); a tie at the top leaves
     no winner to name, only the tie. */
  SM.finalWinners = function (fin, S) {
    const parts = [];
    if (fin.winners.length) {
      parts.push(SM.fmt(S.winners, { names: fin.winners.map((w) => `${w.place}. ${w.nickname}`).join(", ") }));
    }
    const tied = fin.standings.filter((r) => r.prize_tie);
    if (tied.length) {
      parts.push(SM.fmt(S.shared_prize, { range: `${tied[0].place}–${tied[0].place_to}`,
        names: tied.map((r) => r.nickname).join(", ") }));
    }
    return parts.join(" · ");
  };

  /* rows: row_json of the API; S: the page's strings; L: labels; playerHref(pid) or null; withCarried */
  SM.standingsTable = function (table, rows, S, L, playerHref, withCarried) {
    table.replaceChildren();
    const cols = [["place", S.place], ["nickname", S.nickname], ["points", S.points]];
    if (withCarried) cols.push(["carried", S.carried]);
    cols.push(["games", S.games], ["wins", S.wins], ["by_role", S.by_role], ["extra", S.extra],
      ["penalties", S.penalties], ["notes", S.notes]);
    const head = el("thead");
    const htr = el("tr");
    for (const [key, text] of cols) {
      const th = el("th", "c-" + key, text);
      th.scope = "col";
      htr.append(th);
    }
    head.append(htr);
    const body = el("tbody");
    for (const r of rows) {
      /* a place shared by a tie the tie-breaks cannot split is a range (4–6); a player with no game has none */
      const shared = r.place !== null && r.place_to && r.place_to > r.place;
      const waiting = r.place === null && !r.disqualified;
      const range = shared ? `${r.place}–${r.place_to}` : String(r.place);
      const tr = el("tr", r.top_three ? `top top-${r.place}` : r.disqualified ? "dq"
        : r.prize_tie ? "prize-tie" : waiting ? "waiting" : "");
      tr.dataset.participant = r.participant_id;
      for (const [key, text] of cols) {
        const td = el("td", "c-" + key);
        td.dataset.label = text;
        if (key === "place") {
          td.append(el("span", shared ? "place shared" : "place", r.place === null ? "—" : range));
          if (r.top_three) td.append(el("span", "medal", "★"));
        } else if (key === "nickname") {
          if (playerHref) {
            const a = el("a", "", r.nickname);
            a.href = playerHref(r.participant_id);
            td.append(a);
          } else td.textContent = r.nickname;
        } else if (key === "points") td.textContent = num(r.points);
        else if (key === "carried") td.textContent = num(r.carried || 0);
        else if (key === "games") td.textContent = r.games;
        else if (key === "wins") td.textContent = r.wins;
        else if (key === "by_role") {
          td.textContent = Object.entries(r.wins_by_role || {}).filter(([, n]) => n)
            .map(([role, n]) => `${L.roles[role] || role} ${n}`).join(", ") || "—";
        } else if (key === "extra") td.textContent = num(r.extra_points);
        else if (key === "penalties") td.textContent = num(r.penalties);
        else if (key === "notes") {
          const notes = [];
          if (r.top_three) notes.push(S.top_three);
          if (r.prize_tie) notes.push(SM.fmt(S.prize_tie, { range }));
          if (waiting) notes.push(S.no_games);
          if (r.disqualified) notes.push(S.dq);
          for (const s of r.sanctions || []) notes.push(`${L.scopes[s.scope] || s.scope}: ${s.reason}`);
          td.textContent = notes.join("; ");
          /* on a phone the star tells "top three": the cell shows only when it says more */
          if (notes.length > (r.top_three ? 1 : 0)) td.classList.add("has-more");
        }
        tr.append(td);
      }
      body.append(tr);
    }
    table.append(head, body);
  };

  const L = SM.strings("t-labels");

  /* --- /t/{id} and the print view --- */
  const root = $("standings");
  if (root) {
    const S = SM.strings("standings-i18n");
    const pub = root.dataset.public === "yes";
    const tid = root.dataset.tournament;
    const href = pub ? (pid) => `/t/${tid}/players/${pid}` : null;
    let last = null;
    const clock = (d) => d.toLocaleTimeString(SM.lang === "ru" ? "ru-RU" : "en-GB",
      { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    async function load() {
      try {
        const r = await SM.api("GET", root.dataset.source);
        if (r.status !== 200) {
          $("st-message").textContent = SM.errorText(r.body);
          $("st-message").hidden = false;
          return;
        }
        $("st-message").hidden = true;
        const doc = r.body;
        const fin = doc.final;
        $("st-final-card").hidden = !fin;
        $("st-main-title").textContent = fin ? S.prelim_title : S.main_title;
        if (fin) {
          SM.standingsTable($("st-final"), fin.standings, S, L, href, true);
          $("st-winners").textContent = fin.complete ? SM.finalWinners(fin, S) : S.final_on;
        }
        SM.standingsTable($("st-main"), doc.standings, S, L, href, false);
        const notes = [SM.fmt(S.accepted_games, { n: doc.accepted_games })];
        if (doc.tournament.status === "finished") notes.push(S.finished);
        $("st-note").textContent = notes.join(" ");
        if (SM.ruleChanges) SM.ruleChanges(doc.rule_changes);
        last = new Date();
        $("st-live").textContent = SM.fmt(S.updated, { time: clock(last) });
        $("st-live").classList.remove("offline");
      } catch (e) {
        $("st-live").textContent = SM.fmt(S.offline, { time: last ? clock(last) : "—" });
        $("st-live").classList.add("offline");
      }
    }
    load();
    /* live: every 5 s while the page is visible, at once when it becomes visible again */
    setInterval(() => { if (!document.hidden) load(); }, 5000);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
    $("st-print").addEventListener("click", () => window.print());
  }

  /* --- /t/{id}/players/{pid} --- */
  const player = $("player");
  if (player) {
    const S = SM.strings("player-i18n");
    const tid = player.dataset.tournament;
    const pid = player.dataset.participant;
    (async function () {
      try {
        const r = await SM.api("GET", `/api/public/tournaments/${tid}/players/${pid}`);
        if (r.status !== 200) {
          $("p-message").textContent = SM.errorText(r.body);
          $("p-message").hidden = false;
          return;
        }
        const p = r.body.participant;
        $("p-name").textContent = p.nickname;
        document.title = `${p.nickname} · ${document.title}`;
        $("p-club").textContent = [p.club, p.team].filter(Boolean).join(" · ");
        const body = $("p-rows");
        body.replaceChildren();
        let points = 0;
        let accepted = 0;
        const roles = {};
        for (const g of r.body.games) {
          const tr = el("tr", g.accepted ? (g.winner && g.team === g.winner ? "won" : "") : "pending");
          tr.append(el("td", "", g.stage === "final" ? SM.fmt(S.final_round, { n: g.round }) : g.round),
            el("td", "", g.table), el("td", "num", g.seat));
          if (g.accepted) {
            accepted += 1;
            points += g.points;
            roles[g.role] = (roles[g.role] || 0) + 1;
            tr.append(el("td", `role-${g.team}`, L.roles[g.role] || g.role));
            const res = [g.winner === null ? S.no_winner : g.team === g.winner ? S.won : S.lost];
            if (g.fouls) res.push(SM.fmt(S.fouls, { n: g.fouls }));
            if (g.removed) res.push(SM.fmt(S.removed, { scope: L.scopes[g.removed] || g.removed }));
            tr.append(el("td", "", res.join(", ")), el("td", "num", num(g.points)));
          } else {
            const td = el("td", "note", S.pending);
            td.colSpan = 3;
            tr.append(td);
          }
          const cells = Array.from(document.querySelectorAll("#p-games thead th"), (th) => th.textContent);
          tr.querySelectorAll("td").forEach((td, i) => { td.dataset.label = cells[i] || ""; });
          body.append(tr);
        }
        $("p-none").hidden = r.body.games.length > 0;
        const dl = $("p-totals");
        dl.replaceChildren();
        const add = (term, value) => dl.append(el("dt", "", term), el("dd", "", value));
        add(S.total_points, num(points));
        add(S.total_games, accepted);
        add(S.total_roles, Object.entries(roles).map(([role, n]) => `${L.roles[role] || role} ${n}`).join(", ") || "—");
      } catch (e) {
        $("p-message").textContent = SM.strings("common-i18n").network;
        $("p-message").hidden = false;
      }
    })();
  }
})();
