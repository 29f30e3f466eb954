from shapes import Rectangle, Square


def test_rectangle():
    r = Rectangle(3, 4)
    assert r.area() == 12
    assert r.perimeter() == 14


def test_square():
    s = Square(5)
    assert isinstance(s, Rectangle)
    assert s.area() == 25
    assert s.perimeter() == 20
