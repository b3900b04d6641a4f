// An endless loop with the loop limit effectively disabled must still be stopped by the deadline.
while (true) {}
