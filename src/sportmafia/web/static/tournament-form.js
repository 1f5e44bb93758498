/* A tournament's settings form (_tournament_fields.html), on the new-tournament form (tournament-list.js) and the
   judge's Settings tab (desk-settings.js): SM.tour.tournamentForm(). The defaults of a new tournament (its
   tie-breaks, the final's size) come from the page's labels (the tournament layer's defaults), never constants
   here. */
"use strict";
(function () {
  const { $, L, el } = SM.tour;
  const FIRST = L.defaults;   // a new tournament's tie-breaks (T.total) and final (T.final)

  /* A tournament's settings (_tournament_fields.html), on the new-tournament form and the judge's Settings tab:
     fill(t) shows a tournament's settings (null: a new one's defaults); read() gives the API body (null when
     the name is missing). The rules read as unchanged ("as now") for a rule set that is none of the choices. */
  function tournamentForm() {
    const S = SM.strings("t-form-i18n");
    const rules = $("t-rules");
    const rows = $("custom-rows");
    const scoringRadio = (value) => document.querySelector(`input[name=scoring][value=${value}]`);
    SM.api("GET", "/api/variants").then((r) => {
      if (r.status !== 200 || !r.body.variants.length) return;
      const group = $("t-variants");
      for (const v of r.body.variants) {
        const o = el("option", "", v.name);
        o.value = `variant:${v.id}`;
        group.append(o);
      }
      group.hidden = false;
    }).catch(() => {});
    for (const role of Object.keys(L.roles)) {
      const tr = el("tr");
      tr.append(el("th", "", L.roles[role]));
      for (const outcome of ["win", "loss", "draw"]) {
        const td = el("td");
        const input = el("input");
        input.type = "number";
        input.step = "0.05";
        input.dataset.role = role;
        input.dataset.outcome = outcome;
        input.setAttribute("aria-label", `${L.roles[role]} ${outcome}`);
        td.append(input);
        tr.append(td);
      }
      rows.append(tr);
    }
    const syncCustom = () => {
      $("custom-table").hidden = document.querySelector("input[name=scoring]:checked").value !== "custom";
    };
    for (const radio of document.querySelectorAll("input[name=scoring]")) radio.addEventListener("change", syncCustom);

    function fill(t) {
      $("t-name").value = t ? t.name : "";
      $("t-starts").value = (t && t.starts_on) || "";
      $("t-ends").value = (t && t.ends_on) || "";
      const current = rules.querySelector("option[value=current]");
      if (current) current.remove();
      if (!t) rules.value = "preset:tournament";
      else if (rules.querySelector(`option[value="preset:${t.ruleset}"]`)) rules.value = `preset:${t.ruleset}`;
      else {
        const o = el("option", "", SM.fmt(S.current_rules, { rules: SM.rulesetName(t.ruleset) }));
        o.value = "current";
        rules.prepend(o);
        rules.value = "current";
      }
      const name = t ? t.scoring.name : "regulation";
      const custom = name !== "regulation" && name !== "fiim";
      scoringRadio(custom ? "custom" : name).checked = true;
      for (const input of rows.querySelectorAll("input")) input.value = "";
      if (custom) {
        for (const [role, outcome, points] of t.scoring.role_points || []) {
          const input = rows.querySelector(`input[data-role="${role}"][data-outcome="${outcome}"]`);
          if (input) input.value = String(points);
        }
      }
      syncCustom();
      tieBreakList($("tie-breaks"), S, t ? t.tie_breaks : FIRST.tie_breaks);
      const final = (t && t.final) || {};
      $("t-finalists").value = final.finalists || FIRST.final.finalists;
      $("t-games-each").value = final.games_each || FIRST.final.games_each;
      $("t-carry").checked = final.carry_over !== undefined ? !!final.carry_over : FIRST.final.carry_over;
    }

    function read() {
      const name = $("t-name").value.trim();
      if (!name) return null;
      const body = { name, tie_breaks: readTieBreaks($("tie-breaks")),
        starts_on: $("t-starts").value || null, ends_on: $("t-ends").value || null };
      const [kind, value] = rules.value.split(":");
      if (kind === "variant") {
        body.preset = null;
        body.variant = Number(value);
      } else if (kind === "preset") {
        body.preset = value;
      }
      const scoring = document.querySelector("input[name=scoring]:checked").value;
      if (scoring === "custom") {
        const table = {};
        for (const input of rows.querySelectorAll("input")) {
          if (input.value.trim() === "") continue;
          (table[input.dataset.role] = table[input.dataset.role] || {})[input.dataset.outcome] = Number(input.value);
        }
        body.scoring = Object.keys(table).length ? { base: "regulation", table } : "regulation";
      } else {
        body.scoring = scoring;
      }
      body.final = {
        finalists: Number($("t-finalists").value) || FIRST.final.finalists,
        games_each: Number($("t-games-each").value) || FIRST.final.games_each,
        carry_over: $("t-carry").checked,
      };
      return body;
    }
    return { fill, read };
  }

  /* the tie-break order: a list of checkboxes with up/down buttons; points stays first */
  function tieBreakList(ol, S, chosen) {
    ol.replaceChildren();
    const order = [...chosen, ...L.tie_breaks.filter((k) => !chosen.includes(k))];
    for (const key of order) {
      const li = el("li", "tie-item");
      li.dataset.key = key;
      const label = el("label", "check");
      const box = el("input");
      box.type = "checkbox";
      box.checked = chosen.includes(key);
      box.disabled = key === "points";
      label.append(box, document.createTextNode(" " + (S["tb_" + key] || key)));
      li.append(label);
      if (key !== "points") {
        for (const [dir, text] of [[-1, "↑"], [1, "↓"]]) {
          const b = el("button", "tool small", text);
          b.type = "button";
          b.title = dir < 0 ? S.up : S.down;
          b.setAttribute("aria-label", `${b.title}: ${S["tb_" + key] || key}`);
          b.addEventListener("click", () => {
            const sib = dir < 0 ? li.previousElementSibling : li.nextElementSibling;
            if (!sib || sib.dataset.key === "points") return;
            if (dir < 0) ol.insertBefore(li, sib);
            else ol.insertBefore(sib, li);
          });
          li.append(b);
        }
      }
      ol.append(li);
    }
  }
  function readTieBreaks(ol) {
    return Array.from(ol.querySelectorAll("li"))
      .filter((li) => li.querySelector("input").checked).map((li) => li.dataset.key);
  }

  SM.tour.tournamentForm = tournamentForm;
})();
