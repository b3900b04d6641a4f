//! The listener: accepts TCP connections and serves HTTP/1.1 on each with hyper, with the
//! connection hygiene `axum::serve` leaves to the program (issue 27):
//!
//! - a **header-read timeout** (hyper's own, with tokio's timer): a connection that has not sent
//!   a whole request head within it — since it was opened or since its previous answer, so
//!   idle keep-alive connections included — is closed;
//! - a **cap on open connections** below the descriptor limit (raised to its hard limit at
//!   start): at the cap, the connection idle the longest (no request in flight; one that is
//!   still sending its head counts as idle) is closed to make room, and when every connection
//!   is busy, a few more are accepted that answer only `GET /healthz` (anything else: 503);
//! - a listen backlog of its own (the kernel clamps it to `net.core.somaxconn`).
//!
//! The body-read timeout and the budget of request bodies held in memory are the router's
//! (`body.rs`), since they apply to whoever serves it. Settings: [`ConnectionConfig`].

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::ConnectInfo;
use axum::http::{Request, Response, StatusCode, header};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde::Deserialize;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{Notify, watch};
use tokio::task::JoinSet;
use tower::ServiceExt;

/// Settings of the connections (`connections` in the config file). Every timeout is in
/// milliseconds.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ConnectionConfig {
    /// A connection must send a whole request head (request line and headers) within this
    /// time of being opened or of its previous answer, else it is closed: this is also the
    /// idle keep-alive timeout. Default 30000.
    pub header_read_timeout_ms: u64,
    /// A request's whole body must arrive within this time of the handler starting to read it,
    /// else 408 and the connection is closed. Default 30000.
    pub body_read_timeout_ms: u64,
    /// A request must be answered (its status and headers sent) within this time of its head
    /// being read, else 503 with `Retry-After: 1` and its work is dropped; a dataset load,
    /// which streams its body, is outside it. Default 120000.
    pub request_timeout_ms: u64,
    /// Request bodies held in memory at once, over all connections, in bytes (a body counts for
    /// its `Content-Length`, or for the body limit when it has none); a request that would pass
    /// it is answered 503 with `Retry-After: 1` before its body is read. Default 128 MiB.
    pub max_buffered_body_bytes: usize,
    /// Open connections [default: three quarters of the descriptor limit, at most 16384].
    pub max_connections: Option<usize>,
    /// Connections accepted past the cap when none is idle, that answer only `GET /healthz`.
    /// Default 16.
    pub health_connections: usize,
    /// The listen backlog (the kernel clamps it to `net.core.somaxconn`). Default 4096.
    pub listen_backlog: u32,
}

impl Default for ConnectionConfig {
    fn default() -> Self {
        ConnectionConfig {
            header_read_timeout_ms: 30_000,
            body_read_timeout_ms: 30_000,
            request_timeout_ms: 120_000,
            max_buffered_body_bytes: 128 * 1024 * 1024,
            max_connections: None,
            health_connections: 16,
            listen_backlog: 4096,
        }
    }
}

impl ConnectionConfig {
    /// The cap on open connections: the configured one, else three quarters of `descriptors`
    /// (the process's descriptor limit), at most 16384 and at least 16.
    pub fn connection_cap(&self, descriptors: u64) -> usize {
        self.max_connections.unwrap_or_else(|| {
            let three_quarters = usize::try_from(descriptors / 4 * 3).unwrap_or(usize::MAX);
            three_quarters.clamp(16, 16_384)
        })
    }
}

/// Raises the soft descriptor limit to the hard one (as servers do: the soft default of 1024
/// is a shell's, not a service's) and returns it.
pub(crate) fn raise_descriptor_limit() -> u64 {
    #[cfg(unix)]
    {
        match rlimit::increase_nofile_limit(u64::MAX) {
            Ok(limit) => limit,
            Err(error) => {
                tracing::warn!(target: "jobgraph::server", %error, "cannot read or raise the descriptor limit; assuming 1024");
                1024
            }
        }
    }
    #[cfg(not(unix))]
    {
        8192
    }
}

/// Binds `addr` with the configured backlog.
pub(crate) fn bind(addr: SocketAddr, config: &ConnectionConfig) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(config.listen_backlog.max(1))
}

/// One open connection, as the cap sees it.
struct Connection {
    /// Requests in flight (from the head read to the end of the answer's body).
    busy: AtomicUsize,
    /// When it last finished an answer (or was opened), in ms since the registry's start.
    idle_since_ms: AtomicU64,
    /// Notified when the cap closes it.
    close: Notify,
}

/// The open connections.
struct Registry {
    start: Instant,
    next_id: AtomicU64,
    open: Mutex<HashMap<u64, Arc<Connection>>>,
    health_only: AtomicUsize,
}

