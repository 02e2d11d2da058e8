// The new-tournament form: the fields of the format and the time control chosen only (the
// server ignores the others).

import { showWhen } from "./site.js";

const form = document.getElementById("tournament-form");
if (form) showWhen(form);
