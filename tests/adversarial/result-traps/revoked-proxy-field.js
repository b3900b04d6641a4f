// A vertex field that is a revoked proxy.
const { proxy, revoke } = Proxy.revocable({}, {});
revoke();
({ vertices: [{ type: 't', name: 'v', evil: proxy }], edges: [] })
