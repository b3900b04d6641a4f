// A looping getter triggered by JSON.stringify.
JSON.stringify({ get x() { while (true) {} } })
