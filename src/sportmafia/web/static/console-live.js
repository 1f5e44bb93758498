/* The console's live link: follows its game over the WebSocket (static/live.js), so that a move made on another
   device, or the host's timer, reaches this screen at once (console.js listens for `sm-moved` / `sm-timer`). */
"use strict";
(function () {
  const root = document.getElementById("console");
  if (root && root.dataset.game && window.SM && SM.live) SM.live.connect(root.dataset.game, "host");
})();
