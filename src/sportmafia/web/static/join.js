/* Joining with the table code (/join/{code}): pick a free seat, wait for the host's confirmation, then go to the
   seat's own page. The request's secret stays in this tab (sessionStorage) and is sent in X-Join-Secret. */
"use strict";
(function () {
  const J = SM.strings("join-i18n");
  const $ = (id) => document.getElementById(id);
  const code = $("join").dataset.code;
  const KEY = "sm-join-" + code;
  const status = (t, cls) => { $("j-status").textContent = t; $("j-status").className = "o-feedback " + (cls || ""); };

  async function seats() {
    const r = await fetch(`/api/join/${encodeURIComponent(code)}`, { headers: { Accept: "application/json" } });
    const body = await r.json();
    const box = $("j-seats");
    box.textContent = "";
    if (r.status !== 200) { status(SM.errorText(body), "error"); return; }
    if (!body.free.length) status(J.none, "warn");
    for (const n of body.free) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "o-pick wide";
      b.textContent = SM.fmt(J.seat, { n, name: body.names[n - 1] });
      b.addEventListener("click", () => ask(n));
      box.appendChild(b);
    }
  }

  async function ask(seat) {
    const r = await fetch(`/api/join/${encodeURIComponent(code)}`, {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": SM.csrf },
      body: JSON.stringify({ seat, name: $("j-name").value.trim() }),
    });
    const body = await r.json();
    if (r.status !== 200) {
      // a taken seat; or asked already, too many requests, refused a moment ago (the server's words, with the wait)
      status(body && body.error && body.error.code === "taken" ? J.taken : SM.errorText(body), "error");
      seats();
      return;
    }
    sessionStorage.setItem(KEY, JSON.stringify({ secret: body.secret, seat }));
    $("j-seats").textContent = "";
    wait();
  }

  async function wait() {
    const saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    if (!saved) { seats(); return; }
    status(SM.fmt(J.waiting, { n: saved.seat }), "saving");
    try {
      const r = await fetch("/api/join/claim", {
        method: "POST", headers: { Accept: "application/json", "X-Join-Secret": saved.secret, "X-CSRF-Token": SM.csrf },
      });
      const body = await r.json();
      if (r.status === 200 && body.url) { sessionStorage.removeItem(KEY); location.replace(body.url); return; }
      if (r.status !== 200 || body.status === "denied" || body.status === "claimed") {
        sessionStorage.removeItem(KEY);
        status(SM.fmt(J.denied, { n: saved.seat }), "error");
        seats();
        return;
      }
    } catch (e) { /* offline: ask again */ }
    setTimeout(wait, 2000);
  }
  wait();
})();
