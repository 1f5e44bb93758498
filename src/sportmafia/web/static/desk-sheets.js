/* The judge's desk, Sheets tab: the inbox of signed result sheets, each accepted or corrected in place (a change
   with its reason). Registered as SM.deskTabs.inbox (tournament-desk.js). */
"use strict";
(function () {
  const { $, L, NET, el, link, when } = SM.tour;
  (SM.deskTabs = SM.deskTabs || {}).inbox = function (d) {
    const { base, S, state, notice, loadAll } = d;

    /* --- inbox --- */
    const SHEET_FIELDS = ["winner", "result", "first_killed", "best_move_black"];
    const FIELDS = ["winner", "result", "role", "fouls", "warnings", "removed", "removal_reason", "first_killed",
      "best_move_black"];
    function shown(field, value) {
      if (value === null || value === undefined || value === "") {
        return field === "winner" ? S.no_team : field === "removed" ? S.not_removed : "—";
      }
      if (field === "winner") return L.teams[value] || value;
      if (field === "result") return L.results[value] || value;
      if (field === "role") return L.roles[value] || value;
      if (field === "removed") return L.scopes[value] || value;
      return String(value);
    }
    function renderInbox() {
      if (d.openForms > 0) return;
      const box = $("inbox-list");
      box.replaceChildren();
      $("inbox-empty").hidden = state.inbox.length > 0;
      $("count-inbox").textContent = state.inbox.length ? `(${state.inbox.length})` : "";
      for (const s of state.inbox) box.append(sheetCard(s));
    }
    function sheetCard(s) {
      const card = el("article", "sheet-card-t");
      card.dataset.game = s.game_id;
      const title = SM.fmt(S.sheet_title, { round: s.round, table: s.table,
        stage: s.stage === "final" ? S.final_stage : S.main_stage });
      card.append(el("h3", "", title));
      const sh = s.sheet;
      if (!sh) return card;
      const winner = sh.winner === "red" ? S.winner_red : sh.winner === "black" ? S.winner_black : S.no_winner;
      const line = el("p", `sheet-winner-line team-${sh.winner || "none"}`);
      line.append(el("strong", "", winner), el("span", "note",
        ` · ${L.results[sh.result] || sh.result} · ${SM.fmt(S.signed_at, { when: when(s.signed_at) })}`));
      card.append(line);
      const wrap = el("div", "table-wrap");
      const table = el("table", "t-table compact sheet-rows");
      const tbody = el("tbody");
      for (const p of sh.players) {
        const tr = el("tr", p.team === sh.winner ? "won" : "");
        const notes = [];
        if (p.fouls) notes.push(SM.fmt(S.fouls_n, { n: p.fouls }));
        if (p.removed) notes.push(SM.fmt(S.removed_scope, { scope: L.scopes[p.removed] || p.removed }));
        tr.append(el("td", "num", p.seat), el("td", "nick", p.nickname),
          el("td", `role-${p.team}`, L.roles[p.role] || p.role), el("td", "note", notes.join(", ")));
        tbody.append(tr);
      }
      table.append(tbody);
      wrap.append(table);
      card.append(wrap);
      if (s.corrections.length) {
        const ul = el("ul", "plain-list corrections");
        for (const c of s.corrections) ul.append(el("li", "", SM.fmt(S.correction_line, { who: c.login || "", reason: c.reason })));
        card.append(ul);
      }
      const err = el("p", "error");
      err.hidden = true;
      err.setAttribute("role", "alert");
      const actions = el("div", "row actions");
      actions.append(link(`/games/${s.game_id}/sheet`, "ghost", S.open_sheet));
      const corr = el("button", "tool correct", S.correct);
      corr.type = "button";
      const acc = el("button", "primary accept", S.accept);
      acc.type = "button";
      actions.append(corr, acc);
      card.append(actions, err);
      const fail = (text) => { err.textContent = text || ""; err.hidden = !text; };
      acc.addEventListener("click", async () => {
        if (!window.confirm(S.confirm_accept)) return;
        acc.disabled = true;
        try {
          const r = await SM.api("POST", `${base}/games/${s.game_id}/accept`);
          if (r.status === 200) {
            notice(S.accepted_ok);
            loadAll();
          } else fail(SM.errorText(r.body));
        } catch (e) { fail(NET()); }
        acc.disabled = false;
      });
      corr.addEventListener("click", () => {
        if (card.querySelector("form")) return;
        d.openForms += 1;
        card.append(correctionForm(s, card, fail));
      });
      return card;
    }
    function correctionForm(s, card, fail) {
      const sh = s.sheet;
      const form = el("form", "t-form correction-form");
      form.noValidate = true;
      const row = el("div", "row");
      const fieldLabel = el("label", "", S.what);
      const field = el("select", "corr-field");
      for (const f of FIELDS) {
        const o = el("option", "", S["f_" + f]);
        o.value = f;
        field.append(o);
      }
      fieldLabel.append(field);
      const seatLabel = el("label", "", S.seat);
      const seat = el("select", "corr-seat");
      for (const p of sh.players) {
        const o = el("option", "", `${p.seat} · ${p.nickname}`);
        o.value = String(p.seat);
        seat.append(o);
      }
      seatLabel.append(seat);
      const valueLabel = el("label", "", S.new_value);
      const slot = el("span", "value-slot");
      valueLabel.append(slot);
      row.append(fieldLabel, seatLabel, valueLabel);
      const reasonLabel = el("label", "", S.reason);
      const reason = el("textarea", "corr-reason");
      reason.rows = 2;
      reason.maxLength = 1000;
      reasonLabel.append(reason);
      const buttons = el("div", "row");
      const save = el("button", "primary", S.save_correction);
      save.type = "submit";
      const cancel = el("button", "tool", S.cancel);
      cancel.type = "button";
      buttons.append(save, cancel);
      form.append(row, reasonLabel, buttons);
      const current = () => {
        const f = field.value;
        if (SHEET_FIELDS.includes(f)) return sh[f];
        const p = sh.players.find((x) => x.seat === Number(seat.value));
        return p ? p[f] : null;
      };
      const roles = Array.from(new Set([...sh.players.map((p) => p.role), ...Object.keys(L.roles)]));
      function valueInput() {
        const f = field.value;
        seatLabel.hidden = SHEET_FIELDS.includes(f);
        const now = current();
        let choices = null;
        if (f === "winner") choices = ["red", "black", null];
        if (f === "result") choices = Object.keys(L.results);
        if (f === "role") choices = roles;
        if (f === "removed") choices = [...Object.keys(L.scopes), null];
        let input;
        if (choices) {
          input = SM.select(choices, (v) => shown(f, v), (v) => v === now || (v === null && (now === null || now === undefined)));
        } else {
          input = el("input");
          input.type = f === "removal_reason" ? "text" : "number";
          if (input.type === "number") { input.min = "0"; input.inputMode = "numeric"; }
          input.value = now === null || now === undefined ? "" : String(now);
        }
        input.className = "corr-value";
        slot.replaceChildren(input);
      }
      field.addEventListener("change", valueInput);
      seat.addEventListener("change", valueInput);
      valueInput();
      const close = () => { form.remove(); d.openForms = Math.max(0, d.openForms - 1); };
      cancel.addEventListener("click", close);
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        fail("");
        const f = field.value;
        const raw = slot.firstChild.value;
        let value = raw;
        if (["winner", "removed", "removal_reason", "best_move_black"].includes(f) && raw === "") value = null;
        else if (["fouls", "warnings", "first_killed", "best_move_black"].includes(f)) {
          if (!/^\d+$/.test(raw.trim())) return fail(S.need_value);
          value = Number(raw);
        }
        if (!reason.value.trim()) {
          reason.focus();
          return fail(S.need_reason);
        }
        const change = { field: f, new: value };
        if (!SHEET_FIELDS.includes(f)) change.seat = Number(seat.value);
        save.disabled = true;
        try {
          const r = await SM.api("POST", `${base}/games/${s.game_id}/corrections`,
            { reason: reason.value.trim(), changes: [change] });
          if (r.status === 201) {
            close();
            const i = state.inbox.findIndex((x) => x.game_id === s.game_id);
            if (i >= 0) state.inbox[i] = r.body;
            const fresh = sheetCard(r.body);
            card.replaceWith(fresh);
            const ok = el("p", "t-notice", S.corrected_ok);
            ok.setAttribute("role", "status");
            fresh.append(ok);
          } else fail(SM.errorText(r.body));
        } catch (e) { fail(NET()); }
        save.disabled = false;
      });
      return form;
    }

    return { render() { renderInbox(); } };
  };
})();
