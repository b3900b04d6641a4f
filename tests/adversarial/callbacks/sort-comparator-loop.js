// An infinite loop inside a sort comparator.
[3, 1, 2].sort((a, b) => { while (true) {} })
