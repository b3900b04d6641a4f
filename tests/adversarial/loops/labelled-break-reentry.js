// A labelled block re-entered forever through an outer for(;;) with break to the label.
let i = 0;
for (;;) {
  block: {
    i++;
    if (i % 2) break block;
  }
}
