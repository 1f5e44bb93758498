/* The console's live link: follows its game over the WebSocket (static/live.js), so that a move made on another
   device, or the host's timer, reaches this screen at once (console.js listens for `sm-moved` / `sm-timer`). Join
   requests (`requests`, and each keepalive ping or new state) are passed on as `sm-join-requests`
   (console-joins.js). */
"use strict";
(function () {
  const root = document.getElementById("console");
  const asked = new Set(["requests", "ping", "state"]);
  const onMessage = (m) => {
    if (asked.has(m.type)) document.dispatchEvent(new CustomEvent("sm-join-requests"));
  };
  if (root && root.dataset.game && window.SM && SM.live) SM.live.connect(root.dataset.game, "host", { onMessage });
})();