impl Registry {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Makes room for one more connection under `cap`: closes the connection idle the longest
    /// when the cap is reached. Returns `None` when every open connection is busy.
    fn admit(&self, cap: usize) -> Option<(u64, Arc<Connection>)> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if open.len() >= cap {
            let idlest = open
                .iter()
                .filter(|(_, c)| c.busy.load(Ordering::Acquire) == 0)
                .min_by_key(|(_, c)| c.idle_since_ms.load(Ordering::Relaxed))
                .map(|(id, _)| *id)?;
            if let Some(evicted) = open.remove(&idlest) {
                evicted.close.notify_one();
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let connection = Arc::new(Connection {
            busy: AtomicUsize::new(0),
            idle_since_ms: AtomicU64::new(self.now_ms()),
            close: Notify::new(),
        });
        open.insert(id, Arc::clone(&connection));
        Some((id, connection))
    }

    fn leave(&self, id: u64) {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
    }
}

/// Counts a request in flight on its connection until dropped (with the answer's body).
struct InFlight {
    connection: Arc<Connection>,
    registry: Arc<Registry>,
}

impl InFlight {
    fn new(connection: &Arc<Connection>, registry: &Arc<Registry>) -> Self {
        connection.busy.fetch_add(1, Ordering::AcqRel);
        InFlight {
            connection: Arc::clone(connection),
            registry: Arc::clone(registry),
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.connection
            .idle_since_ms
            .store(self.registry.now_ms(), Ordering::Relaxed);
        self.connection.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// An answer's body that keeps its request counted as in flight until it is sent or dropped.
struct Counted {
    body: Body,
    _in_flight: InFlight,
}

impl HttpBody for Counted {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The 503 of a health-only connection asked for anything but `/healthz`.
fn health_only_refusal() -> Response<Body> {
    let body = serde_json::json!({
        "error": "the service is at its connection cap and every connection is busy; only /healthz is answered on this one: retry shortly",
        "message": "the service is at its connection cap and every connection is busy; only /healthz is answered on this one: retry shortly",
    });
    let mut response = Response::new(Body::from(body.to_string()));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    headers.insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
    headers.insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
}

/// Serves `router` on `listener` until `shutdown` completes, then lets the requests in flight
/// finish (idle connections are closed at once), as `axum::serve`'s graceful shutdown does.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    config: &ConnectionConfig,
    descriptors: u64,
    shutdown: impl Future<Output = ()>,
) {
    let cap = config.connection_cap(descriptors);
    let health_cap = config.health_connections;
    let header_timeout = Duration::from_millis(config.header_read_timeout_ms.max(1));
    let registry = Arc::new(Registry {
        start: Instant::now(),
        next_id: AtomicU64::new(0),
        open: Mutex::new(HashMap::new()),
        health_only: AtomicUsize::new(0),
    });
    let (stop, stopping) = watch::channel(false);
    let mut tasks = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // EMFILE and the like: the cap keeps us below the limit, but another part
                    // of the process may hold descriptors; back off instead of spinning.
                    tracing::warn!(target: "jobgraph::server", %error, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let (slot, health_only) = match registry.admit(cap) {
            Some(slot) => (Some(slot), false),
            None if registry.health_only.load(Ordering::Acquire) < health_cap => {
                registry.health_only.fetch_add(1, Ordering::AcqRel);
                (None, true)
            }
            None => {
                tracing::warn!(target: "jobgraph::server", %peer, cap, "connection cap reached, every connection busy: connection closed");
                continue;
            }
        };
        let router = router.clone();
        let registry = Arc::clone(&registry);
        let mut stopping = stopping.clone();
        tasks.spawn(async move {
            let connection = slot.as_ref().map(|(_, c)| Arc::clone(c));
            let service_registry = Arc::clone(&registry);
            let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
                let router = router.clone();
                let counted = connection
                    .as_ref()
                    .map(|c| InFlight::new(c, &service_registry));
                async move {
                    if health_only && request.uri().path() != "/healthz" {
                        return Ok::<_, Infallible>(health_only_refusal());
                    }
                    request.extensions_mut().insert(ConnectInfo(peer));
                    let response = match router.oneshot(request).await {
                        Ok(response) => response,
                        Err(never) => match never {},
                    };
                    Ok(match counted {
                        Some(in_flight) => response.map(|body| {
                            Body::new(Counted {
                                body,
                                _in_flight: in_flight,
                            })
                        }),
                        None => response,
                    })
                }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .keep_alive(!health_only);
            let served = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(served);
            {
                let closed_by_cap = async {
                    match &slot {
                        Some((_, connection)) => connection.close.notified().await,
                        None => std::future::pending().await,
                    }
                };
                let stop_asked = async {
                    let _ = stopping.wait_for(|stop| *stop).await;
                };
                let graceful = tokio::select! {
                    _ = served.as_mut() => false,
                    () = closed_by_cap => false,
                    () = stop_asked => true,
                };
                if graceful {
                    served.as_mut().graceful_shutdown();
                    let _ = served.await;
                }
            }
            match slot {
                Some((id, _)) => registry.leave(id),
                None => {
                    registry.health_only.fetch_sub(1, Ordering::AcqRel);
                }
            }
        });
    }
    drop(listener);
    let _ = stop.send(true);
    while tasks.join_next().await.is_some() {}
}
