/* The console's panel: the hint and the chips of the step or the tool mode in use (a foul's reason, a removal's
   scope, a sanction's offence, the judge's decisions, the protest, the deal's cards, the best move, the vote's
   hands and default votes, the shooting, the checks). */
"use strict";
(function () {
  const K = SM.console;
  const { T, L, $, fmt, NO, legalOf, has, seatOf, seatsText, ask, ROLE_SYMBOL, ROLE_ORDER } = K;

  function renderContext() {
    const v = K.S.view;
    const ctx = $("context");
    const choices = $("choices");
    ctx.textContent = "";
    choices.textContent = "";
    const line = (text, cls) => { const p = document.createElement("p"); p.textContent = text; if (cls) p.className = cls; ctx.appendChild(p); return p; };
    const cancel = () => choices.appendChild(K.chip("✕ " + T.cancel_mode, () => { K.mode = null; K.render(); }, undefined, "cancel"));

    if (K.mode && (K.mode.kind === "foul" || K.mode.kind === "remove")) {
      line(K.mode.kind === "foul" ? T.foul_hint : T.remove_hint, "hint");
      const reasons = K.mode.kind === "foul" ? L.foul_reasons : L.removal_reasons;
      for (const [code, text] of reasons) {
        choices.appendChild(K.chip(text, () => { K.mode.reason = code; K.render(); }, K.mode.reason === code));
      }
      if (K.mode.kind === "foul" && legalOf("foul").some((c) => c.technical)) {
        choices.appendChild(K.chip("T " + T.technical, () => { K.mode.technical = !K.mode.technical; K.render(); }, !!K.mode.technical));
      }
      if (K.mode.kind === "remove" && has("sanction")) {
        // a removal beyond the game is the judge's (T.judge): offered to one with the judge's right only
        for (const scope of K.S.judge ? Object.keys(T.scopes) : ["game"]) {
          choices.appendChild(K.chip(T.scopes[scope], () => { K.mode.scope = scope; K.render(); }, (K.mode.scope || "game") === scope, "scope"));
        }
      }
      cancel();
      return;
    }
    if (K.mode && K.mode.kind === "sanction") {
      line(T.sanction_hint, "hint");
      const offences = [...new Set(legalOf("sanction").map((c) => c.offence))];
      for (const code of offences) choices.appendChild(K.chip(L.offences[code] || code, () => { K.mode.reason = code; K.render(); }, K.mode.reason === code));
      cancel();
      return;
    }
    if (K.mode && K.mode.kind === "judge") {
      line(T.judge_hint, "hint");
      for (const c of K.S.legal) {
        if (!["award", "override", "team_defeat"].includes(c.type)) continue;
        const who = c.type === "team_defeat" ? L.teams[c.team] : c.winner === null ? T.annulled : L.teams[c.winner];
        const what = T[c.type];
        choices.appendChild(K.chip(`${what}: ${who}`, async () => {
          const reason = await ask(`${what}: ${who}. ${T.reason_prompt}`, true);
          K.mode = null;
          K.render();
          if (reason) K.send({ ...c, reason });
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
        if (!K.protest) {
          choices.appendChild(K.chip("⚑ " + T.protest, () => { K.protest = { outcome: "annul", voters: new Set() }; K.render(); }));
        } else {
          line(T.protest_hint, "hint");
          for (const outcome of ["annul", "reverse"]) {
            choices.appendChild(K.chip(T["protest_" + outcome], () => { K.protest.outcome = outcome; K.render(); }, K.protest.outcome === outcome));
          }
          line(fmt(T.protest_voters, { s: seatsText([...K.protest.voters].sort((a, b) => a - b)) }), "big-line");
          choices.appendChild(K.chip("✓ " + T.protest_record, async () => {
            const voters = [...K.protest.voters].sort((a, b) => a - b);
            const outcome = K.protest.outcome;
            // A.protest: a protest stands only for a broken rule; the host names it
            const rule = await ask(fmt(T.protest_confirm, { what: T["protest_" + outcome], s: seatsText(voters) }), true);
            if (!rule) return;
            K.protest = null;
            K.send({ type: "protest", outcome, voters, rule });
          }, undefined, "primary-chip"));
          choices.appendChild(K.chip("✕ " + T.cancel_mode, () => { K.protest = null; K.render(); }, undefined, "cancel"));
        }
      }
      return;
    }
    if (has("deal")) {
      const opts = K.S.deal ? K.S.deal.black_options : [];
      if (opts.length > 1) {
        line(T.black_count, "hint");
        for (const b of opts) choices.appendChild(K.chip(fmt(T.black_n, { n: b }), () => { K.dealBlack = b; K.render(); }, (K.dealBlack || opts[0]) === b));
      }
      if (!K.physical) {
        line(T.deal_first, "hint");
        return;
      }
      line(T.physical_hint, "hint");
      const want = K.countRoles(K.deckFor(K.dealBlack));
      const have = K.countRoles(Object.values(K.physical.roles));
      // the deck's roles, in the chips' usual order (a role the order does not know comes last)
      for (const role of [...ROLE_ORDER, ...Object.keys(want).filter((r) => !ROLE_ORDER.includes(r))]) {
        if (!want[role]) continue;
        const b = K.chip(`${ROLE_SYMBOL[role] || "?"} ${L.roles[role] || role} ${have[role] || 0}/${want[role]}`, () => { K.physical.pick = role; K.render(); }, K.physical.pick === role, "role-chip");
        b.dataset.role = role;
        if ((have[role] || 0) > want[role]) b.classList.add("over");
        choices.appendChild(b);
      }
      const unset = v.players - Object.keys(K.physical.roles).length;
      line(unset ? fmt(T.unset_n, { n: unset }) : K.physicalValid() ? T.physical_ok : T.physical_bad, unset || !K.physicalValid() ? "note" : "big-line");
      choices.appendChild(K.chip("✕ " + T.cancel_mode, () => { K.physical = null; K.render(); }, undefined, "cancel"));
      return;
    }
    if (has("draw_first_speaker") || has("draw_lot")) {
      line(has("draw_lot") ? T.lot_hint : T.first_speaker_hint, "hint");
      return;
    }
    if (has("best_move")) {
      const who = legalOf("best_move")[0].seat;
      line(fmt(T.best_move_hint, { s: NO + who }), "hint");
      line(`${T.best_move_pick}: ${seatsText(K.bestMove)}`, "big-line");
      if (K.bestMove.length) {
        choices.appendChild(K.chip("✓ " + T.best_move_record, () => {
          const guesses = K.bestMove.slice();
          K.bestMove = [];
          K.send({ type: "best_move", seat: who, guesses });
        }, undefined, "primary-chip"));
        choices.appendChild(K.chip("✕ " + T.cancel_mode, () => { K.bestMove = []; K.render(); }, undefined, "cancel"));
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
        if (!cands.includes(K.voteFor)) K.voteFor = cands[0] || 0;
        line(fmt(T.leaders_hint, { c: NO + K.voteFor }), "hint");
        for (const c of cands) {
          const count = votes.filter(([, x]) => x === c).length;
          choices.appendChild(K.chip(`${fmt(T.votes_for, { c: NO + c, n: count })}`, () => { K.voteFor = c; K.render(); }, K.voteFor === c));
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
        choices.appendChild(K.chip("⊕ " + T.all_shoot, () => { K.shooter = "all"; K.render(); }, K.shooter === "all"));
        for (const s of shooters) choices.appendChild(K.chip(`${T.shooter} ${NO}${s}`, () => { K.shooter = s; K.render(); }, K.shooter === s));
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

  Object.assign(K, { renderContext });
})();
