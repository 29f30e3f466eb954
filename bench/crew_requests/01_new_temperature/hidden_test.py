import pytest
import temperature


def test_c_to_f():
    assert temperature.c_to_f(100) == pytest.approx(212)
    assert temperature.c_to_f(0) == pytest.approx(32)
    assert temperature.c_to_f(-40) == pytest.approx(-40)
    assert temperature.c_to_f(37) == pytest.approx(98.6)


def test_f_to_c():
    assert temperature.f_to_c(212) == pytest.approx(100)
    assert temperature.f_to_c(32) == pytest.approx(0)
    assert temperature.f_to_c(50) == pytest.approx(10)
