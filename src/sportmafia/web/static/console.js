/* The host's console: one screen for the whole game, built from GET /api/games/{id} ({next_seq, view, legal,
   next, back, deal}). Every button and seat tap is one of the legal commands (CONTROLS lists the control of each
   command type). Commands wait in an outbox kept in localStorage (so a reload on bad Wi-Fi loses nothing): each
   is sent with its own command id and expected seq, resent with the same id until the server answers (it
   applies a command once), and the state is reloaded after it is confirmed. */
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
  const ROLE_SYMBOL = { civilian: "♥", sheriff: "★", commissar: "★", mafia: "♠", don: "♛" };
  const TEXT_STYLE = "\uFE0E";   // after a symbol: drawn as text in the text's colour, never as a coloured emoji
  const ROLE_ORDER = ["civilian", "sheriff", "commissar", "don", "mafia"];
  const MAX_FOULS = 4;
  const OUTBOX_KEY = `sm-outbox-${gameId}`;
  const REVEAL_KEY = `sm-reveal-${gameId}`;

  let S = null;                 // {next_seq, view, legal, next, back, deal}
  let mode = null;              // null | {kind: "foul"|"remove"|"sanction", reason, scope, technical} | {kind: "judge"}
  let shooter = "all";          // at the shooting step: "all" or a seat
  let voteFor = 0;              // tournament leaders' vote: the leader whose hands are being tapped
  let showRoles = false;
  let lastCheck = null;         // {checker, target, step} sent and awaiting the answer
  let dealBlack = 0;            // the number of black cards chosen for the deal (0: the rule set's default)
  let physical = null;          // a physical deal being entered: {roles: {seat: role}, pick: role} or null
  let bestMove = [];            // the first-night victim's guesses being picked
  let protest = null;           // {outcome, voters: Set} while the protest vote is being recorded
  let revealOpen = 0;           // the seat whose card is shown large
  let pumping = false;

  // ---------------------------------------------------------------- helpers
  const legalOf = (type) => (S ? S.legal.filter((c) => c.type === type) : []);
  const has = (type) => legalOf(type).length > 0;
  const seatOf = (n) => S.view.seats[n - 1];
  const fmt = SM.fmt;
  const NO = T.no;   // "№" in Russian, "#" in English
  const seatsText = (xs) => (xs.length ? xs.map((x) => NO + x).join(", ") : T.none);
  const tr = (pair) => (pair ? pair[lang] || pair.en : "");

  function showMessage(text, kind) {
    const el = $("message");
    el.textContent = text || "";
    el.hidden = !text;
    el.className = "message" + (kind ? " " + kind : "");
  }

  function storeGet(key, fallback) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
  }
  function storeSet(key, value) {
    try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }

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

  // ---------------------------------------------------------------- the outbox and the network
  const outbox = storeGet(OUTBOX_KEY, []);   // [{command, command_id, expected_seq}], oldest first
  let offline = false;

  function saveOutbox() { storeSet(OUTBOX_KEY, outbox.length ? outbox : null); }

  function showSaving() {
    const el = $("saving");
    const waiting = outbox.length;
    el.hidden = !waiting && !pumping;
    el.classList.toggle("offline", offline);
    el.textContent = offline ? fmt(T.offline, { n: waiting }) : T.saving;
    root.dataset.saving = waiting || pumping ? "1" : "";
    root.dataset.outbox = String(waiting);
  }

  const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

  async function load() {
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await SM.api("GET", `/api/games/${gameId}`);
        if (r.status === 200) {
          S = r.body;
          offline = false;
          render();
          return;
        }
        showMessage(SM.errorText(r.body), "error");
        return;
      } catch (e) {
        offline = true;
        showSaving();
        await sleep(Math.min(5000, 500 * 2 ** attempt));
      }
    }
  }

  function send(...commands) {
    for (const command of commands) {
      // the first action waiting is decided on the state shown: its expected seq is fixed now
      const first = !outbox.length && !pumping && S;
      outbox.push({ command, command_id: SM.uuid(), expected_seq: first ? S.next_seq : null });
    }
    saveOutbox();
    showSaving();
    pump();
  }

  function dropOutbox(text, kind) {
    outbox.length = 0;
    saveOutbox();
    lastCheck = null;
    showMessage(text, kind);
  }

  async function pump() {
    if (pumping || !S) return;
    pumping = true;
    showSaving();
    let reload = false;   // a command was answered: the state shown must change
    let fresh = false;    // ... and the last answer carried the state after it (no GET needed)
    let tries = 0;
    let seq = S.next_seq;
    try {
      while (outbox.length) {
        const item = outbox[0];
        if (item.expected_seq === null) { item.expected_seq = seq; saveOutbox(); }
        let r;
        try {
          // the same body on every try: the server applies a command id once; the answer carries the state
          r = await SM.api("POST", `/api/games/${gameId}/commands?state=true`, item);
        } catch (e) {
          tries += 1;
          offline = true;
          showSaving();
          await sleep(Math.min(5000, 400 * 2 ** Math.min(tries, 4)));
          continue;
        }
        if (r.status >= 500 || r.status === 0) {
          tries += 1;
          await sleep(Math.min(5000, 400 * 2 ** Math.min(tries, 4)));
          continue;
        }
        offline = false;
        tries = 0;
        outbox.shift();
        saveOutbox();
        reload = true;
        fresh = false;
        if (r.status === 200) {
          seq = r.body.next_seq;
          if (r.body.state) { S = r.body.state; fresh = true; } else S.next_seq = seq;
          showMessage("");
        } else if (r.status === 409 && r.body && r.body.error && r.body.error.code === "stale") {
          dropOutbox(T.stale, "warn");
        } else {
          dropOutbox(fmt(T.refused, { msg: SM.errorText(r.body) }), "error");
        }
        showSaving();
      }
      if (reload && fresh) render();
      else if (reload) await load();
    } finally {
      pumping = false;
      showSaving();
      if (outbox.length) pump();
    }
    if (lastCheck) revealCheck();
  }

  // another device moved the game (static/live.js): reload unless this console is sending
  document.addEventListener("sm-moved", (e) => {
    const seq = e.detail && e.detail.next_seq;
    if (!S || pumping || outbox.length || seq === S.next_seq) return;
    load();
  });

  // ---------------------------------------------------------------- the controls of every command type
  /* Each command type the engine may list for the host, and the control that sends it (a seat tap, a
     button of the bar, a panel of the step, a tool mode). tests/web/test_console_state.py checks that every
     command type is here. */
  const CONTROLS = {
    deal: { bar: "#deal (a random deal) or #physical-deal, then the private reveal", tap: tapPhysicalDeal },
    draw_first_speaker: { bar: "#draw, or tap the seat drawn at the table", tap: tapDraw },
    draw_lot: { bar: "#draw, or tap the seat drawn at the table", tap: tapDraw },
    advance: { bar: "#next, labelled with the step it leads to" },
    nominate: { tap: tapNominate },
    withdraw: { tap: tapWithdraw },
    vote: { tap: tapVote, panel: "the candidate's hands and the default vote" },
    lift_vote: { tap: tapLift },
    shoot: { tap: tapShoot, panel: "All shoot, or one shooter" },
    kill: { tap: tapKill },
    check: { tap: tapCheck, panel: "the answer, large" },
    best_move: { tap: tapBestMove, panel: "up to three seats, then Record" },
    foul: { tool: "#foul: a reason (technical when listed), then the seat", tap: tapMode },
    sanction: { tool: "#sanction: an offence, then the seat", tap: tapMode },
    remove: { tool: "#remove: a reason and scope, then the seat, confirmed", tap: tapMode },
    award: { tool: "#judge" },
    team_defeat: { tool: "#judge" },
    override: { tool: "#judge" },
    protest: { tap: tapProtest, panel: "annul or reverse, the seats for it, confirmed" },
    undo: { bar: "#undo, naming what it undoes, confirmed" },
  };
  const TAP_ORDER = ["deal", "foul", "sanction", "remove", "best_move", "protest", "draw_first_speaker", "draw_lot",
    "nominate", "withdraw", "vote", "lift_vote", "shoot", "kill", "check"];

  function tapPhysicalDeal(n) {
    if (!physical || !has("deal")) return null;
    return () => {
      if (physical.roles[n] === physical.pick) delete physical.roles[n];
      else physical.roles[n] = physical.pick;
      render();
    };
  }
  function tapDraw(n, type) {
    if (mode || !has(type) || !seatOf(n).alive) return null;
    return () => send({ type, seat: n });
  }
  function tapMode(n, type) {
    if (!mode || mode.kind !== type) return null;
    const tpl = legalOf(type).find((c) => c.seat === n && (type !== "foul" || c.technical === !!mode.technical));
    if (!tpl) return null;
    if (type === "foul") return () => { const reason = mode.reason; mode = null; send({ ...tpl, reason }); };
    if (type === "sanction") {
      const offence = mode.reason;
      if (!legalOf("sanction").some((c) => c.seat === n && c.offence === offence)) return null;
      return async () => {
        const ok = await ask(fmt(T.sanction_confirm, { s: NO + n, name: seatOf(n).name, what: T.offences[offence] || offence }));
        mode = null;
        render();
        if (ok) send({ type: "sanction", seat: n, offence });
      };
    }
    const reason = mode.reason;
    const scope = mode.scope || "game";
    return async () => {
      const ok = await ask(fmt(T.remove_confirm, { s: NO + n, name: seatOf(n).name }));
      mode = null;
      render();
      if (ok) send({ ...tpl, reason, scope });
    };
  }
  function tapBestMove(n) {
    const all = legalOf("best_move");
    if (mode || !all.length || n === all[0].seat) return null;
    return () => {
      const i = bestMove.indexOf(n);
      if (i >= 0) bestMove.splice(i, 1);
      else if (bestMove.length < 3) bestMove.push(n);
      render();
    };
  }
  function tapProtest(n) {
    if (mode || !protest || !has("protest")) return null;
    return () => {
      if (protest.voters.has(n)) protest.voters.delete(n); else protest.voters.add(n);
      render();
    };
  }
  function tapNominate(n) {
    if (mode) return null;
    const nominate = legalOf("nominate").filter((c) => c.target === n);
    if (!nominate.length) return null;
    return () => send(nominate.find((c) => !c.also || !c.also.length) || nominate[0]);
  }
  function tapWithdraw(n) {
    const withdraw = mode ? null : legalOf("withdraw").find((c) => c.target === n);
    return withdraw ? () => send(withdraw) : null;
  }
  function tapVote(n) {
    if (mode) return null;
    const votes = legalOf("vote").filter((c) => c.voter === n);
    if (!votes.length) return null;
    const pick = votes.find((c) => c.candidate === voteFor) || (votes.length === 1 ? votes[0] : null);
    return pick ? () => send(pick) : null;
  }
  function tapLift(n) {
    const lift = mode ? null : legalOf("lift_vote").find((c) => c.voter === n);
    return lift ? () => send(lift) : null;
  }
  function tapShoot(n) {
    if (mode) return null;
    const shots = legalOf("shoot").filter((c) => c.target === n && (shooter === "all" || c.shooter === shooter));
    if (!shots.length) return null;
    const one = new Map();
    for (const c of shots) if (!one.has(c.shooter)) one.set(c.shooter, c);
    return () => { send(...one.values()); shooter = "all"; };
  }
  function tapKill(n) {
    const kill = mode ? null : legalOf("kill").find((c) => c.target === n);
    return kill ? () => send(kill) : null;
  }
  function tapCheck(n) {
    const check = mode ? null : legalOf("check").find((c) => c.target === n);
    if (!check) return null;
    const step = S.view.step;
    return () => { lastCheck = { checker: check.checker, target: n, step }; send(check); };
  }

  function tapAction(n) {
    if (!S) return null;
    for (const type of TAP_ORDER) {
      const act = CONTROLS[type].tap(n, type);
      if (act) return act;
    }
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

  // ---------------------------------------------------------------- the deal: random or physical, then the reveal
  function revealing() {
    return !!(S && S.back && S.back.type === "dealt" && !S.view.over && !storeGet(REVEAL_KEY, null));
  }
  function revealSeen() { return new Set(storeGet(REVEAL_KEY + "-seen", [])); }

  function renderReveal() {
    const on = revealing();
    $("reveal").hidden = !on;
    root.classList.toggle("revealing", on);
    if (!on) { $("reveal-card").hidden = true; revealOpen = 0; return; }
    const seen = revealSeen();
    const grid = $("reveal-seats");
    grid.textContent = "";
    grid.style.setProperty("--cols", String(columns(S.view.players)));
    for (const seat of S.view.seats) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "reveal-seat" + (seen.has(seat.seat) ? " seen" : "");
      b.dataset.seat = String(seat.seat);
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = String(seat.seat);
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = seat.name;
      const mark = document.createElement("span");
      mark.className = "mark";
      const word = document.createElement("span");
      word.className = "word";
      word.textContent = seen.has(seat.seat) ? T.card_shown : T.card_hidden;
      mark.append(seen.has(seat.seat) ? "✓ " : "", word);
      b.append(num, name, mark);
      b.addEventListener("click", () => openCard(seat.seat));
      grid.appendChild(b);
    }
    $("reveal-count").textContent = fmt(T.cards_shown, { n: seen.size, m: S.view.players });
  }

  function openCard(n) {
    const seat = seatOf(n);
    if (!seat || !seat.role) return;
    revealOpen = n;
    const card = $("reveal-card");
    $("reveal-card-seat").textContent = `${NO}${n} · ${seat.name}`;   // the card looks the same for every role
    $("reveal-card-symbol").textContent = (ROLE_SYMBOL[seat.role] || "?") + TEXT_STYLE;
    $("reveal-card-role").textContent = L.roles[seat.role] || seat.role;
    card.hidden = false;
    card.focus();
  }
  function closeCard() {
    if (!revealOpen) return;
    const seen = revealSeen();
    seen.add(revealOpen);
    storeSet(REVEAL_KEY + "-seen", [...seen]);
    revealOpen = 0;
    $("reveal-card").hidden = true;
    renderReveal();
  }
  $("reveal-card").addEventListener("click", closeCard);
  $("reveal-done").addEventListener("click", () => {
    storeSet(REVEAL_KEY, 1);
    render();
  });

  function deckFor(black) {
    return S.deal.decks[String(black || S.deal.black_options[0])];
  }
  function countRoles(list) {
    const out = {};
    for (const r of list) out[r] = (out[r] || 0) + 1;
    return out;
  }
  function physicalValid() {
    if (!physical || !S.deal) return false;
    const roles = S.view.seats.map((s) => physical.roles[s.seat]);
    if (roles.some((r) => !r)) return false;
    const have = countRoles(roles);
    const want = countRoles(deckFor(dealBlack));
    return Object.keys({ ...have, ...want }).every((k) => have[k] === want[k]);
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

  function roleTag(role) {
    const el = document.createElement("span");
    el.className = "role";   // the same small tag for every role: nothing to read by its colour across the table
    el.textContent = `${ROLE_SYMBOL[role] || ""}${TEXT_STYLE} ${L.roles[role] || role}`;
    return el;
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
    if (v.step === "voting" && (v.seat === n || voteFor === n)) tile.classList.add("candidate");
    const act = tapAction(n);
    tile.classList.toggle("actionable", !!act);
    tile.setAttribute("aria-disabled", act ? "false" : "true");

    const num = document.createElement("span");
    num.className = "num";
    num.textContent = String(n);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.name;
    tile.append(num, name);
    if (S.rules.fouls) {
      const fouls = document.createElement("span");
      fouls.className = "fouls";
      fouls.textContent = "●".repeat(Math.min(seat.fouls, MAX_FOULS)) + "○".repeat(Math.max(0, MAX_FOULS - seat.fouls));
      fouls.title = `${seat.fouls}`;
      fouls.setAttribute("aria-label", fmt(T.fouls_n, { n: seat.fouls }));
      tile.append(fouls);
    }

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
    if (seat.technical_fouls) badges.appendChild(badge(`T ${fmt(T.technical_n, { n: seat.technical_fouls })}`, "muted", `T${seat.technical_fouls}`));
    if (seat.warnings) badges.appendChild(badge(`! ${fmt(T.warnings_n, { n: seat.warnings })}`, "muted", `!${seat.warnings}`));
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
      if (v.night.kill === n) badges.appendChild(badge("☠ " + T.victim, "shot", "☠"));
    }
    if (bestMove.includes(n)) badges.appendChild(badge("◆ " + T.best_move_pick, "nominated", "◆"));
    if (protest && protest.voters.has(n)) badges.appendChild(badge("✓ " + T.protest_for, "voted", "✓"));
    tile.appendChild(badges);

    if (physical && v.step === "deal") {
      const role = physical.roles[n];
      if (role) tile.appendChild(roleTag(role));
    } else if (showRoles && seat.role) {
      tile.appendChild(roleTag(seat.role));
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
    const cancel = () => choices.appendChild(chip("✕ " + T.cancel_mode, () => { mode = null; render(); }, undefined, "cancel"));

    if (mode && (mode.kind === "foul" || mode.kind === "remove")) {
      line(mode.kind === "foul" ? T.foul_hint : T.remove_hint, "hint");
      const reasons = mode.kind === "foul" ? L.foul_reasons : L.removal_reasons;
      for (const [code, text] of reasons) {
        choices.appendChild(chip(text, () => { mode.reason = code; render(); }, mode.reason === code));
      }
      if (mode.kind === "foul" && legalOf("foul").some((c) => c.technical)) {
        choices.appendChild(chip("T " + T.technical, () => { mode.technical = !mode.technical; render(); }, !!mode.technical));
      }
      if (mode.kind === "remove" && has("sanction")) {
        // a removal beyond the game is the judge's (T.judge): offered to one with the judge's right only
        for (const scope of S.judge ? ["game", "round", "tournament", "ban"] : ["game"]) {
          choices.appendChild(chip(T.scopes[scope], () => { mode.scope = scope; render(); }, (mode.scope || "game") === scope, "scope"));
        }
      }
      cancel();
      return;
    }
    if (mode && mode.kind === "sanction") {
      line(T.sanction_hint, "hint");
      const offences = [...new Set(legalOf("sanction").map((c) => c.offence))];
      for (const code of offences) choices.appendChild(chip(T.offences[code] || code, () => { mode.reason = code; render(); }, mode.reason === code));
      cancel();
      return;
    }
    if (mode && mode.kind === "judge") {
      line(T.judge_hint, "hint");
      for (const c of S.legal) {
        if (!["award", "override", "team_defeat"].includes(c.type)) continue;
        const who = c.type === "team_defeat" ? L.teams[c.team] : c.winner === null ? T.annulled : L.teams[c.winner];
        const what = T[c.type];
        choices.appendChild(chip(`${what}: ${who}`, async () => {
          const reason = await ask(`${what}: ${who}. ${T.reason_prompt}`, true);
          mode = null;
          render();
          if (reason) send({ ...c, reason });
        }));
      }
      cancel();
      return;
    }
    if (v.over) {
      line(fmt(T.result, { r: L.results[v.result] || v.result }));
      if (v.final_words && v.final_words.length) line(fmt(T.final_words, { s: seatsText(v.final_words) }));
      if (v.best_move) line(fmt(T.best_move_done, { s: NO + v.best_move.seat, g: seatsText(v.best_move.guesses), b: v.best_move.black }));
      if (v.protest) line(fmt(v.protest.passed ? T.protest_passed : T.protest_failed, { s: seatsText(v.protest.voters) }));
      if (v.protest && v.protest.rule) line(fmt(T.protest_rule, { r: v.protest.rule }));
      if (has("protest")) {
        if (!protest) {
          choices.appendChild(chip("⚑ " + T.protest, () => { protest = { outcome: "annul", voters: new Set() }; render(); }));
        } else {
          line(T.protest_hint, "hint");
          for (const outcome of ["annul", "reverse"]) {
            choices.appendChild(chip(T["protest_" + outcome], () => { protest.outcome = outcome; render(); }, protest.outcome === outcome));
          }
          line(fmt(T.protest_voters, { s: seatsText([...protest.voters].sort((a, b) => a - b)) }), "big-line");
          choices.appendChild(chip("✓ " + T.protest_record, async () => {
            const voters = [...protest.voters].sort((a, b) => a - b);
            const outcome = protest.outcome;
            // A.protest: a protest stands only for a broken rule; the host names it
            const rule = await ask(fmt(T.protest_confirm, { what: T["protest_" + outcome], s: seatsText(voters) }), true);
            if (!rule) return;
            protest = null;
            send({ type: "protest", outcome, voters, rule });
          }, undefined, "primary-chip"));
          choices.appendChild(chip("✕ " + T.cancel_mode, () => { protest = null; render(); }, undefined, "cancel"));
        }
      }
      return;
    }
    if (has("deal")) {
      const opts = S.deal ? S.deal.black_options : [];
      if (opts.length > 1) {
        line(T.black_count, "hint");
        for (const b of opts) choices.appendChild(chip(fmt(T.black_n, { n: b }), () => { dealBlack = b; render(); }, (dealBlack || opts[0]) === b));
      }
      if (!physical) {
        line(T.deal_first, "hint");
        return;
      }
      line(T.physical_hint, "hint");
      const want = countRoles(deckFor(dealBlack));
      const have = countRoles(Object.values(physical.roles));
      for (const role of ROLE_ORDER) {
        if (!want[role]) continue;
        const b = chip(`${ROLE_SYMBOL[role]} ${L.roles[role]} ${have[role] || 0}/${want[role]}`, () => { physical.pick = role; render(); }, physical.pick === role, "role-chip");
        b.dataset.role = role;
        if ((have[role] || 0) > want[role]) b.classList.add("over");
        choices.appendChild(b);
      }
      const unset = v.players - Object.keys(physical.roles).length;
      line(unset ? fmt(T.unset_n, { n: unset }) : physicalValid() ? T.physical_ok : T.physical_bad, unset || !physicalValid() ? "note" : "big-line");
      choices.appendChild(chip("✕ " + T.cancel_mode, () => { physical = null; render(); }, undefined, "cancel"));
      return;
    }
    if (has("draw_first_speaker") || has("draw_lot")) {
      line(has("draw_lot") ? T.lot_hint : T.first_speaker_hint, "hint");
      return;
    }
    if (has("best_move")) {
      const who = legalOf("best_move")[0].seat;
      line(fmt(T.best_move_hint, { s: NO + who }), "hint");
      line(`${T.best_move_pick}: ${seatsText(bestMove)}`, "big-line");
      if (bestMove.length) {
        choices.appendChild(chip("✓ " + T.best_move_record, () => {
          const guesses = bestMove.slice();
          bestMove = [];
          send({ type: "best_move", seat: who, guesses });
        }, undefined, "primary-chip"));
        choices.appendChild(chip("✕ " + T.cancel_mode, () => { bestMove = []; render(); }, undefined, "cancel"));
      }
      return;
    }
    if (has("nominate") || v.step === "speech" || v.step === "muted") {
      if (has("nominate")) line(T.tap_to_nominate, "hint");
      if (has("withdraw")) line(T.tap_to_withdraw, "note");
      line(`${T.nominations}: ${seatsText(v.candidates)}`);
      return;
    }
    if (v.step === "voting") {
      const leaders = v.vote.kind === "leaders";
      const votes = Object.entries(v.vote.votes).map(([voter, c]) => [Number(voter), c]);
      const voters = new Set(legalOf("vote").map((x) => x.voter));
      if (leaders) {
        const cands = v.vote.candidates.filter((c) => seatOf(c).alive);
        if (!cands.includes(voteFor)) voteFor = cands[0] || 0;
        line(fmt(T.leaders_hint, { c: NO + voteFor }), "hint");
        for (const c of cands) {
          const count = votes.filter(([, x]) => x === c).length;
          choices.appendChild(chip(`${fmt(T.votes_for, { c: NO + c, n: count })}`, () => { voteFor = c; render(); }, voteFor === c));
        }
        line(fmt(T.abstain_n, { n: voters.size }), "big-line");
        return;
      }
      const c = v.seat;
      const count = votes.filter(([, x]) => x === c).length;
      line(fmt(T.vote_hint, { c: NO + c }), "hint");
      line(`${fmt(T.votes_for, { c: NO + c, n: count })} · ${fmt(T.votes_remain, { n: voters.size })}`, "big-line");
      const cands = v.vote.candidates;
      line(`${T.candidate}: ${cands.map((x) => (x === c ? `[${NO}${x}]` : `${NO}${x}`)).join(" · ")}`);
      if (cands.length > 1 && c === cands[cands.length - 2]) {
        const rest = [...voters].sort((a, b) => a - b);
        line(fmt(T.default_fill, { c: NO + cands[cands.length - 1], s: seatsText(rest), n: rest.length }), "note");
      }
      return;
    }
    if (v.step === "lift") {
      const total = v.seats.filter((s) => s.alive).length;
      line(fmt(T.lift_hint, { c: seatsText(v.vote.candidates) }), "hint");
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
    if (v.step === "kill") { line(has("kill") ? T.kill_hint : fmt(T.kill_done, { s: NO + (v.night && v.night.kill) }), "hint"); return; }
    if (v.step.startsWith("check_")) {
      if (has("check")) line(T.check_hint, "hint");
      else {
        const night = (v.checks || []).filter((x) => x.night === v.day);
        const last = night[night.length - 1];
        if (last && seatOf(last.checker).role === v.step.slice(6)) line(fmt(T.checked, { s: NO + last.target, a: last.found ? T.yes : T.no_word }), "big-line");
        else line(T.no_check, "note");
      }
    }
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
    const dark = v.phase === "night" && !revealing();   // the cards are shown before the lights go down
    document.body.classList.toggle("night", dark);
    document.documentElement.classList.toggle("night", dark);
    if (v.step !== "shooting") shooter = "all";
    if (v.step !== "voting") voteFor = 0;
    if (!has("best_move")) bestMove = [];
    if (!has("protest")) protest = null;
    if (v.step !== "deal") physical = null;
    else { storeSet(REVEAL_KEY, null); storeSet(REVEAL_KEY + "-seen", null); }
    if (mode && mode.kind !== "judge" && !has(mode.kind)) mode = null;

    if (v.over) {
      $("banner").textContent = v.winner ? fmt(T.winner, { team: L.teams[v.winner] }) : T.game_over;
      $("subline").textContent = v.banner[lang] || v.banner.en;
    } else {
      $("banner").textContent = v.banner[lang] || v.banner.en;
      $("subline").textContent = "";
    }
    $("end-links").hidden = !v.over;
    renderReveal();

    const seats = $("seats");
    seats.style.setProperty("--cols", String(columns(v.players)));
    seats.textContent = "";
    if (v.step === "voting" && v.vote.kind === "leaders" && !voteFor) voteFor = v.vote.candidates.find((c) => seatOf(c).alive) || 0;
    for (const seat of v.seats) seats.appendChild(seatTile(seat));
    renderContext();

    const next = $("next");
    next.hidden = !has("advance") || revealing();
    const label = S.next ? tr(S.next.label) : "";
    if (v.step === "voting") {
      $("next-label").textContent = T.thanks;
      $("next-sub").textContent = label ? "→ " + label : T.close_vote;
    } else {
      $("next-label").textContent = label ? "▶ " + label : T.next;
      $("next-sub").textContent = label ? T.next : "";
    }
    const dealing = has("deal");
    $("deal").hidden = !dealing || !!physical;
    $("deal-confirm").hidden = !dealing || !physical;
    $("physical-deal").hidden = !dealing || !!physical;
    $("deal-confirm").disabled = !physicalValid();
    $("draw").hidden = !(has("draw_first_speaker") || has("draw_lot")) || revealing();
    $("draw-label").textContent = has("draw_lot") ? T.draw_lot : T.draw_first;
    const undo = $("undo");
    undo.disabled = !has("undo");
    $("undo-label").textContent = S.back ? tr(S.back.text) : T.undo;
    undo.title = S.back ? `${T.undo}: ${tr(S.back.text)} (U)` : "U";
    for (const [id, type] of [["foul", "foul"], ["remove", "remove"], ["sanction", "sanction"]]) {
      $(id).hidden = type === "foul" ? !S.rules.fouls : type === "sanction" ? !S.rules.sanctions : false;
      $(id).disabled = !has(type);
      $(id).setAttribute("aria-pressed", mode && mode.kind === type ? "true" : "false");
    }
    $("judge").disabled = !(has("award") || has("override") || has("team_defeat"));
    $("judge").setAttribute("aria-pressed", mode && mode.kind === "judge" ? "true" : "false");
    timerSync();
  }

  // ---------------------------------------------------------------- buttons
  function next() {
    if (revealing()) return $("reveal-done").click();
    if (!$("deal").hidden) return $("deal").click();
    if (!$("deal-confirm").hidden) return $("deal-confirm").click();
    if (!$("draw").hidden) return $("draw").click();
    const adv = legalOf("advance")[0];
    if (adv) send(adv);
  }
  $("next").addEventListener("click", next);
  $("deal").addEventListener("click", () => {
    if (!has("deal")) return;
    send(dealBlack ? { type: "deal", black: dealBlack } : { type: "deal" });
  });
  $("physical-deal").addEventListener("click", () => { if (has("deal")) { physical = { roles: {}, pick: "civilian" }; render(); } });
  $("deal-confirm").addEventListener("click", async () => {
    if (!physicalValid()) return;
    const roles = S.view.seats.map((s) => physical.roles[s.seat]);
    if (!(await ask(T.physical_confirm))) return;
    const black = roles.filter((r) => BLACK.has(r)).length;
    physical = null;
    send({ type: "deal", roles, black });
  });
  $("draw").addEventListener("click", () => {
    const c = legalOf("draw_first_speaker")[0] || legalOf("draw_lot")[0];
    if (c) send({ type: c.type });
  });
  async function undo() {
    const c = legalOf("undo")[0];
    if (!c) return;
    const what = S.back ? tr(S.back.text) : "";
    if (await ask(what ? fmt(T.undo_what, { what }) : T.undo_confirm)) send(c);
  }
  $("undo").addEventListener("click", undo);
  function toggleMode(kind) {
    if (kind !== "judge" && !has(kind)) return;
    const first = kind === "foul" ? L.foul_reasons[0][0] : kind === "remove" ? L.removal_reasons[0][0]
      : kind === "sanction" ? (legalOf("sanction")[0] || {}).offence : "";
    mode = mode && mode.kind === kind ? null : { kind, reason: first, scope: "game", technical: false };
    render();
  }
  $("foul").addEventListener("click", () => toggleMode("foul"));
  $("remove").addEventListener("click", () => toggleMode("remove"));
  $("sanction").addEventListener("click", () => toggleMode("sanction"));
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

  /* the timer's state for the table's screen (static/live.js, when loaded) */
  function shareTimer() {
    if (SM.live && SM.live.sendTimer) {
      SM.live.sendTimer({ running: timer.running, left: Math.max(0, Math.ceil(timer.left)), total: timer.total, key: timer.key });
    }
  }

  function timerSync() {
    const v = S.view;
    // A.win: the players whose departure ended the game still speak their final minute
    const seconds = v.over ? (v.final_words && v.final_words.length ? S.rules.last_word_seconds : 0) : v.seconds || 0;
    const key = `${v.step}|${v.day}|${v.seat}|${v.round}|${seconds}`;
    if (key !== timer.key) {
      const wasRunning = timer.running;
      timer.key = key;
      timer.total = seconds;
      timer.left = timer.total;
      timer.running = false;
      timer.beeped10 = timer.beeped0 = false;
      if (wasRunning || timer.total) shareTimer();
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
    timer.left = timer.total = S ? Number(timer.key.split("|").pop()) || 0 : 0;
    timer.running = false;
    timer.beeped10 = timer.beeped0 = false;
    drawTimer();
    shareTimer();
  });

  // ---------------------------------------------------------------- the keyboard
  let digits = "";
  let digitTimer = null;
  function pickDigits() {
    const n = Number(digits);
    digits = "";
    if (n >= 1 && S && n <= S.view.players) {
      if (revealing()) { if (revealOpen) closeCard(); else openCard(n); } else tapSeat(n);
    }
  }
  document.addEventListener("keydown", (e) => {
    if (!$("modal").hidden) { if (e.key === "Escape") $("modal-cancel").click(); return; }
    if (!$("answer").hidden) { if (e.key === "Escape" || e.key === "Enter" || e.key === " ") { e.preventDefault(); $("answer-close").click(); } return; }
    if (!$("reveal-card").hidden) { if (e.key === "Escape" || e.key === "Enter" || e.key === " ") { e.preventDefault(); closeCard(); } return; }
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
    else if (k === "Escape") { mode = null; physical = null; bestMove = []; protest = null; render(); }
    else return;
  });
  document.addEventListener("keyup", (e) => { const key = e.key.toLowerCase(); if (key === "r" || key === "к") setRoles(false); });
  window.addEventListener("resize", () => {
    if (!S) return;
    $("seats").style.setProperty("--cols", String(columns(S.view.players)));
    $("reveal-seats").style.setProperty("--cols", String(columns(S.view.players)));
  });

  showSaving();
  load().then(() => { if (outbox.length) pump(); });
})();
