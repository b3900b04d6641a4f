// JSON.stringify of a 10-million-element array in one native call.
JSON.stringify(new Array(1e7).fill(12345)).length
