// One 2 GiB ArrayBuffer allocation.
new ArrayBuffer(2 ** 31).byteLength
