// A String object (boxed) as the final expression whose toString loops.
const s = new String('{"vertices": [{"type": "t", "name": "v"}], "edges": []}');
s.toString = () => { while (true) {} };
s.valueOf = () => { while (true) {} };
s
