from convert import km_to_miles

print(round(km_to_miles(10), 2))
