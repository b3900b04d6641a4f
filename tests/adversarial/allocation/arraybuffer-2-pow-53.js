// An ArrayBuffer of 2^53 - 1 bytes.
new ArrayBuffer(2 ** 53 - 1).byteLength
