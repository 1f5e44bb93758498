/* A club's seasons, for its admins and judges: create a season (templates/club_seasons.html), change an open
   one and close it after a confirmation (season.html): POST /api/seasons, /api/seasons/{id},
   /api/seasons/{id}/close. */
(function () {
  "use strict";
  const S = SM.strings("season-i18n");
  const message = document.getElementById("season-message");
  const page = document.getElementById("season");
  const club = (page || document.getElementById("club-seasons")).dataset.club;
  function show(text) {
    message.textContent = text;
    message.hidden = false;
  }
  function points(text) {
    const parts = text.trim() ? text.trim().split(/[\s;]+/) : [];
    const out = parts.map((p) => (/^\d+(\.\d+)?$/.test(p) ? Number(p) : NaN));
    return out.some((n) => Number.isNaN(n)) ? null : out;
  }
  const form = document.getElementById("season-form");
  if (form) {
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      message.hidden = true;
      const f = form.elements;
      const series = points(f.series_points.value);
      if (series === null) return show(S.bad_points);
      const body = { name: f.name.value.trim(), starts_on: f.starts_on.value, ends_on: f.ends_on.value,
                     standings: f.standings.value, series_points: series };
      const edit = form.dataset.action === "edit";
      const path = edit ? `/api/seasons/${page.dataset.season}` : "/api/seasons";
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      const r = await SM.api("POST", path, body);
      button.disabled = false;
      if (r.status === 200 || r.status === 201) location.href = `/clubs/${club}/seasons/${r.body.season.id}`;
      else show(SM.errorText(r.body));
    });
  }
  const close = document.getElementById("season-close");
  if (close) {
    close.addEventListener("click", async () => {
      if (!window.confirm(S.confirm_close)) return;
      close.disabled = true;
      const r = await SM.api("POST", `/api/seasons/${page.dataset.season}/close`, {});
      close.disabled = false;
      if (r.status === 200) location.reload();
      else show(SM.errorText(r.body));
    });
  }
})();
