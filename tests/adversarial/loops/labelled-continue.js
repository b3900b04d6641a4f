// An endless outer loop driven only by labelled continue from an inner loop.
let i = 0;
outer: while (true) {
  for (let j = 0; j < 10; j++) {
    i++;
    continue outer;
  }
}
