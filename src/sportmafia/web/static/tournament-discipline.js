/* The judge's desk, Sanctions tab: each participant's offences across games (B.sanctions) with the steps due,
   and the club's banned players. Reads /api/tournaments/{id}/offences and /bans; applies a due step or lifts
   a ban with the judge's reason. */
(function () {
  "use strict";
  const root = document.getElementById("judge");
  if (!root || root.dataset.canJudge !== "yes") return;
  const { $, L, el, show, call } = SM.tour;
  const S = SM.strings("discipline-i18n");
  const base = `/api/tournaments/${root.dataset.tournament}`;
  const what = (o) => L.offences[o] || o;
  const step = (s) => (S.steps || {})[s] || s;

  function entryLine(e) {
    const params = { n: e.number || "·", what: what(e.offence), round: e.round ?? "—", table: e.table ?? "—",
      steps: e.steps.map(step).join(" → "), by: e.by_login || (e.by ? `#${e.by}` : "—"), reason: e.reason };
    return SM.fmt(e.source === "judge" ? S.line_judge : S.line, params);
  }

  async function loadOffences() {
    const body = await call("GET", `${base}/offences`, undefined, "offence-error");
    if (!body) return;
    const box = $("offence-list");
    box.replaceChildren();
    let any = false;
    for (const p of body.participants) {
      if (!p.offences.length) continue;
      any = true;
      const block = el("div", "offence-block");
      block.append(el("h3", "", p.nickname));
      const ul = el("ul", "plain-list");
      for (const e of p.offences) {
        const li = el("li", e.pending ? "pending" : "", entryLine(e));
        if (!e.accepted) li.append(" ", el("span", "note", `(${S.not_accepted})`));
        if (e.pending) {
          li.append(" ", el("strong", "", SM.fmt(S.due, { step: step(e.due) })), " ");
          const b = el("button", "primary", SM.fmt(S.apply, { step: step(e.due) }));
          b.type = "button";
          b.addEventListener("click", async () => {
            const reason = (window.prompt(S.apply_reason) || "").trim();
            if (!reason) return;
            const r = await call("POST", `${base}/offences`, { participant_id: p.participant_id,
              offence: e.offence, game_id: e.game_id, reason }, "offence-error");
            if (r) { show("offence-error", ""); loadOffences(); }
          });
          li.append(b);
        }
        ul.append(li);
      }
      block.append(ul);
      box.append(block);
    }
    $("no-offences").hidden = any;
    $("count-offences").textContent = body.pending ? String(body.pending) : "";
  }

  async function loadBans() {
    const body = await call("GET", `${base}/bans`, undefined, "ban-error");
    if (!body) return;
    const ul = $("ban-list");
    ul.replaceChildren();
    for (const b of body.bans) {
      const who = b.nickname || `#${b.user_id}`;
      const where = b.tournament || S.ban_club;
      const li = el("li", b.active ? "" : "lifted",
        SM.fmt(S.ban_line, { who, where, date: SM.date((b.created_at || "").slice(0, 10)), reason: b.reason }));
      if (!b.active) li.append(" ", el("span", "note", SM.fmt(S.lifted, { reason: b.lift_reason })));
      else {
        const btn = el("button", "ghost", S.lift);
        btn.type = "button";
        btn.addEventListener("click", async () => {
          const reason = (window.prompt(S.lift_reason) || "").trim();
          if (!reason) return;
          if (await call("POST", `/api/bans/${b.id}/lift`, { reason }, "ban-error")) loadBans();
        });
        li.append(" ", btn);
      }
      ul.append(li);
    }
    $("no-bans").hidden = body.bans.length > 0;
  }

  function load() { loadOffences(); loadBans(); }
  const tab = document.querySelector('.tab[data-tab="sanctions"]');
  if (tab) tab.addEventListener("click", load);
  const form = $("sanction-form");
  if (form) form.addEventListener("submit", () => setTimeout(load, 500));
  load();
})();
