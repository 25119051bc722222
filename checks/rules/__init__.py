"""One module per check, named for its key; each holds one pure function of the same name."""
