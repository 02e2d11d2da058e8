// The game's clocks: what each seat has left, read from the game's state, and the clock of the
// seat to move ticking on the page. The clock owns when it last read the state.

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
  return ms !== null && ms !== undefined && ms < 30000;
}

export class GameClock {
  constructor(state) {
    this.read(state);
  }

  /** Take the clocks of a game's state (the API's), as they are now. */
  read(state) {
    this.state = state;
    this.readAt = performance.now();
  }

  /** The seat to move (whose clock runs), or null. */
  running() {
    const s = this.state;
    return s.status === "in_progress" && s.to_move ? s.to_move.seat : null;
  }

  /** What ``seat`` has left now, in ms (null: no live clock). */
  remaining(seat) {
    const clock = this.state.clock;
    const clocks = clock && clock.clocks_ms;
    if (!clocks || !clocks.length || clock.time_control !== "live") return null;
    let ms = clocks[seat - 1];
    if (ms === undefined || ms === null) return null;
    if (this.running() === seat) ms -= performance.now() - this.readAt;
    return ms;
  }

  /** Show the running clock's time left in its node (``[data-clock=seat]`` under ``root``). */
  tick(root = document) {
    const seat = this.running();
    if (seat === null) return;
    const node = root.querySelector(`[data-clock="${seat}"]`);
    if (!node) return;
    const ms = this.remaining(seat);
    node.textContent = clockText(ms);
    node.classList.toggle("low", low(ms));
  }

  /** Tick every ``ms`` milliseconds. */
  start(ms = 250) {
    setInterval(() => this.tick(), ms);
  }
}
