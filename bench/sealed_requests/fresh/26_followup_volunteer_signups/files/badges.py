"""Name badges for the volunteers' lanyards: 'NAME (shirt)'."""

from signups import load


def badge(signup):
    size = signup["shirt"].strip().upper()
    return f"{signup['name'].upper()} ({size})" if size else signup["name"].upper()


def badges(path):
    return [badge(signup) for signup in load(path)]
