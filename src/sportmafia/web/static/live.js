/* Live updates: one WebSocket per page to /ws/games/{id}?view=host|table&since=N (docs/api.md, "Live updates").
   SM.live.connect(gameId, view, {onMessage}) opens it and reconnects by itself (backoff, resuming after the last
   seq it got). On every move it dispatches `sm-moved` on document (detail {next_seq}); on the host's timer,
   `sm-timer` (detail: the timer message). SM.live.sendTimer(state) sends the host's timer. */
"use strict";
(function () {
  const SM = window.SM || (window.SM = {});
  const STALE_MS = 60000;      // no message at all for this long (the server pings every 20 s): reconnect
  const FINAL = new Set([4401, 4403, 4404, 4422]);   // refusals: reconnecting would not help
  let conn = null;

  function emit(name, detail) {
    document.dispatchEvent(new CustomEvent(name, { detail }));
  }

  function connect(gameId, view, options) {
    const opts = options || {};
    if (conn) conn.close();
    const state = {
      gameId, view: view || "host", since: null, ws: null, attempt: 0, closed: false,
      timer: null, watchdog: null, lastMessage: 0, pendingTimer: null,
    };

    function url() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const q = new URLSearchParams({ view: state.view });
      if (state.since !== null) q.set("since", String(state.since));
      return `${proto}//${location.host}/ws/games/${encodeURIComponent(state.gameId)}?${q}`;
    }

    function schedule() {
      if (state.closed) return;
      const delay = Math.min(15000, 500 * 2 ** state.attempt) * (0.75 + Math.random() * 0.5);
      state.attempt += 1;
      clearTimeout(state.timer);
      state.timer = setTimeout(open, delay);
    }

    function open() {
      if (state.closed) return;
      let ws;
      try { ws = new WebSocket(url()); } catch (e) { schedule(); return; }
      state.ws = ws;
      state.lastMessage = Date.now();
      ws.onmessage = (e) => {
        state.lastMessage = Date.now();
        let m;
        try { m = JSON.parse(e.data); } catch (err) { return; }
        if (m.type === "state" || m.type === "events") {
          state.attempt = 0;
          const moved = state.since === null || m.next_seq !== state.since || m.type === "state";
          state.since = m.next_seq;
          if (opts.onMessage) opts.onMessage(m);
          if (moved) emit("sm-moved", { next_seq: m.next_seq, type: m.type });
          if (m.type === "state" && state.pendingTimer) { send(state.pendingTimer); state.pendingTimer = null; }
        } else if (m.type === "timer") {
          if (opts.onMessage) opts.onMessage(m);
          emit("sm-timer", m);
        } else if (m.type === "error") {
          if (opts.onMessage) opts.onMessage(m);
          emit("sm-live-error", m.error);
        } else if (opts.onMessage) {
          opts.onMessage(m);
        }
      };
      ws.onclose = (e) => {
        if (state.ws !== ws) return;
        state.ws = null;
        emit("sm-live", { connected: false, code: e.code });
        if (FINAL.has(e.code)) {
          if (e.code === 4401 && !location.pathname.startsWith("/login")) {
            location.href = "/login?next=" + encodeURIComponent(location.pathname);
          }
          return;
        }
        schedule();
      };
      ws.onopen = () => emit("sm-live", { connected: true });
    }

    function send(message) {
      const ws = state.ws;
      if (ws && ws.readyState === WebSocket.OPEN && state.since !== null) {
        ws.send(JSON.stringify(message));
        return true;
      }
      return false;
    }

    state.watchdog = setInterval(() => {
      if (state.ws && Date.now() - state.lastMessage > STALE_MS) state.ws.close();
    }, 5000);
    // a phone that wakes up or a laptop back online: reconnect at once rather than after the backoff
    const wake = () => {
      if (state.closed || state.ws) return;
      state.attempt = 0;
      clearTimeout(state.timer);
      open();
    };
    window.addEventListener("online", wake);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") wake(); });

    conn = {
      get since() { return state.since; },
      get connected() { return !!(state.ws && state.ws.readyState === WebSocket.OPEN); },
      send,
      sendTimer(timer) {
        const message = {
          type: "timer", running: !!timer.running, key: String(timer.key || ""),
          total: Math.max(0, Math.min(3600, Number(timer.total) || 0)),
          left: 0,
        };
        message.left = Math.max(0, Math.min(message.total, Number(timer.left) || 0));
        if (!send(message)) state.pendingTimer = message;   // sent as soon as the socket is back
      },
      close() {
        state.closed = true;
        clearTimeout(state.timer);
        clearInterval(state.watchdog);
        window.removeEventListener("online", wake);
        if (state.ws) state.ws.close(1000);
        state.ws = null;
        if (conn === this) conn = null;
      },
    };
    open();
    return conn;
  }

  SM.live = {
    connect,
    sendTimer(timer) { if (conn) conn.sendTimer(timer); },
    get connection() { return conn; },
  };
})();
