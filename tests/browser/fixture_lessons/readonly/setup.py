# The list the block is called with.
ITEMS = [1, 2, 3]
