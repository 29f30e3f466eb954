from updates import outdated, read_pins

PINS = """
# web
Flask==2.3.0
requests==2.31.0  # pinned for the proxy
"""


def test_read_pins():
    assert read_pins(PINS) == {"flask": "2.3.0", "requests": "2.31.0"}


def test_outdated():
    releases = {"flask": ["2.3.0", "2.3.3"], "requests": ["2.31.0", "2.30.0"]}
    assert outdated(read_pins(PINS), releases) == {"flask": ("2.3.0", "2.3.3")}
