# Nothing to set up: the block's function prints by itself.
