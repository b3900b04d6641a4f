// An empty infinite while loop.
while (true) {}
