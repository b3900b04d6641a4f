// Walks .caller and arguments.callee from callbacks invoked by the host and by built-ins.
const found = [];
function cb() {
  try { const c = cb.caller; if (c !== null && c !== undefined && c !== top) found.push('caller:' + typeof c); } catch (e) { }
  return 0;
}
function top() { [1].map(cb); [2, 1].sort(cb); return 1; }
top();
try { const c = user.getName.caller; if (c) found.push('native-caller'); } catch (e) { }
try { const a = user.getName.arguments; if (a) found.push('native-arguments'); } catch (e) { }
({vertices: [{type: 'probe', name: 'p', found: found}], edges: []})
