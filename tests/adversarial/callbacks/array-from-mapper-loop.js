// An infinite loop inside an Array.from mapper.
Array.from([1, 2], () => { for (;;) {} })
