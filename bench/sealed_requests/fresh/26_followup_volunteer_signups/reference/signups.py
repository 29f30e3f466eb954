"""Volunteer signups from the web form's CSV export (columns name, email, shirt; shirt may be empty)."""

import csv

SIZES = ("S", "M", "L", "XL")


def load(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return [dict(row) for row in csv.DictReader(fh)]


def save(signups, path):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=["name", "email", "shirt"])
        writer.writeheader()
        writer.writerows(signups)


def shirt_order(signups):
    """How many shirts of each size to order; signups without a size are left out."""
    counts = dict.fromkeys(SIZES, 0)
    for signup in signups:
        size = signup["shirt"].strip().upper()
        if size:
            counts[size] += 1
    return counts


def dedupe(signups):
    """The first signup for each email (case and surrounding spaces ignored), in order; a kept
    signup without a shirt size takes the size of a later duplicate."""
    kept = {}
    for signup in signups:
        key = signup["email"].strip().lower()
        if key not in kept:
            kept[key] = dict(signup)
        elif not kept[key]["shirt"].strip() and signup["shirt"].strip():
            kept[key]["shirt"] = signup["shirt"]
    return list(kept.values())
