"""Web documentation lookup, off unless the user switches it on: the section of an API's page on
an allow-listed documentation host, with a size and time cap per fetch and a cache on disk.

The offline lookup (tools/api_docs.py) reads what the checks' own Python holds; a module that is
not installed there has nothing to read, and its page on the web is the next best thing. Nothing
is fetched when the lookup is off, from a host not on the list, or through a redirect that leaves
the list.

    docs = WebDocs(cache_dir)              # docs.python.org and pypi.org
    page = docs.lookup("csv.DictWriter")   # WebDoc(url, text) or None
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

# Where a name's page is, per host: the standard library's module pages, a package's PyPI entry.
SOURCES = {
    "docs.python.org": "https://docs.python.org/3/library/{module}.html",
    "pypi.org": "https://pypi.org/pypi/{module}/json",
}
MAX_BYTES = 400_000  # a module's page on docs.python.org is up to ~300 KB
MAX_CHARS = 1200  # about 300 tokens of the coder's prompt
TIMEOUT_S = 5.0
_NAME = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*$")


class WebDocsError(RuntimeError):
    """A fetch was refused or failed; the message says why."""


@dataclass(frozen=True)
class WebDoc:
    name: str
    url: str
    text: str  # plain text, capped
    cached: bool = False


class WebDocs:
    def __init__(
        self,
        cache_dir: Path,
        sources: dict[str, str] | None = None,
        *,
        max_bytes: int = MAX_BYTES,
        timeout_s: float = TIMEOUT_S,
    ) -> None:
        """`sources`: host -> URL pattern with {module}; the hosts are the allow-list."""
        self.cache_dir = Path(cache_dir)
        self.sources = dict(sources or SOURCES)
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s
        self.fetched: list[str] = []  # URLs read from the network (not the cache), in order

    @property
    def hosts(self) -> list[str]:
        return [urlparse(pattern).netloc for pattern in self.sources.values()]

    def lookup(self, name: str, max_chars: int = MAX_CHARS) -> WebDoc | None:
        """The first allow-listed page that documents `name` ("csv.DictWriter", "requests"), as
        text; None when none does or every fetch failed."""
        if not _NAME.match(name):
            return None
        module = name.split(".")[0]
        for pattern in self.sources.values():
            url = pattern.format(module=module)
            try:
                body, cached = self.fetch(url)
            except WebDocsError:
                continue
            text = _section(body, name) if url.endswith(".html") else _pypi_summary(body)
            if text:
                return WebDoc(name, url, _cap(text, max_chars), cached)
        return None

    def fetch(self, url: str) -> tuple[str, bool]:
        """The page's text and whether it came from the cache. Raises WebDocsError."""
        self._allowed(url)
        cached = self._cache_path(url)
        if cached.is_file():
            return cached.read_text(errors="replace"), True
        opener = urllib.request.build_opener(_AllowListRedirects(self))
        try:
            with opener.open(
                urllib.request.Request(url, headers={"User-Agent": "LocalCrew"}), timeout=self.timeout_s
            ) as reply:
                body = reply.read(self.max_bytes + 1)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise WebDocsError(f"could not fetch {url}: {exc}") from exc
        if len(body) > self.max_bytes:
            raise WebDocsError(f"{url} is larger than {self.max_bytes} bytes")
        self.fetched.append(url)
        text = body.decode("utf-8", errors="replace")
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(text)
        return text, False

    def _allowed(self, url: str) -> None:
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or parsed.netloc not in self.hosts:
            raise WebDocsError(f"{parsed.netloc or url} is not on the documentation allow-list")

    def _cache_path(self, url: str) -> Path:
        return self.cache_dir / (hashlib.sha256(url.encode()).hexdigest()[:32] + ".txt")


class _AllowListRedirects(urllib.request.HTTPRedirectHandler):
    def __init__(self, docs: WebDocs) -> None:
        self.docs = docs

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001, ANN201
        try:
            self.docs._allowed(newurl)
        except WebDocsError:
            return None  # urllib then raises HTTPError for the redirect itself
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _section(page: str, name: str) -> str:
    """The text of `name`'s entry in a Sphinx page (its signature and first paragraph), else the
    page's first paragraph when `name` is the module itself."""
    start = page.find(f'id="{name}"')
    if start < 0:
        if "." in name:
            return ""
        first = re.search(r"<p>(.*?)</p>", page, re.S)
        return _plain(first.group(1)) if first else ""
    tag = page.rfind("<", 0, start)
    end = page.find("</dd>", start)
    chunk = page[tag : end if end > 0 else start + 4000]
    signature = _plain(chunk.split("</dt>", 1)[0])
    paragraph = re.search(r"<p>(.*?)</p>", chunk, re.S)
    return "\n".join(p for p in (signature, _plain(paragraph.group(1)) if paragraph else "") if p)


def _pypi_summary(body: str) -> str:
    try:
        info = json.loads(body).get("info") or {}
    except (ValueError, AttributeError):
        return ""
    parts = [f"{info.get('name', '')} {info.get('version', '')}".strip(), info.get("summary") or ""]
    description = (info.get("description") or "").strip()
    return "\n".join(p for p in [*parts, description[:800]] if p)


def _plain(fragment: str) -> str:
    text = re.sub(r"<[^>]+>", "", fragment)
    text = html.unescape(text).replace("¶", "")
    return re.sub(r"\s+", " ", text).strip()


def _cap(text: str, max_chars: int) -> str:
    return text if len(text) <= max_chars else text[: max_chars - 3].rstrip() + "..."
