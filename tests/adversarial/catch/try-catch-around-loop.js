// Catching the loop limit and retrying the loop forever.
for (;;) {
  try { while (true) {} } catch (e) { /* swallow and retry */ }
}
