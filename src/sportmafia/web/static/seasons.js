/* A player's profile, for the club's admins and judges: merge a duplicate into this player, and leave a game
   out of the ratings (or count it again), each with its reason (POST /api/players/merge,
   /api/games/{id}/rating-exclusion[/lift]). */
(function () {
  "use strict";
  const S = SM.strings("season-i18n");
  const message = document.getElementById("season-message");
  const person = Number(document.getElementById("profile").dataset.person);
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
