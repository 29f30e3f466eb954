from routes import dispatch
from server import banner


def test_banner():
    settings = {"host": "h", "port": 1, "workers": 2, "debug": True}
    assert banner(settings) == "serving on h:1 with 2 workers (debug)"


def test_health():
    assert dispatch("/health") == {"ok": True}
    assert dispatch("/nope") == {"error": "not found"}
