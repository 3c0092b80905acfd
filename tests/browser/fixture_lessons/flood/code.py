def flood(lines):
    print("start")
    for i in range(lines):
        print("x" * 1000)
    return lines
