def report(rows):
    print("report")
    for n in range(rows):
        print(f"{n:>6} " + "=" * 993)
    return rows
