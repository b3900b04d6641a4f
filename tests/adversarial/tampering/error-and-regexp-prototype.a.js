// Replaces Error.prototype.toString, RegExp.prototype.exec and String.prototype.replace.
Error.prototype.toString = () => 'evil';
RegExp.prototype.exec = () => null;
String.prototype.replace = () => 'evil';
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
