/* B.announce (seed B 7.2): the list "Rule changes after the start" on the public standings and in the judge's
   desk (the Settings tab), from the API's rule_changes; and the desk's reason field, shown once round 1 is
   opened (a change of the scoring, tie-breaks or final's settings is refused without it). */
"use strict";
(function () {
  const SM = window.SM || (window.SM = {});
  const $ = (id) => document.getElementById(id);

  function value(setting, v, R) {
    if (v === null || v === undefined) return "—";
    if (setting === "tie_breaks" && Array.isArray(v)) {
      return v.map((k) => R.tb[k] || k).join(", ");
    }
    if (setting === "scoring" && typeof v === "object") {
      return SM.scoringName(v.name) || JSON.stringify(v);
    }
    if (setting === "final_settings" && typeof v === "object") {
      return ["finalists", "games_each", "carry_over"].filter((k) => k in v)
        .map((k) => `${R[k]}: ${typeof v[k] === "boolean" ? (v[k] ? R.yes : R.no) : v[k]}`).join(", ");
    }
    return typeof v === "object" ? JSON.stringify(v) : String(v);
  }

  /* Fill the card #rule-changes with `changes` (hidden when there are none). */
  SM.ruleChanges = function (changes) {
    const card = $("rule-changes");
    if (!card) return;
    const R = SM.strings("rule-changes-i18n");
    const list = $("rule-changes-list");
    list.textContent = "";
    for (const c of changes || []) {
      const li = document.createElement("li");
      const at = SM.dateTime(c.at);
      li.textContent = SM.fmt(R.line, { at, by: c.by, setting: R[c.setting] || c.setting,
        old: value(c.setting, c.old, R), new: value(c.setting, c.new, R), reason: c.reason });
      list.appendChild(li);
    }
    card.hidden = !list.children.length;
  };

  /* The desk: the reason field shows once round 1 is opened; returns its text (trimmed). */
  SM.ruleChangeReason = function (t) {
    const box = $("settings-reason-box");
    if (!box) return "";
    if (t) box.hidden = t.status === "setup";
    return box.hidden ? "" : $("settings-reason").value.trim();
  };
})();
