"use strict";
(function () {
  const T = SM.strings("games-i18n");
  const form = document.getElementById("new-game-form");
  const preset = document.getElementById("preset");
  const players = document.getElementById("players");
  const rosterEl = document.getElementById("roster");
  const picked = [];
  const error = document.getElementById("new-game-error");

  function showError(text) { error.textContent = text; error.hidden = !text; }

  function syncSize() {
    const opt = preset.selectedOptions[0];
    players.min = opt.dataset.min; players.max = opt.dataset.max;
    const n = Number(players.value);
    if (n < Number(opt.dataset.min)) players.value = opt.dataset.min;
    if (n > Number(opt.dataset.max)) players.value = opt.dataset.max;
  }
  preset.addEventListener("change", syncSize);

  function renderPicked() {
    for (const chip of rosterEl.children) {
      const i = picked.indexOf(chip.dataset.name);
      chip.setAttribute("aria-pressed", i >= 0 ? "true" : "false");
      chip.querySelector(".order").textContent = i >= 0 ? String(i + 1) : "";
    }
    document.getElementById("picked-count").textContent = SM.fmt(T.picked, { n: picked.length });
  }

  async function loadRoster() {
    const r = await SM.api("GET", "/api/players");
    if (r.status !== 200) return;
    for (const p of r.body.players) {
      const chip = document.createElement("button");
      chip.type = "button"; chip.className = "chip"; chip.dataset.name = p.name;
      chip.innerHTML = '<span class="order"></span> <span class="label"></span>';
      chip.querySelector(".label").textContent = p.name;
      chip.addEventListener("click", () => {
        const i = picked.indexOf(p.name);
        if (i >= 0) picked.splice(i, 1); else picked.push(p.name);
        renderPicked();
      });
      rosterEl.appendChild(chip);
    }
    renderPicked();
  }

  async function loadGames() {
    const r = await SM.api("GET", "/api/games");
    if (r.status !== 200) return;
    const list = document.getElementById("games");
    list.textContent = "";
    document.getElementById("no-games").hidden = r.body.games.length > 0;
    for (const g of r.body.games) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/games/${g.id}`; a.className = "game-link";
      const when = new Date(g.created_at).toLocaleString(SM.lang === "ru" ? "ru-RU" : "en-GB",
        { dateStyle: "short", timeStyle: "short" });
      let status = g.status === "over" ? T.over : T.running;
      if (g.status === "over") status += " · " + (g.winner ? T["winner_" + g.winner] : T.draw);
      const rules = T[g.ruleset] || g.ruleset;
      a.innerHTML = '<strong class="when"></strong> <span class="what"></span><br><span class="names note"></span>';
      a.querySelector(".when").textContent = when;
      a.querySelector(".what").textContent = `${rules} · ${g.players} ${T.seats} · ${status}`;
      a.querySelector(".names").textContent = g.names.join(", ");
      li.appendChild(a);
      list.appendChild(li);
    }
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("");
    const n = Number(players.value);
    const typed = document.getElementById("typed-names").value.split("\n").map((s) => s.trim()).filter(Boolean);
    let names = picked.concat(typed);
    if (names.length && names.length !== n) {
      showError(SM.fmt(T.count, { given: names.length, seats: n }));
      return;
    }
    if (names.length && document.getElementById("shuffle").checked) {
      const a = new Uint32Array(names.length);
      crypto.getRandomValues(a);
      for (let i = names.length - 1; i > 0; i--) {
        const j = a[i] % (i + 1);
        [names[i], names[j]] = [names[j], names[i]];
      }
    }
    const body = { preset: preset.value, players: n };
    if (names.length) body.names = names;
    const button = document.getElementById("create-game");
    button.disabled = true;
    try {
      const r = await SM.api("POST", "/api/games", body);
      if (r.status === 201) { location.href = `/games/${r.body.id}`; return; }
      showError(SM.errorText(r.body));
    } catch (e) {
      showError(SM.strings("common-i18n").network);
    } finally {
      button.disabled = false;
    }
  });

  syncSize();
  loadRoster();
  loadGames();
})();
