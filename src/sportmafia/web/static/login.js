"use strict";
(function () {
  const form = document.getElementById("login-form");
  const error = document.getElementById("login-error");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    // where to go afterwards: the server checked it (the page's data-next, and the login's answer again)
    const body = { login: form.login.value.trim(), password: form.password.value, next: form.dataset.next || "/" };
    let r;
    try {
      r = await SM.api("POST", "/api/login", body);
    } catch (e) {
      error.textContent = SM.strings("common-i18n").network;
      error.hidden = false;
      return;
    }
    if (r.status === 200) {
      location.href = (r.body && r.body.next) || "/";
    } else {
      error.textContent = SM.errorText(r.body);
      error.hidden = false;
    }
  });
})();
