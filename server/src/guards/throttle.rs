//! How much secret verification the token endpoint may be made to do (issue 24): budgets of
//! verifications per source address and per client id (GCRA, `governor`'s keyed limiters,
//! memory bounded), and the (client id, address) pairs that got a token before, which a
//! guesser of that client id cannot hold back. `docs/api.md` ("Token endpoint: throttling")
//! states the policy.

use std::net::{IpAddr, SocketAddr};
use std::num::{NonZeroU32, NonZeroUsize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use lru::LruCache;
use serde::Deserialize;

use crate::error::ApiError;
use crate::guards::hash_pool::Lane;
use crate::guards::token_cache::sha256;

/// Settings of the token endpoint's throttling (`tokenThrottle` in the config file).
/// A budget of `burst` verifications that refills by one every `period_ms`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct TokenThrottleConfig {
    /// Verifications one source address (IPv4 address, IPv6 /64) may start at once. Default 30.
    pub address_burst: u32,
    /// Milliseconds after which an address may start one more. Default 2000.
    pub address_period_ms: u64,
    /// Verifications one client id may start at once from addresses it never got a token
    /// from. Default 20.
    pub client_burst: u32,
    /// Milliseconds after which a client id may start one more. Default 3000.
    pub client_period_ms: u64,
    /// Threads that verify secrets [default: a quarter of the cores, at least 1, always fewer
    /// than the cores when there are two or more].
    pub hash_threads: Option<usize>,
    /// Verifications that may wait for a thread; one more is a 429. Default 16.
    pub hash_queue: usize,
    /// Milliseconds a refused request (a 429 of this endpoint) waits before it is answered, so
    /// that a guesser's connections send a few requests a second, not thousands: costs the
    /// service a timer, no thread. Default 1000.
    pub refusal_delay_ms: u64,
    /// Addresses or networks (`10.0.0.2`, `10.0.0.0/8`, `fd00::/8`) of the reverse proxies in
    /// front of the service: for a request from one of
    /// them, the client's address is the last `X-Forwarded-For` entry that is not one of them.
    /// Default none (the peer's address, whatever the header says).
    pub trusted_proxies: Vec<Network>,
}

/// An address or a network (`ADDRESS/PREFIX`), as `trustedProxies` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    address: IpAddr,
    prefix: u8,
}

impl Network {
    /// Whether `ip` is in the network (IPv4-mapped IPv6 addresses as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let bits = |ip: IpAddr| match ip.to_canonical() {
            IpAddr::V4(v4) => (u128::from(u32::from(v4)) << 96, 32),
            IpAddr::V6(v6) => (u128::from(v6), 128),
        };
        let ((net, net_len), (other, other_len)) = (bits(self.address), bits(ip));
        let prefix = u32::from(self.prefix);
        let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
        net_len == other_len && net & mask == other & mask
    }
}

impl std::str::FromStr for Network {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let invalid = || {
            format!(
                "{text:?} is not an address or a network (e.g. \"10.0.0.2\", \"10.0.0.0/8\", \"fd00::/8\")"
            )
        };
        let (address, prefix) = text
            .split_once('/')
            .map_or((text, None), |(a, p)| (a, Some(p)));
        let address = address
            .trim()
            .parse::<IpAddr>()
            .map_err(|_| invalid())?
            .to_canonical();
        let max = if address.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(invalid)?,
        };
        Ok(Network { address, prefix })
    }
}

impl<'de> Deserialize<'de> for Network {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Default for TokenThrottleConfig {
    fn default() -> Self {
        TokenThrottleConfig {
            address_burst: 30,
            address_period_ms: 2000,
            client_burst: 20,
            client_period_ms: 3000,
            hash_threads: None,
            hash_queue: 16,
            refusal_delay_ms: 1000,
            trusted_proxies: Vec::new(),
        }
    }
}

impl TokenThrottleConfig {
    /// The verifying threads: the setting, else a quarter of the cores; never every core of a
    /// machine with two or more.
    pub fn threads(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let wanted = self.hash_threads.unwrap_or(cores / 4).max(1);
        if cores >= 2 { wanted.min(cores - 1) } else { 1 }
    }
}

/// A source address as the budgets key it: IPv6 by its /64 (one host may hold a whole /64).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum AddressKey {
    V4([u8; 4]),
    V6([u8; 8]),
    /// No address known (a router mounted without connection info).
    Unknown,
    /// Every address while the table is full.
    Overflow,
}

