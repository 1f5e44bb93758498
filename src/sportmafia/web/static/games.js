/* The games page: a new game (rules, table size, seats from the roster and typed names, ordered by drag or
   shuffled), saving a rule set variant, and the club's history with filters. */
"use strict";
(function () {
  const T = SM.strings("games-i18n");
  const $ = (id) => document.getElementById(id);
  const form = $("new-game-form");
  const preset = $("preset");
  const players = $("players");
  const rosterEl = $("roster");
  const seatsEl = $("seats");
  const error = $("new-game-error");
  let seats = []; /* [{name, rosterId|null}] in seat order */

  function showError(el, text) { el.textContent = text; el.hidden = !text; }

  /* ---------------------------------------------------------------- rules and table size */
  function syncSize() {
    const opt = preset.selectedOptions[0];
    players.min = opt.dataset.min; players.max = opt.dataset.max;
    const n = Number(players.value);
    if (n < Number(opt.dataset.min)) players.value = opt.dataset.min;
    if (n > Number(opt.dataset.max)) players.value = opt.dataset.max;
    renderSeats();
  }
  preset.addEventListener("change", syncSize);
  players.addEventListener("input", renderSeats);

  async function loadVariants() {
    const r = await SM.api("GET", "/api/variants");
    if (r.status !== 200) return;
    const group = $("variant-options");
    const chosen = preset.value;
    group.textContent = "";
    for (const v of r.body.variants) {
      const opt = document.createElement("option");
      opt.value = "v:" + v.id; opt.textContent = v.name;
      opt.dataset.min = v.min_players; opt.dataset.max = v.max_players;
      group.appendChild(opt);
    }
    group.hidden = r.body.variants.length === 0;
    if ([...preset.options].some((o) => o.value === chosen)) preset.value = chosen;
    syncSize();
  }

  /* ---------------------------------------------------------------- seats */
  function seatCount() { return Number(players.value) || 0; }

  function addSeat(name, rosterId) {
    showError(error, "");
    if (seats.some((s) => s.name.toLowerCase() === name.toLowerCase())) { showError(error, T.taken); return false; }
    if (seats.length >= seatCount()) { showError(error, T.full); return false; }
    seats.push({ name, rosterId });
    renderSeats();
    return true;
  }

  function renderSeats() {
    seatsEl.textContent = "";
    seats.forEach((s, i) => {
      const li = document.createElement("li");
      li.className = "seat-item"; li.dataset.index = String(i);
      li.innerHTML = '<button type="button" class="handle">⠿</button><span class="seat-no"></span>' +
        '<span class="seat-name"></span><button type="button" class="remove">✕</button>';
      const handle = li.querySelector(".handle");
      handle.setAttribute("aria-label", `${T.drag}: ${s.name}`); handle.title = T.drag;
      li.querySelector(".seat-no").textContent = String(i + 1);
      li.querySelector(".seat-name").textContent = s.name;
      const remove = li.querySelector(".remove");
      remove.setAttribute("aria-label", `${T.remove}: ${s.name}`); remove.title = T.remove;
      remove.addEventListener("click", () => { seats.splice(i, 1); renderSeats(); });
      handle.addEventListener("pointerdown", (ev) => startDrag(li, handle, ev));
      handle.addEventListener("keydown", (ev) => {
        const j = ev.key === "ArrowUp" ? i - 1 : ev.key === "ArrowDown" ? i + 1 : -1;
        if (j < 0 || j >= seats.length) return;
        ev.preventDefault();
        [seats[i], seats[j]] = [seats[j], seats[i]];
        renderSeats();
        seatsEl.children[j].querySelector(".handle").focus();
      });
      seatsEl.appendChild(li);
    });
    $("seat-count").textContent = SM.fmt(T.seated, { n: seats.length, seats: seatCount() });
    for (const chip of rosterEl.children) {
      const i = seats.findIndex((s) => s.rosterId === Number(chip.dataset.id));
      chip.setAttribute("aria-pressed", i >= 0 ? "true" : "false");
      chip.querySelector(".order").textContent = i >= 0 ? String(i + 1) : "";
    }
  }

  /* Drag with pointer events (mouse, pen and touch alike): the row follows the pointer among the others.
     Moving the row in the DOM releases a pointer capture, so the moves and the release are heard on window. */
  function startDrag(li, handle, ev) {
    if (ev.button !== undefined && ev.button !== 0) return;
    ev.preventDefault();
    const id = ev.pointerId;
    li.classList.add("dragging");
    function move(e) {
      if (e.pointerId !== id) return;
      e.preventDefault();
      const others = [...seatsEl.children].filter((x) => x !== li);
      let before = null;
      for (const o of others) {
        const r = o.getBoundingClientRect();
        if (e.clientY < r.top + r.height / 2) { before = o; break; }
      }
      if (before) { if (li.nextSibling !== before) seatsEl.insertBefore(li, before); }
      else if (seatsEl.lastChild !== li) seatsEl.appendChild(li);
      if (e.clientY < 48) window.scrollBy(0, -12);
      else if (e.clientY > window.innerHeight - 48) window.scrollBy(0, 12);
    }
    function end(e) {
      if (e.pointerId !== id) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
      li.classList.remove("dragging");
      showError(error, "");
      seats = [...seatsEl.children].map((x) => seats[Number(x.dataset.index)]);
      renderSeats();
    }
    window.addEventListener("pointermove", move, { passive: false });
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  }

  $("shuffle").addEventListener("click", () => {
    showError(error, "");
    const a = new Uint32Array(seats.length);
    crypto.getRandomValues(a);
    for (let i = seats.length - 1; i > 0; i--) {
      const j = a[i] % (i + 1);
      [seats[i], seats[j]] = [seats[j], seats[i]];
    }
    renderSeats();
  });
  $("clear-seats").addEventListener("click", () => { seats = []; showError(error, ""); renderSeats(); });

  function addTyped() {
    const input = $("typed-name");
    const name = input.value.trim();
    if (name && addSeat(name, null)) input.value = "";
    input.focus();
  }
  $("add-name").addEventListener("click", addTyped);
  $("typed-name").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); addTyped(); }
  });

  async function loadRoster() {
    const r = await SM.api("GET", "/api/players");
    if (r.status !== 200) return;
    for (const p of r.body.players) {
      const chip = document.createElement("button");
      chip.type = "button"; chip.className = "chip"; chip.dataset.id = String(p.id);
      chip.innerHTML = '<span class="order"></span> <span class="label"></span>';
      chip.querySelector(".label").textContent = p.name;
      chip.addEventListener("click", () => {
        const i = seats.findIndex((s) => s.rosterId === p.id);
        if (i >= 0) { seats.splice(i, 1); showError(error, ""); renderSeats(); } else addSeat(p.name, p.id);
      });
      rosterEl.appendChild(chip);
    }
    renderSeats();
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(error, "");
    const n = seatCount();
    if (seats.length && seats.length !== n) {
      showError(error, SM.fmt(T.count, { given: seats.length, seats: n }));
      return;
    }
    const body = { players: n };
    if (preset.value.startsWith("v:")) body.variant = Number(preset.value.slice(2));
    else body.preset = preset.value;
    // unnamed seats are named in the page's language ("Игрок 3"), as the sheet and the screens will show them
    body.names = seats.length ? seats.map((s) => s.name)
      : Array.from({ length: n }, (_, i) => SM.fmt(T.seat_name, { n: i + 1 }));
    const button = $("create-game");
    button.disabled = true;
    try {
      const r = await SM.api("POST", "/api/games", body);
      if (r.status === 201) { location.href = `/games/${r.body.id}`; return; }
      showError(error, SM.errorText(r.body));
    } catch (e) {
      showError(error, SM.strings("common-i18n").network);
    } finally {
      button.disabled = false;
    }
  });

  /* ---------------------------------------------------------------- saving a variant */
  let rules = null;
  const fieldsEl = $("variant-fields");

  function shown(field, value) {
    if (field.type === "black_counts") return value.map(([size, counts]) => `${size}: ${counts.join(", ")}`).join("; ");
    if (field.type.startsWith("list")) return value.join(", ");
    return value;
  }

  function parsed(field, input) {
    if (field.type === "bool") return input.checked;
    const text = input.value.trim();
    if (field.type === "int") return text === "" || !/^\d+$/.test(text) ? text : Number(text);
    if (field.type === "choice" || field.type === "str") return text;
    const items = (s, sep) => s.split(sep).map((x) => x.trim()).filter(Boolean);
    const num = (x) => (/^\d+$/.test(x) ? Number(x) : x);
    if (field.type === "list[int]") return items(text, ",").map(num);
    if (field.type === "list[str]") return items(text, ",");
    return items(text, ";").map((pair) => {
      const [size, counts] = pair.split(":");
      return [num((size || "").trim()), items(counts || "", ",").map(num)];
    });
  }

  function fillFields() {
    if (!rules) return;
    const base = rules.presets[$("variant-base").value];
    for (const f of rules.fields) {
      const input = fieldsEl.querySelector(`[name="${f.name}"]`);
      if (f.type === "bool") input.checked = !!base[f.name];
      else input.value = shown(f, base[f.name]);
    }
  }

  async function loadRules() {
    if (rules) return;
    const r = await SM.api("GET", "/api/rules");
    if (r.status !== 200) return;
    rules = r.body;
    for (const f of rules.fields) {
      const label = document.createElement("label");
      label.className = f.type === "bool" ? "check option" : "option";
      let input;
      if (f.type === "choice") {
        input = document.createElement("select");
        for (const c of f.choices) {
          const o = document.createElement("option"); o.value = c; o.textContent = c; input.appendChild(o);
        }
      } else {
        input = document.createElement("input");
        input.type = f.type === "bool" ? "checkbox" : f.type === "int" ? "number" : "text";
        if (f.type === "int") input.min = "0";
      }
      input.name = f.name;
      const code = document.createElement("code"); code.textContent = f.name;
      const doc = document.createElement("span"); doc.className = "note";
      doc.textContent = (SM.lang === "ru" && f.doc_ru) || f.doc;
      if (f.type === "bool") { label.append(input, code, doc); } else { label.append(code, doc, input); }
      fieldsEl.appendChild(label);
    }
    fillFields();
  }
  $("variant-card").addEventListener("toggle", () => { if ($("variant-card").open) loadRules(); });
  $("variant-base").addEventListener("change", fillFields);

  $("variant-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError($("variant-error"), "");
    $("variant-saved").hidden = true;
    if (!rules) return;
    const base = rules.presets[$("variant-base").value];
    const options = {};
    for (const f of rules.fields) {
      const value = parsed(f, fieldsEl.querySelector(`[name="${f.name}"]`));
      if (JSON.stringify(value) !== JSON.stringify(base[f.name])) options[f.name] = value;
    }
    const name = $("variant-name").value.trim();
    const button = $("save-variant");
    button.disabled = true;
    try {
      const r = await SM.api("POST", "/api/variants", { name, preset: $("variant-base").value, options });
      if (r.status === 201) {
        $("variant-saved").textContent = SM.fmt(T.saved, { name: r.body.name });
        $("variant-saved").hidden = false;
        await loadVariants();
      } else {
        showError($("variant-error"), SM.errorText(r.body));
      }
    } catch (e) {
      showError($("variant-error"), SM.strings("common-i18n").network);
    } finally {
      button.disabled = false;
    }
  });

  /* ---------------------------------------------------------------- history */
  let loading = 0;
  async function loadGames() {
    const params = new URLSearchParams();
    const put = (key, id) => { const v = $(id).value.trim(); if (v) params.set(key, v); };
    put("from", "filter-from"); put("to", "filter-to"); put("player", "filter-player"); put("status", "filter-status");
    const ticket = ++loading;
    const r = await SM.api("GET", "/api/games" + (params.toString() ? "?" + params : ""));
    if (r.status !== 200 || ticket !== loading) return;
    const list = $("games");
    list.textContent = "";
    $("no-games").hidden = r.body.games.length > 0;
    for (const g of r.body.games) {
      const status = g.shown_status || g.status;
      const li = document.createElement("li");
      li.className = "game-item"; li.dataset.status = status; li.dataset.id = g.id;
      const when = new Date(g.created_at).toLocaleString(SM.lang === "ru" ? "ru-RU" : "en-GB",
        { dateStyle: "short", timeStyle: "short" });
      let text = T[status] || status;
      if (g.status === "over") text += " · " + (g.winner ? T["winner_" + g.winner] : T.draw);
      const rules = SM.rulesetName(g.ruleset);
      const main = document.createElement(g.status === "over" ? "div" : "a");
      main.className = "game-link";
      if (g.status !== "over") { main.href = `/games/${g.id}`; main.title = T.open; }
      main.innerHTML = '<strong class="when"></strong> <span class="what"></span><br><span class="names note"></span>';
      main.querySelector(".when").textContent = when;
      main.querySelector(".what").textContent = `${rules} · ${g.players} ${T.seats} · ${text}`;
      main.querySelector(".names").textContent = g.names.join(", ");
      li.appendChild(main);
      const links = document.createElement("div");
      links.className = "game-links";
      const link = (href, label, cls) => {
        const a = document.createElement("a"); a.href = href; a.textContent = label; a.className = "tool " + cls;
        links.appendChild(a);
      };
      if (g.status !== "over") link(`/games/${g.id}`, T.open, "open");
      link(`/games/${g.id}/timeline`, T.timeline, "timeline");
      if (g.status === "over") link(`/games/${g.id}/sheet`, T.sheet, "sheet");
      li.appendChild(links);
      list.appendChild(li);
    }
  }
  let timer = null;
  for (const id of ["filter-from", "filter-to", "filter-player", "filter-status"]) {
    $(id).addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(loadGames, 250); });
  }
  $("history-filters").addEventListener("submit", (ev) => { ev.preventDefault(); loadGames(); });

  syncSize();
  loadRoster();
  loadVariants();
  loadGames();
})();
