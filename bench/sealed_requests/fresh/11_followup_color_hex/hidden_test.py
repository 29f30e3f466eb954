import hashlib
from pathlib import Path

import pytest
import theme
from colors import hex_to_rgb, mix, rgb_to_hex
from test_colors import test_hex_to_rgb, test_luminance, test_mix, test_not_colours  # noqa: F401
from test_theme import test_css, test_text_colour  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_colors.py": "681ca967ea0bc3668de08724ba36202ce44d017b6886d676f1eb2cfb654b33b8", "test_theme.py": "4d46fa841550423c7745ea8cd70b72e6e1ef1ad9630042d89b69158200793140", "theme.py": "83df9f1a2a78dd6b18e02d6f09c1fda389b97f7258871d04d3e078a5f7ac87ca"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_rgb_to_hex():
    assert rgb_to_hex(30, 144, 255) == "#1e90ff"
    assert rgb_to_hex(0, 0, 0) == "#000000"
    assert rgb_to_hex(255, 170, 5) == "#ffaa05"
    assert rgb_to_hex(*mix("#000000", "#ffffff")) == "#808080"
    for code in ("#dc143c", "#2f4f4f", "#0a0b0c"):
        assert rgb_to_hex(*hex_to_rgb(code)) == code


def test_short_codes_and_no_hash():
    assert hex_to_rgb("#fa0") == (255, 170, 0)
    assert hex_to_rgb("FA0") == (255, 170, 0)
    assert hex_to_rgb("1e90ff") == (30, 144, 255)
    assert hex_to_rgb(" #1E90FF ") == (30, 144, 255)
    assert theme.text_colour("fff") == "black"
    for bad in ("#ff", "#ffff", "xyz", "#1e90fg"):
        with pytest.raises(ValueError):
            hex_to_rgb(bad)


def test_out_of_range():
    for values in ((256, 0, 0), (0, -1, 0), (0, 0, 300)):
        with pytest.raises(ValueError):
            rgb_to_hex(*values)
