// A vertex field holding a BigInt.
({ vertices: [{ type: 't', name: 'v', big: 10n ** 30n }], edges: [] })
