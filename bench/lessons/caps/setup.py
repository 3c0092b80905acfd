# Just under 5,000 steps for count_up: three statements per round.
ROUNDS = 1_650
