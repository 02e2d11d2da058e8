// The browser tab of a game: "(n) Your turn" in its title (n: the viewer's games waiting on
// them, from GET me/games/) and a dot on its icon while this game waits on the viewer. It owns
// the page's own title and icon, to put them back.

import { api, me } from "./site.js";

const DOT = "#d62728";
const SIZE = 32;

function iconLink() {
  let link = document.querySelector('link[rel~="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  return link;
}

/** The page's icon (``src``: its address, or none) with a red dot, as a PNG data URL. */
async function dotted(src) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = SIZE;
  const pen = canvas.getContext("2d");
  if (src) {
    try {
      const image = new Image();
      image.src = src;
      await image.decode();
      pen.drawImage(image, 0, 0, SIZE, SIZE);
    } catch (err) {
      // an icon the browser cannot draw here: the dot alone
    }
  }
  pen.beginPath();
  pen.arc(SIZE - 9, SIZE - 9, 8, 0, 2 * Math.PI);
  pen.fillStyle = DOT;
  pen.fill();
  pen.lineWidth = 2;
  pen.strokeStyle = "#fff";
  pen.stroke();
  return canvas.toDataURL("image/png");
}

/** How many of the signed-in viewer's games wait on them (null when it cannot be read). */
async function gamesWaiting() {
  if (!me) return null;
  const result = await api("me/games/");
  if (!result.ok || !Array.isArray(result.data)) return null;
  return result.data.filter((row) => row.my_turn).length;
}

/** The tab's signal: ``show(yourTurn)`` puts "(n) Your turn" and the dot on, or takes them
 * off; the count is read again when this game's turn changes (or was read a minute ago). */
export function tabSignal() {
  const title = document.title;
  const link = iconLink();
  const icon = link.getAttribute("href");
  let dottedIcon = null; // made once
  let on = null;
  let waiting = 0; // the viewer's games waiting on them, as last read
  let readAt = -Infinity;
  let asked = 0; // the latest read asked for: an older answer is dropped
  const titled = (yourTurn) => {
    // This game counts even if the list was read a moment before its turn came.
    const n = Math.max(waiting, yourTurn ? 1 : 0);
    document.title = n > 0 ? `(${n}) Your turn · ${title}` : title;
  };
  return {
    async show(yourTurn) {
      const changed = yourTurn !== on;
      on = yourTurn;
      titled(on);
      if (changed || performance.now() - readAt > 60_000) {
        readAt = performance.now();
        const ask = ++asked;
        const count = await gamesWaiting();
        if (ask === asked && count !== null) {
          waiting = count;
          titled(on);
        }
      }
      if (!changed) return;
      if (!yourTurn) {
        if (icon === null) link.removeAttribute("href");
        else link.setAttribute("href", icon);
        return;
      }
      if (!dottedIcon) dottedIcon = await dotted(icon);
      if (on) link.setAttribute("href", dottedIcon);
    },
  };
}