pub(crate) fn address_key(address: Option<IpAddr>) -> AddressKey {
    match address.map(|a| a.to_canonical()) {
        Some(IpAddr::V4(v4)) => AddressKey::V4(v4.octets()),
        Some(IpAddr::V6(v6)) => {
            let mut prefix = [0u8; 8];
            prefix.copy_from_slice(&v6.octets()[..8]);
            AddressKey::V6(prefix)
        }
        None => AddressKey::Unknown,
    }
}

/// A client id as the budgets key it: a fixed size whatever the id sent.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum ClientKey {
    Id([u8; 16]),
    Overflow,
}

pub(crate) fn client_key(client_id: &str) -> ClientKey {
    let mut key = [0u8; 16];
    key.copy_from_slice(&sha256(client_id)[..16]);
    ClientKey::Id(key)
}

/// Most keys a budget table holds; past it (after dropping the keys back at a full budget),
/// new keys share one budget, so that varied or spoofed keys cannot grow memory.
const MAX_KEYS: usize = 100_000;
/// Most (client, address) pairs remembered as having got a token.
const MAX_TRUSTED: usize = 100_000;

/// A keyed budget whose table stays under [`MAX_KEYS`].
pub(crate) struct Budget<K: std::hash::Hash + Eq + Clone> {
    limiter: DefaultKeyedRateLimiter<K>,
    overflow: K,
    started: Instant,
    /// Milliseconds after `started` of the last sweep (at most one a second; `u64::MAX`:
    /// none yet).
    last_sweep_ms: AtomicU64,
}

impl<K: std::hash::Hash + Eq + Clone> Budget<K> {
    pub(crate) fn new(burst: u32, period_ms: u64, overflow: K) -> Self {
        let period = Duration::from_millis(period_ms.max(1));
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::with_period(period)
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst);
        Budget {
            limiter: RateLimiter::keyed(quota),
            overflow,
            started: Instant::now(),
            last_sweep_ms: AtomicU64::new(u64::MAX),
        }
    }

    /// Takes one verification from `key`'s budget, or says how long until there is one.
    pub(crate) fn take(&self, key: K) -> Result<(), Duration> {
        let key = if self.limiter.len() >= MAX_KEYS && !self.sweep() {
            self.overflow.clone()
        } else {
            key
        };
        self.limiter
            .check_key(&key)
            .map_err(|not_until| not_until.wait_time_from(self.limiter.clock().now()))
    }

    /// Drops the keys whose budget is full again; whether the table has room now.
    fn sweep(&self) -> bool {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let last = self.last_sweep_ms.load(Ordering::Relaxed);
        if (last == u64::MAX || now.saturating_sub(last) >= 1000)
            && self
                .last_sweep_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        self.limiter.len() < MAX_KEYS
    }
}

/// Why a token request was not verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The source address spent its budget.
    Address(Duration),
    /// The client id spent its budget (from addresses it never got a token from).
    Client(Duration),
}

/// The token endpoint's budgets and the pairs that got a token.
pub(crate) struct TokenThrottle {
    addresses: Budget<AddressKey>,
    clients: Budget<ClientKey>,
    trusted: Mutex<LruCache<(ClientKey, AddressKey), ()>>,
    proxies: Vec<Network>,
}

impl TokenThrottle {
    pub(crate) fn new(config: &TokenThrottleConfig) -> Self {
        TokenThrottle {
            addresses: Budget::new(
                config.address_burst,
                config.address_period_ms,
                AddressKey::Overflow,
            ),
            clients: Budget::new(
                config.client_burst,
                config.client_period_ms,
                ClientKey::Overflow,
            ),
            trusted: Mutex::new(LruCache::new(
                NonZeroUsize::new(MAX_TRUSTED).unwrap_or(NonZeroUsize::MIN),
            )),
            proxies: config.trusted_proxies.clone(),
        }
    }

    /// The client's address of `request`: [`Self::client_address`] over the connection's
    /// peer (`ConnectInfo`) and the request's headers.
    pub(crate) fn request_address(&self, request: &axum::extract::Request) -> Option<IpAddr> {
        let peer = request
            .extensions()
            .get::<axum::extract::ConnectInfo<SocketAddr>>()
            .map(|info| info.0);
        self.client_address(peer, request.headers())
    }

