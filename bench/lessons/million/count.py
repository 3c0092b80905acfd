def count_up(rounds):
    total = 0
    i = 0
    while i < rounds:
        total += i
        i += 1
    return total
