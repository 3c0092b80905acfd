class Meter:
    def __init__(self, name):
        self.name = name
        self.note = None

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        print(f"<meter {self.name}>", self.note)
        return False

    def __repr__(self):
        return f"Meter(<{self.name}>)"


SCRIPT = [("<i>plan</i>", 3), ("skip", -1), ("read & check", 4), ("write", 5)]
BUDGET = 9 if scenario == "over" else 100