    /// The client's address: the peer's, or behind a trusted proxy the last `X-Forwarded-For`
    /// entry that is not a trusted proxy (entries further left are the client's to write).
    pub(crate) fn client_address(
        &self,
        peer: Option<SocketAddr>,
        headers: &HeaderMap,
    ) -> Option<IpAddr> {
        let peer = peer?.ip().to_canonical();
        let is_proxy = |ip: IpAddr| self.proxies.iter().any(|n| n.contains(ip));
        if !is_proxy(peer) {
            return Some(peer);
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        for entry in forwarded.iter().rev() {
            match entry.parse::<IpAddr>() {
                Ok(ip) if is_proxy(ip) => continue,
                Ok(ip) => return Some(ip.to_canonical()),
                // Not an address: the proxy's view ends here; count the proxy itself.
                Err(_) => return Some(peer),
            }
        }
        Some(peer)
    }

    /// Whether a verification of `client_id`'s secret from `address` may start: takes one from
    /// the address's budget, then (unless the pair got a token before) from the client id's.
    /// Says in which queue the verification waits.
    pub(crate) fn admit(&self, client_id: &str, address: Option<IpAddr>) -> Result<Lane, Refusal> {
        let address = address_key(address);
        self.addresses.take(address).map_err(Refusal::Address)?;
        let client = client_key(client_id);
        let trusted = self
            .trusted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(client, address))
            .is_some();
        if trusted {
            return Ok(Lane::Known);
        }
        self.clients.take(client).map_err(Refusal::Client)?;
        Ok(Lane::Other)
    }

    /// Remembers that `client_id` got a token from `address`.
    pub(crate) fn succeeded(&self, client_id: &str, address: Option<IpAddr>) {
        self.trusted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .put((client_key(client_id), address_key(address)), ());
    }
}

/// At most 64 characters of a client id for the log (it is the caller's text; `?` escapes it).
pub(crate) fn shown(client_id: &str) -> &str {
    client_id
        .char_indices()
        .nth(64)
        .map_or(client_id, |(end, _)| &client_id[..end])
}

pub(crate) fn shown_address(address: Option<IpAddr>) -> String {
    address.map_or_else(|| "unknown".to_owned(), |a| a.to_string())
}

