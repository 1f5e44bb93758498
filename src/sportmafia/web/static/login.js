"use strict";
(function () {
  const form = document.getElementById("login-form");
  const error = document.getElementById("login-error");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    const body = { login: form.login.value.trim(), password: form.password.value };
    let r;
    try {
      r = await SM.api("POST", "/api/login", body);
    } catch (e) {
      error.textContent = SM.strings("common-i18n").network;
      error.hidden = false;
      return;
    }
    if (r.status === 200) {
      const next = new URLSearchParams(location.search).get("next") || "/";
      location.href = next.startsWith("/") && !next.startsWith("//") ? next : "/";
    } else {
      error.textContent = SM.errorText(r.body);
      error.hidden = false;
    }
  });
})();
