/* The console's deal: the private reveal of each player's card after a deal, and the checks of a physical deal
   being entered (its cards against the rule set's decks that the state carries). */
"use strict";
(function () {
  const K = SM.console;
  const { T, L, root, $, fmt, NO, seatOf, storeGet, storeSet, ROLE_SYMBOL, TEXT_STYLE, REVEAL_KEY } = K;

  // ---------------------------------------------------------------- the deal: random or physical, then the reveal
  function revealing() {
    return !!(K.S && K.S.back && K.S.back.type === "dealt" && !K.S.view.over && !storeGet(REVEAL_KEY, null));
  }
  function revealSeen() { return new Set(storeGet(REVEAL_KEY + "-seen", [])); }

  function renderReveal() {
    const on = revealing();
    $("reveal").hidden = !on;
    root.classList.toggle("revealing", on);
    if (!on) { $("reveal-card").hidden = true; K.revealOpen = 0; return; }
    const seen = revealSeen();
    const grid = $("reveal-seats");
    grid.textContent = "";
    grid.style.setProperty("--cols", String(K.columns(K.S.view.players)));
    for (const seat of K.S.view.seats) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "reveal-seat" + (seen.has(seat.seat) ? " seen" : "");
      b.dataset.seat = String(seat.seat);
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = String(seat.seat);
      const name = document.createElement("span");
      name.className = "name fit-name";
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
    SM.fitNames(grid);
    $("reveal-count").textContent = fmt(T.cards_shown, { n: seen.size, m: K.S.view.players });
  }

  function openCard(n) {
    const seat = seatOf(n);
    if (!seat || !seat.role) return;
    K.revealOpen = n;
    const card = $("reveal-card");
    $("reveal-card-seat").textContent = `${NO}${n} · ${seat.name}`;   // the card looks the same for every role
    $("reveal-card-symbol").textContent = (ROLE_SYMBOL[seat.role] || "?") + TEXT_STYLE;
    $("reveal-card-role").textContent = L.roles[seat.role] || seat.role;
    card.hidden = false;
    card.focus();
  }
  function closeCard() {
    if (!K.revealOpen) return;
    const seen = revealSeen();
    seen.add(K.revealOpen);
    storeSet(REVEAL_KEY + "-seen", [...seen]);
    K.revealOpen = 0;
    $("reveal-card").hidden = true;
    renderReveal();
  }
  $("reveal-card").addEventListener("click", closeCard);
  $("reveal-done").addEventListener("click", () => {
    storeSet(REVEAL_KEY, 1);
    K.render();
  });

  function deckFor(black) {
    return K.S.deal.decks[String(black || K.S.deal.black_options[0])];
  }
  function countRoles(list) {
    const out = {};
    for (const r of list) out[r] = (out[r] || 0) + 1;
    return out;
  }
  function physicalValid() {
    if (!K.physical || !K.S.deal) return false;
    const roles = K.S.view.seats.map((s) => K.physical.roles[s.seat]);
    if (roles.some((r) => !r)) return false;
    const have = countRoles(roles);
    const want = countRoles(deckFor(K.dealBlack));
    return Object.keys({ ...have, ...want }).every((k) => have[k] === want[k]);
  }

  Object.assign(K, { closeCard, countRoles, deckFor, openCard, physicalValid, renderReveal, revealing });
})();
