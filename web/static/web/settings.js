// The game page's settings, kept in this browser (localStorage): each a checkbox of the page's
// settings panel (``input[data-setting=name]``), with its default when never set.

const KEY = "pente:setting:";

/** The value of setting ``name`` (a boolean), ``fallback`` when never set here. */
export function setting(name, fallback = false) {
  try {
    const kept = window.localStorage.getItem(KEY + name);
    return kept === null ? fallback : kept === "1";
  } catch (err) {
    return fallback; // storage refused (private mode): the default
  }
}

export function setSetting(name, value) {
  try {
    window.localStorage.setItem(KEY + name, value ? "1" : "0");
  } catch (err) {
    // storage refused: the setting lasts as long as the page
  }
}

/** Wire the checkboxes under ``root`` (``data-setting``) to their settings: ``defaults`` gives
 * each one's default; ``onChange(name, value)`` is told of a change. Returns the values read. */
export function settingsPanel(root, defaults, onChange = () => {}) {
  const values = {};
  for (const box of root.querySelectorAll("input[data-setting]")) {
    const name = box.dataset.setting;
    values[name] = setting(name, Boolean(defaults[name]));
    box.checked = values[name];
    box.addEventListener("change", () => {
      values[name] = box.checked;
      setSetting(name, box.checked);
      onChange(name, box.checked);
    });
  }
  return values;
}
