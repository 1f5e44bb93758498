/* The table view: a projector's or second screen's picture of the game, built only from the spectator view that
   the live socket (view=table) sends. It never reads the host's API. The timer follows the host's console. */
"use strict";
(function () {
  const T = SM.strings("table-i18n");
  const L = SM.strings("labels");
  const lang = SM.lang;
  const root = document.getElementById("table");
  const gameId = root.dataset.game;
  const $ = (id) => document.getElementById(id);
  const fmt = SM.fmt;
  const NO = T.no;
  const RULES = SM.strings("table-rules");   // the rule set's values (engine.rule_values)
  let V = null;           // the spectator view now
  let nextSeq = 0;

  const seatName = (n) => NO + n;
  const seatList = (xs) => xs.map(seatName).join(", ");

  function badge(text, cls) {
    const b = document.createElement("span");
    b.className = "t-badge " + (cls || "");
    b.textContent = text;
    return b;
  }

  function tile(seat) {
    const v = V;
    const n = seat.seat;
    const el = document.createElement("div");
    el.className = "t-seat";
    el.dataset.seat = String(n);
    el.dataset.alive = seat.alive ? "1" : "0";
    if (!seat.alive) el.classList.add("gone");
    const speaking = RULES.speech_steps.includes(v.step) && v.seat === n;
    const onBallot = (v.step === "voting" && v.seat === n);
    if (speaking) el.classList.add("speaking");
    if (onBallot) el.classList.add("ballot");

    const head = document.createElement("div");
    head.className = "t-seat-head";
    const num = document.createElement("span");
    num.className = "t-num";
    num.textContent = String(n);
    const fouls = document.createElement("span");
    fouls.className = "t-fouls";
    const f = Math.max(0, seat.fouls || 0);
    fouls.textContent = SM.dots(f, RULES.foul_remove);   // A.foul.four: the foul that removes is the last dot
    fouls.title = fmt(T.fouls, { n: f });
    fouls.setAttribute("aria-label", fmt(T.fouls, { n: f }));
    head.append(num, fouls);
    const name = document.createElement("span");
    name.className = "t-name fit-name";
    name.textContent = seat.name;
    el.append(head, name);
    if (seat.role) {   // at the end only: the spectator view has every role once the game is over
      const role = document.createElement("span");
      role.className = "t-role " + (RULES.black_roles.includes(seat.role) ? "black" : "red");
      role.dataset.role = seat.role;
      role.textContent = (L.roles && L.roles[seat.role]) || seat.role;
      el.appendChild(role);
    }

    const badges = document.createElement("div");
    badges.className = "t-badges";
    if (speaking) badges.appendChild(badge("♪ " + T.speaks, "speaks"));
    if (onBallot) badges.appendChild(badge("☐ " + T.on_ballot, "ballot"));
    if (v.phase === "day" && seat.nominated_by && seat.nominated_by.length) {
      badges.appendChild(badge("▲ " + fmt(T.put_up_by, { s: seatList(seat.nominated_by) }), "put-up"));
    } else if (v.phase === "day" && v.candidates.includes(n)) {
      badges.appendChild(badge("▲ " + T.on_ballot, "put-up"));
    }
    const votedFor = v.vote && v.vote.votes ? v.vote.votes[String(n)] : undefined;
    if (votedFor !== undefined && (v.step === "voting" || v.step === "lift")) {
      badges.appendChild(badge("✓ " + fmt(T.voted, { s: seatName(votedFor) }), "voted"));
    }
    if (v.step === "lift" && v.vote.lift.includes(n)) badges.appendChild(badge("✓ " + T.lift_voted, "voted"));
    if (seat.alive && seat.muted_day !== null && seat.muted_day >= v.day) badges.appendChild(badge("∅ " + T.silent, "silent"));
    if (seat.left) {
      const how = L.how[seat.left.how] || seat.left.how;
      const when = fmt(seat.left.phase === "night" ? T.out_night : T.out_day, { n: seat.left.day });
      badges.appendChild(badge(`✝ ${how} · ${when}`, "left"));
    }
    el.appendChild(badges);
    const label = [seatName(n), seat.name, ...(seat.role ? [(L.roles && L.roles[seat.role]) || seat.role] : []),
      fmt(T.fouls, { n: f }), ...Array.from(badges.children, (b) => b.textContent)];
    el.setAttribute("aria-label", label.join(", "));
    return el;
  }

  function info() {
    const v = V;
    const parts = [];
    if (v.over) {
      if (v.final_words && v.final_words.length) parts.push(fmt(T.last_words, { s: seatList(v.final_words) }));
    } else if (v.step === "voting" && v.seat) {
      const count = Object.values(v.vote.votes).filter((x) => x === v.seat).length;
      parts.push(fmt(T.vote_now, { c: seatName(v.seat), n: count }));
    } else if (v.step === "lift") {
      parts.push(fmt(T.lift_now, { c: seatList(v.vote.candidates), n: v.vote.lift.length }));
    } else if (v.phase === "day") {
      if (v.vote_cancelled) parts.push(T.vote_cancelled);
      else parts.push(fmt(T.put_up, { s: v.candidates.length ? seatList(v.candidates) : T.nobody }));
    }
    const kills = Object.entries(v.night_kills || {}).filter(([night, seat]) => Number(night) === v.day - 1 && seat);
    if (!v.over && v.phase === "day" && kills.length) parts.push(fmt(T.night_kills, { s: seatList(kills.map(([, s]) => s)) }));
    if (v.best_move) parts.push(fmt(T.best_move, { s: seatName(v.best_move.seat), g: seatList(v.best_move.guesses) }));
    return parts.join(" · ");
  }

  function columns(n, width) {
    if (width < 600) return 2;
    if (n <= 10) return 5;
    return Math.ceil(n / 2);
  }

  function render() {
    if (!V) return;
    const v = V;
    root.dataset.step = v.step;
    root.dataset.phase = v.phase;
    root.dataset.day = String(v.day);
    root.dataset.seat = String(v.seat || 0);
    root.dataset.nextSeq = String(nextSeq);
    root.dataset.over = v.over ? "1" : "";
    const night = v.phase === "night";
    document.body.classList.toggle("night", night);
    document.documentElement.classList.toggle("night", night);
    if (v.over) {
      $("t-banner").textContent = v.winner ? fmt(T.winner_is, { team: L.teams[v.winner] || v.winner }) : T.the_end;
      $("t-sub").textContent = L.results[v.result] || v.result || "";
    } else {
      $("t-banner").textContent = v.banner[lang] || v.banner.en;
      $("t-sub").textContent = "";
    }
    $("t-info").textContent = info();
    SM.voteLines($("t-votes"), v);   // the day's vote counts (the engine's lines)
    const seats = $("t-seats");
    seats.style.setProperty("--cols", String(columns(v.players, window.innerWidth)));
    seats.textContent = "";
    for (const seat of v.seats) seats.appendChild(tile(seat));
    SM.fitNames(seats);
    timerFromView();
  }

  // ---------------------------------------------------------------- the timer (follows the host's)
  /* The host's timer is kept only for the step it belongs to (its key, SM.timerStep): a new step shows its own
     time, paused, until the host's timer of that step comes (one that comes before the step's view is held till
     then); a step without a timer shows none; a timer of a step gone by (a late message, or the last one kept by
     the server and sent again on a reconnect) is never shown. */
  const timer = { key: "", total: 0, running: false, base: 0, started: 0, held: null };

  function timerFromView() {
    const step = SM.timerStep(V, RULES);
    if (step.key === timer.key) return drawTimer();
    timer.key = step.key;
    const held = timer.held;
    timer.held = null;
    if (held && held.key === step.key) return applyTimer(held);
    timer.total = timer.base = step.seconds;
    timer.running = false;
    drawTimer();
  }

  function applyTimer(m) {
    // the time since the host sent it, by the server's clock (both stamps are the server's), and since it came
    const elapsed = m.running && typeof m.now === "number" && typeof m.at === "number" ? Math.max(0, m.now - m.at) : 0;
    timer.total = m.total;
    timer.base = Math.max(0, m.left - elapsed);
    timer.running = !!m.running;
    timer.started = m.came;
    drawTimer();
  }

  function timerLeft() {
    if (!timer.running) return timer.base;
    return Math.max(0, timer.base - (performance.now() - timer.started) / 1000);
  }

  function drawTimer() {
    const s = Math.max(0, Math.ceil(timerLeft()));
    const el = $("t-timer");
    const none = !timer.total;
    el.hidden = none;
    el.dataset.state = none ? "none" : timer.running && s > 0 ? "running" : "paused";
    $("t-timer-value").textContent = SM.clockText(s);
    $("t-timer-state").textContent = timer.running && s > 0 ? "▶ " + T.running : "■ " + T.paused;
    el.classList.toggle("running", timer.running && s > 0);
    el.classList.toggle("low", s <= 10 && timer.total > 0);
    el.classList.toggle("zero", s === 0 && timer.total > 0);
  }
  setInterval(() => { if (timer.running) drawTimer(); }, 200);

  document.addEventListener("sm-timer", (e) => {
    const m = { ...e.detail, came: performance.now() };
    if (!V || m.key !== timer.key) { timer.held = m; return; }   // not (yet) the step shown
    applyTimer(m);
  });

  // ---------------------------------------------------------------- the link
  function setLink(state) {
    const el = $("t-link");
    el.dataset.state = state;
    el.textContent = state === "live" ? "● " + T.live : state === "gone" ? T.gone : state === "offline" ? T.offline : T.connecting;
  }
  document.addEventListener("sm-live", (e) => {
    if (e.detail.connected) return;
    setLink([4401, 4403, 4404, 4422].includes(e.detail.code) ? "gone" : "offline");
  });

  const said = SM.said($("o-said"));   // the claims of the speeches (docs/bots.md), newest first
  SM.live.connect(gameId, "table", {
    onMessage(m) {
      if (m.type === "claims") said.take(m);
      if (m.type === "state") said.reset();
      if (m.type !== "state" && m.type !== "events") return;
      setLink("live");
      if (m.next_seq < nextSeq && m.type === "events") return;
      nextSeq = m.next_seq;
      V = m.view;
      render();
    },
  });
  window.addEventListener("resize", () => { if (V) $("t-seats").style.setProperty("--cols", String(columns(V.players, window.innerWidth))); });
})();
