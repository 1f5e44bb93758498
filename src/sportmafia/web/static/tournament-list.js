/* The club's tournaments (/tournaments): the list, and a new tournament (the settings form of
   tournament-form.js). */
"use strict";
(function () {
  const { $, el, link, show, call, tournamentForm } = SM.tour;

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
        const bits = [SM.dates(t.starts_on, t.ends_on), S[t.status] || t.status,
          SM.fmt(S.rules, { rules: SM.rulesetName(t.ruleset) })];
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

  if ($("tournaments-page")) listPage();
})();
