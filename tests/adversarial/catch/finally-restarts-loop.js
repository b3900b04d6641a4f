// A finally block that starts another infinite loop after the first one is stopped.
try { while (true) {} } finally { for (;;) {} }
