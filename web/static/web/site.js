// What every page's scripts share: calls to the REST API with the session's CSRF token, and
// event streams that reconnect by themselves (EventSource sends Last-Event-ID).

export const me = document.body.dataset.user || null;

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

/**
 * The Idempotency-Key of a POST (the server creates nothing twice for one key): the same for
 * the same action (path and body) until it gets an answer, so a double click or a retry after
 * a lost connection or a server error sends the key again; a new one once it was answered.
 */
const pendingKeys = new Map();
function idempotencyKey(action) {
  if (!pendingKeys.has(action)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    pendingKeys.set(action, Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""));
  }
  return pendingKeys.get(action);
}

/** Call the API; resolves to {ok, status, data} and never throws on an HTTP error. */
export async function api(path, { method = "GET", body } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  const action = `${method} ${path} ${JSON.stringify(body)}`;
  if (method === "POST") headers["Idempotency-Key"] = idempotencyKey(action);
  let response;
  try {
    response = await fetch("/api/" + path.replace(/^\//, ""), {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    return { ok: false, status: 0, data: { code: "offline", detail: "The server cannot be reached." } };
  }
  if (response.status < 500) pendingKeys.delete(action);
  let data = null;
  if (response.status !== 204) {
    try { data = await response.json(); } catch (err) { data = null; }
  }
  return { ok: response.ok, status: response.status, data };
}

/**
 * Follow an event stream: handlers maps an event kind to a function of its data; ``onOpen``
 * runs each time the stream (re)connects.
 *
 * The tabs of one browser share each stream: a browser opens at most six connections to a
 * server over HTTP/1.1, and every open stream holds one, so a few tabs of pages that follow two
 * streams each would leave none for loading a page. One tab (the one holding the stream's Web
 * Lock) opens the EventSource and passes every event to the others over a BroadcastChannel;
 * when it closes, another tab takes the lock and opens the stream again from the last event id
 * seen (``?last_event_id=``), so nothing is missed. Without those APIs each tab opens its own.
 */
export function follow(path, handlers, { onOpen } = {}) {
  const url = "/api/" + path.replace(/^\//, "");
  const dispatch = (kind, body) => {
    const handler = handlers[kind];
    // Each event is {id, channel, kind, data}: the handler gets its data.
    if (handler) handler(body && body.data !== undefined ? body.data : body);
  };
  if (!("locks" in navigator) || typeof BroadcastChannel === "undefined") {
    return openStream(url, Object.keys(handlers), dispatch, onOpen);
  }
  const name = `pente-stream:${me || ""}:${url}`;
  const channel = new BroadcastChannel(name);
  let lastId = null;
  channel.onmessage = ({ data }) => {
    if (data.id) lastId = data.id;
    if (data.open) { if (onOpen) onOpen(); return; }
    dispatch(data.kind, data.body);
  };
  window.addEventListener("pagehide", () => channel.close());
  // Listening from now on: what was published since the page was drawn is read once (the
  // tab that opens the stream reads it again when it connects).
  if (onOpen) setTimeout(onOpen, 0);
  navigator.locks.request(name, () => new Promise(() => {
    // This tab holds the stream until it goes (the lock is released with the page).
    const from = lastId ? `${url.includes("?") ? "&" : "?"}last_event_id=${encodeURIComponent(lastId)}` : "";
    openStream(url + from, Object.keys(handlers), (kind, body, id) => {
      if (id) lastId = id;
      dispatch(kind, body);
      channel.postMessage({ kind, body, id });
    }, () => {
      if (onOpen) onOpen();
      channel.postMessage({ open: true });
    }, [...KINDS_EVERY_PAGE_SHARES]);
  }));
  return channel;
}

/** Kinds a shared stream passes on whatever its own page follows (another tab may want them). */
const KINDS_EVERY_PAGE_SHARES = [
  "move", "undo", "request", "end", "reset", "chat", "chat_removed", "analysis", "spectators",
  "challenge_open", "challenge_updated", "challenge_gone", "game_started", "game_ended",
  "challenge_received", "challenge_accepted", "challenge_declined", "challenge_cancelled",
  "challenge_expired", "challenge_joined", "challenge_left", "your_turn", "game_over",
  "tournament_match", "tournament_cancelled", "rating_changed", "enter", "leave",
  "set_next_game",
];

/** How often a page reads what changed while the server's event bus is away. */
const POLL_WITHOUT_STREAM_MS = 3000;

function openStream(url, kinds, deliver, onOpen, more = []) {
  const source = new EventSource(url);
  for (const kind of new Set([...kinds, ...more])) {
    source.addEventListener(kind, (event) => {
      let body = null;
      try { body = JSON.parse(event.data); } catch (err) { return; }
      deliver(kind, body, event.lastEventId || null);
    });
  }
  // ``connected`` comes once the stream follows its channel (EventSource's ``open`` comes with
  // the headers, before): what the page reads then (``onOpen``) misses nothing. While the
  // server's event bus (Redis) is away the stream stays open but carries nothing: it says
  // ``live_unavailable`` and, once the bus is back, ``connected`` and ``live_available``.
  // Meanwhile the page reads what changed every few seconds, so a game goes on without it.
  let polling = null;
  const stopPolling = () => { if (polling) { clearInterval(polling); polling = null; } };
  if (onOpen) {
    source.addEventListener("connected", () => { stopPolling(); onOpen(); });
    source.addEventListener("live_unavailable", () => {
      if (!polling) polling = setInterval(onOpen, POLL_WITHOUT_STREAM_MS);
    });
    source.addEventListener("live_available", stopPolling);
  }
  window.addEventListener("pagehide", () => { stopPolling(); source.close(); });
  return source;
}

let leaving = false;
/** Go to ``url`` unless the page is already going somewhere (two answers may name a game). */
export function goOnce(url) {
  if (leaving) return;
  leaving = true;
  window.location.href = url;
}

/** Text of an API error for a person. */
export function problem(result) {
  if (result.data && result.data.detail) return result.data.detail;
  return `The server answered ${result.status}.`;
}

/** Show a short message in the element with the given id. */
export function say(id, text, bad = false) {
  const el = document.getElementById(id);
  if (!el) return;
  el.textContent = text;
  el.classList.toggle("error", bad);
}

/** The escape-free way to build elements: el("li", {class: "x"}, "text", child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/**
 * A chat: ``list`` (a <ul>) shows the lines, ``form`` (may be null) says new ones to the API's
 * ``path``; ``tell`` gets a sentence for the person (a refusal, or what an action did). Returns
 * the stream handlers of the chat's events (``chat``, ``chat_removed``) and ``add`` for lines
 * read otherwise. A signed-in reader may report or ignore the author of each line not theirs
 * (lines drawn by the server carry ``data-author`` and get the same controls).
 */
export function chatBox(list, form, path, tell) {
  // Authors ignored from this page: their lines stay out at once (the streams leave them out
  // once they read the reader's ignores again, within a heartbeat).
  const ignored = new Set();
  const controls = (item, id, author) => {
    if (!me || !author || author === me) return;
    const report = el("button", { type: "button", class: "link", "data-report": id }, "Report");
    const ignore = el("button", { type: "button", class: "link", "data-ignore": author }, `Ignore ${author}`);
    report.addEventListener("click", async () => {
      const reason = window.prompt("Report this line to the moderators. Why? (you may leave it empty)", "");
      if (reason === null) return;
      const result = await api(`chat/${id}/report`, { method: "POST", body: { reason: reason.slice(0, 200) } });
      tell(result.ok ? "Reported to the moderators: thank you." : problem(result));
    });
    ignore.addEventListener("click", async () => {
      if (!window.confirm(`Ignore ${author}? You will no longer see their chat, and they can no longer challenge you. Their page undoes it.`)) return;
      const result = await api("me/ignores", { method: "POST", body: { username: author } });
      if (!result.ok) { tell(problem(result)); return; }
      ignored.add(author);
      for (const node of list.querySelectorAll("li[data-author]")) {
        if (node.dataset.author === author) node.remove();
      }
      tell(`You ignore ${author} now: their page undoes it.`);
    });
    item.append(el("details", { class: "line-actions" },
      el("summary", { "aria-label": `Report or ignore ${author}`, title: "Report or ignore" }, "⋯"),
      report, ignore));
  };
  const add = (line) => {
    const author = line.author ? line.author.username : null;
    if (!list || list.querySelector(`[data-line="${line.id}"]`) || ignored.has(author)) return;
    const item = el("li", { "data-line": line.id, "data-author": author },
      el("b", {}, author || "?"), line.text);
    controls(item, line.id, author);
    list.append(item);
    list.scrollTop = list.scrollHeight;
  };
  if (list) {
    for (const item of list.querySelectorAll("li[data-line]")) {
      controls(item, item.dataset.line, item.dataset.author);
    }
    list.scrollTop = list.scrollHeight;
  }
  if (form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = form.elements.text;
      const text = input.value.trim();
      if (!text) return;
      const result = await api(path, { method: "POST", body: { text } });
      if (result.ok) { input.value = ""; add(result.data); }
      else tell(problem(result));
    });
  }
  return {
    add,
    chat: add,
    // Read the latest lines again (the stream connected, or missed events): a line said between
    // the page's first read and the stream's start reaches no stream.
    catchUp: async () => {
      const result = await api(path);
      if (result.ok && Array.isArray(result.data)) result.data.forEach(add);
    },
    chat_removed: (data) => {
      const node = list && list.querySelector(`[data-line="${data.id}"]`);
      if (node) node.remove();
    },
  };
}

// Buttons with data-api post to the API and reload or go where the answer says.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-api]");
  if (!button) return;
  event.preventDefault();
  if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
  button.disabled = true;
  const body = button.dataset.body ? JSON.parse(button.dataset.body) : {};
  const method = button.dataset.method || "POST";
  const result = await api(button.dataset.api, { method, body: method === "DELETE" ? undefined : body });
  button.disabled = false;
  if (!result.ok) {
    alert(problem(result));
    return;
  }
  const game = result.data && (result.data.game || (result.data.challenge && result.data.challenge.game));
  if (button.dataset.follow === "game" && game) goOnce(`/games/${game}/`);
  else window.location.reload();
});

