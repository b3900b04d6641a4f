// An empty infinite for(;;) loop.
for (;;) {}
