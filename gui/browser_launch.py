"""Open the IDE in the browser without the launch key on any command line.

`webbrowser.open(url)` starts the browser with the address as an argument, and a command line is
readable by every local user (/proc/<pid>/cmdline, `ps`): on a shared machine anyone could take
the key and drive the IDE. As Jupyter does, the browser is sent to a local file instead, readable
by this user only (0600, in a 0700 folder), that redirects to the address with the key.

The folder is under the home, not /tmp: browsers packaged as snaps or flatpaks have a /tmp of
their own and would not find the file there.
"""

from __future__ import annotations

import atexit
import contextlib
import html
import json
import os
import secrets
import sys
import webbrowser
from collections.abc import Callable
from pathlib import Path


def runtime_dir() -> Path:
    """Where the redirect file goes: this user's own folder, like the settings."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / "LocalCrew"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "localcrew"
    return base / "runtime"


def redirect_page(url: str) -> str:
    """A page that goes on to `url` at once (script, with a meta refresh and a link as fallbacks)."""
    attr = html.escape(url, quote=True)
    script = json.dumps(url).replace("<", "\\u003c")  # no "</script>" can end the script early
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        "<meta name='referrer' content='no-referrer'>"
        f"<meta http-equiv='refresh' content='0;url={attr}'>"
        "<title>LocalCrew</title></head><body>"
        f"<script>window.location.replace({script});</script>"
        f"<p>Opening <a href='{attr}'>LocalCrew</a>...</p></body></html>\n"
    )


def write_redirect(url: str, folder: Path) -> Path:
    """The redirect file, created 0600 (never readable by others, not even for a moment)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.name == "posix":
        os.chmod(folder, 0o700)  # an existing folder made with a looser umask
    path = folder / f"open-{os.getpid()}-{secrets.token_hex(4)}.html"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(redirect_page(url))
    return path


def open_in_browser(
    url: str, opener: Callable[[str], object] = webbrowser.open, folder: Path | None = None
) -> Path | None:
    """Open `url` through a redirect file; the browser's command line names only the file.

    Returns the file (removed when the IDE exits), or None when it could not be written: then
    nothing is opened, and the printed address is the way in.
    """
    try:
        path = write_redirect(url, folder or runtime_dir())
    except OSError as exc:
        print(f"Could not open the browser safely ({exc}); open the address printed below.", file=sys.stderr)
        return None
    atexit.register(_remove, path)
    opener(path.as_uri())
    return path


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()
