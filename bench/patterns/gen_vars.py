"""The variables of generate.py's systems (gen_systems.py): value pools, the generator state
(`Gen`: seeded random source, clock, hosts) and VARS, which maps a variable's name in a
template to the function that draws its value for one line.
"""
from __future__ import annotations

import datetime
import random
import string

MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
         "mallory", "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter",
         "svc-backup", "j.smith", "deploy", "admin", "m.garcia", "li.wei", "o.brien",
         "ana-maria", "ubuntu", "ec2-user", "jenkins", "k.nakamura", "www-data", "sam",
         "priya", "noor", "tomasz", "ci-runner", "reporting", "etl_loader", "app_rw"]
WORDS = ["blue", "red", "green", "cotton", "wool", "shirt", "hat", "boots", "lamp", "desk",
         "chair", "mug", "kettle", "linen", "oak", "steel", "travel", "winter", "summer",
         "classic", "slim", "large", "mini", "pro", "eco", "soft", "vintage"]
SEARCH = ["red shoes", "desk lamp", "usb c cable", "winter jacket men", "coffee",
          "noise cancelling headphones", "gift card", "kids rain boots size 30", "mug",
          "standing desk with drawers", "linen shirt", "4k monitor"]
UAS = ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
       "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0",
       "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
       "curl/8.5.0", "kube-probe/1.31", "Go-http-client/1.1", "python-requests/2.32.3",
       "Prometheus/2.54.1", "Googlebot/2.1 (+http://www.google.com/bot.html)",
       "okhttp/4.12.0", "ShopApp/5.2.1 (Android 14; Pixel 8)"]
UNITS = ["Daily apt upgrade and clean activities", "Cleanup of Temporary Directories",
         "Rotate log files", "Daily man-db regeneration", "Message of the Day",
         "Refresh fwupd metadata and update motd", "Discard unused blocks once a week",
         "Docker Application Container Engine", "containerd container runtime",
         "Certbot", "Session c12 of User ubuntu", "User Manager for UID 1000",
         "apt-daily.service", "logrotate.service", "Time & Date Service"]
CANCEL = ["payment declined", "out of stock", "customer request",
          "address could not be verified by carrier", "fraud check failed", "timeout"]
SQL = ["SELECT * FROM orders WHERE id = {n}",
       "SELECT o.id, o.total FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.email = '{email}' ORDER BY o.created_at DESC LIMIT 20",
       "UPDATE inventory SET reserved = reserved + {k} WHERE sku = '{sku}'",
       "INSERT INTO events (id, kind, payload) VALUES ('{uuid}', 'order_placed', '{{}}')",
       "DELETE FROM sessions WHERE expires_at < now()",
       "SELECT count(*) FROM products WHERE category_id = {k} AND active",
       "COMMIT", "BEGIN",
       "SELECT p.* FROM products p WHERE p.name ILIKE '%{word}%' AND p.price BETWEEN {k} AND {n}"]
APPS = ["psql", "PostgreSQL JDBC Driver", "pgbouncer", "orders-api", "metabase", "pg_dump"]
SUDO = ["/usr/bin/systemctl restart nginx", "/usr/bin/apt-get update",
        "/usr/bin/tail -n 200 /var/log/syslog", "/usr/bin/docker ps -a",
        "/bin/journalctl -u kubelet --since today --no-pager", "/usr/sbin/reboot",
        "/usr/bin/vim /etc/hosts"]
SCOPES = ["read", "read write", "orders:read orders:write", "openid profile email",
          "admin", "reports:read catalog:read catalog:write inventory:read"]
CRONCMD = ["/usr/local/bin/backup.sh", "php /var/www/app/artisan schedule:run",
           "/usr/bin/certbot renew --quiet", "[ -x /usr/lib/php/sessionclean ] && /usr/lib/php/sessionclean",
           "/opt/etl/bin/run --job nightly --since yesterday"]
NAMESPACES = ["default", "kube-system", "shop", "payments", "monitoring", "ingress-nginx",
              "cert-manager", "data"]
DEPLOYS = ["orders-api", "checkout", "cart", "catalog", "web", "redis", "worker",
           "prometheus", "grafana", "coredns", "ingress-nginx-controller", "search"]
