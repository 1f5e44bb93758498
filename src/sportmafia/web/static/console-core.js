/* The host's console, what its scripts share (docs/console.md, "The console's scripts"): the page's strings and
   labels, the state from the server (K.S: {next_seq, view, legal, next, back, deal, rules, judge}) and what the
   host is doing on this screen (a tool mode, a physical deal, a best move or a protest being picked), the
   helpers over the legal commands, localStorage, and the confirmation dialog. Loaded first; the other console
   scripts read and change this state through SM.console and add their functions to it. The rule set's values
   come with the state (K.S.rules), never as constants here. */
"use strict";
(function () {
  const root = document.getElementById("console");
  const gameId = root.dataset.game;
  const T = SM.strings("console-i18n");
  const lang = SM.lang;
  const $ = (id) => document.getElementById(id);
  const NO = T.no;   // "№" in Russian, "#" in English
  const K = (SM.console = {
    T, L: SM.strings("labels"), lang, root, gameId, $, fmt: SM.fmt, NO,
    ROLE_SYMBOL: { civilian: "♥", sheriff: "★", commissar: "★", mafia: "♠", don: "♛" },
    TEXT_STYLE: "\uFE0E",   // after a symbol: drawn as text in the text's colour, never as a coloured emoji
    ROLE_ORDER: ["civilian", "sheriff", "commissar", "don", "mafia"],   // the order of the physical deal's chips
    OUTBOX_KEY: `sm-outbox-${gameId}`,
    REVEAL_KEY: `sm-reveal-${gameId}`,

    S: null,                 // {next_seq, view, legal, next, back, deal, rules, judge}
    mode: null,              // null | {kind: "foul"|"remove"|"sanction", reason, scope, technical} | {kind: "judge"}
    shooter: "all",          // at the shooting step: "all" or a seat
    voteFor: 0,              // tournament leaders' vote: the leader whose hands are being tapped
    showRoles: false,
    lastCheck: null,         // {checker, target, step} sent and awaiting the answer
    dealBlack: 0,            // the number of black cards chosen for the deal (0: the rule set's default)
    physical: null,          // a physical deal being entered: {roles: {seat: role}, pick: role} or null
    bestMove: [],            // the first-night victim's guesses being picked
    protest: null,           // {outcome, voters: Set} while the protest vote is being recorded
    revealOpen: 0,           // the seat whose card is shown large
    pumping: false,          // the outbox is being sent
    offline: false,          // the last try to reach the server failed
    outbox: [],              // [{command, command_id, expected_seq}], oldest first (console-outbox.js)
    autostartAt: null,       // performance.now() of the host's tap that may begin a speech (console-timer.js)
  });

  // ---------------------------------------------------------------- helpers
  const legalOf = (type) => (K.S ? K.S.legal.filter((c) => c.type === type) : []);
  const has = (type) => legalOf(type).length > 0;
  const seatOf = (n) => K.S.view.seats[n - 1];
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

  // a small confirmation / prompt dialog that works with touch and keyboard; ``buttons``: {ok, cancel} labels
  // for this question (an answer that names the action, e.g. undo's "Yes, undo" / "No"), else the page's own
  const BUTTONS = { ok: $("modal-ok").textContent, cancel: $("modal-cancel").textContent };
  function ask(text, withInput, buttons) {
    return new Promise((resolve) => {
      const modal = $("modal");
      const input = $("modal-input");
      $("modal-text").textContent = text;
      $("modal-ok").textContent = (buttons && buttons.ok) || BUTTONS.ok;
      $("modal-cancel").textContent = (buttons && buttons.cancel) || BUTTONS.cancel;
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

  K.outbox = storeGet(K.OUTBOX_KEY, []);
  Object.assign(K, { legalOf, has, seatOf, seatsText, tr, showMessage, storeGet, storeSet, ask });
})();
