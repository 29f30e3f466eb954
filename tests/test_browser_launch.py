"""The browser is opened through a private redirect file: the launch key is on no command line."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gui.browser_launch import open_in_browser, redirect_page

URL = "http://127.0.0.1:7860/?token=s3cr3t-key_AB"


def test_the_browser_is_given_a_file_not_the_key(tmp_path: Path) -> None:
    opened: list[str] = []
    path = open_in_browser(URL, opener=opened.append, folder=tmp_path / "runtime")
    assert path is not None and opened == [path.as_uri()]
    assert "s3cr3t" not in opened[0] and "token" not in opened[0]
    assert URL in path.read_text(encoding="utf-8")


@pytest.mark.skipif(os.name != "posix", reason="modes 0600/0700 exist only on POSIX (Windows has ACLs)")
def test_only_this_user_can_read_the_file(tmp_path: Path) -> None:
    old = os.umask(0)  # a careless umask does not widen it
    try:
        path = open_in_browser(URL, opener=lambda _: None, folder=tmp_path / "runtime")
    finally:
        os.umask(old)
    assert path is not None
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_folder_that_cannot_be_written_opens_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    opened: list[str] = []
    assert open_in_browser(URL, opener=opened.append, folder=blocker / "runtime") is None
    assert opened == []


def test_the_page_cannot_be_broken_out_of() -> None:
    page = redirect_page("http://127.0.0.1:7860/?token=x</script><script>alert(1)</script>'\"")
    assert "</script><script>alert" not in page
    assert page.count("<script>") == 1


def test_app_serve_does_not_call_webbrowser_with_the_url() -> None:
    source = (Path(__file__).resolve().parents[1] / "app.py").read_text(encoding="utf-8")
    assert "webbrowser.open(url)" not in source and "open_in_browser(url)" in source
