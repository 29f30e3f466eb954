from areas import rect_area

print(rect_area(3, 4))
