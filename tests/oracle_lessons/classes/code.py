import dataclasses


def points(n):
    class Point:
        dims = 2

        def __init__(self, x, y):
            self.x = x
            self.y = y

        def norm(self):
            squared = self.x ** 2 + self.y ** 2
            return squared ** 0.5
    made = [Point(i, i + 1) for i in range(n)]
    lengths = [round(p.norm(), 3) for p in made]
    return lengths


def temperatures(values):
    class Celsius:
        def __init__(self, degrees):
            self._degrees = degrees

        @property
        def degrees(self):
            return self._degrees

        @degrees.setter
        def degrees(self, value):
            if value < -273.15:
                raise ValueError("below absolute zero")
            self._degrees = value
    reading = Celsius(values[0])
    for v in values[1:]:
        try:
            reading.degrees = v
        except ValueError as problem:
            note = str(problem)
    return reading.degrees


def vectors():
    class Vec:
        def __init__(self, *parts):
            self.parts = list(parts)

        def __repr__(self):
            return f"Vec{tuple(self.parts)}"

        def __add__(self, other):
            summed = [a + b for a, b in zip(self.parts, other.parts)]
            return Vec(*summed)

        def __eq__(self, other):
            return isinstance(other, Vec) and self.parts == other.parts

        def __len__(self):
            return len(self.parts)

        def __iter__(self):
            yield from self.parts
    a = Vec(1, 2)
    b = Vec(3, 4)
    c = a + b
    same = c == Vec(4, 6)
    return c, same, len(c), list(c)


def animals():
    class Animal:
        def __init__(self, name):
            self.name = name

        def speak(self):
            return f"{self.name} makes a sound"

    class Dog(Animal):
        def __init__(self, name, trick):
            super().__init__(name)
            self.trick = trick

        def speak(self):
            base = super().speak()
            return base + f" and can {self.trick}"
    rex = Dog("Rex", "sit")
    said = rex.speak()
    return said, isinstance(rex, Animal)


def class_body(n):
    class Table:
        rows = []
        for i in range(n):
            rows.append(i * i)
        size = len(rows)
        del i
    return Table.rows, Table.size


def kinds():
    class Shape:
        count = 0

        @classmethod
        def make(cls):
            cls.count += 1
            return cls()

        @staticmethod
        def describe(sides):
            return f"{sides} sides"
    one = Shape.make()
    two = Shape.make()
    return Shape.count, Shape.describe(4), type(one) is type(two)


def records(names):
    @dataclasses.dataclass
    class Item:
        name: str
        qty: int = 1
    items = [Item(n, len(n)) for n in names]
    first = items[0]
    return first, items


def slotted():
    class Pair:
        __slots__ = ("left", "right")

        def __init__(self, left, right):
            self.left = left
            self.right = right
    p = Pair("L", "R")
    try:
        p.other = 1
    except AttributeError:
        failed = True
    return p.left + p.right, failed


def stack_machine(program):
    class Machine:
        def __init__(self):
            self.stack = []

        def run(self, ops):
            for op in ops:
                if isinstance(op, int):
                    self.stack.append(op)
                else:
                    right = self.stack.pop()
                    left = self.stack.pop()
                    self.stack.append(left + right if op == "+" else left * right)
            return self.stack[-1]
    machine = Machine()
    answer = machine.run(program)
    return answer, machine.stack
