from progress import accuracy, per_box


def test_accuracy():
    assert accuracy([True, True, False]) == 66.7
    assert accuracy([]) == 0.0


def test_per_box():
    assert per_box([{"box": 1}, {"box": 3}, {"box": 1}]) == {1: 2, 2: 0, 3: 1, 4: 0, 5: 0}
