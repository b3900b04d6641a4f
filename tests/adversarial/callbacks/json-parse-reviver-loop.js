// An infinite loop inside a JSON.parse reviver.
JSON.parse('{"a": [1, 2, 3]}', (k, v) => { while (true) {} })
