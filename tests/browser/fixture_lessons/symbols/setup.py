# The fixture needs no stubs: the scenario line above is all the setup.