// Fields of a form that apply to some choices only: an element with data-when="name:a b" is
// shown while the form's field "name" is a or b, and hidden otherwise; several conditions
// ("name:a b; other:c") must all hold. A checkbox reads "on" or "off". A field hidden by its
// own condition does not apply: it reads as its default (elements are shown or hidden in the
// order of the page, so a condition on a field above reads it as just decided).
export function showWhen(form) {
  const value = (field) => {
    const hidden = Boolean(field.closest("[hidden]"));
    if (field.type === "checkbox") return (hidden ? field.defaultChecked : field.checked) ? "on" : "off";
    if (!hidden) return field.value;
    if (field.tagName !== "SELECT") return field.defaultValue;
    const chosen = [...field.options].find((option) => option.defaultSelected) || field.options[0];
    return chosen ? chosen.value : "";
  };
  const holds = (condition) => {
    const [name, values] = condition.split(":");
    return values.trim().split(/\s+/).includes(value(form.elements[name.trim()]));
  };
  const update = () => {
    for (const node of form.querySelectorAll("[data-when]")) {
      node.hidden = !node.dataset.when.split(";").every(holds);
    }
  };
  form.addEventListener("change", update);
  update();
}

// --- Tournament games announced on every page ---------------------------------------------
//
// When a tournament game of the signed-in player starts, the user stream's ``game_started``
// says so (``tournament_game``: the tournament, the round, the game's page and ``start_by``,
// when its start window closes: a player who is not at the game by then forfeits). Every page
// the player has open shows a banner with the link and the time left, the tab's title starts
// with a mark, and the browser notifies when the player allowed it (the banner's "Notify me"
// button asks, a gesture being needed). The announcements are kept in localStorage, so that a
// page opened later shows them too, until the game's page is opened, the game is over, the
// window has closed or the player dismisses the banner.

