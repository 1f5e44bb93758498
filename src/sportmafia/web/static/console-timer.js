/* The console's speech timer: the step's seconds from the state (the final minute's from the rule set), start
   and pause, +10 s, reset, the beeps at 10 s and 0, the screen kept awake, the timer shared with the table's
   screen (static/live.js), and the club's autostart (#console's data-autostart): a speech begun by the host's
   own Next (or draw) starts its timer by itself once the server confirms it, less the time since the tap (a
   command that waited in the outbox offline). */
"use strict";
(function () {
  const K = SM.console;
  const { T, $ } = K;

  // ---------------------------------------------------------------- the timer
  const timer = { key: "", left: 0, total: 0, running: false, last: 0, beeped10: false, beeped0: false };
  const AUTOSTART = K.root.dataset.autostart === "1";
  let audio = null;
  let wakeLock = null;

  function beep(freq, ms) {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.value = 0.2;
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + ms / 1000);
    } catch (e) { /* no audio */ }
    if (navigator.vibrate) navigator.vibrate(ms);
  }

  async function keepAwake() {
    if (!("wakeLock" in navigator) || wakeLock) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } catch (e) { wakeLock = null; }
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") keepAwake(); });
  document.addEventListener("pointerdown", keepAwake, { once: true });

  /* the timer's state for the table's screen (static/live.js, when loaded) */
  function shareTimer() {
    if (SM.live && SM.live.sendTimer) {
      SM.live.sendTimer({ running: timer.running, left: Math.max(0, Math.ceil(timer.left)), total: timer.total, key: timer.key });
    }
  }

  function timerSync() {
    // the step's own time (A.win: at the end, the final minute of the players whose departure ended the game),
    // keyed by the step as every screen keys it (SM.timerStep)
    const step = SM.timerStep(K.S.view, K.S.rules);
    if (step.key !== timer.key) {
      timer.key = step.key;
      timer.total = step.seconds;
      timer.left = timer.total;
      timer.running = false;
      timer.beeped10 = timer.beeped0 = false;
      const tapped = K.autostartAt;
      K.autostartAt = null;   // the host's tap is answered by this step: armed once
      const v = K.S.view;
      if (tapped !== null && step.seconds > 0 && !v.over && K.S.rules.speech_steps.includes(v.step)) {
        timer.last = performance.now();
        timer.left = Math.max(0, step.seconds - (timer.last - tapped) / 1000);   // the speech began at the tap
        timer.running = timer.left > 0;
      }
      shareTimer();   // every step, with a timer or without: no screen keeps the last step's
    }
    drawTimer();
  }

  /* the host's tap that may begin a speech (Next, a draw): with the club's autostart, the step it leads to
     starts its timer when it is shown (timerSync); a refused or stale command disarms it (console-outbox.js) */
  function armAutostart() {
    if (AUTOSTART) K.autostartAt = performance.now();
  }

  function drawTimer() {
    const s = Math.max(0, Math.ceil(timer.left));
    const none = !timer.total;   // a step without a timer shows none (+10 s still gives it one)
    $("timer-value").textContent = none ? "–:––" : SM.clockText(s);
    $("timer-state").textContent = none ? "" : timer.running ? "▶ " + T.running : "■ " + T.paused;
    const el = $("timer");
    el.dataset.state = none ? "none" : timer.running ? "running" : "paused";
    el.classList.toggle("none", none);
    el.classList.toggle("running", timer.running);
    el.classList.toggle("low", s <= 10 && timer.total > 0);
    el.classList.toggle("zero", s === 0 && timer.total > 0);
  }

  function tick() {
    if (timer.running) {
      const now = performance.now();
      timer.left -= (now - timer.last) / 1000;
      timer.last = now;
      if (!timer.beeped10 && timer.left <= 10 && timer.total > 10) { timer.beeped10 = true; beep(880, 150); }
      if (timer.left <= 0) {
        timer.left = 0;
        timer.running = false;
        if (!timer.beeped0) { timer.beeped0 = true; beep(440, 600); }
        shareTimer();
      }
      drawTimer();
    }
  }
  setInterval(tick, 200);

  function toggleTimer() {
    if (timer.left <= 0) return;
    timer.running = !timer.running;
    timer.last = performance.now();
    drawTimer();
    shareTimer();
  }
  $("timer").addEventListener("click", toggleTimer);
  $("timer-plus").addEventListener("click", () => {
    timer.left += 10;
    timer.total = Math.max(timer.total, timer.left);
    if (timer.left > 10) timer.beeped10 = false;
    timer.beeped0 = false;
    drawTimer();
    shareTimer();
  });
  $("timer-reset").addEventListener("click", () => {
    timer.left = timer.total = K.S ? SM.timerStep(K.S.view, K.S.rules).seconds : 0;
    timer.running = false;
    timer.beeped10 = timer.beeped0 = false;
    drawTimer();
    shareTimer();
  });

  Object.assign(K, { timerSync, toggleTimer, armAutostart });
})();
