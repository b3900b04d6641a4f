// Exotic objects (Map, typed array, Date, boxed string, RegExp) as vertex fields: none of their hooks run, each reads as {}.
({ vertices: [{ type: 't', name: 'v', m: new Map([[1, 2]]), ta: new Uint8Array(3), d: new Date(0), s: new String('ab'), r: /x/g }], edges: [] })
