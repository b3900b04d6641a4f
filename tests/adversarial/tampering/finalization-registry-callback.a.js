// Registers finalization callbacks that loop forever, over garbage.
const registry = new FinalizationRegistry(() => { while (true) {} });
for (let i = 0; i < 1000; i++) registry.register({ i }, i);
globalThis.keep = registry;
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
