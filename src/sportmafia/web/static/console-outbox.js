/* The console's outbox and network (docs/console.md, "Offline"): each command waits in an outbox kept in
   localStorage (so a reload on bad Wi-Fi loses nothing), is sent with its own command id and expected seq, resent
   with the same id until the server answers (it applies a command once), and the state shown is the one the
   answer carries (or a fresh GET). A move made on another device (`sm-moved`, static/live.js) reloads the state
   unless this console is sending. */
"use strict";
(function () {
  const K = SM.console;
  const { T, root, gameId, $, fmt, showMessage, storeSet, OUTBOX_KEY } = K;

  // ---------------------------------------------------------------- the outbox and the network
  function saveOutbox() { storeSet(OUTBOX_KEY, K.outbox.length ? K.outbox : null); }

  function showSaving() {
    const el = $("saving");
    const waiting = K.outbox.length;
    el.hidden = !waiting && !K.pumping;
    el.classList.toggle("offline", K.offline);
    el.textContent = K.offline ? fmt(T.offline, { n: waiting }) : T.saving;
    root.dataset.saving = waiting || K.pumping ? "1" : "";
    root.dataset.outbox = String(waiting);
  }

  const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

  async function load() {
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await SM.api("GET", `/api/games/${gameId}`);
        if (r.status === 200) {
          K.S = r.body;
          K.offline = false;
          K.render();
          return;
        }
        showMessage(SM.errorText(r.body), "error");
        return;
      } catch (e) {
        K.offline = true;
        showSaving();
        await sleep(Math.min(5000, 500 * 2 ** attempt));
      }
    }
  }

  function send(...commands) {
    for (const command of commands) {
      // the first action waiting is decided on the state shown: its expected seq is fixed now
      const first = !K.outbox.length && !K.pumping && K.S;
      K.outbox.push({ command, command_id: SM.uuid(), expected_seq: first ? K.S.next_seq : null });
    }
    saveOutbox();
    showSaving();
    pump();
  }

  function dropOutbox(text, kind) {
    K.outbox.length = 0;
    saveOutbox();
    K.lastCheck = null;
    K.autostartAt = null;   // the step the tap led to will not come
    showMessage(text, kind);
  }

  async function pump() {
    if (K.pumping || !K.S) return;
    K.pumping = true;
    showSaving();
    let reload = false;   // a command was answered: the state shown must change
    let fresh = false;    // ... and the last answer carried the state after it (no GET needed)
    let tries = 0;
    let seq = K.S.next_seq;
    try {
      while (K.outbox.length) {
        const item = K.outbox[0];
        if (item.expected_seq === null) { item.expected_seq = seq; saveOutbox(); }
        let r;
        try {
          // the same body on every try: the server applies a command id once; the answer carries the state
          r = await SM.api("POST", `/api/games/${gameId}/commands?state=true`, item);
        } catch (e) {
          tries += 1;
          K.offline = true;
          showSaving();
          await sleep(Math.min(5000, 400 * 2 ** Math.min(tries, 4)));
          continue;
        }
        if (r.status >= 500 || r.status === 0) {
          tries += 1;
          await sleep(Math.min(5000, 400 * 2 ** Math.min(tries, 4)));
          continue;
        }
        K.offline = false;
        tries = 0;
        K.outbox.shift();
        saveOutbox();
        reload = true;
        fresh = false;
        if (r.status === 200) {
          seq = r.body.next_seq;
          if (r.body.state) { K.S = r.body.state; fresh = true; } else K.S.next_seq = seq;
          showMessage("");
        } else if (r.status === 409 && r.body && r.body.error && r.body.error.code === "stale") {
          dropOutbox(T.stale, "warn");
        } else {
          dropOutbox(fmt(T.refused, { msg: SM.errorText(r.body) }), "error");
        }
        showSaving();
      }
      if (reload && fresh) K.render();
      else if (reload) await load();
    } finally {
      K.pumping = false;
      showSaving();
      if (K.outbox.length) pump();
    }
    if (K.lastCheck) K.revealCheck();
  }

  // another device moved the game (static/live.js): reload unless this console is sending
  document.addEventListener("sm-moved", (e) => {
    const seq = e.detail && e.detail.next_seq;
    if (!K.S || K.pumping || K.outbox.length || seq === K.S.next_seq) return;
    load();
  });

  Object.assign(K, { load, pump, send, showSaving });
})();
