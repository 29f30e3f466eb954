from playlist import Playlist, Song
from timefmt import mmss


def render(playlist):
    rows = [f"{playlist.name} ({mmss(playlist.total_seconds())})"]
    rows += [f"{n}. {s.artist} - {s.title} [{mmss(s.seconds)}]" for n, s in enumerate(playlist.songs, 1)]
    return "\n".join(rows)


def demo():
    return Playlist(
        "road trip",
        [Song("Holiday", "Green Day", 232), Song("Go", "Moby", 218), Song("Jump", "Van Halen", 241)],
    )


if __name__ == "__main__":
    print(render(demo()))
