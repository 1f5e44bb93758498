/* The player's page (/play/{token}, docs/online.md): his seat's view of the table, his card (face down; a tap shows it
   for a few seconds), his checks, and the buttons his seat may use now — exactly the commands the server lists in
   `legal` (the engine's legal_commands for his seat). A command goes over his own socket (answered there with
   `ack` or `refused`), or, while the socket is down or its answer is late, by POST /api/play/commands with the
   token in X-Play-Token: the seq it was decided on and one command id across every retry, so it is applied
   once whichever way arrives. */
"use strict";
(function () {
  const P = SM.strings("play-i18n");
  const L = SM.strings("labels");
  const fmt = SM.fmt;
  const $ = (id) => document.getElementById(id);
  const root = $("play");
  const gameId = root.dataset.game;
  const me = Number(root.dataset.seat);
  const token = decodeURIComponent(location.pathname.split("/").pop());
  const clock = SM.clock($("o-timer-value"));
  const no = (n) => fmt(SM.strings("online-i18n").no, { n });
  let V = null;
  let R = null;   // the rule set's values (engine.rule_values), sent with the game's first message
  let legal = [];
  let seq = 0;
  let picked = [];      // the seats picked for the current action
  let pickKey = "";     // which action the picks belong to
  let busy = false;
  const driven = root.dataset.driven === "1";   // the server runs the table (a practice table): passes end a turn
  const bots = (root.dataset.bots || "").split(",").filter(Boolean).map(Number);   // the seats bots play
  let chose = "";   // the night whose black team's choice this seat has made (its feed does not show it)
  let shotAt = null; // the seat this player shot in the step now, from his feed (he shoots once a night)
  const marks = [];  // his feed's steps and shots, in order: {seq, e, live}; an undone takes back its entries
  let fed = -1;      // the highest number of his feed read
  const said = SM.said($("o-said"));

  // ------------------------------------------------------------------------------------------ the card
  /* The card lies face down: one box of one size, colour and text for every role, so that a glance at the phone
     tells nothing. A tap turns it over (the role, the team, the black teammates, the player's own checks, all
     inside the same box: the page does not move); it turns face down again after CARD_SHOW_MS, at every change
     of the game's step, when the page goes to the background, and on a second tap. While it is face down the
     page holds none of its text. A tap rather than a press-and-hold: a long press on a phone opens the browser's
     own menus and text selection, and a button that toggles works the same with a screen reader or a keyboard;
     the time limit and the step changes keep the card from being left open. */
  const CARD_SHOW_MS = 5000;
  const ROLE_ICON = { civilian: "♥", sheriff: "★", commissar: "★", mafia: "♠", don: "♛" };
  const TEXT_STYLE = "\uFE0E";   // the symbol drawn as text, never as a coloured emoji
  const card = $("o-card");
  const face = $("o-card-face");
  let you = null;
  let cardTimer = 0;
  let stepKey = "";

  function cardOpen() { return card.getAttribute("aria-expanded") === "true"; }
  function fillFace() {
    const role = (L.roles && L.roles[you.role]) || you.role;
    $("o-role-icon").textContent = (ROLE_ICON[you.role] || "?") + TEXT_STYLE;
    $("o-role").textContent = fmt(P.you_are, { role });
    $("o-team").textContent = fmt(P.team, { team: (L.teams && L.teams[you.team]) || you.team });
    $("o-mates").textContent = you.teammates.length
      ? fmt(P.mates, { s: you.teammates.map((m) => `${no(m.seat)} (${(L.roles && L.roles[m.role]) || m.role})`).join(", ") })
      : "";
    const checks = you.checks || [];
    $("o-checks").hidden = !checks.length;
    const ul = $("o-check-list");
    ul.textContent = "";
    for (const c of checks) {
      const li = document.createElement("li");
      const what = you.role === "don" ? (c.found ? P.found_sheriff : P.not_sheriff) : (c.found ? P.found_black : P.found_red);
      li.textContent = fmt(P.check_line, { night: c.night, seat: c.target, what });
      ul.appendChild(li);
    }
  }
  function clearFace() {
    for (const id of ["o-role-icon", "o-role", "o-team", "o-mates", "o-check-list"]) $(id).textContent = "";
    $("o-checks").hidden = true;
  }
  function setCard(open) {
    clearTimeout(cardTimer);
    open = open && !!(you && you.role);
    card.setAttribute("aria-expanded", open ? "true" : "false");
    card.querySelector(".o-card-back").hidden = open;
    card.querySelector(".o-card-hide").hidden = !open;
    face.hidden = !open;
    $("o-cardbox").classList.toggle("open", open);
    if (open) {
      fillFace();
      cardTimer = setTimeout(() => setCard(false), CARD_SHOW_MS);
    } else {
      clearFace();
    }
  }
  card.addEventListener("click", () => setCard(!cardOpen()));
  face.addEventListener("click", () => setCard(false));
  document.addEventListener("visibilitychange", () => { if (document.visibilityState !== "visible") setCard(false); });
  window.addEventListener("pagehide", () => setCard(false));

  function drawYou(v) {
    you = v.you && v.you.role ? v.you : null;
    $("o-cardbox").hidden = !you;
    // a new step (phase, day, speaker, candidate) turns the card face down; within a step it shows the news
    const key = [v.phase, v.step, v.day, v.seat, v.round, v.over].join("|");
    const moved = key !== stepKey;
    stepKey = key;
    if (moved || !you) setCard(false);
    else if (cardOpen()) fillFace();
  }

  // ------------------------------------------------------------------------------------------ actions
  /* The actions offered now, grouped from the legal commands: {key, title, targets, build(picks), label(picks), max} */
  function actions() {
    const by = {};
    for (const c of legal) (by[c.type] = by[c.type] || []).push(c);
    const out = [];
    if (by.nominate) {
      out.push({ key: "nominate", title: P.nominate, targets: by.nominate.map((c) => c.target), max: 1,
        build: (p) => ({ type: "nominate", by: me, target: p[0] }), label: (p) => fmt(P.nominate_go, { n: p[0] }) });
    }
    if (by.withdraw) {
      for (const c of by.withdraw) {
        out.push({ key: "withdraw-" + c.target, title: "", targets: [], max: 0,
          build: () => ({ type: "withdraw", by: me, target: c.target }), label: () => fmt(P.withdraw_go, { n: c.target }) });
      }
    }
    if (by.vote) {
      out.push({ key: "vote", title: P.vote, targets: by.vote.length > 1 ? by.vote.map((c) => c.candidate) : [],
        max: by.vote.length > 1 ? 1 : 0, fixed: by.vote.length === 1 ? by.vote[0].candidate : null,
        build: (p) => ({ type: "vote", voter: me, candidate: p.length ? p[0] : by.vote[0].candidate }),
        label: (p) => fmt(P.vote_go, { n: p.length ? p[0] : by.vote[0].candidate }) });
    }
    if (by.lift_vote) {
      out.push({ key: "lift", title: P.lift, targets: [], max: 0,
        build: () => ({ type: "lift_vote", voter: me }), label: () => P.lift_go });
    }
    if (by.shoot && shotAt === null) {   // a second shot of his would make the night a miss (A.night.shoot)
      out.push({ key: "shoot", title: P.shoot, targets: by.shoot.map((c) => c.target), max: 1,
        build: (p) => ({ type: "shoot", shooter: me, target: p[0] }), label: (p) => fmt(P.shoot_go, { n: p[0] }) });
    }
    if (leadsTheTeam()) {
      const targets = V.seats.filter((s) => s.alive).map((s) => s.seat);
      out.push({ key: "kill", title: P.kill, targets, max: 1,
        build: (p) => ({ type: "kill", target: p[0] }), label: (p) => fmt(P.kill_go, { n: p[0] }) });
    }
    if (by.check) {
      out.push({ key: "check", title: P.check, targets: by.check.map((c) => c.target), max: 1,
        build: (p) => ({ type: "check", checker: me, target: p[0] }), label: (p) => fmt(P.check_go, { n: p[0] }) });
    }
    if (by.best_move) {
      const targets = [...new Set(by.best_move.filter((c) => c.guesses.length === 1).map((c) => c.guesses[0]))];
      out.push({ key: "best", title: P.best, targets, max: 3,
        build: (p) => ({ type: "best_move", seat: me, guesses: p.slice() }),
        label: (p) => fmt(P.best_go, { s: p.map(no).join(", ") }) });
    }
    return out;
  }

  /* The tournament's agreed kill at a table the server runs (docs/bots.md): the black team's leader makes it, the
     lowest living black seat a person holds (the bots follow), as the server checks it again when it arrives. */
  function leadsTheTeam() {
    if (!driven || !V || V.over || V.step !== "kill" || !you || you.team !== "black" || chose === nightKey()) return false;
    const living = (s) => V.seats[s - 1] && V.seats[s - 1].alive;
    const black = [me, ...you.teammates.map((m) => m.seat)].filter(living);
    const people = black.filter((s) => !bots.includes(s));
    return Math.min(...(people.length ? people : black)) === me;
  }
  const nightKey = () => (V ? `${V.day}|${V.step}` : "");

  function drawActions() {
    const acts = actions();
    const box = $("o-act-seats");
    box.textContent = "";
    const go = $("o-act-go");
    const extra = document.querySelectorAll(".o-act-extra");
    extra.forEach((b) => b.remove());
    const shot = shotAt !== null && V && V.step === "shooting";
    $("o-act-wait").hidden = acts.length > 0 || shot;
    $("o-act-title").textContent = shot ? fmt(P.shot_done, { n: shotAt }) : "";
    go.hidden = true;
    if (!acts.length) { picked = []; pickKey = ""; return; }
    const main = acts.find((a) => a.max > 0) || acts[0];
    if (pickKey !== main.key) { picked = []; pickKey = main.key; }
    picked = picked.filter((s) => main.targets.includes(s));
    $("o-act-title").textContent = main.title || "";
    for (const t of main.targets) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "o-pick";
      b.dataset.target = String(t);
      b.textContent = String(t);
      b.setAttribute("aria-pressed", picked.includes(t) ? "true" : "false");
      b.setAttribute("aria-label", `${no(t)} · ${V.seats[t - 1].name}`);
      b.addEventListener("click", () => {
        if (picked.includes(t)) picked = picked.filter((x) => x !== t);
        else if (main.max === 1) picked = [t];
        else if (picked.length < main.max) picked.push(t);
        drawActions();
      });
      box.appendChild(b);
    }
    if (main.max === 0 || picked.length) {
      go.hidden = false;
      go.dataset.kind = main.key;
      go.textContent = main.label(picked);
      go.onclick = () => send(main.build(picked));
    }
    // further one-tap actions (withdrawals) below the main one
    for (const a of acts) {
      if (a === main) continue;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "ghost o-act-extra";
      b.dataset.kind = a.key;
      b.textContent = a.label([]);
      b.addEventListener("click", () => send(a.build([])));
      go.after(b);
    }
  }

  /* The status line answers one action ("Sent…", "Done.", a refusal): it belongs to the step the action was
     made in, and goes with it (a new speaker, the vote, the night: show() clears it). A revoked link's stays. */
  let feedbackStep = null;   // the step the line answers (null: it stays)
  const actionStep = (v) => (v ? [v.phase, v.step, v.day, v.seat, v.round, v.vote && v.vote.kind, v.over].join("|") : "");
  function feedback(text, cls, forStep) {
    if (forStep !== undefined && forStep !== actionStep(V)) text = "";   // its step has gone meanwhile
    const el = $("o-feedback");
    el.textContent = text || "";
    el.className = "o-feedback " + (cls || "");
    feedbackStep = text && forStep !== undefined ? forStep : null;
  }

  const waiting = new Map();   // command id → resolve(answer or null) for commands sent over the socket
  const SOCKET_ANSWER_MS = 5000;

  /* Over the socket: {status, data} when it answers in time, null when it is down or late. */
  function viaSocket(body, type) {
    if (!link || !link.send({ type: type || "command", ...body })) return Promise.resolve(null);
    return new Promise((resolve) => {
      const t = setTimeout(() => { waiting.delete(body.command_id); resolve(null); }, SOCKET_ANSWER_MS);
      waiting.set(body.command_id, (m) => { clearTimeout(t); waiting.delete(body.command_id); resolve(m); });
    });
  }
  function answered(m) {
    const done = waiting.get(m.command_id);
    if (!done) return;
    done(m.type === "ack" ? { status: 200, data: m } : { status: m.status, data: m });
  }
  function socketDown() { for (const done of [...waiting.values()]) done(null); }

  /* Over HTTP: {status, data}, or null when the request did not get through. */
  async function viaHttp(body, path) {
    try {
      const r = await fetch(path || "/api/play/commands", {
        method: "POST", credentials: "omit",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-Play-Token": token },
        body: JSON.stringify(body),
      });
      let data = null;
      try { data = await r.json(); } catch (e) { data = null; }
      return { status: r.status, data };
    } catch (e) {
      return null;
    }
  }

  async function send(command) {
    if (busy) return;
    busy = true;
    const body = { game_id: gameId, command, expected_seq: seq, command_id: SM.uuid() };
    const made = actionStep(V);
    feedback(P.sending, "saving", made);
    document.querySelectorAll("#o-actions button").forEach((b) => { b.disabled = true; });
    try {
      for (let attempt = 0; attempt < 6; attempt++) {
        // the same command id every time: never applied twice, whichever way it arrives
        const a = (await viaSocket(body)) || (await viaHttp(body));
        if (!a) {
          feedback(P.retry, "warn", made);
          await new Promise((res) => setTimeout(res, 800 * (attempt + 1)));
          continue;
        }
        if (a.status === 200) {
          if (command.type === "kill") { chose = nightKey(); drawActions(); }
          feedback(P.done, "ok", made); picked = []; root.dataset.sent = String((Number(root.dataset.sent) || 0) + 1);
          return;
        }
        if (a.status === 401) { feedback(P.revoked, "error"); return; }
        if (a.data && a.data.error && a.data.error.code === "stale") { feedback(P.stale, "warn", made); return; }
        feedback(SM.errorText(a.data), "error", made);
        return;
      }
    } finally {
      busy = false;
      document.querySelectorAll("#o-actions button").forEach((b) => { b.disabled = false; });
    }
  }

  // ------------------------------------------------------------------------------------------ speech and passes
  /* A claim of his speech ("I suspect #4", docs/bots.md) or a pass (at a table the server runs: his speech ends,
     or he does not vote, shoot or check now): over the socket, or by HTTP when it is down (a claim said twice at
     one moment is kept once). */
  async function talk(type, fields, path) {
    if (busy) return;
    busy = true;
    const made = actionStep(V);
    const body = { game_id: gameId, command_id: SM.uuid(), ...fields };
    feedback(P.sending, "saving", made);
    try {
      const a = (await viaSocket(body, type)) || (await viaHttp(body, path));
      if (!a) feedback(P.retry, "warn", made);
      else if (a.status === 200) feedback(type === "pass" ? "" : P.said_ok, "ok", made);
      else if (a.status === 401) feedback(P.revoked, "error");
      else feedback(SM.errorText(a.data), "error", made);
    } finally {
      busy = false;
      if (type === "claim") { sayKind = null; drawSay(); }
    }
  }
  const passTurn = () => talk("pass", { seen: seq }, "/api/play/pass");
  const sayClaim = (claim) => talk("claim", { claim }, "/api/play/claims");

  const KINDS = [
    { key: "suspect", target: true }, { key: "trust", target: true }, { key: "vote", target: true },
    { key: "lying", target: true }, { key: "check-red", target: true, claim: { kind: "check", color: "red" } },
    { key: "check-black", target: true, claim: { kind: "check", color: "black" } },
    { key: "role-checker", target: false }, { key: "role-red", target: false, claim: { kind: "role", role: "civilian" } },
  ];
  let sayKind = null;
  const speaking = () => !!(V && R && !V.over && V.seat === me && R.speech_steps.includes(V.step));
  function drawSay() {
    const box = $("o-say");
    box.hidden = !speaking();
    if (box.hidden) { sayKind = null; return; }
    const kinds = $("o-say-kinds");
    kinds.textContent = "";
    for (const k of KINDS) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "o-chip";
      b.dataset.kind = k.key;
      b.setAttribute("aria-pressed", sayKind === k ? "true" : "false");
      b.textContent = k.key === "role-checker" ? (R.checker === "commissar" ? P.say_commissar : P.say_sheriff)
        : P["say_" + k.key.replace("-", "_")];
      b.addEventListener("click", () => {
        if (!k.target) {
          sayClaim(k.claim || { kind: "role", role: R.checker || "sheriff" });
          return;
        }
        sayKind = sayKind === k ? null : k;
        drawSay();
      });
      kinds.appendChild(b);
    }
    const seats = $("o-say-seats");
    seats.textContent = "";
    if (!sayKind) return;
    for (const s of V.seats) {
      if (s.seat === me) continue;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "o-pick";
      b.dataset.target = String(s.seat);
      b.textContent = String(s.seat);
      b.setAttribute("aria-label", `${no(s.seat)} · ${s.name}`);
      b.addEventListener("click", () => sayClaim({ ...(sayKind.claim || { kind: sayKind.key }), target: s.seat }));
      seats.appendChild(b);
    }
  }
  function drawPass() {
    const b = $("o-pass");
    const mine = speaking();
    b.hidden = !driven || !V || V.over || !(mine || legal.length);
    b.textContent = mine ? P.end_speech : P.pass;
  }
  $("o-pass").addEventListener("click", passTurn);

  /* The game's record (docs/game-record.md) with the claims, once it is over: a file to keep or to study. */
  $("o-record").addEventListener("click", async () => {
    const r = await fetch("/api/play/record", { credentials: "omit", headers: { Accept: "application/json", "X-Play-Token": token } });
    if (r.status !== 200) { feedback(SM.errorText(await r.json().catch(() => null)), "error"); return; }
    const url = URL.createObjectURL(new Blob([await r.text()], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `game-${gameId}.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });

  // ------------------------------------------------------------------------------------------ the table
  function show(m) {
    for (const e of m.events || []) {   // his own shot is in his feed; a new step begins without one
      if (e.seq <= fed) continue;
      fed = e.seq;
      if (e.type === "undone") {   // the last live action taken back: its entries are those from `undoes` on
        for (const k of marks) if (k.seq >= e.undoes) k.live = false;
      } else if (e.type === "step" || (e.type === "shot_fired" && e.shooter === me)
                 || (e.type === "volley_fired" && e.shooters.includes(me))) {
        marks.push({ seq: e.seq, e, live: true });   // a step, his shot, or the host's "all shoot" for him
      }
    }
    shotAt = null;   // his live shot since the last live step (a step undone brings back the one before)
    for (let i = marks.length - 1; i >= 0; i--) {
      const k = marks[i];
      if (!k.live) continue;
      if (k.e.type === "step") break;
      if (shotAt === null) shotAt = k.e.target;
    }
    V = m.view;
    if (m.rules) R = m.rules;   // the rule set's values, with the game's first message
    legal = m.legal || [];
    seq = m.next_seq;
    root.dataset.seq = String(seq);
    root.dataset.step = V.step;
    document.documentElement.classList.toggle("night", V.phase === "night");
    $("o-banner").textContent = V.banner[SM.lang] || V.banner.en;
    const mine = V.seats[me - 1];
    $("o-info").textContent = !mine.alive && !V.over ? P.dead : SM.infoLine(V);
    SM.voteLines($("o-votes"), V);
    drawYou(V);
    SM.board($("o-seats"), V, { me, rules: R });
    drawActions();
    drawSay();
    drawPass();
    $("o-end").hidden = !V.over;
    clock.step(V, R);
    if (!busy && feedbackStep !== null && feedbackStep !== actionStep(V)) feedback("");
  }

  const link = SM.follow(() => SM.wsUrl("/ws/play"), {
    hello: (since) => ({ type: "hello", token, since: since === null ? 0 : since }),
    onLink: (s, code) => {
      SM.linkState($("o-link"), s === "gone" ? "offline" : s);
      if (s !== "live") socketDown();   // what was sent on it goes again by HTTP (same command id)
      if (s === "gone" && code === 4401) { feedback(P.revoked, "error"); $("o-link").dataset.state = "gone"; }
    },
    onMessage(m) {
      if (m.type === "state") said.reset();
      if (m.type === "state" || m.type === "events") show(m);
      else if (m.type === "claims") said.take(m);
      else if (m.type === "ack" || m.type === "refused") answered(m);
      else if (m.type === "timer") clock.set(m);
      else if (m.type === "error" && m.error && m.error.code === "revoked") feedback(P.revoked, "error");
    },
  });
  // keep the phone awake while the game runs
  if (navigator.wakeLock) {
    const lock = () => navigator.wakeLock.request("screen").catch(() => {});
    lock();
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") lock(); });
  }
})();
