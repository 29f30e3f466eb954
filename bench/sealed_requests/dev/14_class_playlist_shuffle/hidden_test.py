import hashlib
from pathlib import Path

import show
from playlist import Playlist, Song
from test_playlist import test_mmss, test_remove, test_total  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_playlist.py": "73a7c53f8ff0284b90a3ccdcaeb7919a49d0c8ebba49b5e855626dcf399fbc04", "timefmt.py": "c14a950dffe578f4d690fd36fed5ed7e9d9e2993d56674cff3fc19e8db3392b7", "show.py": "0ff5a6407e96ccac2f65fb061bf79a544f175bba3dee66bc09f15526b4dda54f"}
SONGS = [Song(f"t{n}", f"a{n % 3}", 100 + n) for n in range(12)]


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_len():
    assert len(Playlist("x", SONGS)) == 12
    assert len(Playlist("empty")) == 0


def test_shuffle_in_place_keeps_the_songs():
    playlist = Playlist("x", SONGS)
    playlist.shuffle(seed=3)
    assert sorted(playlist.songs, key=lambda s: s.title) == sorted(SONGS, key=lambda s: s.title)
    assert len(playlist) == 12 and playlist.total_seconds() == sum(s.seconds for s in SONGS)


def test_the_same_seed_gives_the_same_order():
    orders = []
    for _ in range(2):
        playlist = Playlist("x", SONGS)
        playlist.shuffle(seed=42)
        orders.append([s.title for s in playlist.songs])
    assert orders[0] == orders[1]
    moved = set()
    for seed in range(5):
        playlist = Playlist("x", SONGS)
        playlist.shuffle(seed=seed)
        moved.add(tuple(s.title for s in playlist.songs))
    assert len(moved) > 1 and tuple(s.title for s in SONGS) not in moved


def test_shuffle_without_a_seed():
    playlist = Playlist("x", SONGS)
    playlist.shuffle()
    assert len(playlist) == 12
    assert "road trip" in show.render(show.demo())
