/* The stream overlay (/overlay/{code}): a transparent strip for OBS with the seats (number, name, fouls, who left),
   the phase and the timer, from the spectator view only (the same socket as the spectators' page, following the
   table's code from game to game). */
"use strict";
(function () {
  const O = SM.strings("online-i18n");
  const L = SM.strings("labels");
  const $ = (id) => document.getElementById(id);
  const root = $("overlay");
  const clock = SM.clock($("ov-timer"), $("ov-timer"));
  function show(v, rules) {   // rules: the rule set's values (SM.watch)
    $("ov-banner").textContent = v.banner[SM.lang] || v.banner.en;
    const box = $("ov-seats");
    box.textContent = "";
    for (const s of v.seats) {
      const el = document.createElement("div");
      el.className = "ov-seat" + (s.alive ? "" : " gone") + (rules.speech_steps.includes(v.step) && v.seat === s.seat ? " speaking" : "");
      const f = Math.max(0, s.fouls || 0);
      const left = s.left ? `✝ ${(L.how && L.how[s.left.how]) || s.left.how}` : "";
      el.innerHTML = "";
      for (const [cls, text] of [["ov-num", String(s.seat)], ["ov-name", s.name],
        ["ov-fouls", SM.dots(f, rules.foul_remove)], ["ov-left", left]]) {
        const span = document.createElement("span");
        span.className = cls;
        span.textContent = text;
        el.appendChild(span);
      }
      el.title = SM.fmt(O.fouls, { n: f });
      box.appendChild(el);
    }
  }
  SM.watch(root.dataset.code, { show, clock });
})();
