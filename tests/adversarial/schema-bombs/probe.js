// The script of every schema bomb: the bomb is the template's inputSchema (or the values
// checked against it), so reaching this script at all is the interesting outcome.
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
