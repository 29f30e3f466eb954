"""A code editor that shows and returns a file's text exactly.

Gradio's Code strips leading and trailing whitespace from what it shows, so a file opened and
saved lost its final newline (and leading blank lines), and an untouched file looked edited.
"""

from __future__ import annotations

import gradio as gr
from gradio import component_meta

# Gradio writes a .pyi stub next to every Component subclass's source at import (the source tree
# may be read-only); this class adds no events, so it needs none (as gui/file_tree.py does).
_write_stub = component_meta.create_or_modify_pyi
component_meta.create_or_modify_pyi = lambda *args, **kwargs: None
try:

    class ExactCode(gr.Code):
        is_template = True  # drawn by Gradio's own Code front end

        def postprocess(self, value: str | None) -> str | None:
            if isinstance(value, tuple):
                return super().postprocess(value)  # Gradio's error for the old file form
            return value

finally:
    component_meta.create_or_modify_pyi = _write_stub