/// The 429 of a request over a budget (logged without the secret).
pub(crate) fn throttled(refusal: Refusal, client_id: &str, address: Option<IpAddr>) -> ApiError {
    let seconds = |wait: Duration| wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let (what, wait) = match refusal {
        Refusal::Address(wait) => ("from this address", wait),
        Refusal::Client(wait) => ("for this client id from new addresses", wait),
    };
    let retry_after = seconds(wait).max(1);
    tracing::debug!(
        target: "jobgraph::auth",
        client_id = ?shown(client_id),
        address = %shown_address(address),
        retry_after,
        "token request throttled {what}"
    );
    ApiError::SlowDown {
        description: format!(
            "too many token requests {what}: retry after {retry_after} s (RFC 6749 §10.10; see the service's docs/api.md)"
        ),
        retry_after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(address_burst: u32, client_burst: u32) -> TokenThrottleConfig {
        TokenThrottleConfig {
            address_burst,
            address_period_ms: 3_600_000,
            client_burst,
            client_period_ms: 3_600_000,
            ..TokenThrottleConfig::default()
        }
    }

    fn ip(text: &str) -> Option<IpAddr> {
        text.parse().ok()
    }

    #[test]
    fn an_address_runs_out_whatever_the_client_id() {
        let t = TokenThrottle::new(&config(3, 100));
        for id in ["a", "b", "c"] {
            assert_eq!(t.admit(id, ip("10.0.0.1")), Ok(Lane::Other));
        }
        assert!(matches!(
            t.admit("d", ip("10.0.0.1")),
            Err(Refusal::Address(wait)) if wait > Duration::from_secs(3000)
        ));
        assert_eq!(t.admit("d", ip("10.0.0.2")), Ok(Lane::Other));
        // An IPv6 /64 is one address; the next /64 is another.
        assert_eq!(t.admit("a", ip("2001:db8::1")), Ok(Lane::Other));
        assert_eq!(t.admit("a", ip("2001:db8::2")), Ok(Lane::Other));
        assert_eq!(t.admit("a", ip("2001:db8::3")), Ok(Lane::Other));
        assert!(t.admit("a", ip("2001:db8::ffff")).is_err());
        assert_eq!(t.admit("a", ip("2001:db8:0:1::1")), Ok(Lane::Other));
        // An IPv4-mapped IPv6 address is the IPv4 address.
        assert!(t.admit("a", ip("::ffff:10.0.0.1")).is_err());
    }

    #[test]
    fn a_client_id_runs_out_except_where_it_got_a_token() {
        let t = TokenThrottle::new(&config(100, 2));
        t.succeeded("alice", ip("10.0.0.9"));
        assert_eq!(t.admit("alice", ip("10.0.0.1")), Ok(Lane::Other));
        assert_eq!(t.admit("alice", ip("10.0.0.2")), Ok(Lane::Other));
        assert!(matches!(
            t.admit("alice", ip("10.0.0.3")),
            Err(Refusal::Client(_))
        ));
        // Where alice got a token before, she still may; other ids are not affected.
        assert_eq!(t.admit("alice", ip("10.0.0.9")), Ok(Lane::Known));
        assert_eq!(t.admit("bob", ip("10.0.0.3")), Ok(Lane::Other));
    }

    #[test]
    fn the_tables_stay_bounded_under_varied_keys() {
        let t = TokenThrottle::new(&config(1, 1));
        for n in 0..(MAX_KEYS as u32 + 10) {
            let address = IpAddr::from((n + 1).to_be_bytes());
            let _ = t.admit(&format!("id-{n}"), Some(address));
        }
        assert!(t.addresses.limiter.len() <= MAX_KEYS + 1);
        assert!(t.clients.limiter.len() <= MAX_KEYS + 1);
        // Past the bound, new addresses share one budget: the first is admitted, not the next.
        assert!(
            t.admit("x", ip("192.0.2.1")).is_ok() as u8
                + t.admit("y", ip("192.0.2.2")).is_ok() as u8
                <= 1
        );
    }

    #[test]
    fn networks() {
        let net = |t: &str| t.parse::<Network>().unwrap();
        let addr = |t: &str| t.parse::<IpAddr>().unwrap();
        assert!(net("10.0.0.0/8").contains(addr("10.200.1.1")));
        assert!(!net("10.0.0.0/8").contains(addr("11.0.0.1")));
        assert!(net("10.0.0.0/8").contains(addr("::ffff:10.0.0.1")));
        assert!(net("10.0.0.2").contains(addr("10.0.0.2")));
        assert!(!net("10.0.0.2").contains(addr("10.0.0.3")));
        assert!(net("fd00::/8").contains(addr("fd12::1")));
        assert!(!net("fd00::/8").contains(addr("10.0.0.1")));
        assert!(net("0.0.0.0/0").contains(addr("1.2.3.4")));
        assert!(!net("0.0.0.0/0").contains(addr("::1")));
        for bad in ["10.0.0.0/33", "nope", "10.0.0.0/x", "fd00::/129"] {
            assert!(bad.parse::<Network>().is_err(), "{bad}");
        }
        let config: TokenThrottleConfig =
            serde_json::from_str(r#"{"trustedProxies": ["10.0.0.0/8"]}"#).unwrap();
        assert_eq!(config.trusted_proxies, vec![net("10.0.0.0/8")]);
        assert!(
            serde_json::from_str::<TokenThrottleConfig>(r#"{"trustedProxies": ["x"]}"#).is_err()
        );
    }

    #[test]
    fn forwarded_for_is_read_only_from_trusted_proxies() {
        let proxy: IpAddr = "10.1.1.1".parse().unwrap_or(IpAddr::from([0, 0, 0, 0]));
        let t = TokenThrottle::new(&TokenThrottleConfig {
            trusted_proxies: vec!["10.1.0.0/16".parse().unwrap()],
            ..TokenThrottleConfig::default()
        });
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "6.6.6.6, 203.0.113.7, 10.1.2.3".parse().unwrap(),
        );
        let from = |ip: IpAddr, headers: &HeaderMap| {
            t.client_address(Some(SocketAddr::new(ip, 4000)), headers)
        };
        assert_eq!(from(proxy, &headers), ip("203.0.113.7"));
        let other: IpAddr = [192, 0, 2, 5].into();
        assert_eq!(from(other, &headers), Some(other));
        headers.insert("x-forwarded-for", "nonsense".parse().unwrap());
        assert_eq!(from(proxy, &headers), Some(proxy));
        assert_eq!(t.client_address(None, &headers), None);
    }
}
