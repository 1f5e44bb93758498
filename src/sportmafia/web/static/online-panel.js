/* The host's online-table panel (/games/{id}/online): open the table (with a new code, or with the code of the
   table's previous game, remembered by this device), the join code and its QR code, join requests to confirm,
   each seat's personal link (issued, re-issued, revoked; shown once with its QR code), the judge's delayed open
   stream. Polls the table every 3 s. */
"use strict";
(function () {
  const T = SM.strings("panel-i18n");
  const $ = (id) => document.getElementById(id);
  const root = $("online");
  const gameId = root.dataset.game;
  const base = `/api/games/${encodeURIComponent(gameId)}/online`;
  const shown = {};   // seat -> {url, qr} of a link issued from this page (shown once)
  const LAST_CODE = "sm-table-code";  // the code of the table this device opened last: its next game takes it

  function remember(code) { try { localStorage.setItem(LAST_CODE, code); } catch (e) { /* private mode */ } }

  function error(body) { const e = $("p-error"); e.hidden = !body; e.textContent = body ? SM.errorText(body) : ""; }

  async function load() {
    const r = await SM.api("GET", base);
    if (r.status === 200 && r.body && r.body.open === false) {
      $("p-closed").hidden = false; $("p-opened").hidden = true;
      const take = $("p-take");
      if (!take.value && document.activeElement !== take) {
        try { take.value = localStorage.getItem(LAST_CODE) || ""; } catch (e) { /* private mode */ }
      }
      return;
    }
    if (r.status !== 200) { error(r.body); return; }
    error(null);
    draw(r.body);
  }

  function button(text, cls, fn) {
    const b = document.createElement("button");
    b.type = "button"; b.className = cls; b.textContent = text; b.addEventListener("click", fn);
    return b;
  }

  function draw(t) {
    $("p-closed").hidden = true; $("p-opened").hidden = false;
    $("p-code").textContent = t.code;
    const qr = `${base}/join-qr.svg`;
    if ($("p-join-qr").getAttribute("src") !== qr) $("p-join-qr").src = qr;
    // the address and the code in letters under the QR code, to read aloud or type on a phone without a camera
    $("p-join-url").href = t.join_url; $("p-join-url").textContent = t.join_url;
    $("p-join-or").textContent = SM.fmt(T.join_or, { url: t.join_form_url });
    $("p-join-code").textContent = t.code;
    $("p-watch").href = t.watch_url; $("p-watch").textContent = t.watch_url;
    $("p-overlay").href = t.overlay_url;
    if (SM.observersPanel) SM.observersPanel(t, load);  // B.observers
    const reqs = $("p-requests");
    reqs.textContent = "";
    $("p-no-requests").hidden = t.requests.length > 0;
    for (const q of t.requests) {
      const li = document.createElement("li");
      li.append(SM.fmt(T.request, { n: q.seat, name: q.name || "—" }) + " ");
      if (root.dataset.host) {
        li.append(button(T.approve, "primary", () => decide(q.id, true)), button(T.deny, "ghost", () => decide(q.id, false)));
      }
      reqs.appendChild(li);
    }
    const seats = $("p-seats");
    seats.textContent = "";
    for (const s of t.seats) {
      const li = document.createElement("li");
      li.dataset.seat = String(s.seat);
      const label = document.createElement("span");
      label.textContent = `${s.seat}. ${s.name} · ${s.linked ? T.linked : T.not_linked}` +
        (s.connected ? ` · ${SM.fmt(T.connected, { n: s.connected })}` : "");
      li.appendChild(label);
      // "Issue a link" stands right of the label; once the seat has a link, the buttons that end it stand in a
      // row of their own below (under the link just shown, if any), so that a double tap on "Issue" ends nothing,
      // and each asks first: "No" where the tapped button was, the "Yes" beside it
      if (root.dataset.host && !s.linked) li.append(button(T.issue, "ghost p-issue", () => issue(s.seat)));
      if (shown[s.seat]) {
        const box = document.createElement("div");
        box.className = "p-link";
        const p = document.createElement("p");
        p.textContent = SM.fmt(T.link_once, { n: s.seat });
        const a = document.createElement("a");
        a.href = shown[s.seat].url; a.textContent = shown[s.seat].url; a.className = "p-url"; a.target = "_blank";
        const img = document.createElement("img");
        img.className = "p-qr"; img.alt = shown[s.seat].url;
        img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(shown[s.seat].qr);
        box.append(p, a, img);
        li.appendChild(box);
      }
      if (root.dataset.host && s.linked) li.appendChild(ending(s.seat));
      seats.appendChild(li);
    }
  }

  let asking = null;  // {seat, kind: "reissue" | "revoke"}: the question shown in the seat's row until answered

  function ending(seat) {
    const row = document.createElement("div");
    row.className = "p-end";
    if (asking && asking.seat === seat) {
      const kind = asking.kind;
      const q = document.createElement("p");
      q.className = "p-ask";
      q.setAttribute("role", "alert");
      q.textContent = SM.fmt(T[kind + "_ask"], { n: seat });
      const no = button(T.no, "ghost p-no", () => { asking = null; load(); });
      const yes = button(T[kind + "_yes"], "warn p-yes", () => {
        asking = null;
        if (kind === "reissue") issue(seat); else revoke(seat);
      });
      row.append(q, no, yes);
    } else {
      const ask = (kind) => () => { asking = { seat, kind }; load(); };
      row.append(button(T.reissue, "ghost p-reissue", ask("reissue")), button(T.revoke, "ghost p-revoke", ask("revoke")));
    }
    return row;
  }

  async function decide(id, approve) { const r = await SM.api("POST", `${base}/requests/${id}`, { approve }); if (r.status !== 200) error(r.body); load(); }
  async function issue(seat) {
    const r = await SM.api("POST", `${base}/seats/${seat}/link?qr=true`);
    if (r.status !== 200) { error(r.body); return; }
    shown[seat] = { url: r.body.url, qr: r.body.qr_svg };
    load();
  }
  async function revoke(seat) { delete shown[seat]; const r = await SM.api("DELETE", `${base}/seats/${seat}/link`); if (r.status !== 200) error(r.body); load(); }

  $("p-all").addEventListener("click", async () => {
    const r = await SM.api("POST", `${base}/links?qr=true`);
    if (r.status !== 200) { error(r.body); return; }
    for (const l of r.body.links) shown[l.seat] = { url: l.url, qr: l.qr_svg };
    load();
  });
  $("p-all").hidden = !root.dataset.host;
  async function open(body) {
    const r = await SM.api("POST", base, body);
    if (r.status !== 200) { error(r.body); return; }
    remember(r.body.code);
    load();
  }
  $("p-open").addEventListener("click", () => open(undefined));
  $("p-open-code").addEventListener("click", () => {
    const code = $("p-take").value.trim();
    if (code) open({ code }); else $("p-take").focus();
  });
  $("p-stream").addEventListener("click", async () => {
    const r = await SM.api("POST", `${base}/stream`, { delay_minutes: Number($("p-delay").value) });
    if (r.status !== 200) { error(r.body); return; }
    $("p-stream-url").textContent = r.body.url;
  });
  $("p-stream-off").addEventListener("click", async () => { await SM.api("DELETE", `${base}/stream`); $("p-stream-url").textContent = ""; });
  $("p-stream-card").hidden = !root.dataset.judge;
  load();
  setInterval(load, 3000);
})();
