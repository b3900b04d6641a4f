// Promise jobs that would loop forever are queued; the script must still finish, since jobs never run.
Promise.resolve().then(() => { while (true) {} });
(async () => { await null; for (;;) {} })();
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
