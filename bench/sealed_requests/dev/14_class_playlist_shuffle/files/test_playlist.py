from playlist import Playlist, Song
from timefmt import mmss


def test_total():
    playlist = Playlist("x", [Song("a", "A", 60), Song("b", "B", 90)])
    assert playlist.total_seconds() == 150


def test_remove():
    playlist = Playlist("x", [Song("a", "A", 60), Song("b", "B", 90)])
    playlist.remove("a")
    assert [s.title for s in playlist.songs] == ["b"]


def test_mmss():
    assert mmss(241) == "4:01"
