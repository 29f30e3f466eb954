def km_to_miles(km):
    return km * 0.621371


def miles_to_km(miles):
    return miles * 1.609344
