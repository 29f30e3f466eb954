def km_to_miles(km):
    return km * 0.621371
