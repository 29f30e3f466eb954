"""The editor never drops the user's typing: what counts as unsaved, what opening another file
does with unsaved edits, and what the editor does when the crew (or an undo) changed its file.

The page keeps, per browser tab, the text as it was opened or last saved (the baseline); edits are
unsaved while the editor's text differs from it. Plain functions, tested without a browser.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gui.workspace_actions import OpenedFile, disk_version, open_file

UNSAVED_MARK = '<span class="lc-unsaved">● unsaved</span>'

# Ctrl+S (Cmd+S) anywhere on the page clicks Save instead of the browser's "save page as"; and
# the run line's clock ticks.
KEYS_JS = """
() => {
  document.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 's' || e.key === 'S')) {
      const save = document.querySelector('#save');
      if (save) { e.preventDefault(); save.click(); }
    }
  }, true);
  // While a file is being opened (opening_js) the editor takes no typing: what was typed into the
  // old text would be replaced by the new file's text when it arrives, unseen and unsaved.
  const refuse = (e) => {
    const editor = document.querySelector('#editor.lc-opening');
    if (!editor || !editor.contains(e.target)) { return; }
    const reads = (e.ctrlKey || e.metaKey) && ['s', 'S', 'c', 'C', 'a', 'A'].includes(e.key);
    if (e.type === 'keydown' && reads) { return; }  // Save, copy and select all change nothing
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  ['keydown', 'beforeinput', 'paste', 'cut', 'drop'].forEach((kind) => {
    document.addEventListener(kind, refuse, true);
  });
  // The run clock (gui/crew_session.Progress.line): wall time since the run started, each second.
  // The browser's clock may differ from the server's: each line says when the server drew it, and
  // the smallest difference seen is the best guess (a line shown late, or drawn again from an
  // old value, only makes it larger).
  setInterval(() => {
    document.querySelectorAll('.lc-clock').forEach((el) => {
      const now = Date.now() / 1000, sent = Number(el.dataset.now), start = Number(el.dataset.start);
      // A line drawn but not yet given its data (a slow page) waits: NaN:NaN showed, and stayed.
      if (!Number.isFinite(sent) || !Number.isFinite(start) || el.dataset.now === '') { return; }
      window.lcClockOffset = Math.min(window.lcClockOffset ?? Infinity, now - sent);
      const s = Math.max(0, Math.floor(now - window.lcClockOffset - start));
      el.textContent = Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
    });
  }, 1000);
}
"""


def opening_js(inputs: int) -> str:
    """Run in the browser as an open starts: the editor takes no typing until OPENED_JS (Gradio
    passes the inputs' then the outputs' values; the first `inputs` go on to the server)."""
    return (
        "(...values) => { document.querySelector('#editor')?.classList.add('lc-opening');"
        f" return values.slice(0, {inputs}); }}"
    )


OPENED_JS = "() => { document.querySelector('#editor')?.classList.remove('lc-opening'); }"

# The unsaved marker follows each keystroke in the browser: no round trip to a busy server.
MARK_JS = f"(text, baseline) => (text === baseline ? '' : {UNSAVED_MARK!r})"


def is_dirty(text: str | None, baseline: str | None, opened: OpenedFile | None) -> bool:
    if opened is not None and not opened.editable:
        return False  # a read-only view has nothing the user could lose
    return (text or "") != (baseline or "")


def refused_open(rel: str, opened: OpenedFile | None) -> str:
    where = f"`{opened.rel}`" if opened is not None else "the editor"
    return (
        f"**`{rel}` was not opened:** {where} has unsaved edits. Save them (Ctrl+S), or press"
        f" *Discard edits and open* to open `{rel}` anyway."
    )


@dataclass(frozen=True)
class AfterChange:
    """What the editor does after a run or an undo: new text to show (None: keep what it shows)."""

    text: str | None
    opened: OpenedFile | None
    message: str


def after_disk_change(workspace: Path, text: str, baseline: str, opened: OpenedFile | None) -> AfterChange:
    """The open file changed on disk: show the new text when the user has no unsaved edits; with
    unsaved edits keep the user's text and say so (Save refuses to overwrite the changed file)."""
    if opened is None or disk_version(workspace, opened.rel) == opened.version:
        return AfterChange(None, opened, "")
    if is_dirty(text, baseline, opened):
        return AfterChange(
            None,
            opened,
            f"**`{opened.rel}` changed on disk** (the crew or an undo) while you had unsaved edits. Your"
            " text is kept and Save will not overwrite the new file: copy your edits, then open it again.",
        )
    content, message, now = open_file(workspace, opened.rel)
    if now.version is None:
        return AfterChange(None, opened, f"`{opened.rel}` is gone from the disk (the crew or an undo).")
    return AfterChange(content, now, f"Reloaded `{opened.rel}`: it changed on disk. {message}")
