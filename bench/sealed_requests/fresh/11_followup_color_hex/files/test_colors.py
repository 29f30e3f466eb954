import pytest
from colors import hex_to_rgb, luminance, mix


def test_hex_to_rgb():
    assert hex_to_rgb("#1e90ff") == (30, 144, 255)
    assert hex_to_rgb("#FFFFFF") == (255, 255, 255)


def test_not_colours():
    for bad in ("", "#12345", "#gggggg", "red"):
        with pytest.raises(ValueError):
            hex_to_rgb(bad)


def test_luminance():
    assert luminance("#000000") == 0
    assert luminance("#ffffff") == pytest.approx(1)


def test_mix():
    assert mix("#000000", "#ffffff") == (128, 128, 128)
