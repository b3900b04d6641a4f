// Three nested loops of 10^4 iterations each (10^12 in all): the loop count is per call frame, so the inner loops add up.
let n = 0;
for (let i = 0; i < 1e4; i++) {
  for (let j = 0; j < 1e4; j++) {
    for (let k = 0; k < 1e4; k++) { n++; }
  }
}
