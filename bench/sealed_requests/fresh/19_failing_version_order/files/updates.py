"""Which pinned packages have a newer release: reads lines like 'requests==2.31.0'."""

from versions import is_newer, latest


def read_pins(text):
    pins = {}
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.strip().lower()] = version.strip()
    return pins


def outdated(pins, releases):
    """{name: (pinned, newest)} for every pin with a newer release; releases: name -> [versions]."""
    found = {}
    for name, pinned in pins.items():
        newest = latest(releases.get(name, [pinned]))
        if is_newer(newest, pinned):
            found[name] = (pinned, newest)
    return found
