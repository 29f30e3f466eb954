from dataclasses import dataclass


@dataclass(frozen=True)
class Song:
    title: str
    artist: str
    seconds: int


class Playlist:
    def __init__(self, name, songs=None):
        self.name = name
        self.songs = list(songs or [])

    def add(self, song):
        self.songs.append(song)

    def remove(self, title):
        self.songs = [song for song in self.songs if song.title != title]

    def total_seconds(self):
        return sum(song.seconds for song in self.songs)

    def by_artist(self, artist):
        return [song for song in self.songs if song.artist == artist]