const TOURNAMENT_TITLE_MARK = "⚑ Tournament game · ";

function tournamentGameBanner() {
  const bar = document.getElementById("tournament-games");
  if (!me || !bar) return;
  const key = `pente-tournament-games:${me}`;
  const here = window.location.pathname;
  const read = () => {
    try { return JSON.parse(localStorage.getItem(key)) || []; } catch (err) { return []; }
  };
  const write = (list) => {
    try { localStorage.setItem(key, JSON.stringify(list)); } catch (err) { /* no storage */ }
  };
  const until = (item) => (item.start_by ? Date.parse(item.start_by) : item.received + 10 * 60 * 1000);
  const current = () => read().filter((item) => until(item) > Date.now());
  const forget = (game) => write(read().filter((item) => item.game !== game));
  const left = (item) => {
    const seconds = Math.max(0, Math.round((until(item) - Date.now()) / 1000));
    const [d, h, m, s] = [Math.floor(seconds / 86400), Math.floor(seconds / 3600) % 24,
      Math.floor(seconds / 60) % 60, seconds % 60];
    if (d) return `${d} d ${h} h`;
    if (h) return `${h} h ${String(m).padStart(2, "0")} min`;
    return `${m}:${String(s).padStart(2, "0")}`;
  };
  const canAsk = () => "Notification" in window && Notification.permission === "default";
  const askToNotify = async () => {
    try { await Notification.requestPermission(); } catch (err) { /* refused or unsupported */ }
    drawn = "";
    draw();
  };
  const banner = (item) => el("div", { class: "tournament-game", role: "alert", "data-game": item.game },
    el("span", {}, `Your game in ${item.name} (${item.round}) has started. `),
    el("a", { href: item.url, class: "button" }, "Play it now"),
    " Be at the table within ", el("span", { class: "tournament-game-left" }, left(item)),
    " or you forfeit it.",
    canAsk() ? el("button", { type: "button", class: "link", onclick: askToNotify }, "Notify me next time") : null,
    el("button", { type: "button", class: "link", "aria-label": "Dismiss", title: "Dismiss",
      onclick: () => { forget(item.game); draw(); } }, "✕"));
  let drawn = "";  // the games the banners show, redrawn only when they change
  const draw = () => {
    const shown = current().filter((item) => item.url !== here);
    const games = shown.map((item) => item.game).join(",");
    if (games !== drawn) {
      drawn = games;
      bar.replaceChildren(...shown.map(banner));
    }
    for (const item of shown) {
      const node = bar.querySelector(`[data-game="${item.game}"] .tournament-game-left`);
      if (node) node.textContent = left(item);
    }
    bar.hidden = !shown.length;
    const plain = document.title.replace(TOURNAMENT_TITLE_MARK, "");
    const title = (shown.length ? TOURNAMENT_TITLE_MARK : "") + plain;
    if (document.title !== title) document.title = title;
  };
  const notify = (item) => {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try {
      const note = new Notification(`Your tournament game has started: ${item.name}`, {
        body: `${item.round}: be at the table within ${left(item)} or you forfeit it.`,
        tag: `pente-game-${item.game}`,
      });
      note.onclick = () => { window.focus(); window.location.href = item.url; };
    } catch (err) { /* some browsers notify from a service worker only */ }
  };
  const opened = current().find((item) => item.url === here);
  if (opened) forget(opened.game);  // the player is at the game: nothing to announce
  follow("me/events", {
    game_started: (data) => {
      const game = data.tournament_game;
      if (!game) return;
      const item = { ...game, game: data.game, received: Date.now() };
      const fresh = !read().some((known) => known.game === data.game);
      if (fresh && game.url !== here) {
        write([...current(), item]);
        notify(item);  // once: the first tab to hear it (a tag keeps it one notification)
      }
      draw();
    },
    game_over: (data) => { forget(data.game); draw(); },
  });
  window.addEventListener("storage", (event) => { if (event.key === key) draw(); });
  draw();
  setInterval(draw, 1000);
}

tournamentGameBanner();
