/* The judge's desk, Settings tab: the tournament's settings (tournament-form.js); only the fields the judge changed
   are sent, with the reason for a rule change after round 1 (B.announce). Registered as SM.deskTabs.settings
   (tournament-desk.js). */
"use strict";
(function () {
  const { $, show, call, tournamentForm } = SM.tour;
  (SM.deskTabs = SM.deskTabs || {}).settings = function (d) {
    const { base, canJudge, S, state, notice } = d;

    /* --- settings: the fields the judge changed since they were shown are sent, nothing else --- */
    const fields = tournamentForm();
    let shownSettings = null;  // the API body the form read when it last showed the tournament
    const changedSettings = () => {
      const now = fields.read();
      if (!now || !shownSettings) return now;
      const out = {};
      for (const key of new Set([...Object.keys(now), ...Object.keys(shownSettings)])) {
        if (JSON.stringify(now[key]) !== JSON.stringify(shownSettings[key])) out[key] = key in now ? now[key] : null;
      }
      return out;
    };
    function renderSettings() {
      // a form the judge is changing is left as it is; otherwise it shows the tournament as it is now
      const changed = shownSettings && changedSettings();
      if (changed && Object.keys(changed).length) return;
      fields.fill(state.t);
      shownSettings = fields.read();
      SM.ruleChanges(state.t.rule_changes);
      SM.ruleChangeReason(state.t);
    }
    if (!canJudge) for (const input of $("settings-form").querySelectorAll("input, select, button")) input.disabled = true;
    $("settings-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const changes = changedSettings();
      if (!changes) {
        $("t-name").focus();
        return show("settings-error", SM.strings("t-form-i18n").need_name);
      }
      if (!Object.keys(changes).length) { show("settings-error", ""); notice(S.settings_same); return; }
      const reason = SM.ruleChangeReason(state.t);  // B.announce: after round 1
      if (reason) changes.reason = reason;
      $("save-settings").disabled = true;
      const t = await call("PATCH", base, changes, "settings-error");
      $("save-settings").disabled = false;
      if (!t) return;
      state.t = t;
      shownSettings = null;
      $("settings-reason").value = "";
      $("t-title").textContent = t.name;
      d.render();
      notice(S.settings_saved);
    });

    return { render() { renderSettings(); } };
  };
})();
