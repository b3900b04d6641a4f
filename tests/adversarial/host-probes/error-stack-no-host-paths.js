// Error stacks and messages of native errors must not reveal host file paths or Rust internals.
const found = [];
const texts = [];
try { null.x; } catch (e) { texts.push(String(e), String(e.stack)); }
try { user.getName.call.call(1); } catch (e) { texts.push(String(e), String(e.stack)); }
try { new Array(-1); } catch (e) { texts.push(String(e), String(e.stack)); }
for (const t of texts) if (/\.rs\b|\/home\/|\/work\/|cargo|src\//.test(t)) found.push(t);
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
