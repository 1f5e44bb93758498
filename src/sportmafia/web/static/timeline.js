/* The timeline page: times in the browser's time zone, and the filter chips. */
"use strict";
(function () {
  const locale = SM.lang === "ru" ? "ru-RU" : "en-GB";
  for (const el of document.querySelectorAll("time.local")) {
    const when = new Date(el.getAttribute("datetime"));
    if (isNaN(when)) continue;
    el.title = el.textContent;
    el.textContent = el.dataset.style === "time"
      ? when.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", second: "2-digit" })
      : when.toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
  }
  const chips = document.querySelectorAll(".filter-chips .chip");
  function show(filter) {
    for (const c of chips) c.setAttribute("aria-pressed", c.dataset.filter === filter ? "true" : "false");
    let any = false;
    for (const phase of document.querySelectorAll(".phase")) {
      let shown = 0;
      for (const li of phase.querySelectorAll(".event")) {
        const on = !filter || li.dataset.category === filter;
        li.hidden = !on;
        if (on) shown++;
      }
      phase.hidden = shown === 0;
      if (shown) any = true;
    }
    document.getElementById("nothing-shown").hidden = any || !document.querySelector(".phase");
  }
  for (const c of chips) c.addEventListener("click", () => show(c.dataset.filter));
})();
