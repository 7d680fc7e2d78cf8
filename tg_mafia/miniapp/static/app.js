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

  // The seats are drawn once and then changed in place, and the moves keep their
  // buttons while they stay: a tap is never lost to a redraw between its press and
  // its release. A tap names its choice by its data; the snapshot on screen says
  // what that choice is now.
  function choiceOf(data) {
    return shown && shown.choices.find((choice) => choice.d === data);
  }

  function onTap(event) {
    const button = event.target.closest("button[data-choice]");
    const choice = button && choiceOf(button.dataset.choice);
    if (choice) press(choice);
  }

  function seatItem(list, index) {
    if (list.children[index]) return list.children[index];
    const item = el("li");
    const button = el("button", { type: "button", class: "seat" });
    button.append(el("span", { class: "num" }), el("span", { class: "name" }),
      el("span", { class: "marks", "aria-hidden": "true" }));
    item.append(button);
    list.append(item);
    return item;
  }

  function renderSeats(table) {
    const list = $("seats");
    while (list.children.length > table.seats.length) list.lastChild.remove();
    const targets = new Map();
    for (const choice of table.choices) if (choice.seat) {
      if (!targets.has(choice.seat)) targets.set(choice.seat, []);
      targets.get(choice.seat).push(choice);
    }
    const count = table.seats.length;
    table.seats.forEach((seat, index) => {
      const angle = (2 * Math.PI * index) / count - Math.PI / 2;
      const item = seatItem(list, index);
      item.dataset.seat = seat.n;
      item.style.transform = `translate(${Math.cos(angle) * 128}px, ${Math.sin(angle) * 128}px)`;
      item.classList.toggle("out", !seat.alive);
      item.classList.toggle("speaking", seat.speaking);
      item.classList.toggle("me", seat.me);
      if (seat.role) item.dataset.role = seat.role;
      else delete item.dataset.role;
      const button = item.firstChild;
      const [num, name, marks] = button.children;
      num.textContent = String(seat.n);
      name.textContent = seat.name;
      marks.textContent = [seat.speaking ? "🎙" : "", seat.nominee ? "☝️" : "", seat.hand ? "✋" : "",
        seat.warnings ? "⚠️" + seat.warnings : "", seat.votes ? "🗳" + seat.votes : ""].join("");
      const aimed = targets.get(seat.n) || [];
      const target = aimed.length === 1;
      item.classList.toggle("target", target);
      button.disabled = !target;
      if (target) button.dataset.choice = aimed[0].d;
      else delete button.dataset.choice;
      button.setAttribute("aria-label", target ? aimed[0].label : seatLabel(seat));
    });
  }

  function renderCard(me, host) {
    $("card").hidden = !me;
    $("spectator").hidden = !!me;
    $("spectator").textContent = host ? words.host : words.spectator;
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
    $("moves").hidden = !table.me && !table.host;
    $("moves-title").textContent = words.moves;
    const box = $("choices");
    const have = new Map([...box.querySelectorAll("button[data-choice]")].map((b) => [b.dataset.choice, b]));
    const buttons = table.choices.map((choice) => {
      const button = have.get(choice.d) || el("button", { type: "button", "data-choice": choice.d });
      if (button.textContent !== choice.label) button.textContent = choice.label;
      return button;
    });
    if (!buttons.length) buttons.push(el("p", {}, words.no_moves));
    const same = buttons.length === box.children.length && buttons.every((b, i) => box.children[i] === b);
    if (!same) box.replaceChildren(...buttons);
  }

  // The game's public events as the server lists them, each numbered, newest
  // last: the entries the list has stay, those gone from the server's go, the
  // new ones are added at the end, so a reconnection neither repeats nor skips one.
  function renderEvents(table) {
    const events = table.events || [];
    $("chronicle").hidden = !table.phase;
    $("events-title").textContent = words.events;
    const list = $("events");
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    const wanted = new Set(events.map((event) => String(event.n)));
    for (const item of [...list.children]) if (!wanted.has(item.dataset.n)) item.remove();
    const have = new Set([...list.children].map((item) => item.dataset.n));
    for (const event of events) {
      if (!have.has(String(event.n))) list.append(el("li", { "data-n": String(event.n) }, event.text));
    }
    $("no-events").hidden = events.length > 0;
    $("no-events").textContent = words.no_events;
    if (atEnd) list.scrollTop = list.scrollHeight;
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
    renderCard(table.me, table.host);
    renderMoves(table);
    renderEvents(table);
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
  $("seats").addEventListener("click", onTap);
  $("choices").addEventListener("click", onTap);
  if (webApp) { webApp.ready(); webApp.expand(); }
  setInterval(tick, 250);
  start().catch((error) => fail(String(error)));
})();
