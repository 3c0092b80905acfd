def spin(n):
    while True:
        n += 1


def one_line():
    while True: pass

