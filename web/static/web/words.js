// The game page's words for what the server says in codes: decisions, moves, end reasons.

// Colour 1 is white and colour 2 black in the Pente family (see board.js PENTE).
export const CHOICES = { keep: "Keep", swap: "Swap", place_two: "Place two more", colour1: "Play white",
  colour2: "Play black", accept: "Accept the marking", reject: "Reject the marking" };
// A decision as the move list says it once made (its button says what it will do).
const CHOSEN = { keep: "Kept", swap: "Swapped", place_two: "Placed two more", colour1: "Chose white",
  colour2: "Chose black", accept: "Marking accepted", reject: "Marking rejected" };
// What each decision means, said once above its buttons (engine/game.py, the openings).
export const EXPLAIN = {
  d: "Keep: your opponent keeps white and plays the next stone. Swap: you take white and play the next stone.",
  swap2: "Keep: you keep black and play the next stone. Swap: you take white and your opponent plays the next (black) stone. Place two more: you place a black and a white stone, then your opponent picks a colour.",
  colour: "Play white: you keep white and your opponent plays the next (black) stone. Play black: you take black and play the next stone.",
  marking: "Accept: the game is counted with these stones dead. Reject: play goes on; click the stones you judge otherwise first, and your rejection names them.",
};
// A point's name (K10): what a hint or the analysis may ring on the board (not a pass, a
// decision or Go's marking).
export const POINT = /^[A-HJ-T](1[0-9]|[1-9])$/;
// The server's end reasons (engine.Termination), as "... won by <reason>".
export const REASONS = { five: "five in a row", six: "six in a row", captures: "captures",
  draw: "the board is full", score: "the count", resign: "resignation", timeout: "time",
  forfeit: "forfeit", cancel: "cancelled" };

/** The points of an action's text (K10, Connect6's K10 L11); none for a pass, a decision or
 * Go's marking (its names are stones to mark, not a place to play). */
export function actionPoints(text) {
  const words = String(text || "").split(" ");
  return words.every((w) => POINT.test(w)) ? words : [];
}

/** An action of the engine (a hint, the analysis' best move) in the page's words. */
export function actionWords(text) {
  const [word, ...rest] = String(text || "").split(" ");
  if (word === "PASS") return "pass";
  if (word === "MARK") return rest.length ? `dead stones: ${rest.join(" ")}` : "no dead stones";
  if (CHOICES[word]) return `“${CHOICES[word]}”`;
  return text;
}

/** A move of the state's ``moves`` in words. */
export function moveText(m) {
  if (m.kind === "mark") return m.choice ? `dead stones: ${m.choice}` : "no dead stones";
  if (m.kind === "decision" || (m.choice && !m.name)) return CHOSEN[m.choice] || m.choice;
  if (m.kind === "pass") return "pass";
  return m.name || m.kind;
}
