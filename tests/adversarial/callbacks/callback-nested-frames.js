// Loops spread over nested callback frames inside a native forEach: each frame stays under the loop limit, the deadline is never checked inside the native call.
[1].forEach(() => {
  for (;;) {
    [1].forEach(() => { let x = 0; for (let i = 0; i < 99990; i++) { x += i; } });
  }
});
