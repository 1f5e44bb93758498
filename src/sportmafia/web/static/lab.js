/* The rules lab's page for a club's admins and judges (templates/lab.html): a run started from the form
   (POST /api/lab/runs), its progress read every two seconds (GET /api/lab/runs/{id}), stopped and resumed,
   its results with the club's real games beside them, its report and games to download. */
(function () {
  "use strict";
  const S = SM.strings("lab-i18n");
  const OPTIONS = SM.strings("lab-options");
  const MAX_CHANGES = 5;
  const $ = (id) => document.getElementById(id);
  const form = $("lab-form");
  const message = $("lab-message");
  let current = null;
  let timer = null;

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function show(text) {
    message.textContent = text;
    message.hidden = !text;
  }
  function num(x, digits) {
    return x === null || x === undefined ? "–" : Number(x).toLocaleString(SM.lang, {
      minimumFractionDigits: digits, maximumFractionDigits: digits });
  }
  function duration(s) {
    const m = Math.floor(s / 60);
    return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`
      : `${m}:${String(s % 60).padStart(2, "0")}`;
  }

  // --- the options changed ----------------------------------------------------------------------------------
  function valueField(option, preset) {
    const o = OPTIONS.find((x) => x.name === option);
    const now = o.values[preset];
    if (o.kind === "bool") {
      const select = el("select", { name: "value" });
      [[true, S.yes], [false, S.no]].forEach(([v, t]) => {
        const opt = el("option", { value: String(v) }, t);
        if (v !== now) opt.selected = true;
        select.append(opt);
      });
      return select;
    }
    const input = el("input", { name: "value", value: String(now) });
    if (o.kind === "int") Object.assign(input, { type: "number", min: 0, inputMode: "numeric" });
    return input;
  }
  function addChange() {
    const list = $("lab-changes");
    if (list.children.length >= MAX_CHANGES) return show(SM.fmt(S.too_many, { n: MAX_CHANGES }));
    const preset = $("lab-preset").value;
    const li = el("li");
    const pick = el("label", {}, S.option);
    const select = el("select", { name: "option" });
    /* each option by what it says in the page's language (its first sentence), its name for the record */
    const said = (o) => {
      const first = o.help.split(/(?<=[.!?])\s/)[0].replace(/^[A-ZА-Я](\.[a-z.]+)*:\s*/, "");
      return `${first.length > 90 ? first.slice(0, 89) + "…" : first} (${o.name})`;
    };
    OPTIONS.forEach((o) => select.append(el("option", { value: o.name, title: o.help }, said(o))));
    const first = OPTIONS.find((o) => o.flips[preset]) || OPTIONS[0];  // a change that can be played
    select.value = first.name;
    pick.append(select);
    const value = el("label", {}, S.value);
    value.append(valueField(select.value, preset));
    const help = el("p", { class: "note" }, first.help);
    const remove = el("button", { type: "button", class: "ghost" }, S.remove);
    select.addEventListener("change", () => {
      value.replaceChild(valueField(select.value, $("lab-preset").value), value.lastChild);
      help.textContent = OPTIONS.find((o) => o.name === select.value).help;
    });
    remove.addEventListener("click", () => li.remove());
    li.append(pick, value, remove, help);
    list.append(li);
  }
  $("lab-add").addEventListener("click", addChange);
  $("lab-preset").addEventListener("change", () => { $("lab-changes").textContent = ""; });

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    show("");
    const f = form.elements;
    const changes = [...$("lab-changes").children].map((li) =>
      `${li.querySelector("[name=option]").value}=${li.querySelector("[name=value]").value.trim()}`);
    const body = { preset: f.preset.value, changes, agent: f.agent.value, games: Number(f.games.value),
                   seed: Number(f.seed.value), stop_when_significant: f.stop_when_significant.checked };
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const r = await SM.api("POST", "/api/lab/runs", body);
    button.disabled = false;
    if (r.status !== 202) return show(SM.errorText(r.body));
    await loadRuns();
    open(r.body.run.id);
  });

  // --- a run ------------------------------------------------------------------------------------------------
  function planText(plan) {
    return SM.fmt(S.plan, { variants: (plan.specs || []).join(", "), agent: plan.agent,
                            games: num(plan.games, 0), seed: plan.seed });
  }
  function statusText(run) {
    const parts = [S.statuses[run.status] || run.status, SM.fmt(S.done, { done: num(run.done, 0), total: num(run.total, 0) })];
    if (run.rate) parts.push(SM.fmt(S.rate, { rate: num(run.rate, 0) }));
    if (run.left_s !== null && run.left_s !== undefined && run.status === "running") {
      parts.push(SM.fmt(S.left, { time: duration(run.left_s) }));
    }
    return parts.join(" · ");
  }
  function cell(row, text, label, cls) {
    const td = el("td", label ? { "data-label": label } : {}, text);
    if (cls) td.className = cls;
    row.append(td);
    return td;
  }
  function results(run) {
    const box = $("lab-results");
    box.textContent = "";
    const summary = run.summary;
    if (!summary) return;
    if (summary.early_stop && summary.early_stop.stopped) box.append(el("p", { class: "note" }, S.early));
    const table = el("table");
    const head = el("tr");
    [S.variant, S.games, S.red, S.interval, S.days, S.difference, S.p, S.real].forEach((h) => head.append(el("th", {}, h)));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    summary.variants.forEach((v, i) => {
      const tr = el("tr");
      cell(tr, v.variant.replace(/\+/g, "+\u200b"), "", "lab-variant");  // a line may break after a "+"
      cell(tr, num(v.games, 0), S.games, "num");
      cell(tr, num(v.red_rate, 3), S.red, "num");
      cell(tr, `${num(v.ci95[0], 3)}\u00a0–\u00a0${num(v.ci95[1], 3)}`, S.interval, "num");
      cell(tr, num(v.days.mean, 2), S.days, "num");
      const c = i > 0 ? summary.comparisons[i - 1] : null;
      cell(tr, c ? `${c.difference > 0 ? "+" : ""}${num(c.difference, 3)} (${num(c.ci95[0], 3)}\u00a0–\u00a0${num(c.ci95[1], 3)})` : "–",
           S.difference, "num");
      const p = c ? (c.p_paired !== undefined ? c.p_paired : c.p_z) : null;
      const sig = cell(tr, c ? `${Number(p).toLocaleString(SM.lang, { maximumSignificantDigits: 2 })} · ${p < 0.05 ? S.significant : S.not_significant}` : "–", S.p);
      if (c && p < 0.05) sig.className = "lab-sig";
      const real = (run.real || [])[i];
      cell(tr, real ? SM.fmt(S.real_rate, { rate: num(real.red_rate, 3), games: num(real.games, 0),
                                              lo: num(real.ci95[0], 3), hi: num(real.ci95[1], 3) }) : S.real_none, S.real);
      tbody.append(tr);
    });
    table.append(thead, tbody);
    box.append(table, el("p", { class: "note" }, S.limits));
  }
  function draw(run) {
    $("lab-run").hidden = false;
    $("lab-run-title").textContent = SM.fmt(S.run, { when: SM.dateTime(run.created_at) });
    $("lab-run-plan").textContent = planText(run.plan || {});
    const bar = $("lab-bar");
    bar.max = Math.max(1, run.total);
    bar.value = run.done;
    $("lab-run-status").textContent = statusText(run);
    $("lab-stop").hidden = run.status !== "running";
    $("lab-resume").hidden = !["stopped", "failed"].includes(run.status);
    const report = $("lab-report");
    const csv = $("lab-csv");
    report.hidden = csv.hidden = !run.reports;
    report.href = `/api/lab/runs/${run.id}/report?lang=${SM.lang}`;
    csv.href = `/api/lab/runs/${run.id}/games.csv`;
    results(run);
    document.querySelectorAll("#lab-runs button").forEach((b) => b.setAttribute("aria-current", String(b.dataset.id === run.id)));
  }
  async function poll() {
    if (!current) return;
    const id = current;
    const r = await SM.api("GET", `/api/lab/runs/${id}`);
    if (id !== current) return;
    if (r.status !== 200) return show(SM.errorText(r.body));
    draw(r.body.run);
    clearTimeout(timer);
    if (["running", "stopping"].includes(r.body.run.status)) timer = setTimeout(poll, 2000);
    else loadRuns();
  }
  function open(id) {
    current = id;
    clearTimeout(timer);
    poll();
  }
  async function act(what) {
    show("");
    const r = await SM.api("POST", `/api/lab/runs/${current}/${what}`, {});
    if (r.status !== 200 && r.status !== 202) return show(SM.errorText(r.body));
    open(current);
  }
  $("lab-stop").addEventListener("click", () => act("stop"));
  $("lab-resume").addEventListener("click", () => act("resume"));

  async function loadRuns() {
    const r = await SM.api("GET", "/api/lab/runs");
    if (r.status !== 200) return;
    const list = $("lab-runs");
    list.textContent = "";
    r.body.runs.forEach((run) => {
      const li = el("li");
      const b = el("button", { type: "button", "data-id": run.id },
                   `${SM.dateTime(run.created_at)} · ${(run.plan.specs || []).join(", ")} · ${S.statuses[run.status] || run.status}`);
      b.setAttribute("aria-current", String(run.id === current));
      b.addEventListener("click", () => open(run.id));
      li.append(b);
      list.append(li);
    });
    $("lab-none").hidden = r.body.runs.length > 0;
    if (!current && r.body.runs.length) open(r.body.runs[0].id);
  }
  loadRuns();
})();
