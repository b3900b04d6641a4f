// typeof of every well-known host global must be "undefined".
const found = [];
if (typeof require !== 'undefined') found.push('require');
if (typeof process !== 'undefined') found.push('process');
if (typeof fetch !== 'undefined') found.push('fetch');
if (typeof WebAssembly !== 'undefined') found.push('WebAssembly');
if (typeof console !== 'undefined') found.push('console');
if (typeof setTimeout !== 'undefined') found.push('setTimeout');
if (typeof setInterval !== 'undefined') found.push('setInterval');
if (typeof queueMicrotask !== 'undefined') found.push('queueMicrotask');
if (typeof print !== 'undefined') found.push('print');
if (typeof Deno !== 'undefined') found.push('Deno');
if (typeof Bun !== 'undefined') found.push('Bun');
if (typeof module !== 'undefined') found.push('module');
if (typeof global !== 'undefined') found.push('global');
if (typeof window !== 'undefined') found.push('window');
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
