// A static import statement in a template script (scripts are not modules).
import fs from 'fs';
({vertices: [{type: 'probe', name: 'p', found: []}], edges: []})
