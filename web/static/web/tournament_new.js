// The new-tournament form: the fields of the format and the time control chosen only (the
// server ignores the others).

import { showWhen } from "./site.js";

const form = document.getElementById("tournament-form");
if (form) {
  showWhen(form);
  // One tournament per click: the form's button is disabled once it is sent (the page that
  // answers is a new one), so a double click does not send it twice.
  form.addEventListener("submit", (event) => {
    const button = form.querySelector('button[type="submit"], button:not([type])');
    if (!button) return;
    if (button.disabled) { event.preventDefault(); return; }
    // Disabled after the browser has read the form (a disabled button is not sent with it).
    setTimeout(() => { button.disabled = true; }, 0);
  });
  // Back to this page from the browser's cache: the button works again.
  window.addEventListener("pageshow", () => {
    const button = form.querySelector("button");
    if (button) button.disabled = false;
  });
}
