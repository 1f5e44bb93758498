/* The judge's desk, Final tab: choosing the finalists (a tie at the cut picked by the judge, T.judge), the final's
   rounds and table, and finishing the tournament. Registered as SM.deskTabs.final (tournament-desk.js). */
"use strict";
(function () {
  const { $, L, NET, el, show, call } = SM.tour;
  (SM.deskTabs = SM.deskTabs || {}).final = function (d) {
    const { base, canJudge, S, state, picks, nameOf, notice, loadAll, hostChips } = d;

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
      d.roundCards($("final-rounds"), state.final, "final");
      if (doc) {
        SM.standingsTable($("final-table"), doc.standings, S, L, null, true);
        $("final-winners").textContent = doc.complete ? SM.finalWinners(doc, S) : "";
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

    return { render() { renderFinal(); } };
  };
})();
