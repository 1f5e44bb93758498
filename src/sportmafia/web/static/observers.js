/* B.observers (seed B 7.3): close a table to observers at once (its spectators' page and overlay) and open it
   again, from the host's online panel (SM.observersPanel, called by online-panel.js with the table) and from
   the judge's desk, on each table of a round (SM.deskObservers). PUT /api/games/{id}/online/watch. */
"use strict";
(function () {
  const SM = window.SM || (window.SM = {});
  const $ = (id) => document.getElementById(id);
  const R = () => SM.strings("observers-i18n");
  const url = (gameId) => `/api/games/${encodeURIComponent(gameId)}/online/watch`;
  const known = new Map();  // game id -> open (true/false); the desk's tables whose online table exists

  async function put(gameId, open) {
    const r = await SM.api("PUT", url(gameId), { open });
    if (r.status === 200) known.set(gameId, r.body.open);
    return r;
  }

  function toggle(gameId, open, after) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = open ? "ghost observers-close" : "primary observers-open";
    b.textContent = open ? R().close : R().open;
    b.addEventListener("click", async () => {
      b.disabled = true;
      const r = await put(gameId, !open);
      b.disabled = false;
      after(r);
    });
    return b;
  }

  /* The online panel: the state line and its button (t: GET /api/games/{id}/online; reload: redraw). */
  SM.observersPanel = function (t, reload) {
    const box = $("p-observers");
    if (!box) return;
    box.textContent = "";
    const state = document.createElement("span");
    state.className = t.watch_open ? "note" : "pill observers-closed";
    state.textContent = t.watch_open ? R().is_open : R().is_closed;
    box.append(state, " ", toggle(t.game_id, t.watch_open, (r) => {
      if (r.status !== 200) { box.append(" ", SM.errorText(r.body)); return; }
      reload();
    }));
  };

  /* The desk: a button on the table's card (links: its row of links), once its online table is known. */
  SM.deskObservers = function (links, gameId) {
    const slot = document.createElement("span");
    slot.className = "observers-slot";
    links.append(slot);
    const draw = () => {
      slot.textContent = "";
      if (!known.has(gameId)) return;
      const open = known.get(gameId);
      if (!open) slot.append(Object.assign(document.createElement("span"),
        { className: "pill observers-closed", textContent: R().is_closed }), " ");
      slot.append(toggle(gameId, open, (r) => {
        if (r.status !== 200) { slot.append(" ", SM.errorText(r.body)); return; }
        draw();
      }));
    };
    if (known.has(gameId)) { draw(); return; }
    SM.api("GET", `/api/games/${encodeURIComponent(gameId)}/online`).then((r) => {
      if (r.status !== 200) return;  // not open for online play: nobody watches it
      known.set(gameId, r.body.watch_open);
      draw();
    });
  };
})();
