/* The console's join requests (docs/console.md, "Join requests"): the players who asked for a seat with the table
   code, each with Approve / Deny in place, so that the host never leaves the game. Shown only while some are
   pending; the count also sits on the topbar's "Online table" link. Read from GET /api/games/{id}/online when the
   host's socket says {"type": "requests"} (a request or a decision in this server process), at each keepalive
   ping (other processes) and when the socket (re)opens. */
"use strict";
(function () {
  const root = document.getElementById("console");
  const box = document.getElementById("join-requests");
  if (!root || !box || !window.SM) return;
  const game = root.dataset.game;
  const T = SM.strings("console-joins-i18n");
  const list = document.getElementById("join-requests-list");
  const count = document.getElementById("join-requests-count");
  const badge = document.getElementById("online-badge");
  let loading = false;
  let again = false;

  async function load() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      const r = await SM.api("GET", `/api/games/${encodeURIComponent(game)}/online`);
      if (r.status === 200 && r.body) show(r.body.requests || []);  // a table not opened: {"open": false}, none
    } catch (e) {
      /* offline: the next message asks again */
    } finally {
      loading = false;
      if (again) { again = false; load(); }
    }
  }

  function show(requests) {
    list.replaceChildren(...requests.map(row));
    box.hidden = requests.length === 0;
    count.textContent = String(requests.length);
    if (badge) {
      badge.hidden = requests.length === 0;
      badge.textContent = String(requests.length);
      badge.title = SM.fmt(T.pending_n, { n: requests.length });
    }
  }

  function row(q) {
    const li = document.createElement("li");
    li.className = "join-request";
    li.dataset.request = String(q.id);
    const who = document.createElement("span");
    who.className = "join-who";
    who.textContent = SM.fmt(T.request, { n: q.seat, name: q.name || T.no_name });
    const error = document.createElement("span");
    error.className = "join-error";
    error.setAttribute("role", "alert");
    li.append(who, button("primary join-approve", `✓ ${T.approve}`, true, q, error),
      button("tool warn join-deny", `✗ ${T.deny}`, false, q, error), error);
    return li;
  }

  function button(cls, text, approve, q, error) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = text;
    b.addEventListener("click", async () => {
      b.disabled = true;
      error.textContent = "";
      try {
        const r = await SM.api("POST", `/api/games/${encodeURIComponent(game)}/online/requests/${q.id}`, { approve });
        if (r.status !== 200) error.textContent = SM.errorText(r.body);
      } catch (e) {
        error.textContent = SM.errorText(null);
      }
      b.disabled = false;
      load();
    });
    return b;
  }

  document.addEventListener("sm-join-requests", load);
  load();
})();
