"""The web documentation lookup (tools/web_docs.py) against a local server standing in for the
documentation hosts: the section of an API, a package's summary, the cache, the allow-list (a
redirect off it is not followed), the size cap; and in the crew's feedback, nothing is fetched
unless the user switched the lookup on."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from agents.events import EventBus, ToolCallFinished, ToolCallStarted
from agents.rules.prompt.api_lookup import docs_for
from agents.run.crew_tools import ToolContext
from tools.sandbox import RunResult
from tools.web_docs import WebDocs, WebDocsError
from tools.workspace_files import WorkspaceFiles

PAGE = """<html><body><section><h1>fancylib</h1><p>Fancy things &amp; more.</p>
<dl class="py class"><dt class="sig sig-object py" id="fancylib.Widget">
<em class="property">class </em><span class="sig-name">Widget</span>(<em>size</em>, <em>colour='red'</em>)
<a class="headerlink" href="#fancylib.Widget">¶</a></dt>
<dd><p>A widget of the given <em>size</em>. Use <code>paint()</code> to colour it.</p>
<p>Second paragraph, not shown.</p></dd></dl></section></body></html>"""
PACKAGE = (
    '{"info": {"name": "otherlib", "version": "2.1", "summary": "Other things.", "description": "Use it."}}'
)


class Docs:
    def __init__(self) -> None:
        self.paths: list[str] = []
        self.big = False
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                owner.paths.append(self.path)
                if self.path == "/moved/fancylib.html":
                    self.send_response(302)
                    self.send_header("Location", "http://elsewhere.invalid/fancylib.html")
                    self.end_headers()
                    return
                body = {
                    "/3/library/fancylib.html": PAGE + ("x" * 600_000 if owner.big else ""),
                    "/pypi/otherlib/json": PACKAGE,
                }.get(self.path)
                self.send_response(200 if body else 404)
                self.end_headers()
                self.wfile.write((body or "not found").encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.host = f"127.0.0.1:{self.server.server_address[1]}"

    def sources(self, library: str = "/3/library/{module}.html") -> dict[str, str]:
        return {"docs": f"http://{self.host}{library}", "pypi": f"http://{self.host}/pypi/{{module}}/json"}


@pytest.fixture
def docs() -> Iterator[Docs]:
    served = Docs()
    yield served
    served.server.shutdown()


def test_the_section_of_the_api_is_read_and_cached(docs: Docs, tmp_path: Path) -> None:
    web = WebDocs(tmp_path / "cache", docs.sources())
    found = web.lookup("fancylib.Widget")
    assert found is not None and not found.cached and found.url.endswith("/3/library/fancylib.html")
    assert "Widget(size, colour='red')" in found.text and "A widget of the given size." in found.text
    assert "Second paragraph" not in found.text and "¶" not in found.text
    again = web.lookup("fancylib.Widget")
    assert again is not None and again.cached and again.text == found.text
    assert docs.paths == ["/3/library/fancylib.html"]  # the second lookup asked nobody


def test_a_package_not_in_the_library_pages_gets_its_index_summary(docs: Docs, tmp_path: Path) -> None:
    found = WebDocs(tmp_path, docs.sources()).lookup("otherlib.thing")
    assert found is not None and "Other things." in found.text and found.url.endswith("/pypi/otherlib/json")
    assert WebDocs(tmp_path, docs.sources()).lookup("nolib") is None


def test_hosts_off_the_list_and_redirects_off_it_are_refused(docs: Docs, tmp_path: Path) -> None:
    web = WebDocs(tmp_path, docs.sources(library="/moved/{module}.html"))
    with pytest.raises(WebDocsError, match="allow-list"):
        web.fetch("http://elsewhere.invalid/fancylib.html")
    with pytest.raises(WebDocsError):
        web.fetch(f"http://{docs.host}/moved/fancylib.html")  # the redirect is not followed
    assert web.fetched == [] and not list(tmp_path.iterdir())  # nothing read, nothing cached
    assert web.lookup("bad name; rm -rf /") is None and docs.paths == ["/moved/fancylib.html"]


def test_a_page_over_the_size_cap_is_refused(docs: Docs, tmp_path: Path) -> None:
    docs.big = True
    with pytest.raises(WebDocsError, match="larger than"):
        WebDocs(tmp_path, docs.sources(), max_bytes=100_000).fetch(
            f"http://{docs.host}/3/library/fancylib.html"
        )


def _failed_import(tmp_path: Path, web: WebDocs | None) -> tuple[str, EventBus]:
    (tmp_path / "app.py").write_text("import fancylib\n")
    bus = EventBus()
    context = ToolContext(WorkspaceFiles(tmp_path), bus, request="Use fancylib.", web_docs=web)
    stderr = "Traceback...\nModuleNotFoundError: No module named 'fancylib'\n"
    result = RunResult(["python", "app.py"], 1, "", stderr, 0.1, None, True)

    class Failed:
        passed = False

    check = Failed()
    check.result = result  # type: ignore[attr-defined]
    return docs_for(context, [check], {"app.py": "import fancylib\n"}), bus  # type: ignore[list-item]


def test_the_crew_reads_the_web_only_when_switched_on(docs: Docs, tmp_path: Path) -> None:
    text, bus = _failed_import(tmp_path, None)
    assert "Fancy things" not in text and docs.paths == []  # off: nothing leaves the machine
    assert all(e.name != "web_docs" for e in bus.history if isinstance(e, ToolCallStarted))
    text, bus = _failed_import(tmp_path, WebDocs(tmp_path / "cache", docs.sources()))
    assert "Fancy things & more." in text and docs.paths == ["/3/library/fancylib.html"]
    [started] = [e for e in bus.history if isinstance(e, ToolCallStarted) and e.name == "web_docs"]
    [finished] = [e for e in bus.history if isinstance(e, ToolCallFinished) and e.name == "web_docs"]
    assert started.arguments["name"] == "fancylib" and finished.result in text  # shown in the sidebar
