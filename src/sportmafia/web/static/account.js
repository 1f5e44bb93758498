/* The account page: change your password (POST /api/me/password). */
"use strict";
(function () {
  const form = document.getElementById("password-form");
  const error = document.getElementById("password-error");
  const done = document.getElementById("password-done");
  const T = SM.strings("account-i18n");
  const show = (text) => { error.textContent = text; error.hidden = false; };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    done.hidden = true;
    const old = form.old.value, next = form.new.value;
    if (next.length < 8) return show(T.short);
    if (next !== form.again.value) return show(T.mismatch);
    const button = document.getElementById("password-submit");
    button.disabled = true;
    try {
      const r = await SM.api("POST", "/api/me/password", { old, new: next });
      if (r.status === 200) {
        form.reset();
        done.hidden = false;
      } else {
        show(SM.errorText(r.body));
      }
    } catch (e) {
      show(SM.strings("common-i18n").network);
    } finally {
      button.disabled = false;
    }
  });
})();
