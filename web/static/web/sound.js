// Short beeps made by the browser (WebAudio): no sound file. Silent where WebAudio is missing
// or the browser has not let the page play sound yet (before the person's first click or tap).

let context = null;

/** A beep of ``hz`` for ``ms`` milliseconds at ``volume`` (0..1). */
export function beep({ hz = 880, ms = 120, volume = 0.15 } = {}) {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    if (!context) context = new Context();
    if (context.state === "suspended") context.resume();
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = hz;
    gain.gain.value = volume;
    tone.connect(gain).connect(context.destination);
    const start = context.currentTime;
    gain.gain.setTargetAtTime(0, start + ms / 1000 - 0.03, 0.01);
    tone.start(start);
    tone.stop(start + ms / 1000);
  } catch (err) {
    // no sound: nothing else depends on it
  }
}
