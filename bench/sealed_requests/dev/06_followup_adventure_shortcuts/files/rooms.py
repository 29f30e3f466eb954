ROOMS = {
    "hall": {
        "description": "A dusty hall. Doors lead north and east.",
        "exits": {"north": "library", "east": "kitchen"},
        "items": ["lamp"],
    },
    "library": {
        "description": "Shelves of mouldy books. The hall is south.",
        "exits": {"south": "hall"},
        "items": ["key"],
    },
    "kitchen": {
        "description": "A cold kitchen. The hall is west.",
        "exits": {"west": "hall"},
        "items": [],
    },
}
