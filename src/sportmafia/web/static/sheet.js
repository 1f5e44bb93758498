/* The result sheet page: the table, the host's signature, the judge's corrections, CSV / record / print. */
"use strict";
(function () {
  const root = document.getElementById("sheet");
  if (!root) return;
  const gameId = root.dataset.game;
  const canSign = root.dataset.canSign === "yes";
  const canCorrect = root.dataset.canCorrect === "yes";
  const S = SM.strings("sheet-i18n");
  const L = SM.strings("sheet-labels");
  const $ = (id) => document.getElementById(id);
  const SHEET_FIELDS = ["winner", "result", "first_killed", "best_move_black"];
  let sheet = null;
  let busy = false;

  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  const when = SM.dateTime;
  const role = (r) => (r && L.roles[r]) || r || "—";
  const team = (t) => (t ? L.teams[t] || t : S.no_team);

  /* a field's value in words, for the "now" line, the choices and the list of corrections */
  function shown(field, value) {
    if (value === null || value === undefined || value === "") {
      if (field === "winner") return S.no_team;
      if (field === "removed") return S.not_removed;
      return S.empty;
    }
    if (field === "winner") return team(value);
    if (field === "result") return L.results[value] || value;
    if (field === "role") return role(value);
    if (field === "removed") return L.scopes[value] || value;
    return String(value);
  }

  function showMessage(id, text) {
    const p = $(id);
    p.textContent = text || "";
    p.hidden = !text;
  }

  function current(field, seat) {
    if (SHEET_FIELDS.includes(field)) return sheet[field];
    const row = sheet.rows.find((r) => r.seat === seat);
    return row ? row[field] : null;
  }

  /* When and how a player left, numbered as the console numbers days and nights (night N follows day N):
     "voted out, day 2", "killed, night 1"; a removal that made him leave is told once: "removed (this game),
     night 2". */
  function departure(left, removal) {
    if (left.how === "kill") return SM.fmt(S.killed, { night: left.day });
    const how = left.how === "removal" && removal ? removal : L.how[left.how] || left.how;
    return left.phase === "night" ? SM.fmt(S.left_night, { how, night: left.day }) : SM.fmt(S.left, { how, day: left.day });
  }

  /* --- the table ------------------------------------------------------------------------------------ */
  function render() {
    const date = sheet.created_at ? when(sheet.created_at) : "";
    $("sheet-game").textContent = SM.fmt(S.game, { date, n: sheet.players, rules: SM.rulesetName(sheet.ruleset) });
    const winner = $("sheet-winner");
    winner.hidden = false;
    winner.textContent = sheet.winner ? SM.fmt(S.winner, { team: team(sheet.winner) }) : S.no_winner;
    winner.dataset.team = sheet.winner || "";
    const result = $("sheet-result");
    result.hidden = false;
    result.textContent = SM.fmt(S.result, { result: L.results[sheet.result] || sheet.result });
    const heads = Array.from(document.querySelectorAll("#sheet-table thead th"), (th) => th.textContent.trim());
    const body = $("sheet-rows");
    body.replaceChildren();
    for (const r of sheet.rows) {
      const tr = el("tr", r.won ? "won" : "");
      tr.dataset.team = r.team;
      tr.append(el("td", "num", r.seat), el("td", "nick", r.nick));
      tr.append(el("td", `role role-${r.team}`, role(r.role)), el("td", "team", L.teams[r.team] || r.team));
      const fouls = el("td", "fouls", r.fouls);
      if (r.warnings) fouls.append(el("span", "sub", SM.fmt(S.warnings, { n: r.warnings })));
      tr.append(fouls);
      const dep = el("td", "departure");
      const removal = r.removed ? SM.fmt(S.removed, { scope: L.scopes[r.removed] || r.removed }) : "";
      if (r.left) dep.append(el("span", "", departure(r.left, removal)));
      if (removal && !(r.left && r.left.how === "removal")) dep.append(el("span", "sub", removal));
      if (r.removal_reason) dep.append(el("span", "sub", r.removal_reason));
      if (!r.left && !r.removed) dep.textContent = "—";
      tr.append(dep, el("td", "won-cell", r.won ? S.won : S.lost));
      /* the column's name on each cell: a phone shows a row as a small card (sheet.css) */
      tr.querySelectorAll("td").forEach((td, i) => { td.dataset.label = heads[i] || ""; });
      body.append(tr);
    }
    $("sheet-table").hidden = false;
    const signed = $("sheet-signed");
    signed.hidden = false;
    signed.textContent = sheet.signed
      ? SM.fmt(S.signed, { who: sheet.signed.by.login || "?", when: when(sheet.signed.at) })
      : S.unsigned;
    signed.classList.toggle("is-signed", !!sheet.signed);
    $("sign").hidden = !(canSign && !sheet.signed);
    $("csv-link").hidden = false;
    $("print").hidden = false;
    $("correct").hidden = !(canCorrect && sheet.signed);
    renderCorrections();
    if (!$("correct").hidden) fillForm();
  }

  function renderCorrections() {
    const list = $("correction-list");
    list.replaceChildren();
    $("corrections").hidden = !sheet.signed && sheet.corrections.length === 0;
    $("no-corrections").hidden = sheet.corrections.length > 0;
    for (const c of sheet.corrections) {
      const li = el("li", "correction");
      li.append(el("div", "who", SM.fmt(S.by, { who: c.by.login, when: when(c.at) })));
      li.append(el("div", "why", SM.fmt(S.reason, { reason: c.reason })));
      const ul = el("ul", "changes");
      for (const ch of c.changes) {
        const params = { field: S["f_" + ch.field] || ch.field, old: shown(ch.field, ch.old), new: shown(ch.field, ch.new) };
        const line = ch.seat ? SM.fmt(S.change_seat, { seat: ch.seat, ...params }) : SM.fmt(S.change, params);
        ul.append(el("li", "", line));
      }
      li.append(ul);
      list.append(li);
    }
  }

  /* --- the correction form -------------------------------------------------------------------------- */
  function fillForm() {
    const field = $("corr-field");
    if (!field.options.length) {
      for (const f of ["winner", "result", "role", "fouls", "warnings", "removed", "removal_reason",
        "first_killed", "best_move_black"]) {
        const o = el("option", "", S["f_" + f]);
        o.value = f;
        field.append(o);
      }
      const seat = $("corr-seat");
      for (const r of sheet.rows) {
        const o = el("option", "", `${r.seat} · ${r.nick}`);
        o.value = String(r.seat);
        seat.append(o);
      }
      field.addEventListener("change", valueInput);
      seat.addEventListener("change", valueInput);
    }
    valueInput();
  }

  function choicesFor(f) {
    const c = sheet.choices;
    if (f === "winner") return ["red", "black", null];
    if (f === "result") return c.results;
    if (f === "role") return c.roles;
    if (f === "removed") return [...c.removed, null];
    return null;
  }

  function valueInput() {
    const f = $("corr-field").value;
    const perSeat = !SHEET_FIELDS.includes(f);
    $("corr-seat-label").hidden = !perSeat;
    const seat = Number($("corr-seat").value);
    const now = current(f, seat);
    $("corr-old").textContent = SM.fmt(S.now, { value: shown(f, now) });
    const slot = $("corr-value-slot");
    slot.replaceChildren();
    const choices = choicesFor(f);
    let input;
    if (choices) {
      input = SM.select(choices, (v) => shown(f, v), (v) => v === now || (v === null && now === null));
    } else if (f === "removal_reason") {
      input = el("input");
      input.type = "text";
      input.maxLength = 200;
      input.value = now || "";
    } else {
      input = el("input");
      input.type = "number";
      input.min = "0";
      input.max = String(f === "fouls" ? sheet.choices.max_fouls : f === "first_killed" ? sheet.players
        : f === "best_move_black" ? 3 : 10);
      input.value = now === null || now === undefined ? "" : String(now);
      input.inputMode = "numeric";
    }
    input.id = "corr-value";
    input.setAttribute("aria-labelledby", "corr-value-label");
    slot.append(input);
  }

  function readValue(f) {
    const raw = $("corr-value").value;
    if (["winner", "removed", "best_move_black", "removal_reason"].includes(f) && raw === "") return null;
    if (["fouls", "warnings", "first_killed", "best_move_black"].includes(f)) {
      if (raw.trim() === "" || !/^\d+$/.test(raw.trim())) return undefined;
      return Number(raw);
    }
    return raw;
  }

  $("correct-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (busy) return;
    showMessage("correct-error", "");
    const f = $("corr-field").value;
    const reason = $("corr-reason").value.trim();
    const value = readValue(f);
    if (value === undefined) return showMessage("correct-error", S.need_value);
    if (!reason) {
      $("corr-reason").focus();
      return showMessage("correct-error", S.need_reason);
    }
    const change = { field: f, new: value };
    if (!SHEET_FIELDS.includes(f)) change.seat = Number($("corr-seat").value);
    busy = true;
    $("corr-save").disabled = true;
    try {
      const r = await SM.api("POST", `/api/games/${gameId}/sheet/corrections`, { reason, changes: [change] });
      if (r.status === 201) {
        sheet = r.body.sheet;
        $("corr-reason").value = "";
        render();
        showMessage("sheet-notice", S.saved);
      } else {
        showMessage("correct-error", SM.errorText(r.body));
      }
    } catch (e) {
      showMessage("correct-error", SM.strings("common-i18n").network);
    } finally {
      busy = false;
      $("corr-save").disabled = false;
    }
  });

  /* --- signing, printing, loading -------------------------------------------------------------------- */
  $("sign").addEventListener("click", async () => {
    if (busy || !window.confirm(S.confirm_sign)) return;
    busy = true;
    $("sign").disabled = true;
    try {
      const r = await SM.api("POST", `/api/games/${gameId}/sheet/sign`);
      if (r.status === 200) {
        sheet = r.body;
        showMessage("sheet-notice", "");
        render();  /* the signed line says it (once): "Signed by … The game is locked." */
      } else {
        showMessage("sheet-message", SM.errorText(r.body));
        if (r.status === 409) load();
      }
    } catch (e) {
      showMessage("sheet-message", SM.strings("common-i18n").network);
    } finally {
      busy = false;
      $("sign").disabled = false;
    }
  });

  $("print").addEventListener("click", () => window.print());

  async function load() {
    try {
      const r = await SM.api("GET", `/api/games/${gameId}/sheet`);
      if (r.status === 200) {
        sheet = r.body;
        showMessage("sheet-message", "");
        render();
      } else {
        $("sheet-game").textContent = "";
        showMessage("sheet-message", SM.errorText(r.body));
      }
    } catch (e) {
      showMessage("sheet-message", SM.strings("common-i18n").network);
      setTimeout(load, 3000);
    }
  }
  load();
})();
