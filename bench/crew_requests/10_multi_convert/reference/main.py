from convert import km_to_miles, miles_to_km

print(round(km_to_miles(10), 2))
print(round(miles_to_km(10), 2))
