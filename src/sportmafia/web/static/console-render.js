/* The console's rendering: the seats (number, name, foul dots up to the rule set's removing foul, badges), the
   banner, and the bars' buttons (hidden, disabled, labelled from the state). render() draws everything from
   SM.console's state; console-panel.js draws the step's panel. */
"use strict";
(function () {
  const K = SM.console;
  const { T, L, lang, root, $, fmt, NO, has, seatOf, tr, storeSet, ROLE_SYMBOL, TEXT_STYLE, REVEAL_KEY } = K;

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
    const v = K.S.view;
    const n = seat.seat;
    const tile = document.createElement("button");
    tile.type = "button";
    tile.className = "seat";
    tile.dataset.seat = String(n);
    tile.dataset.alive = seat.alive ? "1" : "0";
    if (!seat.alive) tile.classList.add("gone");
    const speaking = K.S.rules.speech_steps.includes(v.step) && v.seat === n;
    if (speaking) tile.classList.add("speaking");
    if (v.step === "voting" && (v.seat === n || K.voteFor === n)) tile.classList.add("candidate");
    const act = K.tapAction(n);
    tile.classList.toggle("actionable", !!act);
    tile.setAttribute("aria-disabled", act ? "false" : "true");

    const num = document.createElement("span");
    num.className = "num";
    num.textContent = String(n);
    const name = document.createElement("span");
    name.className = "name fit-name";
    name.textContent = seat.name;
    tile.append(num, name);
    if (K.S.rules.fouls) {
      const fouls = document.createElement("span");
      fouls.className = "fouls";
      fouls.textContent = SM.dots(seat.fouls, K.S.rules.foul_remove);   // A.foul.four: the removing foul is the last dot
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
      // "nominated by №1", short "▲ by №1": never a bare "▲№1" that reads as "he nominated №1"
      badges.appendChild(badge("▲ " + fmt(T.nominated_by, { s: by }), "nominated", "▲ " + fmt(T.by_short, { s: by })));
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
    if (votedFor !== undefined && v.step === "voting") badges.appendChild(badge(`✓ ${T.voted_for} ${NO}${votedFor}`, "voted", `✓→${NO}${votedFor}`));
    if (v.step === "lift" && v.vote.lift.includes(n)) badges.appendChild(badge("✓ " + T.lift_yes, "voted", "✓"));
    if (v.phase === "night" && v.night) {
      const shots = v.night.shots[String(n)];
      if (shots && shots.length) {
        const at = shots.map((x) => NO + x).join(", ");
        badges.appendChild(badge("⊕ " + fmt(T.shot_at, { s: at }), "shot", `⊕→${at}`));
      }
      if (v.night.kill === n) badges.appendChild(badge("☠ " + T.victim, "shot", "☠"));
    }
    if (K.bestMove.includes(n)) badges.appendChild(badge("◆ " + T.best_move_pick, "nominated", "◆"));
    if (K.protest && K.protest.voters.has(n)) badges.appendChild(badge("✓ " + T.protest_for, "voted", "✓"));
    tile.appendChild(badges);

    if (K.physical && v.step === "deal") {
      const role = K.physical.roles[n];
      if (role) tile.appendChild(roleTag(role));
    } else if (K.showRoles && seat.role) {
      tile.appendChild(roleTag(seat.role));
    }
    const label = [fmt(T.seat_label, { s: n }), seat.name, ...Array.from(badges.querySelectorAll(".full"), (b) => b.textContent)];
    tile.setAttribute("aria-label", label.join(", "));
    tile.addEventListener("click", () => K.tapSeat(n));
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

  function render() {
    if (!K.S) return;
    const v = K.S.view;
    root.dataset.step = v.step;
    root.dataset.phase = v.phase;
    root.dataset.day = String(v.day);
    root.dataset.seat = String(v.seat);
    root.dataset.over = v.over ? "1" : "";
    root.dataset.nextSeq = String(K.S.next_seq);
    const dark = v.phase === "night" && !K.revealing();   // the cards are shown before the lights go down
    document.body.classList.toggle("night", dark);
    document.documentElement.classList.toggle("night", dark);
    if (v.step !== "shooting") K.shooter = "all";
    if (v.step !== "voting") K.voteFor = 0;
    if (!has("best_move")) K.bestMove = [];
    if (!has("protest")) K.protest = null;
    if (v.step !== "deal") K.physical = null;
    else { storeSet(REVEAL_KEY, null); storeSet(REVEAL_KEY + "-seen", null); }
    if (K.mode && K.mode.kind !== "judge" && !has(K.mode.kind)) K.mode = null;

    if (v.over) {
      $("banner").textContent = v.winner ? fmt(T.winner, { team: L.teams[v.winner] }) : T.game_over;
      $("subline").textContent = v.banner[lang] || v.banner.en;
    } else {
      $("banner").textContent = v.banner[lang] || v.banner.en;
      $("subline").textContent = "";
    }
    SM.voteLines($("votes"), v);   // the day's vote counts (the engine's lines)
    $("end-links").hidden = !v.over;
    K.renderReveal();

    const seats = $("seats");
    seats.style.setProperty("--cols", String(columns(v.players)));
    seats.textContent = "";
    if (v.step === "voting" && v.vote.kind === "leaders" && !K.voteFor) K.voteFor = v.vote.candidates.find((c) => seatOf(c).alive) || 0;
    for (const seat of v.seats) seats.appendChild(seatTile(seat));
    SM.fitNames(seats);
    K.renderContext();

    const next = $("next");
    next.hidden = !has("advance") || K.revealing();
    const label = K.S.next ? tr(K.S.next.label) : "";
    if (v.step === "voting") {
      $("next-label").textContent = T.thanks;
      $("next-sub").textContent = label ? "→ " + label : T.close_vote;
    } else {
      $("next-label").textContent = label ? "▶ " + label : T.next;
      $("next-sub").textContent = label ? T.next : "";
    }
    const dealing = has("deal");
    $("deal").hidden = !dealing || !!K.physical;
    $("deal-confirm").hidden = !dealing || !K.physical;
    $("physical-deal").hidden = !dealing || !!K.physical;
    $("deal-confirm").disabled = !K.physicalValid();
    $("draw").hidden = !(has("draw_first_speaker") || has("draw_lot")) || K.revealing();
    $("draw-label").textContent = has("draw_lot") ? T.draw_lot : T.draw_first;
    const undo = $("undo");
    undo.disabled = !has("undo");
    $("undo-label").textContent = K.S.back ? tr(K.S.back.text) : T.undo;
    undo.title = K.S.back ? `${T.undo}: ${tr(K.S.back.text)} (U)` : "U";
    for (const [id, type] of [["foul", "foul"], ["remove", "remove"], ["sanction", "sanction"]]) {
      $(id).hidden = type === "foul" ? !K.S.rules.fouls : type === "sanction" ? !K.S.rules.sanctions : false;
      $(id).disabled = !has(type);
      $(id).setAttribute("aria-pressed", K.mode && K.mode.kind === type ? "true" : "false");
    }
    $("judge").disabled = !(has("award") || has("override") || has("team_defeat"));
    $("judge").setAttribute("aria-pressed", K.mode && K.mode.kind === "judge" ? "true" : "false");
    K.timerSync();
  }

  Object.assign(K, { chip, columns, render });
})();
