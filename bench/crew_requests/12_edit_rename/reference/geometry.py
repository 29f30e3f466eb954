import math


def circle_area(r):
    return math.pi * r * r


def circumference(r):
    return 2 * math.pi * r


def rectangle_area(w, h):
    return w * h
