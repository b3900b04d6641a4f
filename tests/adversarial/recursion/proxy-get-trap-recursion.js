// A proxy get trap that reads the same property through the proxy.
const p = new Proxy({}, { get(t, k, r) { return r[k]; } });
p.x
