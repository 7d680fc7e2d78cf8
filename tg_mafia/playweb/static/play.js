// The play page: the group and every player's private chat, kept live by
// server-sent events (/events); typing and pressing go to /api/* as JSON.
// Message text arrives as HTML the server built from Telegram's entities with
// every character of the text escaped; everything else is set as text. The
// page's own words come with each table, in its language (table.words).
"use strict";

const board = document.getElementById("board");
const tabs = document.getElementById("tabs");
const statusLine = document.getElementById("status");
const setup = document.getElementById("setup");
const setupToggle = document.getElementById("setup-toggle");
const setupError = document.getElementById("setup-error");
const columnTemplate = document.getElementById("column");
const popupTemplate = document.getElementById("popup");

let table = null; // the last snapshot: config, words, group, seats, status
const columns = new Map(); // chat key ("group" or a user id) -> its <section>
let popup = null; // the one popup on the page: a new one replaces it

// ----- talking to the server ---------------------------------------------------

async function api(action, body) {
  let response;
  try {
    response = await fetch(`/api/${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(word("unreachable"));
  }
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// Counts what the server sent: a test (or a curious person) can wait for the next.
function received() {
  document.body.dataset.received = String(Number(document.body.dataset.received || 0) + 1);
}

function connect() {
  const events = new EventSource("/events");
  events.addEventListener("reset", (event) => { reset(JSON.parse(event.data)); received(); });
  events.addEventListener("update", (event) => { update(JSON.parse(event.data)); received(); });
  events.addEventListener("error", () => { statusLine.textContent = word("reconnecting"); });
}

// ----- the page's own words ------------------------------------------------------

// The server wrote the page in the table's language; a new table may bring another.
const pageWords = JSON.parse(document.body.dataset.words);

function word(key) {
  return (table ? table.words : pageWords)[key] || key;
}

function applyWords(root) {
  for (const element of root.querySelectorAll("[data-word]")) {
    element.textContent = table.words[element.dataset.word];
  }
  for (const element of root.querySelectorAll("[data-word-placeholder]")) {
    element.placeholder = table.words[element.dataset.wordPlaceholder];
  }
  for (const element of root.querySelectorAll("[data-word-label]")) {
    element.setAttribute("aria-label", table.words[element.dataset.wordLabel]);
  }
}

// ----- the whole table -----------------------------------------------------------

function reset(snapshot) {
  table = snapshot;
  document.documentElement.lang = table.config.language;
  applyWords(document);
  applyWords(columnTemplate.content);
  applyWords(popupTemplate.content);
  columns.clear();
  board.replaceChildren();
  tabs.replaceChildren();
  closePopup();
  addColumn("group", table.group.title, null);
  for (const seat of table.seats) {
    if (seat.seat > 0) addColumn(String(seat.user_id), `${seat.seat} · ${seat.name}`, seat);
  }
  for (const [key, messages] of Object.entries(snapshot.chats)) {
    const list = columns.get(key).querySelector(".messages");
    for (const message of messages) list.append(messageItem(message, key));
    list.scrollTop = list.scrollHeight;
  }
  fillSetup();
  showStatus();
}

function update(change) {
  if (change.seats) {
    table.seats = change.seats;
    for (const seat of change.seats) {
      const column = columns.get(String(seat.user_id));
      if (column) column.querySelector(".autoplay input").checked = seat.autoplay;
    }
  }
  if (change.status) table.status = change.status;
  if (change.headline) {
    table.headline = change.headline;
    showStatus();
  }
  for (const [key, delta] of Object.entries(change.chats || {})) {
    const list = columns.get(key).querySelector(".messages");
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 48;
    for (const id of delta.remove) list.querySelector(`[data-id="${id}"]`)?.remove();
    for (const message of delta.upsert) place(list, messageItem(message, key));
    if (atBottom) list.scrollTop = list.scrollHeight;
  }
}

function showStatus() {
  statusLine.textContent = table.headline;
  statusLine.dataset.status = table.status;
}

// ----- columns -------------------------------------------------------------------

function addColumn(key, title, seat) {
  const column = columnTemplate.content.firstElementChild.cloneNode(true);
  column.dataset.chat = key;
  column.id = `chat-${key}`;
  column.querySelector("h2").textContent = title;
  const actor = column.querySelector(".actor");
  const autoplay = column.querySelector(".autoplay");
  if (seat) {
    column.dataset.seat = seat.seat;
    actor.remove();
    const box = autoplay.querySelector("input");
    box.checked = seat.autoplay;
    box.addEventListener("change", () => act(column, "autoplay", { on: box.checked }));
  } else {
    autoplay.remove();
    fillActors(actor.querySelector("select"));
  }
  column.querySelector(".composer").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = event.target.elements.text;
    act(column, "send", { text: input.value }).then((ok) => { if (ok) input.value = ""; });
  });
  board.append(column);
  columns.set(key, column);

  const tab = document.createElement("button");
  tab.type = "button";
  tab.textContent = seat ? seat.name : word("group");
  tab.addEventListener("click", () => column.scrollIntoView({ behavior: "smooth", inline: "start" }));
  tabs.append(tab);
}

function fillActors(select) {
  const person = table.seats.find((seat) => seat.seat === table.config.person) ||
    table.seats.find((seat) => seat.seat === 0);
  for (const seat of table.seats) {
    const option = new Option(seat.seat ? `${seat.seat} · ${seat.name}` : seat.name, seat.user_id);
    option.selected = seat === person;
    select.append(option);
  }
}

// Who acts in a column: the private chat's owner, or whoever is picked in the group.
function actorOf(column) {
  const picked = column.querySelector(".actor select");
  return Number(picked ? picked.value : column.dataset.chat);
}

async function act(column, action, body) {
  const where = column.dataset.chat === "group" ? "group" : "private";
  try {
    const data = await api(action, { user_id: actorOf(column), chat: where, ...body });
    const answer = data.answer || {};
    if (answer.text) showPopup(column, answer.text, answer.show_alert ? "alert" : "note");
    return true;
  } catch (error) {
    showPopup(column, error.message, "refused");
    return false;
  }
}

// As Telegram shows a bot's answer: a note that fades, or an alert that
// waits for OK; one at a time, the newest replacing the last.
function showPopup(column, text, kind) {
  closePopup();
  const shown = popupTemplate.content.firstElementChild.cloneNode(true);
  shown.classList.add(kind);
  shown.querySelector(".popup-text").textContent = text;
  const ok = shown.querySelector(".popup-ok");
  if (kind === "alert") {
    ok.addEventListener("click", closePopup);
  } else {
    ok.remove();
    const timer = setTimeout(() => { if (popup === shown) closePopup(); }, 3000);
    shown.addEventListener("click", () => { clearTimeout(timer); closePopup(); });
  }
  column.append(shown);
  popup = shown;
  if (kind === "alert") ok.focus({ preventScroll: true });
}

function closePopup() {
  popup?.remove();
  popup = null;
}

// ----- messages --------------------------------------------------------------------

function messageItem(message, key) {
  const item = document.createElement("li");
  item.className = "message";
  item.dataset.id = message.id;
  item.classList.toggle("bot", message.from_bot);
  item.classList.toggle("service", Boolean(message.service));
  item.classList.toggle("pinned", message.pinned);
  item.classList.toggle("own", key !== "group" && message.sender_id === Number(key));
  if (message.service) {
    item.textContent = message.service;
    return item;
  }
  const meta = document.createElement("div");
  meta.className = "meta";
  const sender = document.createElement("span");
  sender.className = "sender";
  sender.textContent = message.sender;
  meta.append(sender);
  if (message.pinned) meta.append(mark("pin", word("pinned")));
  if (message.edited) meta.append(mark("edited", word("edited")));
  item.append(meta);
  if (message.media) item.append(media(message.media));
  if (message.html) {
    const text = document.createElement("div");
    text.className = "text";
    text.innerHTML = message.html; // built and escaped by the server (playweb/view.py)
    for (const moment of text.querySelectorAll("time.moment")) showMoment(moment);
    item.append(text);
  }
  if (message.buttons.length) item.append(keyboard(message));
  return item;
}

function media(file) {
  if (file.kind === "photo") {
    const picture = document.createElement("img");
    picture.className = "picture";
    picture.src = file.url;
    picture.alt = word("picture");
    if (file.width && file.height) {
      picture.width = file.width;
      picture.height = file.height;
    }
    return picture;
  }
  if (file.kind === "document") {
    const link = document.createElement("a");
    link.className = "file";
    link.href = file.url;
    link.download = file.name;
    link.textContent = `📄 ${file.name}`;
    return link;
  }
  return mark("file", `📎 ${file.kind}`);
}

function mark(kind, text) {
  const span = document.createElement("span");
  span.className = kind;
  span.textContent = text;
  return span;
}

// A deadline as the reader's app shows it: a clock time, or one that counts down.
function showMoment(moment) {
  const when = new Date(Number(moment.dataset.unix) * 1000);
  const style = moment.dataset.format || "";
  moment.dateTime = when.toISOString();
  if (style.includes("r")) {
    const seconds = Math.max(0, Math.round((when.getTime() - Date.now()) / 1000));
    const relative = new Intl.RelativeTimeFormat(table.config.language, { numeric: "auto" });
    moment.textContent = seconds < 60
      ? relative.format(seconds, "second")
      : relative.format(Math.round(seconds / 60), "minute");
    return;
  }
  const parts = {};
  if (/[dD]/.test(style)) parts.dateStyle = style.includes("D") ? "long" : "short";
  if (/[tT]/.test(style) || !style) parts.timeStyle = style.includes("t") ? "short" : "medium";
  moment.textContent = new Intl.DateTimeFormat(table.config.language, parts).format(when);
}

setInterval(() => {
  if (!table) return;
  for (const moment of board.querySelectorAll('time.moment[data-format*="r"]')) showMoment(moment);
}, 1000);

function keyboard(message) {
  const box = document.createElement("div");
  box.className = "keyboard";
  message.buttons.forEach((row, r) => {
    const line = document.createElement("div");
    line.className = "row";
    row.forEach((button, c) => {
      const press = document.createElement("button");
      press.type = "button";
      press.textContent = button.text;
      press.dataset.row = r;
      press.dataset.column = c;
      if (button.kind === "url") {
        press.classList.add("url");
        const arrow = mark("external", " ↗");
        arrow.setAttribute("aria-hidden", "true"); // the button's name stays its label
        press.append(arrow);
      }
      press.addEventListener("click", () => {
        const column = press.closest(".column");
        act(column, "press", { message_id: message.id, row: r, column: c });
      });
      line.append(press);
    });
    box.append(line);
  });
  return box;
}

// Messages stay in id order: a new one goes after the last with a smaller id.
function place(list, item) {
  const id = Number(item.dataset.id);
  const old = list.querySelector(`[data-id="${id}"]`);
  if (old) {
    old.replaceWith(item);
    return;
  }
  const next = [...list.children].find((child) => Number(child.dataset.id) > id);
  list.insertBefore(item, next || null);
}

// ----- the table's settings ------------------------------------------------------------

function fillSetup() {
  if (!setup.hidden) return; // the person is editing it
  const c = table.config;
  const fields = setup.elements;
  for (const [name, values] of [["language", table.choices.languages], ["variant", table.choices.variants]]) {
    fields[name].replaceChildren(...values.map((value) => new Option(value.name, value.code)));
    fields[name].value = c[name];
  }
  fields.players.value = c.players;
  fields.speed.value = c.speed;
  fields.person.value = c.person;
  fields.options.value = Object.entries(c.options).map(([k, v]) => `${k}=${v}`).join("\n");
}

setupToggle.addEventListener("click", () => {
  setup.hidden = !setup.hidden;
  setupToggle.setAttribute("aria-expanded", String(!setup.hidden));
});

setup.addEventListener("submit", async (event) => {
  event.preventDefault();
  const fields = setup.elements;
  const options = {};
  for (const line of fields.options.value.split("\n")) {
    if (!line.trim()) continue;
    const [name, ...rest] = line.split("=");
    options[name.trim()] = rest.join("=").trim();
  }
  try {
    await api("restart", {
      language: fields.language.value,
      variant: fields.variant.value,
      players: Number(fields.players.value),
      speed: Number(fields.speed.value),
      person: Number(fields.person.value),
      options,
    });
    setupError.textContent = "";
    setup.hidden = true;
    setupToggle.setAttribute("aria-expanded", "false");
    statusLine.textContent = word("opening");
  } catch (error) {
    setupError.textContent = error.message;
  }
});

connect();
