/* Online play, shared by the player's page, the spectators' page and the overlay (docs/online.md):
   SM.follow(urlFn, opts) keeps one WebSocket open, reconnecting with backoff and resuming from the last seq;
   SM.board draws the table from a view (the engine's view for this viewer, as the server sent it);
   SM.clock runs the host's timer. On /watch/{code} it follows the table as a spectator; on /stream/{token}
   it polls the delayed open stream. */
"use strict";
(function () {
  const SM = window.SM || (window.SM = {});
  const O = SM.strings("online-i18n");
  const L = SM.strings("labels");
  const fmt = SM.fmt;
  const FINAL = new Set([4401, 4403, 4404, 4422]);
  const no = (n) => fmt(O.no, { n });
  const list = (xs) => xs.map(no).join(", ");

  /* A socket that resumes: opts.hello(since) → the first message to send (or null), opts.onMessage(m),
     opts.onLink(state) with "live" | "offline" | "gone"; the returned link's send(m) sends on it while it is up. Messages carry seqs; an `events` message whose
     `since` is not the seq we hold is not applied: the socket is reopened from our seq. */
  SM.follow = function (urlFn, opts) {
    const st = { since: null, ws: null, attempt: 0, closed: false, timer: null, last: 0 };
    function schedule() {
      if (st.closed) return;
      const delay = Math.min(10000, 400 * 2 ** st.attempt) * (0.75 + Math.random() * 0.5);
      st.attempt += 1;
      clearTimeout(st.timer);
      st.timer = setTimeout(open, delay);
    }
    function open() {
      if (st.closed) return;
      let ws;
      try { ws = new WebSocket(urlFn(st.since)); } catch (e) { schedule(); return; }
      st.ws = ws;
      st.last = Date.now();
      ws.onopen = () => {
        const hello = opts.hello ? opts.hello(st.since) : null;
        if (hello) ws.send(JSON.stringify(hello));
      };
      ws.onmessage = (e) => {
        st.last = Date.now();
        let m;
        try { m = JSON.parse(e.data); } catch (err) { return; }
        if (m.type === "state" || m.type === "events") {
          if (m.type === "events" && m.since !== st.since) { ws.close(); return; }
          st.attempt = 0;
          st.since = m.next_seq;
          if (opts.onLink) opts.onLink("live");
        }
        if (opts.onMessage) opts.onMessage(m);
      };
      ws.onclose = (e) => {
        if (st.ws !== ws) return;
        st.ws = null;
        if (FINAL.has(e.code)) { if (opts.onLink) opts.onLink("gone", e.code); return; }
        if (opts.onLink) opts.onLink("offline");
        schedule();
      };
    }
    setInterval(() => { if (st.ws && Date.now() - st.last > 50000) st.ws.close(); }, 5000);
    const wake = () => {
      if (st.closed || st.ws) return;
      st.attempt = 0; clearTimeout(st.timer); open();
    };
    window.addEventListener("online", wake);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") wake(); });
    open();
    return {
      get since() { return st.since; },
      /* Send a message on the socket if it is open and following (its state received); false otherwise. */
      send(message) {
        if (!st.ws || st.ws.readyState !== WebSocket.OPEN || st.since === null) return false;
        st.ws.send(JSON.stringify(message));
        return true;
      },
      close() { st.closed = true; clearTimeout(st.timer); if (st.ws) st.ws.close(1000); },
    };
  };

  /* A spectator's socket on a table code (the spectators' page, the overlay): it follows the code from game to
     game. Each game it is sent begins with {"type": "table", "game"}; reconnecting, the page names that game
     with its seq, and gets the table's present game from its start if the code has passed on meanwhile.
     opts.show(view, rules) (rules: the rule set's values, sent with each game's first message),
     opts.clock (SM.clock), opts.onLink(state). */
  SM.watch = function (code, opts) {
    let game = null;
    let rules = null;
    /* B.observers: closed to observers by the judge, the page shows the notice and none of the game (the socket
       retries, and follows the game again once the table is reopened) */
    let shut = false;
    const closedNotice = (closed) => {
      shut = closed;
      document.body.classList.toggle("watch-closed", closed);
      const note = document.getElementById("o-closed");
      if (note) note.hidden = !closed;
      if (!closed) return;
      for (const id of ["o-seats", "ov-seats", "o-banner", "o-info", "ov-banner"]) {
        const el = document.getElementById(id);
        if (el) el.textContent = "";
      }
      opts.clock.clear();
    };
    const url = (since) => SM.wsUrl(`/ws/watch/${encodeURIComponent(code)}?since=${since === null ? 0 : since}` +
      (game === null ? "" : `&game=${encodeURIComponent(game)}`));
    return SM.follow(url, {
      onLink(state, closeCode) {  // closed to observers: the retries are not a lost connection
        if (shut && state !== "live") return;
        if (opts.onLink) opts.onLink(state, closeCode);
      },
      onMessage(m) {
        if (m.type === "table") {
          if (game !== null && m.game !== game) opts.clock.clear();  // the table's next game: no timer yet
          game = m.game;
        } else if (m.type === "state" || m.type === "events") {
          if (m.rules) rules = m.rules;
          if (m.type === "state" && opts.said) opts.said.reset();
          closedNotice(false);
          opts.show(m.view, rules);
          opts.clock.step(m.view, rules);
        }
        else if (m.type === "timer") opts.clock.set(m);
        else if (m.type === "claims" && opts.said) opts.said.take(m);
        else if (m.type === "error" && m.error && m.error.code === "watch-closed") closedNotice(true);
      },
    });
  };

  /* What the seats said in their speeches (the claims, docs/bots.md), newest first: `el` holds an <ol>; a `claims`
     message from number 0 (the socket's first, after its `state`) replaces the list, a later one adds to it. */
  SM.said = function (el) {
    let list = [];
    const draw = () => {
      const ol = el.querySelector("ol");
      ol.textContent = "";
      for (const c of list.slice(-40).reverse()) {
        const li = document.createElement("li");
        li.className = "o-said-" + c.kind + (c.color ? " o-said-" + c.color : "");
        li.textContent = c.text[SM.lang] || c.text.en;
        ol.appendChild(li);
      }
      el.hidden = !list.length;
    };
    return {
      reset() { list = []; draw(); },
      take(m) {
        if (m.since === 0) list = [];
        for (const c of m.claims) if (c.n === list.length) list.push(c);
        draw();
      },
      get count() { return list.length; },
    };
  };

  SM.wsUrl = function (path) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}${path}`;
  };

  /* The host's timer: {running, left, total, key, at (server time), now (server time when sent)}, kept only for the
     step it belongs to (its key, SM.timerStep): clock.step(v, rules) with each view; a new step shows its own
     time, paused, until the host's timer of that step comes (one that comes before the step's view is held till
     then); a step without a timer shows none (`box`, by default the value's parent, gets the class "none"); a timer of a step
     gone by is never shown. The state (running or paused) in `#<box id>-state` when the page has it, and as the
     box's title. */
  SM.clock = function (el, boxEl) {
    const box = boxEl || el.parentElement;
    const stateEl = box.id ? document.getElementById(box.id + "-state") : null;
    let t = null, skew = 0, key = null, held = null;
    function left() {
      if (!t) return null;
      if (!t.running) return t.left;
      const serverNow = Date.now() / 1000 - skew;
      return Math.max(0, t.left - (serverNow - t.at));
    }
    function draw() {
      const s = left();
      const none = s === null || !t.total;
      box.classList.toggle("none", none);   // not shown, its place kept (online.css): the header does not move
      if (none) {
        el.textContent = "0:00";
        box.dataset.state = "none";
        box.removeAttribute("title");
        if (stateEl) stateEl.textContent = "■ " + O.paused;
        return;
      }
      const whole = Math.ceil(s);
      const running = !!t.running && whole > 0;
      el.textContent = SM.clockText(s);
      box.classList.toggle("running", running);
      box.classList.toggle("low", whole <= 10 && whole > 0);
      box.classList.toggle("zero", whole === 0);
      box.dataset.state = running ? "running" : "paused";
      box.title = running ? O.running : O.paused;
      if (stateEl) stateEl.textContent = running ? "▶ " + O.running : "■ " + O.paused;
    }
    function apply(m) { t = m; skew = Date.now() / 1000 - (m.now || Date.now() / 1000); draw(); }
    setInterval(() => { if (t && t.running) draw(); }, 250);
    return {
      step(v, rules) {
        const step = SM.timerStep(v, rules);
        if (step.key === key) return;
        key = step.key;
        const h = held;
        held = null;
        if (h && h.key === key) return apply(h);
        t = step.seconds ? { running: false, left: step.seconds, total: step.seconds, key } : null;
        draw();
      },
      set(m) {
        if (key === null || m.key !== key) { held = m; return; }   // not (yet) the step shown
        apply(m);
      },
      clear() { t = null; key = null; held = null; draw(); },
    };
  };

  /* a badge: its text in full, and a short form shown instead on a phone (data-short, see online.css) */
  function badge(text, cls, short) {
    const b = document.createElement("span");
    b.className = "o-badge " + (cls || "");
    b.textContent = text;
    if (short) b.dataset.short = short;
    return b;
  }

  /* Draw the seats of view `v` into `root`; opts.rules: the rule set's values (the speech steps, the foul that
     removes, the black roles: sent by the server, engine.rule_values); opts.me: the viewer's own seat (outlined);
     opts.onSeat(n): a tap. */
  SM.board = function (root, v, opts) {
    const o = opts || {};
    const rules = o.rules;
    root.textContent = "";
    root.style.setProperty("--cols", v.players > 10 ? "4" : "5");
    for (const seat of v.seats) {
      const n = seat.seat;
      const el = document.createElement("div");
      el.className = "o-seat";
      el.dataset.seat = String(n);
      if (!seat.alive) el.classList.add("gone");
      if (o.me === n) el.classList.add("me");
      const speaking = rules.speech_steps.includes(v.step) && v.seat === n;
      if (speaking) el.classList.add("speaking");
      if (v.step === "voting" && v.seat === n) el.classList.add("ballot");
      const head = document.createElement("div");
      head.className = "o-seat-head";
      const num = document.createElement("span");
      num.className = "o-num";
      num.textContent = String(n);
      const fouls = document.createElement("span");
      fouls.className = "o-fouls";
      const f = Math.max(0, seat.fouls || 0);
      fouls.textContent = SM.dots(f, rules.foul_remove);   // A.foul.four: the foul that removes is the last dot
      fouls.setAttribute("aria-label", fmt(O.fouls, { n: f }));
      head.append(num, fouls);
      const name = document.createElement("span");
      name.className = "o-name fit-name";
      name.textContent = seat.name;
      el.append(head, name);
      if (seat.role) {
        const role = document.createElement("span");
        role.className = "o-seat-role " + (rules.black_roles.includes(seat.role) ? "black" : "red");
        role.textContent = (L.roles && L.roles[seat.role]) || seat.role;
        el.appendChild(role);
      }
      const badges = document.createElement("div");
      badges.className = "o-badges";
      if (speaking) badges.appendChild(badge("♪ " + O.speaks, "speaks", "♪"));
      if (v.step === "voting" && v.seat === n) badges.appendChild(badge("☐ " + O.ballot, "ballot", "☐"));
      if (v.phase === "day" && seat.nominated_by && seat.nominated_by.length) {
        badges.appendChild(badge("▲ " + fmt(O.put_up_by, { s: list(seat.nominated_by) }), "put-up", "▲ " + fmt(O.by_short, { s: list(seat.nominated_by) })));
      }
      const votedFor = v.vote && v.vote.votes ? v.vote.votes[String(n)] : undefined;
      if (votedFor !== undefined && (v.step === "voting" || v.step === "lift")) {
        badges.appendChild(badge("✓ " + fmt(O.voted, { s: no(votedFor) }), "voted", "✓→" + no(votedFor)));
      }
      if (v.step === "lift" && v.vote.lift.includes(n)) badges.appendChild(badge("✓ " + O.lifted, "voted", "✓"));
      if (seat.alive && seat.muted_day !== null && seat.muted_day >= v.day) badges.appendChild(badge("∅ " + O.silent, "silent", "∅"));
      if (seat.left) {
        const how = (L.how && L.how[seat.left.how]) || seat.left.how;
        const when = fmt(seat.left.phase === "night" ? O.out_night : O.out_day, { n: seat.left.day });
        badges.appendChild(badge(`✝ ${how} · ${when}`, "left", `✝${seat.left.phase === "night" ? "☾" : "☀"}${seat.left.day}`));
      }
      el.appendChild(badges);
      el.setAttribute("aria-label", [no(n), seat.name, fmt(O.fouls, { n: f }),
        ...Array.from(badges.children, (b) => b.textContent)].join(", "));
      if (o.onSeat) {
        el.setAttribute("role", "button");
        el.tabIndex = 0;
        el.addEventListener("click", () => o.onSeat(n));
      }
      root.appendChild(el);
    }
    SM.fitNames(root);
  };

  /* The public line under the banner: the ballot, the vote, the night's result, the winner. */
  SM.infoLine = function (v) {
    if (v.over) {
      return v.winner ? fmt(O.winner, { team: (L.teams && L.teams[v.winner]) || v.winner }) : O.over;
    }
    if (v.step === "voting") {
      const n = Object.values(v.vote.votes || {}).filter((c) => c === v.seat).length;
      return fmt(O.vote_now, { c: v.seat, n });
    }
    if (v.step === "lift") return fmt(O.lift_now, { c: list(v.vote.candidates), n: v.vote.lift.length });
    if (v.unnamed_night_fouls) return fmt(O.night_fouls, { n: v.unnamed_night_fouls });
    if (v.phase === "day" && v.candidates && v.candidates.length) return fmt(O.on_ballot, { s: list(v.candidates) });
    const kills = Object.values(v.night_kills || {}).filter((k) => k);
    if (v.phase === "day" && kills.length && v.night_kills[String(v.day - 1)]) {
      return fmt(O.killed, { s: no(v.night_kills[String(v.day - 1)]) });
    }
    return "";
  };

  SM.linkState = function (el, state) {
    if (!el) return;
    el.dataset.state = state;
    el.textContent = state === "live" ? "● " + O.live : state === "offline" ? O.offline : O.connecting;
  };

  // ---------------------------------------------------------------------------------- the spectators' page
  const root = document.getElementById("watch");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const clock = SM.clock($("o-timer-value"));
  function show(v, rules) {
    document.documentElement.classList.toggle("night", v.phase === "night");
    $("o-banner").textContent = v.banner[SM.lang] || v.banner.en;
    $("o-info").textContent = SM.infoLine(v);
    SM.voteLines($("o-votes"), v);
    SM.board($("o-seats"), v, { rules });
  }
  if (root.dataset.stream) {
    // the judge's open stream: the host's view as it was N minutes ago, polled
    const token = decodeURIComponent(location.pathname.split("/").pop());
    const said = SM.said($("o-said"));
    const poll = async () => {
      try {
        const r = await fetch("/api/stream/state", { headers: { "X-Stream-Token": token, Accept: "application/json" } });
        if (r.status === 200) {
          SM.linkState($("o-link"), "live");
          const data = await r.json();
          show(data.view, data.rules);
          said.take({ since: 0, claims: data.claims || [] });   // said by the moment shown, as late as the board
        }
        else SM.linkState($("o-link"), "offline");
      } catch (e) { SM.linkState($("o-link"), "offline"); }
    };
    poll();
    setInterval(poll, 5000);
    return;
  }
  SM.watch(root.dataset.code, { show, clock, said: SM.said($("o-said")), onLink: (s) => SM.linkState($("o-link"), s) });
})();