IMAGES = ["registry.example.com/shop/orders-api:v{ver}", "docker.io/library/redis:7.4.1",
          "ghcr.io/example/checkout:{hex7}", "quay.io/prometheus/prometheus:v2.54.1",
          "registry.k8s.io/coredns/coredns:v1.11.3"]
TABLES = ["orders", "order_items", "customers", "products", "inventory", "sessions",
          "events", "payments", "audit_log"]
SAML_ERR = ["signature invalid", "assertion expired", "audience mismatch",
            "NotOnOrAfter condition not met", "unknown issuer"]


class Gen:
    """A system's state while generating: the seeded random source and its clock."""

    def __init__(self, rng: random.Random, system: str):
        self.rng = rng
        self.t = datetime.datetime(2026, 11, 20, 6, 0, 0) + datetime.timedelta(
            seconds=rng.randint(0, 3600))
        self.hosts = [f"{p}-{rng.randint(1, 40):02d}" for p in ("web", "app", "db", "node")]
        self.pid = rng.randint(900, 60000)
        self.uptime = rng.uniform(100, 900000)

    def tick(self) -> None:
        step = self.rng.expovariate(2.0)
        self.t += datetime.timedelta(seconds=step, microseconds=self.rng.randint(0, 999))
        self.uptime += step

    # helpers used by VARS
    def r(self, a: int, b: int) -> str:
        return str(self.rng.randint(a, b))

    def hexs(self, n: int) -> str:
        return "".join(self.rng.choice("0123456789abcdef") for _ in range(n))

    def ip(self) -> str:
        r = self.rng
        if r.random() < 0.6:
            return f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"
        return f"{r.randint(11, 223)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"

    def user(self) -> str:
        if self.rng.random() < 0.15:
            return f"user{self.rng.randint(100, 99999)}"
        return self.rng.choice(USERS)

    def uuid(self) -> str:
        h = self.hexs(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{self.rng.choice('89ab')}{h[17:20]}-{h[20:]}"

    def pod(self) -> str:
        return f"{self.rng.choice(DEPLOYS)}-{self.hexs(self.rng.choice((9, 10)))}-{self.b36(5)}"

    def b36(self, n: int) -> str:
        return "".join(self.rng.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(n))

    def godur(self) -> str:
        r = self.rng
        k = r.random()
        if k < 0.3:
            return f"{r.uniform(1, 999):.3f}µs"
        if k < 0.8:
            return f"{r.uniform(1, 999):.6f}ms"
        return f"{r.uniform(1, 59):.6f}s"

    def fill(self, s: str) -> str:
        """Fills a pool entry's own placeholders ({n} {k} {email} {sku} {uuid} {word} ...)."""
        return (s.replace("{n}", self.r(1, 999999)).replace("{k}", self.r(1, 50))
                .replace("{email}", self.email()).replace("{sku}", self.sku())
                .replace("{uuid}", self.uuid()).replace("{word}", self.rng.choice(WORDS))
                .replace("{ver}", f"1.{self.r(0, 30)}.{self.r(0, 9)}").replace("{hex7}", self.hexs(7))
                .replace("{{}}", "{}"))

    def email(self) -> str:
        u = self.user().replace("_", ".")
        return f"{u}@{self.rng.choice(['example.com', 'mail.example.org', 'gmail.com', 'corp.example.net'])}"

    def sku(self) -> str:
        return f"{self.rng.choice('ABCDEFGHKMNPRSTX')}{self.rng.choice('ABCDEFGHKMNPRSTX')}-{self.r(1000, 99999)}"

    def path(self) -> str:
        r = self.rng
        depth = r.randint(1, 5)
        parts = [r.choice(["var", "srv", "opt", "home", "data", "tmp", "etc"])]
        for _ in range(depth - 1):
            parts.append(r.choice(["app", "lib", "cache", "uploads", "2026", "11", "shop", "conf.d",
                                   f"batch-{r.randint(1, 99)}", r.choice(USERS), "current"]))
        name = r.choice([f"{r.choice(WORDS)}.json", f"part-{r.randint(0, 9999):05d}.parquet",
                         "config.yaml", f"{self.hexs(12)}.tmp", "index.db"])
        return "/" + "/".join(parts + [name])


def _clf(g: Gen) -> str:
    t = g.t
    return f"{t.day:02d}/{MONTHS[t.month - 1]}/{t.year}:{t:%H:%M:%S} +0000"


def _words(g: Gen) -> str:
    return "-".join(g.rng.sample(WORDS, g.rng.randint(1, 4)))


def _bytes_h(g: Gen) -> str:
    v = g.rng.lognormvariate(10, 3)
    for unit in ("B", "KB", "MB", "GB"):
        if v < 1024:
            return f"{v:.1f}{unit}" if unit != "B" else f"{int(v)}B"
        v /= 1024
    return f"{v:.1f}TB"


def _dur(g: Gen) -> str:
    r = g.rng
    k = r.random()
    if k < 0.5:
        return f"{r.randint(1, 999)}ms"
    if k < 0.8:
        return f"{r.uniform(1, 60):.1f}s"
    return f"{r.randint(1, 59)}m{r.randint(0, 59)}s"


def _status(g: Gen) -> str:
    return g.rng.choices(["200", "201", "204", "301", "304", "400", "401", "403", "404", "429",
                          "500", "502", "503"],
                         weights=[70, 3, 2, 1, 6, 2, 2, 1, 6, 1, 2, 1, 1])[0]


def _referer(g: Gen) -> str:
    if g.rng.random() < 0.6:
        return "-"
    return f"https://shop.example.com/{g.rng.choice(['', 'products/' + _words(g), 'cart', 'search?q=' + g.rng.choice(WORDS)])}"


def _sql(g: Gen) -> str:
    return g.fill(g.rng.choice(SQL))


def _ipv6(g: Gen) -> str:
    return "2001:db8:" + ":".join(g.hexs(g.rng.randint(1, 4)) for _ in range(g.rng.randint(2, 6)))


def _lsn(g: Gen) -> str:
    return f"{g.rng.randint(0, 0x3F):X}/{g.rng.randint(0, 0xFFFFFFFF):X}"


def _pgtime(g: Gen) -> str:
    return f"{g.t:%Y-%m-%d %H:%M:%S}.{g.t.microsecond // 1000:03d} UTC"


def _session_time(g: Gen) -> str:
    s = g.rng.expovariate(1 / 300)
    return f"{int(s // 3600)}:{int(s % 3600 // 60):02d}:{s % 60:06.3f}"


def _masked(g: Gen) -> str:
    return g.rng.choice([f"+{g.r(1, 99)} *** *** {g.r(10, 99)}", f"{g.user()[0]}***@example.com"])


def _list(g: Gen) -> str:
    fields = ["email", "phone", "address", "display_name", "locale", "timezone", "avatar"]
    return ", ".join(g.rng.sample(fields, g.rng.randint(1, 4)))


def _roles(g: Gen) -> str:
    return ",".join(g.rng.sample(["viewer", "editor", "admin", "billing", "support"],
                                 g.rng.randint(1, 3)))


def _iso(g: Gen) -> str:
    return f"{g.t:%Y-%m-%dT%H:%M:%S}.{g.t.microsecond // 1000:03d}Z"


def _iso_future(g: Gen) -> str:
    t = g.t + datetime.timedelta(minutes=g.rng.randint(1, 60 * 24 * 30))
    return f"{t:%Y-%m-%dT%H:%M:%S}Z"


VARS = {
    # clocks and headers
    "clf": _clf,
    "iso": _iso,
    "iso_future": _iso_future,
    "date": lambda g: f"{g.t:%Y-%m-%d}",
    "spring_ts": lambda g: f"{g.t:%Y-%m-%dT%H:%M:%S}.{g.t.microsecond // 1000:03d}Z",
    "nginx_ts": lambda g: f"{g.t:%Y/%m/%d %H:%M:%S}",
    "syslog_ts": lambda g: f"{MONTHS[g.t.month - 1]} {g.t.day:2d} {g.t:%H:%M:%S}",
    "klog_ts": lambda g: f"{g.t:%m%d %H:%M:%S}.{g.t.microsecond:06d}",
    "pg_ts": _pgtime,
    "epoch": lambda g: f"{g.t.replace(tzinfo=datetime.timezone.utc).timestamp():.3f}",
    "uptime": lambda g: f"{g.uptime:12.6f}",
    "host": lambda g: g.rng.choice(g.hosts),
    "jpid": lambda g: str(g.pid),
    "pid": lambda g: g.r(300, 4194304 // 64),
    "kpid": lambda g: f"{g.pid:7d}",
    "exec_thread": lambda g: f"nio-8080-exec-{g.rng.randint(1, 200)}",
    "kafka_thread": lambda g: f"ntainer#0-{g.rng.randint(0, 5)}-C-1",
    "sched_thread": lambda g: f"scheduling-{g.rng.randint(1, 4)}",
    # numbers and sizes
    "n": lambda g: g.r(0, 9999),
    "small": lambda g: g.r(1, 12),
    "big": lambda g: g.r(10000, 99999999),
    "port": lambda g: g.r(1024, 65535),
    "uid": lambda g: g.r(1000, 1100),
    "bytes": lambda g: g.r(0, 250000),
    "bytes_h": _bytes_h,
    "kb": lambda g: g.r(1000, 9000000),
    "pct": lambda g: f"{g.rng.uniform(0, 100):.1f}",
    "f": lambda g: f"{g.rng.uniform(0, 30):.3f}",
    "ms": lambda g: g.r(1, 30000),
    "ms3": lambda g: f"{g.rng.lognormvariate(3, 2):.3f}",
    "rt": lambda g: f"{g.rng.lognormvariate(-3, 1.5):.3f}",
    "secs": lambda g: f"{g.rng.uniform(2, 40):.3f}",
    "dur": _dur,
    "godur": lambda g: g.godur(),
    "amount": lambda g: f"{g.rng.lognormvariate(3.5, 1):.2f}",
    "currency": lambda g: g.rng.choice(["EUR", "USD", "GBP", "PLN", "JPY"]),
    "page": lambda g: g.r(1, 40),
    "limit": lambda g: g.rng.choice(["10", "20", "50", "100"]),
    "status": _status,
    "code": lambda g: g.rng.choice(["05", "51", "54", "57", "61", "91"]),
    "bool": lambda g: g.rng.choice(["true", "false"]),
    "on_off": lambda g: g.rng.choice(["enabled", "disabled"]),
    "ver": lambda g: f"{g.r(1, 9)}.{g.r(0, 40)}.{g.r(0, 20)}",
    "lsn": _lsn,
    "session_time": _session_time,
    # identifiers
    "uuid": lambda g: g.uuid(),
    "hex7": lambda g: g.hexs(7),
    "hex8": lambda g: g.hexs(8),
    "hex16": lambda g: g.hexs(16),
    "hex32": lambda g: g.hexs(32),
    "hex64": lambda g: g.hexs(64),
    "hexaddr": lambda g: "0x" + g.hexs(g.rng.choice((8, 12))),
    "order_id": lambda g: f"ORD-{g.t.year}-{g.rng.randint(1, 999999):06d}",
    "sku": lambda g: g.sku(),
    "tracking": lambda g: g.rng.choice(["1Z", "JD", "LX"]) + g.hexs(14).upper(),
    "carrier": lambda g: g.rng.choice(["dhl", "ups", "dpd", "inpost", "fedex"]),
    "queue_id": lambda g: g.hexs(10).upper(),
    "sha256": lambda g: "".join(g.rng.choice(string.ascii_letters + string.digits + "+/")
                                for _ in range(43)),
    "client_id": lambda g: g.rng.choice(["reporting-job", "orders-api", "mobile-app",
                                         "partner-" + g.hexs(6), "ci-deployer"]),
    "tenant": lambda g: g.rng.choice(["acme", "globex", "initech", "umbrella", "t-" + g.hexs(6)]),
    "region": lambda g: g.rng.choice(["eu-west-1", "eu-central-1", "us-east-1", "ap-south-1"]),
    "java_obj": lambda g: "org.postgresql.jdbc.PgConnection@" + g.hexs(g.rng.choice((6, 7, 8))),
    # network
    "ip": lambda g: g.ip(),
    "ipv6": _ipv6,
    "client_ip": lambda g: g.ip() if g.rng.random() < 0.9 else _ipv6(g),
    "fqdn": lambda g: g.rng.choice(["mail", "mx1", "smtp", "relay"]) + f"{g.r(1, 9)}." +
    g.rng.choice(["example.org", "mailhost.example.net", "google.com", "outlook.com"]),
    "iface": lambda g: g.rng.choice(["eth0", "ens5", "enp3s0", "eno1", "wlp2s0"]),
    "node": lambda g: f"ip-10-0-{g.r(0, 15)}-{g.r(1, 254)}.eu-west-1.compute.internal",
    # people and words
    "user": lambda g: g.user(),
    "email": lambda g: g.email(),
    "masked": _masked,
    "slug": _words,
    "word": lambda g: g.rng.choice(WORDS),
    "search": lambda g: g.rng.choice(SEARCH),
    "cancel_reason": lambda g: g.rng.choice(CANCEL),
    "fields": _list,
    "roles": _roles,
    "flag": lambda g: g.rng.choice(["new-checkout", "dark_mode", "recs.v2", "fast-shipping"]),
    "cache": lambda g: g.rng.choice(["products", "prices", "sessions", "categories"]),
    "component": lambda g: g.rng.choice(["db", "redis", "kafka", "payments-gateway", "diskSpace"]),
    "ua": lambda g: g.rng.choice(UAS),
    "referer": _referer,
    "remote_user": lambda g: "-" if g.rng.random() < 0.9 else g.user(),
    "unit": lambda g: g.rng.choice(UNITS),
    "sql": _sql,
    "app": lambda g: g.rng.choice(APPS),
    "table": lambda g: g.rng.choice(TABLES),
    "db": lambda g: g.rng.choice(["shop", "analytics", "auth", "postgres"]),
    "dbuser": lambda g: g.rng.choice(["app_rw", "reporting", "etl_loader", "postgres", "metabase"]),
    "sudo_cmd": lambda g: g.rng.choice(SUDO),
    "scopes": lambda g: g.rng.choice(SCOPES),
    "cron_cmd": lambda g: g.rng.choice(CRONCMD),
    "saml_err": lambda g: g.rng.choice(SAML_ERR),
    "login_method": lambda g: g.rng.choice(["password", "webauthn", "sso", "magic_link"]),
    "fail_reason": lambda g: g.rng.choice(["bad_password", "unknown_user", "locked", "mfa_failed"]),
    "channel": lambda g: g.rng.choice(["sms", "email", "totp"]),
    "action": lambda g: g.rng.choice(["orders.refund", "users.delete", "reports.export",
                                      "catalog.publish"]),
    "keytype": lambda g: g.rng.choice(["RSA", "ED25519", "ECDSA"]),
    "pts": lambda g: f"pts/{g.r(0, 9)}",
    # files and urls
    "path": lambda g: g.path(),
    "disk": lambda g: g.rng.choice(["sda", "sdb", "nvme0n1", "nvme1n1"]),
    "dev": lambda g: g.rng.choice(["sda1", "nvme0n1p1", "dm-0", "xvdf"]),
    "proc": lambda g: g.rng.choice(["java", "postgres", "node", "python3", "chrome", "mysqld"]),
    "s3path": lambda g: f"s3://reports-{g.rng.choice(['prod', 'eu'])}/daily/{g.t:%Y/%m/%d}/report-{g.hexs(6)}.csv.gz",
    "cfgpath": lambda g: g.rng.choice(["/etc/shop/application.yaml", "configmap/shop-config",
                                       "/config/overrides.properties"]),
    "img": lambda g: f"/images/{g.t:%Y/%m}/{g.hexs(12)}.{g.rng.choice(['jpg', 'png', 'webp'])}",
    "api_path": lambda g: g.rng.choice(["/api/v1/orders/", "/api/v1/users/", "/api/v1/cart/items/"]) + g.r(1, 99999),
    # kubernetes
    "ns": lambda g: g.rng.choice(NAMESPACES),
    "pod": lambda g: g.pod(),
    "deploy": lambda g: g.rng.choice(DEPLOYS),
    "rs": lambda g: f"{g.rng.choice(DEPLOYS)}-{g.hexs(g.rng.choice((9, 10)))}",
    "container": lambda g: g.rng.choice(DEPLOYS + ["istio-proxy", "init-db", "sidecar"]),
    "image": lambda g: g.fill(g.rng.choice(IMAGES)),
    "vol": lambda g: g.rng.choice(["kube-api-access-" + g.b36(5), "config", "data", "tls-certs"]),
    "probe": lambda g: g.rng.choice(["Readiness", "Liveness", "Startup"]),
    "nodes": lambda g: g.r(3, 40),
    "zap_ts": lambda g: f"{g.t.replace(tzinfo=datetime.timezone.utc).timestamp():.4f}",
}
