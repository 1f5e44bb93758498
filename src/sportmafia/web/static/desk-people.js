/* The judge's desk, Participants tab: the list (a participant deleted before the seating), adding one, a pasted
   list or a CSV file (B.sanctions: a banned player only with the judge's reason), and the staff (hosts and judges).
   Registered as SM.deskTabs.people (tournament-desk.js). */
"use strict";
(function () {
  const { $, NET, el, show, call } = SM.tour;
  (SM.deskTabs = SM.deskTabs || {}).people = function (d) {
    const { base, canJudge, S, users, state, notice, loadAll } = d;

    /* --- participants --- */
    function renderPeople() {
      const t = state.t;
      const body = $("people-rows");
      body.replaceChildren();
      t.participants.forEach((p, i) => {
        const tr = el("tr");
        tr.dataset.participant = p.id;
        tr.append(el("td", "num", i + 1), el("td", "nick", p.nickname), el("td", "", p.club || ""),
          el("td", "", p.team || ""), el("td", p.status === "active" ? "" : "warn-text", S[p.status] || p.status));
        const td = el("td", "judge-only");
        if (canJudge && !state.seating && !state.games.length) {
          const b = el("button", "tool small delete", "✕");
          b.type = "button";
          b.title = `${S.delete}: ${p.nickname}`;
          b.setAttribute("aria-label", b.title);
          b.addEventListener("click", async () => {
            if (await call("DELETE", `${base}/participants/${p.id}`, undefined, "people-error")) loadAll();
          });
          td.append(b);
        }
        tr.append(td);
        body.append(tr);
      });
      $("no-people").hidden = t.participants.length > 0;
      $("count-people").textContent = t.participants.length ? `(${t.participants.length})` : "";
      for (const id of ["add-one", "add-pasted", "add-csv"]) $(id).disabled = !!state.seating;
    }
    async function addParticipants(body, resetId) {
      const override = $("ban-override") && $("ban-override").value.trim();
      if (override) body.ban_override = override;  /* B.sanctions: a banned player, with the judge's reason */
      const r = await call("POST", `${base}/participants`, body, "people-error");
      if (r) {
        notice(SM.fmt(S.added, { n: r.added.length }));
        if (resetId) $(resetId).reset();
        loadAll();
      }
    }
    $("add-one-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const nickname = $("one-nick").value.trim();
      if (!nickname) return show("people-error", S.need_nick);
      addParticipants({ participants: [{ nickname, club: $("one-club").value.trim() || null,
        team: $("one-team").value.trim() || null }] }, "add-one-form");
    });
    $("paste-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("paste-text").value;
      if (!text.trim()) return show("people-error", S.need_text);
      addParticipants({ text }, "paste-form");
    });
    $("csv-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const file = $("csv-file").files[0];
      if (!file) return show("people-error", S.choose_file);
      show("people-error", "");
      const data = new FormData();
      data.append("file", file);
      try {
        const r = await fetch(`${base}/participants/csv`, {
          method: "POST", body: data, credentials: "same-origin",
          headers: { Accept: "application/json", "X-CSRF-Token": SM.csrf } });
        const body = await r.json().catch(() => null);
        if (r.status === 201) {
          notice(SM.fmt(S.added, { n: body.added.length }));
          $("csv-form").reset();
          loadAll();
        } else {
          show("people-error", SM.errorText(body));
        }
      } catch (e) {
        show("people-error", NET());
      }
    });

    /* --- staff --- */
    function renderStaff() {
      const box = $("staff-rows");
      box.replaceChildren();
      const roleOf = {};
      for (const s of state.t.staff) roleOf[s.user_id] = s.role;
      for (const u of users) {
        const label = el("label", "staff-row");
        label.append(el("span", "", u.login));
        const sel = el("select");
        sel.dataset.user = u.id;
        sel.setAttribute("aria-label", u.login);
        for (const v of ["", "host", "judge"]) {
          const o = el("option", "", v ? S[v] : S.none);
          o.value = v;
          if ((roleOf[u.id] || "") === v) o.selected = true;
          sel.append(o);
        }
        label.append(sel);
        box.append(label);
      }
    }
    /* how tables are formed, and whether the tournament has a host for each */
    function renderTables() {
      const tp = state.t.table_plan;
      if (!tp) return;
      const hostsLine = SM.fmt(S.table_hosts, { hosts: tp.hosts, tables: tp.tables.length });
      $("staff-tables").textContent = `${tp.text[SM.lang] || tp.text.en}. ${hostsLine}`;
      const few = tp.tables.length > 0 && tp.hosts < tp.tables.length;
      $("staff-warning").hidden = !few;
      $("staff-warning").textContent = few ? S.staff_few : "";
    }
    /* an admin makes a host's (or judge's) account here and adds it to the staff: POST /api/users, then the
       staff with it (the server hashes the password; only an admin may create users) */
    if ($("new-staff-form")) {
      $("new-staff-form").addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const login = $("new-staff-login").value.trim();
        const password = $("new-staff-password").value;
        const role = $("new-staff-role").value;
        if (!/^[A-Za-z0-9_.-]{1,64}$/.test(login)) return show("new-staff-error", S.need_login);
        if (password.length < 8) return show("new-staff-error", S.need_password);
        const made = await call("POST", "/api/users", { login, password, role }, "new-staff-error");
        if (!made) return;
        users.push({ id: made.id, login: made.login, role: made.role });
        users.sort((a, b) => a.login.localeCompare(b.login));
        const staff = state.t.staff.map((s) => ({ user_id: s.user_id, role: s.role }));
        staff.push({ user_id: made.id, role });
        if (await call("PUT", `${base}/staff`, { staff }, "new-staff-error")) {
          notice(SM.fmt(S.staff_created, { login: made.login }));
          $("new-staff-form").reset();
          loadAll();
        }
      });
    }
    $("staff-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const staff = Array.from($("staff-rows").querySelectorAll("select"))
        .filter((s) => s.value).map((s) => ({ user_id: Number(s.dataset.user), role: s.value }));
      if (await call("PUT", `${base}/staff`, { staff }, "staff-error")) {
        notice(S.staff_saved);
        loadAll();
      }
    });

    return { render() { renderPeople(); renderStaff(); renderTables(); } };
  };
})();
