// The game's clocks as the server keeps them: each seat's time left is the state's
// ``clock.remaining_ms`` less the time since the server computed it (``clock.as_of``), read on
// the server's clock: the offset of this browser's clock to the server's is measured from the
// states that arrive, so a browser whose clock is wrong still shows the server's time. It owns
// that offset and the state's clock last read.

// The time left shown in red (and, if the viewer wants, beeped) on the clock of the seat to move.
export const LOW_MS = 10000;

/** A time left in words (1:05, 1:02:03); empty for none. */
export function clockText(ms) {
  if (ms === null || ms === undefined) return "";
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** Whether a time left is short enough to be shown in red. */
export function low(ms) {
  return ms !== null && ms !== undefined && ms < LOW_MS;
}

export class GameClock {
  /** ``state``: the game's state (the API's); ``onLow(seat, ms)``: called on each tick of the
   * running clock in its last ``LOW_MS`` (a beep). */
  constructor(state, { onLow = null } = {}) {
    this.offset = null; // the server's clock less this browser's, in ms (best estimate)
    this.bounds = null; // [lowest, highest] that offset may be, from the states read
    this.onLow = onLow;
    this.read(state);
  }

  /** Take the clocks of a game's state. ``sent``, ``arrived``: when it was asked for (null:
   * unknown, as for the state in the page) and when it came, on this browser's clock
   * (Date.now()). The server computed it (``as_of``) between the two, so the offset of the
   * server's clock to this browser's lies between ``as_of - arrived`` and ``as_of - sent``: the
   * bounds of every state read are kept (the narrowest), the offset taken in their middle; bounds
   * that contradict each other mean this browser's clock moved: the latest are taken. */
  read(state, { sent = null, arrived = Date.now() } = {}) {
    this.state = state;
    this.readAt = performance.now();
    const asOf = this.asOf();
    if (asOf === null) return;
    const lower = asOf - arrived;
    const upper = sent === null ? Infinity : asOf - sent;
    if (this.bounds) {
      const narrowed = [Math.max(this.bounds[0], lower), Math.min(this.bounds[1], upper)];
      this.bounds = narrowed[0] <= narrowed[1] ? narrowed : [lower, upper];
    } else {
      this.bounds = [lower, upper];
    }
    const [low, high] = this.bounds;
    this.offset = high === Infinity ? low : (low + high) / 2;
  }

  /** The server's time when the state's clock was computed (ms since the epoch), or null. */
  asOf() {
    const clock = this.state.clock;
    const at = clock && clock.as_of ? Date.parse(clock.as_of) : NaN;
    return Number.isNaN(at) ? null : at;
  }

  /** The server's time now, as this browser reckons it (ms since the epoch). */
  serverNow() {
    return Date.now() + (this.offset || 0);
  }

  /** The time since the state's clock was computed, in ms. */
  age() {
    const asOf = this.asOf();
    return asOf === null ? performance.now() - this.readAt : this.serverNow() - asOf;
  }

  /** Whether the live clocks wait (the server's ``clock.running`` false: no clock runs until
   * the first stones; a state without the field runs). */
  waiting() {
    const s = this.state;
    return s.status === "in_progress" && this.live() && s.clock.running === false;
  }

  live() {
    const clock = this.state.clock;
    return Boolean(clock && clock.time_control === "live");
  }

  /** The seat to move whose clock runs, or null. */
  running() {
    const s = this.state;
    if (s.status !== "in_progress" || !s.to_move || this.waiting()) return null;
    return s.to_move.seat;
  }

  /** What ``seat`` has left now, in ms (null: no live clock). */
  remaining(seat) {
    const clock = this.state.clock;
    const clocks = clock && (clock.remaining_ms || clock.clocks_ms);
    if (!clocks || !clocks.length || !this.live()) return null;
    let ms = clocks[seat - 1];
    if (ms === undefined || ms === null) return null;
    if (this.running() === seat) ms -= this.age();
    return ms;
  }

  /** The time left to place the first stone (``clock.start_deadline``), or null: none. */
  startLeft() {
    const clock = this.state.clock;
    if (this.state.status !== "in_progress" || !clock || !clock.start_deadline) return null;
    const at = Date.parse(clock.start_deadline);
    return Number.isNaN(at) ? null : Math.max(0, at - this.serverNow());
  }

  /** A seat's clock as shown: its text, whether it is low, and its ms (null: none). */
  shown(seat) {
    const ms = this.remaining(seat);
    const toMove = this.state.to_move && this.state.to_move.seat === seat;
    if (ms !== null && toMove && this.waiting()) return { text: "waiting", low: false, ms };
    return { text: clockText(ms), low: low(ms), ms };
  }

  /** Show every clock's time left in its node (``[data-clock=seat]`` under ``root``), and the
   * start window's (``[data-start-left]``). */
  tick(root = document) {
    for (const node of root.querySelectorAll("[data-clock]")) {
      const seat = Number(node.dataset.clock);
      const { text, low: short, ms } = this.shown(seat);
      node.textContent = text;
      node.classList.toggle("low", short);
      node.classList.toggle("waiting", text === "waiting");
      if (ms === null) delete node.dataset.ms;
      else node.dataset.ms = String(Math.round(ms));
      if (short && this.onLow && this.running() === seat) this.onLow(seat, ms);
    }
    const start = root.querySelector("[data-start-left]");
    if (start) {
      const left = this.startLeft();
      start.hidden = left === null;
      start.querySelector(".left").textContent = clockText(left);
    }
  }

  /** Tick every ``ms`` milliseconds. */
  start(ms = 250) {
    setInterval(() => this.tick(), ms);
  }
}
