// A JSON text result nested 100000 levels deep.
'{"vertices": [{"type": "t", "name": "v", "payload": ' + '['.repeat(100000) + ']'.repeat(100000) + '}], "edges": []}'
