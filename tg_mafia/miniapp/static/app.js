// The table's Mini App: Telegram's signed initData goes with every request;
// the server sends this viewer's snapshot, then each new one as an event.
"use strict";
(function () {
  const main = document.getElementById("app");
  const prefix = main.dataset.prefix;
  const hash = new URLSearchParams(location.hash.slice(1));
  const webApp = window.Telegram && window.Telegram.WebApp;
  const initData = (webApp && webApp.initData) || hash.get("tgWebAppData") || "";
  const signed = new URLSearchParams(initData);
  const query = new URLSearchParams(location.search);
  const opened = query.get("game") || hash.get("tgWebAppStartParam") || signed.get("start_param") || "";
  const game = opened.replace(/^g/, "");
  const $ = (id) => document.getElementById(id);
  let words = {};
  let shown = null; // the snapshot on screen
  let offset = 0; // the server's clock minus this one, in seconds
  let lastId = "";

  function theme() {
    let params = webApp && webApp.themeParams;
    if (!params || !Object.keys(params).length) {
      try { params = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (e) { params = {}; }
    }
    for (const [key, value] of Object.entries(params)) {
      if (/^#[0-9a-fA-F]{3,8}$/.test(String(value))) {
        document.documentElement.style.setProperty("--tg-theme-" + key.replace(/_/g, "-"), value);
      }
    }
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fail(text) {
    $("error").hidden = false;
    $("error").textContent = text;
    main.setAttribute("aria-busy", "false");
  }

  function seatLabel(seat) {
    const parts = [seat.n + " · " + seat.name, seat.alive ? words.alive : words.out];
    if (seat.me) parts.push(words.you);
    if (seat.speaking) parts.push(words.speaking);
    if (seat.nominee) parts.push(words.nominee);
    if (seat.hand) parts.push(words.hand);
    if (seat.warnings) parts.push(words.warnings + ": " + seat.warnings);
    if (seat.votes) parts.push("🗳 " + seat.votes);
    return parts.join(", ");
  }

  function renderSeats(table) {
    const list = $("seats");
    list.replaceChildren();
    const targets = new Map();
    for (const choice of table.choices) if (choice.seat) {
      if (!targets.has(choice.seat)) targets.set(choice.seat, []);
      targets.get(choice.seat).push(choice);
    }
    const count = table.seats.length;
    table.seats.forEach((seat, index) => {
      const angle = (2 * Math.PI * index) / count - Math.PI / 2;
      const item = el("li", { "data-seat": seat.n });
      item.style.transform = `translate(${Math.cos(angle) * 128}px, ${Math.sin(angle) * 128}px)`;
      item.classList.toggle("out", !seat.alive);
      item.classList.toggle("speaking", seat.speaking);
      item.classList.toggle("me", seat.me);
      if (seat.role) item.dataset.role = seat.role;
      const aimed = targets.get(seat.n) || [];
      const button = el("button", { type: "button", class: "seat", "aria-label": seatLabel(seat) });
      button.append(el("span", { class: "num" }, String(seat.n)), el("span", { class: "name" }, seat.name));
      const marks = [seat.speaking ? "🎙" : "", seat.nominee ? "☝️" : "", seat.hand ? "✋" : "",
        seat.warnings ? "⚠️" + seat.warnings : "", seat.votes ? "🗳" + seat.votes : ""].join("");
      button.append(el("span", { class: "marks", "aria-hidden": "true" }, marks));
      if (aimed.length === 1) {
        item.classList.add("target");
        button.setAttribute("aria-label", aimed[0].label);
        button.addEventListener("click", () => press(aimed[0]));
      } else {
        button.disabled = true;
      }
      item.append(button);
      list.append(item);
    });
  }

  function renderCard(me) {
    $("card").hidden = !me;
    $("spectator").hidden = !!me;
    $("spectator").textContent = words.spectator;
    if (!me) return;
    $("card-title").textContent = words.your_role;
    $("role").textContent = me.role;
    $("about").textContent = me.about;
    $("family").hidden = !me.family.length;
    $("family").textContent = me.family.length ? words.family + ": " + me.family.join(", ") : "";
    const learned = $("learned");
    learned.hidden = !me.learned.length;
    learned.replaceChildren(...me.learned.map((line) => el("li", {}, line)));
  }

  function renderMoves(table) {
    $("moves").hidden = !table.me;
    $("moves-title").textContent = words.moves;
    const box = $("choices");
    box.replaceChildren();
    if (!table.choices.length) box.append(el("p", {}, words.no_moves));
    for (const choice of table.choices) {
      const button = el("button", { type: "button", "data-choice": choice.d }, choice.label);
      button.addEventListener("click", () => press(choice));
      box.append(button);
    }
  }

  function render(table) {
    shown = table;
    words = table.words;
    offset = table.now - Date.now() / 1000;
    document.title = words.title + " · " + table.title;
    $("stage").textContent = table.stage;
    $("winner").hidden = !table.winner;
    $("winner").textContent = table.winner || "";
    $("table-title").textContent = words.title;
    renderSeats(table);
    renderCard(table.me);
    renderMoves(table);
    tick();
    main.setAttribute("aria-busy", "false");
    main.dataset.version = table.v;
  }

  function tick() {
    const timer = $("timer");
    if (!shown) return;
    let left = null;
    if (shown.paused !== null && shown.paused !== undefined) left = shown.paused;
    else if (shown.deadline) left = Math.max(0, (shown.deadline - (Date.now() / 1000 + offset)) * shown.rate);
    timer.hidden = left === null;
    if (left === null) return;
    const seconds = Math.ceil(left);
    const text = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
    timer.textContent = (shown.paused != null ? words.paused + " · " : "⏱ ") + text;
    timer.setAttribute("aria-label", words.left + ": " + text);
    timer.classList.toggle("low", seconds <= 10);
  }

  async function press(choice) {
    $("status").textContent = "…";
    try {
      const answer = await fetch(prefix + "/press", {
        method: "POST",
        headers: { "Authorization": "tma " + initData, "Content-Type": "application/json" },
        body: JSON.stringify({ game, m: choice.m, d: choice.d }),
      });
      const body = await answer.json();
      $("status").textContent = body.text || "";
      if (webApp && webApp.HapticFeedback) webApp.HapticFeedback.notificationOccurred(body.ok ? "success" : "error");
    } catch (error) {
      $("status").textContent = words.offline || "…";
    }
  }

  function listen() {
    const url = prefix + "/events?game=" + encodeURIComponent(game) + "&auth=" + encodeURIComponent(initData)
      + (lastId ? "&last=" + encodeURIComponent(lastId) : "");
    const source = new EventSource(url);
    source.addEventListener("table", (event) => {
      lastId = event.lastEventId;
      main.dataset.eventId = lastId;
      $("status").classList.remove("offline");
      render(JSON.parse(event.data));
    });
    source.addEventListener("error", () => {
      $("status").textContent = words.offline || "…";
      if (source.readyState === EventSource.CLOSED) setTimeout(start, 3000);
    });
  }

  async function start() {
    const answer = await fetch(prefix + "/state?game=" + encodeURIComponent(game), {
      headers: { "Authorization": "tma " + initData },
    });
    const body = await answer.json();
    if (!answer.ok) return fail(body.text || String(answer.status));
    lastId = body.id;
    main.dataset.eventId = lastId;
    render(body.table);
    listen();
  }

  theme();
  if (webApp) { webApp.ready(); webApp.expand(); }
  setInterval(tick, 250);
  start().catch((error) => fail(String(error)));
})();
