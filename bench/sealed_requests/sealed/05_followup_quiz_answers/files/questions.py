GEOGRAPHY = [
    ("Capital of France?", "Paris"),
    ("Longest river in Africa?", "Nile"),
    ("Biggest city in the USA?", ["New York", "NYC", "New York City"]),
    ("Capital of Japan?", "Tokyo"),
]
