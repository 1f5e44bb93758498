/* The host's console: one screen for the whole game, built from GET /api/games/{id} ({next_seq, view, legal}).
   Every button and seat tap is one of the legal commands; each is sent with its own command id and the expected
   seq, retried with the same id after a network failure, and the state is reloaded after it is confirmed. */
"use strict";
(function () {
  const T = SM.strings("console-i18n");
  const L = SM.strings("labels");
  const lang = SM.lang;
  const root = document.getElementById("console");
  const gameId = root.dataset.game;
  const $ = (id) => document.getElementById(id);

  const BLACK = new Set(["mafia", "don"]);
  const SPEECH_STEPS = new Set(["speech", "muted", "last_word", "tie_speech", "defence"]);
  const MAX_FOULS = 4;

  let S = null;                 // {next_seq, view, legal}
  let mode = null;              // null | {kind: "foul"|"remove", reason} | {kind: "judge"}
  let shooter = "all";          // at the shooting step: "all" or a seat
  let showRoles = false;
  let lastCheck = null;         // {checker, target, step} sent and awaiting the answer
  const queue = [];
  let pumping = false;

  // ---------------------------------------------------------------- helpers
  const legalOf = (type) => (S ? S.legal.filter((c) => c.type === type) : []);
  const has = (type) => legalOf(type).length > 0;
  const seatOf = (n) => S.view.seats[n - 1];
  const fmt = SM.fmt;
  const NO = T.no;   // "№" in Russian, "#" in English

  function showMessage(text, kind) {
    const el = $("message");
    el.textContent = text || "";
    el.hidden = !text;
    el.className = "message" + (kind ? " " + kind : "");
  }

  function setSaving(on, text) {
    const el = $("saving");
    el.hidden = !on;
    el.textContent = text || T.saving || el.textContent;
    root.dataset.saving = on ? "1" : "";
  }
  T.saving = $("saving").textContent;

  // a small confirmation / prompt dialog that works with touch and keyboard
  function ask(text, withInput) {
    return new Promise((resolve) => {
      const modal = $("modal");
      const input = $("modal-input");
      $("modal-text").textContent = text;
      input.hidden = !withInput;
      input.value = "";
      modal.hidden = false;
      (withInput ? input : $("modal-ok")).focus();
      function done(ok) {
        modal.hidden = true;
        $("modal-ok").onclick = $("modal-cancel").onclick = null;
        input.onkeydown = null;
        if (!ok) return resolve(null);
        if (withInput && !input.value.trim()) return resolve(null);
        resolve(withInput ? input.value.trim() : true);
      }
      $("modal-ok").onclick = () => done(true);
      $("modal-cancel").onclick = () => done(false);
      input.onkeydown = (e) => { if (e.key === "Enter") done(true); };
    });
  }

  // ---------------------------------------------------------------- the network
  async function load() {
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await SM.api("GET", `/api/games/${gameId}`);
        if (r.status === 200) {
          S = r.body;
          render();
          return;
        }
        showMessage(SM.errorText(r.body), "error");
        return;
      } catch (e) {
        setSaving(true, SM.strings("common-i18n").network);
        await new Promise((res) => setTimeout(res, Math.min(5000, 500 * 2 ** attempt)));
      }
    }
  }

  function send(...commands) {
    for (const command of commands) queue.push({ body: { command, command_id: SM.uuid(), expected_seq: null }, tries: 0 });
    pump();
  }

  async function pump() {
    if (pumping) return;
    pumping = true;
    setSaving(true);
    let reload = false;
    try {
      while (queue.length) {
        const item = queue[0];
        if (item.body.expected_seq === null) item.body.expected_seq = S.next_seq;
        let r;
        try {
          r = await SM.api("POST", `/api/games/${gameId}/commands`, item.body);   // the same body on every retry
        } catch (e) {
          item.tries += 1;   // the network: the same command id again, applied at most once
          setSaving(true, SM.strings("common-i18n").network);
          await new Promise((res) => setTimeout(res, Math.min(5000, 400 * 2 ** item.tries)));
          continue;
        }
        if (r.status >= 500) {
          item.tries += 1;
          await new Promise((res) => setTimeout(res, Math.min(5000, 400 * 2 ** item.tries)));
          continue;
        }
        setSaving(true);
        queue.shift();
        reload = true;
        if (r.status === 200) {
          S.next_seq = r.body.next_seq;
          showMessage("");
        } else if (r.status === 409 && r.body && r.body.error && r.body.error.code === "stale") {
          queue.length = 0;
          showMessage(T.stale, "warn");
        } else {
          queue.length = 0;
          lastCheck = null;
          showMessage(fmt(T.refused, { msg: SM.errorText(r.body) }), "error");
        }
      }
      if (reload) await load();
    } finally {
      pumping = false;
      setSaving(false);
      if (queue.length) pump();
    }
    if (lastCheck) revealCheck();
  }

  // ---------------------------------------------------------------- actions on seats
  function tapAction(n) {
    if (!S) return null;
    const v = S.view;
    if (mode && mode.kind === "foul") {
      const tpl = legalOf("foul").find((c) => c.seat === n);
      if (!tpl) return null;
      const reason = mode.reason;
      return () => { mode = null; send({ ...tpl, reason, technical: false }); };
    }
    if (mode && mode.kind === "remove") {
      const tpl = legalOf("remove").find((c) => c.seat === n);
      if (!tpl) return null;
      const reason = mode.reason;
      return async () => {
        const ok = await ask(fmt(T.remove_confirm, { s: NO + n, name: seatOf(n).name }));
        mode = null;
        render();
        if (ok) send({ ...tpl, reason });
      };
    }
    if (mode) return null;
    const nominate = legalOf("nominate").filter((c) => c.target === n);
    if (nominate.length) return () => send(nominate.find((c) => !c.also || !c.also.length) || nominate[0]);
    const withdraw = legalOf("withdraw").find((c) => c.target === n);
    if (withdraw) return () => send(withdraw);
    const vote = legalOf("vote").find((c) => c.voter === n);
    if (vote) return () => send(vote);
    const lift = legalOf("lift_vote").find((c) => c.voter === n);
    if (lift) return () => send(lift);
    const shots = legalOf("shoot").filter((c) => c.target === n && (shooter === "all" || c.shooter === shooter));
    if (shots.length) {
      const one = new Map();
      for (const c of shots) if (!one.has(c.shooter)) one.set(c.shooter, c);
      return () => { send(...one.values()); shooter = "all"; };
    }
    const kill = legalOf("kill").find((c) => c.target === n);
    if (kill) return () => send(kill);
    const check = legalOf("check").find((c) => c.target === n);
    if (check) return () => { lastCheck = { checker: check.checker, target: n, step: v.step }; send(check); };
    return null;
  }

  function tapSeat(n) {
    const act = tapAction(n);
    if (act) act();
  }

  function revealCheck() {
    const c = lastCheck;
    lastCheck = null;
    const found = (S.view.checks || []).filter((x) => x.target === c.target && x.checker === c.checker).pop();
    if (!found) return;
    let text;
    if (c.step === "check_don") {
      const role = S.view.seats.some((s) => s.role === "commissar") ? L.roles.commissar : L.roles.sheriff;
      text = fmt(found.found ? T.check_answer_don_yes : T.check_answer_don_no, { s: NO + c.target, role });
    } else {
      text = fmt(found.found ? T.check_answer_sheriff_yes : T.check_answer_sheriff_no, { s: NO + c.target });
    }
    $("answer-text").textContent = text;
    $("answer").className = "answer " + (found.found ? "yes" : "no");
    $("answer").hidden = false;
    $("answer-close").focus();
  }

  // ---------------------------------------------------------------- rendering
  /* a badge: its text in full, and a short form shown on narrow screens */
  function badge(text, cls, short) {
    const b = document.createElement("span");
    b.className = "badge " + (cls || "");
    const full = document.createElement("span");
    full.className = "full";
    full.textContent = text;
    b.appendChild(full);
    if (short) {
      const sh = document.createElement("span");
      sh.className = "short";
      sh.textContent = short;
      sh.setAttribute("aria-hidden", "true");
      b.appendChild(sh);
      b.classList.add("has-short");
    }
    return b;
  }

  function seatTile(seat) {
    const v = S.view;
    const n = seat.seat;
    const tile = document.createElement("button");
    tile.type = "button";
    tile.className = "seat";
    tile.dataset.seat = String(n);
    tile.dataset.alive = seat.alive ? "1" : "0";
    if (!seat.alive) tile.classList.add("gone");
    const speaking = SPEECH_STEPS.has(v.step) && v.seat === n;
    if (speaking) tile.classList.add("speaking");
    if (v.step === "voting" && v.seat === n) tile.classList.add("candidate");
    const act = tapAction(n);
    tile.classList.toggle("actionable", !!act);
    tile.setAttribute("aria-disabled", act ? "false" : "true");

    const num = document.createElement("span");
    num.className = "num";
    num.textContent = String(n);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.name;
    const fouls = document.createElement("span");
    fouls.className = "fouls";
    fouls.textContent = "●".repeat(Math.min(seat.fouls, MAX_FOULS)) + "○".repeat(Math.max(0, MAX_FOULS - seat.fouls));
    fouls.title = fouls.ariaLabel = `${seat.fouls}`;
    tile.append(num, name, fouls);

    const badges = document.createElement("span");
    badges.className = "badges";
    if (speaking) badges.appendChild(badge("♪ " + T.speaking, "speaking", "♪"));
    const daytime = v.phase === "day";
    if (daytime && seat.nominated_by && seat.nominated_by.length) {
      const by = seat.nominated_by.map((x) => NO + x).join(", ");
      badges.appendChild(badge("▲ " + fmt(T.nominated_by, { s: by }), "nominated", "▲" + by));
    } else if (daytime && v.candidates.includes(n)) {
      badges.appendChild(badge("▲ " + T.nominated, "nominated", "▲"));
    }
    if (seat.muted_day !== null && seat.muted_day >= v.day && seat.alive) badges.appendChild(badge("∅ " + T.muted, "muted", "∅"));
    if (seat.left) {
      const how = L.how[seat.left.how] || seat.left.how;
      const when = `${seat.left.phase === "night" ? T.night : T.day} ${seat.left.day}`;
      badges.appendChild(badge(`✝ ${how}, ${when}`, "left", `✝${seat.left.phase === "night" ? "☾" : "☀"}${seat.left.day}`));
    }
    const votedFor = v.vote && v.vote.votes ? v.vote.votes[String(n)] : undefined;
    if (votedFor !== undefined && v.step === "voting") badges.appendChild(badge(`✓ ${T.voted_for} ${NO}${votedFor}`, "voted", `✓${NO}${votedFor}`));
    if (v.step === "lift" && v.vote.lift.includes(n)) badges.appendChild(badge("✓ " + T.lift_yes, "voted", "✓"));
    if (v.phase === "night" && v.night) {
      const shots = v.night.shots[String(n)];
      if (shots && shots.length) {
        const at = shots.map((x) => NO + x).join(", ");
        badges.appendChild(badge(`⊕ ${T.shooter} → ${at}`, "shot", `⊕${at}`));
      }
      if (v.night.kill === n) badges.appendChild(badge("☠", "shot"));
    }
    tile.appendChild(badges);

    if (showRoles && seat.role) {
      const role = document.createElement("span");
      role.className = "role " + (BLACK.has(seat.role) ? "black" : "red");
      role.textContent = (BLACK.has(seat.role) ? "♠ " : "♥ ") + (L.roles[seat.role] || seat.role);
      tile.appendChild(role);
      tile.classList.add(BLACK.has(seat.role) ? "role-black" : "role-red");
    }
    const label = [fmt(T.seat_label, { s: n }), seat.name, ...Array.from(badges.querySelectorAll(".full"), (b) => b.textContent)];
    tile.setAttribute("aria-label", label.join(", "));
    tile.addEventListener("click", () => tapSeat(n));
    return tile;
  }

  function chip(text, onClick, pressed, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chip" + (cls ? " " + cls : "");
    b.textContent = text;
    if (pressed !== undefined) b.setAttribute("aria-pressed", pressed ? "true" : "false");
    b.addEventListener("click", onClick);
    return b;
  }

  function columns(n) {
    if (n <= 10) return 5;
    return window.innerWidth < 600 ? Math.ceil(n / 3) : Math.ceil(n / 2);
  }

  function renderContext() {
    const v = S.view;
    const ctx = $("context");
    const choices = $("choices");
    ctx.textContent = "";
    choices.textContent = "";
    const line = (text, cls) => { const p = document.createElement("p"); p.textContent = text; if (cls) p.className = cls; ctx.appendChild(p); return p; };

    if (mode && (mode.kind === "foul" || mode.kind === "remove")) {
      line(mode.kind === "foul" ? T.foul_hint : T.remove_hint, "hint");
      const reasons = mode.kind === "foul" ? L.foul_reasons : L.removal_reasons;
      for (const [code, text] of reasons) {
        choices.appendChild(chip(text, () => { mode.reason = code; render(); }, mode.reason === code));
      }
      choices.appendChild(chip("✕ " + T.cancel_mode, () => { mode = null; render(); }, undefined, "cancel"));
      return;
    }
    if (mode && mode.kind === "judge") {
      line(T.judge_hint, "hint");
      for (const c of S.legal) {
        if (!["award", "override", "team_defeat"].includes(c.type)) continue;
        const who = c.type === "team_defeat" ? L.teams[c.team] : L.teams[String(c.winner).toLowerCase()];
        const what = T[c.type];
        choices.appendChild(chip(`${what}: ${who}`, async () => {
          const reason = await ask(`${what}: ${who}. ${T.reason_prompt}`, true);
          mode = null;
          render();
          if (reason) send({ ...c, reason });
        }));
      }
      choices.appendChild(chip("✕ " + T.cancel_mode, () => { mode = null; render(); }, undefined, "cancel"));
      return;
    }
    if (v.over) {
      line(fmt(T.result, { r: L.results[v.result] || v.result }));
      if (v.final_words && v.final_words.length) line(fmt(T.final_words, { s: v.final_words.map((x) => NO + x).join(", ") }));
      return;
    }
    if (has("deal")) { line(T.deal_first, "hint"); return; }
    if (has("nominate") || v.step === "speech") {
      if (has("nominate")) line(T.tap_to_nominate, "hint");
      line(`${T.nominations}: ${v.candidates.length ? v.candidates.map((x) => NO + x).join(", ") : T.none}`);
      return;
    }
    if (v.step === "voting") {
      const c = v.seat;
      const voters = new Set(legalOf("vote").map((x) => x.voter));
      const count = Object.values(v.vote.votes).filter((x) => x === c).length;
      line(fmt(T.vote_hint, { c: NO + c }), "hint");
      line(`${fmt(T.votes_for, { c: NO + c, n: count })} · ${fmt(T.votes_remain, { n: voters.size })}`, "big-line");
      const cands = v.vote.candidates;
      line(`${T.candidate}: ${cands.map((x) => (x === c ? `[${NO}${x}]` : `${NO}${x}`)).join(" · ")}`);
      if (cands.length > 1 && c === cands[cands.length - 2]) line(T.last_default, "note");
      return;
    }
    if (v.step === "lift") {
      const total = v.seats.filter((s) => s.alive).length;
      line(fmt(T.lift_hint, { c: v.vote.candidates.map((x) => NO + x).join(", ") }), "hint");
      line(fmt(T.lift_count, { n: v.vote.lift.length, m: total }), "big-line");
      return;
    }
    if (v.step === "shooting") {
      line(T.shoot_hint, "hint");
      const shooters = [...new Set(legalOf("shoot").map((c) => c.shooter))];
      if (shooters.length) {
        choices.appendChild(chip("⊕ " + T.all_shoot, () => { shooter = "all"; render(); }, shooter === "all"));
        for (const s of shooters) choices.appendChild(chip(`${T.shooter} ${NO}${s}`, () => { shooter = s; render(); }, shooter === s));
      }
      const shots = Object.entries(v.night ? v.night.shots : {});
      line(`${T.shots_so_far}: ${shots.length ? shots.map(([s, t]) => `${NO}${s} → ${t.map((x) => NO + x).join(", ")}`).join("; ") : T.none}`);
      return;
    }
    if (v.step === "kill") { line(T.kill_hint, "hint"); return; }
    if (v.step.startsWith("check_")) { if (has("check")) line(T.check_hint, "hint"); return; }
  }

  function render() {
    if (!S) return;
    const v = S.view;
    root.dataset.step = v.step;
    root.dataset.phase = v.phase;
    root.dataset.day = String(v.day);
    root.dataset.seat = String(v.seat);
    root.dataset.over = v.over ? "1" : "";
    root.dataset.nextSeq = String(S.next_seq);
    document.body.classList.toggle("night", v.phase === "night");
    document.documentElement.classList.toggle("night", v.phase === "night");
    if (v.step !== "shooting") shooter = "all";

    if (v.over) {
      $("banner").textContent = v.winner ? fmt(T.winner, { team: L.teams[v.winner] }) : T.game_over;
      $("subline").textContent = v.banner[lang] || v.banner.en;
    } else {
      $("banner").textContent = v.banner[lang] || v.banner.en;
      $("subline").textContent = "";
    }

    const seats = $("seats");
    seats.style.setProperty("--cols", String(columns(v.players)));
    seats.textContent = "";
    for (const seat of v.seats) seats.appendChild(seatTile(seat));
    renderContext();

    const next = $("next");
    const adv = has("advance");
    next.hidden = !adv;
    $("next-label").textContent = v.step === "voting" ? T.thanks : T.next;
    $("next-sub").textContent = v.step === "voting" ? T.close_vote : v.banner[lang] || "";
    $("deal").hidden = !has("deal");
    $("draw").hidden = !(has("draw_first_speaker") || has("draw_lot"));
    $("undo").disabled = !has("undo");
    $("foul").disabled = !has("foul");
    $("foul").setAttribute("aria-pressed", mode && mode.kind === "foul" ? "true" : "false");
    $("remove").disabled = !has("remove");
    $("remove").setAttribute("aria-pressed", mode && mode.kind === "remove" ? "true" : "false");
    $("judge").disabled = !(has("award") || has("override") || has("team_defeat"));
    $("judge").setAttribute("aria-pressed", mode && mode.kind === "judge" ? "true" : "false");
    timerSync();
  }

  // ---------------------------------------------------------------- buttons
  function next() {
    if (!$("deal").hidden) return $("deal").click();
    if (!$("draw").hidden) return $("draw").click();
    const adv = legalOf("advance")[0];
    if (adv) send(adv);
  }
  $("next").addEventListener("click", next);
  $("deal").addEventListener("click", () => { const c = legalOf("deal")[0]; if (c) send({ type: "deal" }); });
  $("draw").addEventListener("click", () => {
    const c = legalOf("draw_first_speaker")[0] || legalOf("draw_lot")[0];
    if (c) send({ type: c.type });
  });
  async function undo() {
    const c = legalOf("undo")[0];
    if (!c) return;
    if (await ask(T.undo_confirm)) send(c);
  }
  $("undo").addEventListener("click", undo);
  function toggleMode(kind) {
    mode = mode && mode.kind === kind ? null : { kind, reason: kind === "foul" ? L.foul_reasons[0][0] : kind === "remove" ? L.removal_reasons[0][0] : "" };
    render();
  }
  $("foul").addEventListener("click", () => toggleMode("foul"));
  $("remove").addEventListener("click", () => toggleMode("remove"));
  $("judge").addEventListener("click", () => toggleMode("judge"));
  $("answer-close").addEventListener("click", () => { $("answer").hidden = true; });

  function setRoles(on) {
    if (showRoles === on) return;
    showRoles = on;
    $("roles").setAttribute("aria-pressed", on ? "true" : "false");
    render();
  }
  const roles = $("roles");
  roles.addEventListener("pointerdown", (e) => { e.preventDefault(); setRoles(true); });
  for (const ev of ["pointerup", "pointerleave", "pointercancel", "blur"]) roles.addEventListener(ev, () => setRoles(false));
  roles.addEventListener("contextmenu", (e) => e.preventDefault());

  // ---------------------------------------------------------------- the timer
  const timer = { key: "", left: 0, total: 0, running: false, last: 0, beeped10: false, beeped0: false };
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

  function timerSync() {
    const v = S.view;
    const key = `${v.step}|${v.day}|${v.seat}|${v.round}|${v.seconds}`;
    if (key !== timer.key) {
      timer.key = key;
      timer.total = v.seconds || 0;
      timer.left = timer.total;
      timer.running = false;
      timer.beeped10 = timer.beeped0 = false;
    }
    drawTimer();
  }

  function drawTimer() {
    const s = Math.max(0, Math.ceil(timer.left));
    $("timer-value").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    $("timer-state").textContent = timer.running ? "▶ " + T.running : "■ " + T.paused;
    const el = $("timer");
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
  }
  $("timer").addEventListener("click", toggleTimer);
  $("timer-plus").addEventListener("click", () => {
    timer.left += 10;
    timer.total = Math.max(timer.total, timer.left);
    if (timer.left > 10) timer.beeped10 = false;
    timer.beeped0 = false;
    drawTimer();
  });
  $("timer-reset").addEventListener("click", () => {
    timer.left = timer.total = S ? S.view.seconds || 0 : 0;
    timer.running = false;
    timer.beeped10 = timer.beeped0 = false;
    drawTimer();
  });

  // ---------------------------------------------------------------- the keyboard
  let digits = "";
  let digitTimer = null;
  function pickDigits() {
    const n = Number(digits);
    digits = "";
    if (n >= 1 && S && n <= S.view.players) tapSeat(n);
  }
  document.addEventListener("keydown", (e) => {
    if (!$("modal").hidden) { if (e.key === "Escape") $("modal-cancel").click(); return; }
    if (!$("answer").hidden) { if (e.key === "Escape" || e.key === "Enter" || e.key === " ") { e.preventDefault(); $("answer-close").click(); } return; }
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (/^[0-9]$/.test(k)) {
      digits += k;
      clearTimeout(digitTimer);
      const n = Number(digits);
      if (S && n * 10 <= S.view.players && digits.length < 2) digitTimer = setTimeout(pickDigits, 700);
      else pickDigits();
      return;
    }
    const key = k.toLowerCase();
    if (key === "n" || key === "т") next();
    else if (key === "u" || key === "b" || key === "г" || key === "и") undo();
    else if (key === "f" || key === "а") toggleMode("foul");
    else if (key === "r" || key === "к") setRoles(true);
    else if (k === " ") { e.preventDefault(); toggleTimer(); }
    else if (k === "Escape") { mode = null; render(); }
    else return;
  });
  document.addEventListener("keyup", (e) => { const key = e.key.toLowerCase(); if (key === "r" || key === "к") setRoles(false); });
  window.addEventListener("resize", () => { if (S) $("seats").style.setProperty("--cols", String(columns(S.view.players))); });

  load();
})();
