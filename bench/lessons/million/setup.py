# Three statements per round (the loop test, two assignments), plus call and return.
ROUNDS = 333_333
