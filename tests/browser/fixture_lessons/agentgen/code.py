def run_turns(script, budget):
    spent = 0
    for turn, cost in script:
        with Meter(turn) as meter:
            try:
                if cost < 0:
                    continue
                spent += cost
                meter.note = f"<b>{turn}</b> costs {cost}"
            finally:
                print("turn", turn, "spent", spent)
        if spent > budget:
            raise RuntimeError(f"<budget> exceeded: {spent} > {budget}")
        yield turn, spent
