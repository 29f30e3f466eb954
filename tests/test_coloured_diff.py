"""The Last run tab's diff: added lines green, removed red, and file contents never become markup."""

from gui.workspace_actions import coloured_diff


def test_lines_are_coloured_by_kind_and_escaped() -> None:
    diff = "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-old = '<b>'\n+new = '<script>alert(1)</script>'\n same\n"
    html = coloured_diff(diff)
    assert '<span style="color:#cf222e">-old = &#x27;&lt;b&gt;&#x27;</span>' in html
    assert '<span style="color:#1a7f37">+new = &#x27;&lt;script&gt;alert(1)' in html
    assert "\n same" in html and "<script>" not in html and "<b>" not in html
    assert html.startswith('<pre class="lc-diff">') and html.endswith("</pre>")
