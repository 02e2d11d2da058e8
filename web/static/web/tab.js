// The browser tab of a game: "Your turn" in its title and a dot on its icon while the game
// waits on the viewer. It owns the page's own title and icon, to put them back.

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

/** The tab's signal: ``show(yourTurn)`` puts "Your turn" and the dot on, or takes them off. */
export function tabSignal() {
  const title = document.title;
  const link = iconLink();
  const icon = link.getAttribute("href");
  let dottedIcon = null; // made once
  let on = false;
  return {
    async show(yourTurn) {
      if (yourTurn === on) return;
      on = yourTurn;
      document.title = yourTurn ? `Your turn · ${title}` : title;
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
