/* The judge's desk, Sanctions tab: the tournament's sanctions and a new one (the discipline across games is
   tournament-discipline.js). Registered as SM.deskTabs.sanctions (tournament-desk.js). */
"use strict";
(function () {
  const { $, el, show, call } = SM.tour;
  (SM.deskTabs = SM.deskTabs || {}).sanctions = function (d) {
    const { base, S, state, nameOf, notice, loadAll } = d;

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

    return { render() { renderSanctions(); } };
  };
})();
