/* The practice table's form (/practice, docs/bots.md): the rules, the bots' strength, the pace and the seat; it
   opens the table (POST /api/practice) and goes to the player's page of the seat. */
"use strict";
(function () {
  const T = SM.strings("practice-i18n");
  const $ = (id) => document.getElementById(id);
  const form = $("p-form");
  const seat = $("p-seat");
  function seats() {
    const preset = form.querySelector("input[name=preset]:checked");
    const n = Number(preset.dataset.players);
    const was = seat.value;
    while (seat.options.length > 1) seat.remove(1);
    for (let s = 1; s <= n; s++) seat.add(new Option(SM.fmt(T.seat, { n: s }), String(s)));
    seat.value = Number(was) <= n ? was : "";
  }
  form.querySelectorAll("input[name=preset]").forEach((r) => r.addEventListener("change", seats));
  seats();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const status = $("p-status");
    const go = $("p-go");
    const value = (name) => form.querySelector(`input[name=${name}]:checked`).value;
    go.disabled = true;
    status.className = "o-feedback saving";
    status.textContent = T.opening;
    try {
      const r = await fetch("/api/practice", {
        method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": SM.csrf },
        body: JSON.stringify({ preset: value("preset"), agent: value("agent"), pace: value("pace"),
          seat: seat.value ? Number(seat.value) : null, name: $("p-name").value.trim() }),
      });
      const body = await r.json().catch(() => null);
      if (r.status === 200) { location.assign(body.url); return; }
      status.className = "o-feedback error";
      status.textContent = SM.errorText(body);
    } catch (err) {
      status.className = "o-feedback error";
      status.textContent = SM.errorText(null);
    }
    go.disabled = false;
  });
})();
