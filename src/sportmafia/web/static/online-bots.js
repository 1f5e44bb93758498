/* The host's panel, "Bots" (docs/bots.md, "Bots at an online table"): bots in the seats that have no player's
   link, and whether the server runs the table (deals, ends the speeches, says "Next") and at what pace. */
"use strict";
(function () {
  const T = SM.strings("panel-i18n");
  const $ = (id) => document.getElementById(id);
  const root = $("online");
  if (!root) return;
  const base = `/api/games/${encodeURIComponent(root.dataset.game)}/online`;
  function error(body) { const e = $("p-error"); e.hidden = !body; e.textContent = body ? SM.errorText(body) : ""; }
  let changes = 0;   // a read begun before the host's last change must not draw over it
  let choosing = false;   // the host has touched the form since it was saved: a refresh leaves his choice alone
  for (const id of ["p-bot", "p-runs", "p-pace"]) $(id).addEventListener("change", () => { choosing = true; });
  function show(b) {
    const seats = Object.keys(b.agents).map(Number).sort((x, y) => x - y);
    $("p-bots-now").textContent = (seats.length ? SM.fmt(T.bots_at, { s: seats.join(", ") }) : T.no_bots) +
      (b.runs_table ? " " + T.runs : "");
    if (choosing) return;
    if (seats.length) $("p-bot").value = b.agents[String(seats[0])];
    $("p-runs").checked = b.runs_table;
    $("p-pace").value = b.pace;
  }
  async function load() {
    if ($("p-opened").hidden) return;   // the table is not open online yet: no bots to show (and no 404 to log)
    const seen = changes;
    const r = await SM.api("GET", `${base}/bots`);
    if (r.status === 200 && seen === changes) show(r.body);
  }
  $("p-bots-fill").addEventListener("click", async () => {
    changes++;
    const t = await SM.api("GET", base);
    if (t.status !== 200) { error(t.body); return; }
    const agents = {};
    for (const s of t.body.seats) if (!s.linked) agents[String(s.seat)] = $("p-bot").value;
    const r = await SM.api("PUT", `${base}/bots`, { agents, runs_table: $("p-runs").checked, pace: $("p-pace").value });
    changes++;
    if (r.status !== 200) { error(r.body); return; }
    error(null);
    choosing = false;
    show(r.body);
  });
  $("p-bots-off").addEventListener("click", async () => {
    changes++;
    const r = await SM.api("DELETE", `${base}/bots`);
    changes++;
    if (r.status !== 200) { error(r.body); return; }
    choosing = false;
    load();
  });
  setTimeout(load, 500);   // once the panel has drawn the table
  setInterval(load, 10000);
})();
