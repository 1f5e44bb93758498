/* The host's console: one screen for the whole game, built from GET /api/games/{id} ({next_seq, view, legal,
   next, back, deal, rules, judge}). This file holds the controls: every button and seat tap is one of the legal
   commands (CONTROLS lists the control of each command type), the buttons of the bars, the keyboard, and the
   start. The console's other scripts (loaded before it, docs/console.md "The console's scripts"): console-core.js
   (the shared state and helpers), console-outbox.js, console-deal.js, console-render.js, console-panel.js,
   console-timer.js. */
"use strict";
(function () {
  const K = SM.console;
  const { T, L, $, fmt, NO, legalOf, has, seatOf, tr, ask } = K;

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
    volley: { tap: tapShoot, panel: "All shoot: one command for every living black player" },
    kill: { tap: tapKill },
    check: { tap: tapCheck, panel: "the answer, large" },
    best_move: { tap: tapBestMove, panel: "up to K.S.rules.best_move_max seats, then Record" },
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
    if (!K.physical || !has("deal")) return null;
    return () => {
      if (K.physical.roles[n] === K.physical.pick) delete K.physical.roles[n];
      else K.physical.roles[n] = K.physical.pick;
      K.render();
    };
  }
  function tapDraw(n, type) {
    if (K.mode || !has(type) || !seatOf(n).alive) return null;
    return () => { K.armAutostart(); K.send({ type, seat: n }); };
  }
  function tapMode(n, type) {
    if (!K.mode || K.mode.kind !== type) return null;
    const tpl = legalOf(type).find((c) => c.seat === n && (type !== "foul" || c.technical === !!K.mode.technical));
    if (!tpl || (type === "foul" && !K.mode.reason)) return null;
    if (type === "foul") return () => { const reason = K.mode.reason; K.mode = null; K.send({ ...tpl, reason }); };
    if (type === "sanction") {
      const offence = K.mode.reason;
      if (!legalOf("sanction").some((c) => c.seat === n && c.offence === offence)) return null;
      return async () => {
        const ok = await ask(fmt(T.sanction_confirm, { s: NO + n, name: seatOf(n).name, what: L.offences[offence] || offence }));
        K.mode = null;
        K.render();
        if (ok) K.send({ type: "sanction", seat: n, offence });
      };
    }
    const reason = K.mode.reason;
    const scope = K.mode.scope || "game";
    return async () => {
      const ok = await ask(fmt(T.remove_confirm, { s: NO + n, name: seatOf(n).name }));
      K.mode = null;
      K.render();
      if (ok) K.send({ ...tpl, reason, scope });
    };
  }
  function tapBestMove(n) {
    const all = legalOf("best_move");
    if (K.mode || !all.length || n === all[0].seat) return null;
    return () => {
      const i = K.bestMove.indexOf(n);
      if (i >= 0) K.bestMove.splice(i, 1);
      else if (K.bestMove.length < K.S.rules.best_move_max) K.bestMove.push(n);   // F.bestmove
      K.render();
    };
  }
  function tapProtest(n) {
    if (K.mode || !K.protest || !has("protest")) return null;
    return () => {
      if (K.protest.voters.has(n)) K.protest.voters.delete(n); else K.protest.voters.add(n);
      K.render();
    };
  }
  function tapNominate(n) {
    if (K.mode) return null;
    const nominate = legalOf("nominate").filter((c) => c.target === n);
    if (!nominate.length) return null;
    return () => K.send(nominate.find((c) => !c.also || !c.also.length) || nominate[0]);
  }
  function tapWithdraw(n) {
    const withdraw = K.mode ? null : legalOf("withdraw").find((c) => c.target === n);
    return withdraw ? () => K.send(withdraw) : null;
  }
  function tapVote(n) {
    if (K.mode) return null;
    const votes = legalOf("vote").filter((c) => c.voter === n);
    if (!votes.length) return null;
    const pick = votes.find((c) => c.candidate === K.voteFor) || (votes.length === 1 ? votes[0] : null);
    return pick ? () => K.send(pick) : null;
  }
  function tapLift(n) {
    const lift = K.mode ? null : legalOf("lift_vote").find((c) => c.voter === n);
    return lift ? () => K.send(lift) : null;
  }
  function tapShoot(n) {
    if (K.mode) return null;
    // "all shoot" is one command (one action, one undo) while none of them has shot tonight
    const volley = K.shooter === "all" ? legalOf("volley").find((c) => c.target === n) : null;
    if (volley) return () => K.send(volley);
    const shots = legalOf("shoot").filter((c) => c.target === n && (K.shooter === "all" || c.shooter === K.shooter));
    if (!shots.length) return null;
    const one = new Map();
    for (const c of shots) if (!one.has(c.shooter)) one.set(c.shooter, c);
    return () => { K.send(...one.values()); K.shooter = "all"; };
  }
  function tapKill(n) {
    const kill = K.mode ? null : legalOf("kill").find((c) => c.target === n);
    return kill ? () => K.send(kill) : null;
  }
  function tapCheck(n) {
    const check = K.mode ? null : legalOf("check").find((c) => c.target === n);
    if (!check) return null;
    const step = K.S.view.step;
    return () => { K.lastCheck = { checker: check.checker, target: n, step }; K.send(check); };
  }

  function tapAction(n) {
    if (!K.S) return null;
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
    const c = K.lastCheck;
    K.lastCheck = null;
    const found = (K.S.view.checks || []).filter((x) => x.target === c.target && x.checker === c.checker).pop();
    if (!found) return;
    let text;
    if (c.step === "check_don") {
      const role = K.S.view.seats.some((s) => s.role === "commissar") ? L.roles.commissar : L.roles.sheriff;
      text = fmt(found.found ? T.check_answer_don_yes : T.check_answer_don_no, { s: NO + c.target, role });
    } else {
      text = fmt(found.found ? T.check_answer_sheriff_yes : T.check_answer_sheriff_no, { s: NO + c.target });
    }
    $("answer-text").textContent = text;
    $("answer").className = "answer " + (found.found ? "yes" : "no");
    $("answer").hidden = false;
    $("answer-close").focus();
  }

  // ---------------------------------------------------------------- buttons
  function next() {
    if (K.revealing()) return $("reveal-done").click();
    if (!$("deal").hidden) return $("deal").click();
    if (!$("deal-confirm").hidden) return $("deal-confirm").click();
    if (!$("draw").hidden) return $("draw").click();
    const adv = legalOf("advance")[0];
    if (adv) { K.armAutostart(); K.send(adv); }
  }
  $("next").addEventListener("click", next);
  $("deal").addEventListener("click", () => {
    if (!has("deal")) return;
    K.send(K.dealBlack ? { type: "deal", black: K.dealBlack } : { type: "deal" });
  });
  $("physical-deal").addEventListener("click", () => { if (has("deal")) { K.physical = { roles: {}, pick: "civilian" }; K.render(); } });
  $("deal-confirm").addEventListener("click", async () => {
    if (!K.physicalValid()) return;
    const roles = K.S.view.seats.map((s) => K.physical.roles[s.seat]);
    if (!(await ask(T.physical_confirm))) return;
    const black = roles.filter((r) => K.S.rules.black_roles.includes(r)).length;
    K.physical = null;
    K.send({ type: "deal", roles, black });
  });
  $("draw").addEventListener("click", () => {
    const c = legalOf("draw_first_speaker")[0] || legalOf("draw_lot")[0];
    if (c) { K.armAutostart(); K.send({ type: c.type }); }
  });
  async function undo() {
    const c = legalOf("undo")[0];
    if (!c) return;
    const what = K.S.back ? tr(K.S.back.text) : "";
    // the answers name what they do: "Cancel" / "Confirm" read as "cancel the undo" or "confirm the action"
    if (await ask(what ? fmt(T.undo_what, { what }) : T.undo_confirm, false, { ok: T.undo_yes, cancel: T.undo_no })) K.send(c);
  }
  $("undo").addEventListener("click", undo);
  function toggleMode(kind) {
    if (kind !== "judge" && !has(kind)) return;
    // A.foul.reasons: a foul's reason is the host's pick, never preselected (a heavy reason landing on the sheet
    // by mistake); the seats take the foul once a reason is picked
    const first = kind === "foul" ? "" : kind === "remove" ? L.removal_reasons[0][0]
      : kind === "sanction" ? (legalOf("sanction")[0] || {}).offence : "";
    K.mode = K.mode && K.mode.kind === kind ? null : { kind, reason: first, scope: "game", technical: false };
    K.render();
  }
  $("foul").addEventListener("click", () => toggleMode("foul"));
  $("remove").addEventListener("click", () => toggleMode("remove"));
  $("sanction").addEventListener("click", () => toggleMode("sanction"));
  $("judge").addEventListener("click", () => toggleMode("judge"));
  $("answer-close").addEventListener("click", () => { $("answer").hidden = true; });

  function setRoles(on) {
    if (K.showRoles === on) return;
    K.showRoles = on;
    $("roles").setAttribute("aria-pressed", on ? "true" : "false");
    K.render();
  }
  const roles = $("roles");
  roles.addEventListener("pointerdown", (e) => { e.preventDefault(); setRoles(true); });
  for (const ev of ["pointerup", "pointerleave", "pointercancel", "blur"]) roles.addEventListener(ev, () => setRoles(false));
  roles.addEventListener("contextmenu", (e) => e.preventDefault());

  // ---------------------------------------------------------------- the keyboard
  let digits = "";
  let digitTimer = null;
  function pickDigits() {
    const n = Number(digits);
    digits = "";
    if (n >= 1 && K.S && n <= K.S.view.players) {
      if (K.revealing()) { if (K.revealOpen) K.closeCard(); else K.openCard(n); } else tapSeat(n);
    }
  }
  document.addEventListener("keydown", (e) => {
    if (!$("modal").hidden) { if (e.key === "Escape") $("modal-cancel").click(); return; }
    if (!$("answer").hidden) { if (e.key === "Escape" || e.key === "Enter" || e.key === " ") { e.preventDefault(); $("answer-close").click(); } return; }
    if (!$("reveal-card").hidden) { if (e.key === "Escape" || e.key === "Enter" || e.key === " ") { e.preventDefault(); K.closeCard(); } return; }
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (/^[0-9]$/.test(k)) {
      digits += k;
      clearTimeout(digitTimer);
      const n = Number(digits);
      if (K.S && n * 10 <= K.S.view.players && digits.length < 2) digitTimer = setTimeout(pickDigits, 700);
      else pickDigits();
      return;
    }
    const key = k.toLowerCase();
    if (key === "n" || key === "т") next();
    else if (key === "u" || key === "b" || key === "г" || key === "и") undo();
    else if (key === "f" || key === "а") toggleMode("foul");
    else if (key === "r" || key === "к") setRoles(true);
    else if (k === " ") { e.preventDefault(); K.toggleTimer(); }
    else if (k === "Escape") { K.mode = null; K.physical = null; K.bestMove = []; K.protest = null; K.render(); }
    else return;
  });
  document.addEventListener("keyup", (e) => { const key = e.key.toLowerCase(); if (key === "r" || key === "к") setRoles(false); });
  window.addEventListener("resize", () => {
    if (!K.S) return;
    $("seats").style.setProperty("--cols", String(K.columns(K.S.view.players)));
    $("reveal-seats").style.setProperty("--cols", String(K.columns(K.S.view.players)));
  });

  Object.assign(K, { revealCheck, tapAction, tapSeat });

  K.showSaving();
  K.load().then(() => { if (K.outbox.length) K.pump(); });
})();
