/* For the club's admins and judges. A player's profile: merge a duplicate into this player, and leave a game
   out of the ratings (or count it again), each with its reason (POST /api/players/merge,
   /api/games/{id}/rating-exclusion[/lift]). The club's players: import a file of games (POST
   /api/club/games/import, the file as the body) and show what became of each game. */
(function () {
  "use strict";
  const S = SM.strings("season-i18n");
  const message = document.getElementById("season-message");
  const profile = document.getElementById("profile");
  const person = profile ? Number(profile.dataset.person) : 0;
  function show(body) {
    message.textContent = SM.errorText(body);
    message.hidden = false;
  }
  const form = document.getElementById("merge");
  if (form) {
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const chosen = form.elements.from_id;
      const name = chosen.options[chosen.selectedIndex].textContent;
      if (!window.confirm(SM.fmt(S.confirm_merge, { name, into: S.into }))) return;
      const r = await SM.api("POST", "/api/players/merge", {
        from_id: Number(chosen.value), into_id: person, reason: form.elements.reason.value.trim(),
      });
      if (r.status === 200) location.reload();
      else show(r.body);
    });
  }
  const upload = document.getElementById("import");
  if (upload) {
    upload.addEventListener("submit", async (e) => {
      e.preventDefault();
      const file = upload.elements.file.files[0];
      if (!file) return;
      const button = upload.querySelector("button");
      button.disabled = true;
      message.hidden = true;
      let r;
      try {
        const response = await fetch("/api/club/games/import", {
          method: "POST", credentials: "same-origin", body: await file.text(),
          headers: { "Content-Type": "application/json", "X-CSRF-Token": SM.csrf, Accept: "application/json" },
        });
        r = { status: response.status, body: await response.json().catch(() => null) };
      } catch (err) {
        r = { status: 0, body: null };
      }
      button.disabled = false;
      if (r.status !== 200) { show(r.body); return; }
      const games = r.body.games;
      const count = (status) => games.filter((g) => g.status === status).length;
      const summary = document.getElementById("import-summary");
      summary.textContent = SM.fmt(S.summary, { imported: count("imported"), refused: count("refused"),
                                               already: count("already") });
      summary.hidden = false;
      const list = document.getElementById("import-report");
      list.replaceChildren();
      for (const g of games) {
        const li = document.createElement("li");
        const head = `${g.source} ${g.game}: ${S[g.status]}`;
        const parts = [head];
        if (g.status === "refused") parts.push(`[${g.clause}] ${g.event}: ${g.reason}`);
        else {
          parts.push(`${g.outcome_text}, ${g.detail ? S.whole : S.result_only}`);
          if (g.kept.length) parts.push(SM.fmt(S.kept, { what: g.kept.join(", ") }));
          if (g.left_out.length) parts.push(SM.fmt(S.left_out, { what: g.left_out.join(", ") }));
        }
        li.textContent = parts.join(" · ");
        li.className = g.status;
        list.append(li);
      }
    });
  }
  for (const button of document.querySelectorAll("button.exclude")) {
    button.addEventListener("click", async () => {
      const lift = button.dataset.lift === "yes";
      const reason = (window.prompt(lift ? S.reason_lift : S.reason_exclude) || "").trim();
      if (!reason) return;
      const path = `/api/games/${encodeURIComponent(button.dataset.game)}/rating-exclusion${lift ? "/lift" : ""}`;
      button.disabled = true;
      const r = await SM.api("POST", path, { reason });
      button.disabled = false;
      if (r.status === 200) location.reload();
      else show(r.body);
    });
  }
})();
