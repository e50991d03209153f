"""Keyboard shortcuts for a page's buttons (Streamlit has none built in): a small HTML/JS
component (``st.iframe`` of an HTML string: an iframe of the app's own origin) that installs one
``keydown`` listener on the app's document and clicks the button whose label a key names.

The listener is created in the app document's own realm (so it outlives the component's iframe
between reruns) and replaces the previous one, so a rerun never stacks listeners. A key pressed
while the app is still running the previous step waits for that run to finish (up to 3 s), so
fast presses are not lost on a button being replaced. Keys are ignored while the user types in
a text field, a select box or a slider, and with Ctrl/Alt/Meta."""

from __future__ import annotations

import json
from collections.abc import Mapping

__all__ = ["key_script", "bind_keys", "REPLAY_KEYS"]

#: The replay page's keys (``KeyboardEvent.key``) → the label of the button each presses.
REPLAY_KEYS = {"ArrowLeft": "◀ back", "ArrowRight": "forward ▶", "ArrowUp": "▲ hand", "ArrowDown": "▼ hand",
               "Home": "⏮ start", "c": "next claim ⏭", "k": "next kong ⏭", "w": "next win ⏭",
               "f": "next finding ⚠"}

_JS = """<script>
(function () {
  var w = window.parent, doc = w.document;
  var body = "var map = " + %s + ";" +
    "if (e.ctrlKey || e.metaKey || e.altKey) return;" +
    "var t = e.target, tag = (t && t.tagName || '').toLowerCase();" +
    "if (tag === 'input' || tag === 'textarea' || tag === 'select' || (t && t.isContentEditable)) return;" +
    "if (t && t.getAttribute && t.getAttribute('role') === 'slider') return;" +
    "var label = map[e.key]; if (!label) return;" +
    "e.preventDefault();" +
    "var press = function (tries) {" +
    "  var busy = document.querySelector('[data-testid=stStatusWidgetRunningIcon]') ||" +
    "             document.querySelector('[data-stale=true]');" +
    "  if (busy && tries < 100) { setTimeout(function () { press(tries + 1); }, 30); return; }" +
    "  var b = Array.prototype.find.call(document.querySelectorAll('button'), function (x) {" +
    "    return x.innerText.trim() === label && !x.disabled && x.offsetParent !== null; });" +
    "  if (b) b.click(); };" +
    "press(0);";
  if (w.__ppKeys) doc.removeEventListener('keydown', w.__ppKeys, true);
  w.__ppKeys = new w.Function('e', body);
  doc.addEventListener('keydown', w.__ppKeys, true);
  w.__ppKeysReady = Object.keys(%s).length;
})();
</script>"""


def key_script(bindings: Mapping[str, str]) -> str:
    """The component's HTML: ``bindings`` maps a key (``KeyboardEvent.key``: ``ArrowRight``,
    ``c`` …) to the exact label of the button it presses."""
    m = json.dumps(dict(sorted(bindings.items())), ensure_ascii=False)
    return _JS % (json.dumps(m), m)


def bind_keys(bindings: Mapping[str, str]) -> None:
    """Install the shortcuts on the current page (an invisible component)."""
    import streamlit as st

    st.iframe(key_script(bindings), height=1)
