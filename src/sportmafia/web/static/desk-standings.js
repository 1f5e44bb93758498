/* The judge's desk, Standings tab: the table (static/standings.js draws it), publishing and hiding the tournament.
   Registered as SM.deskTabs.standings (tournament-desk.js). */
"use strict";
(function () {
  const { $, L, call } = SM.tour;
  (SM.deskTabs = SM.deskTabs || {}).standings = function (d) {
    const { base, S, state, notice, loadAll } = d;

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

    return { render() { renderStandings(); } };
  };
})();
