"""The systems of generate.py (their variables are in gen_vars.py).

SYSTEMS maps a system name to its log statements: (weight, format) or (weight, format, event
key); rows with the same event key are one event (several routes of one access log). In a format, '{name}' is a
variable drawn by VARS[name] on each line, '{@name}' repeats the value this line drew for
name before, '{{' and '}}' are literal braces, everything else
is constant for that statement. Weights are relative frequencies within the system.

The systems:
  web       nginx access log (combined format + request time) and its error log, as a
            container prints both; an access line's event is its method, the path being a
            variable (Loghub's convention for OpenStack's request lines): routes are drawn
            one by one with their own frequencies only to make the paths realistic
  jvm       a Spring Boot shop service: Logback's default layout, threads, loggers, Kafka,
            Hibernate, Hikari, exceptions
  syslog    a Debian host's /var/log/syslog: kernel, systemd, cron, dhclient, postfix,
            chrony, docker, smartd
  k8s       kubelet, controller-manager and scheduler in klog's structured form, events, and
            application pods that log JSON (zap)
  postgres  PostgreSQL with log_line_prefix '%m [%p] %q%u@%d ': connections, checkpoints,
            autovacuum, errors with DETAIL lines, slow statements with their SQL
  auth      an identity service logging logfmt, plus sshd and sudo from /var/log/auth.log

The hard parts are deliberate and realistic: variables whose word count varies (quoted
strings, SQL, user agents, systemd unit descriptions, sudo arguments, OAuth scopes, lists),
variables made of letters only (user names, slugs, units, reasons), events that differ in one
constant word, lines without spaces (JSON), and a header whose fields vary on every line.
"""
from __future__ import annotations

from gen_vars import VARS, Gen  # noqa: F401  (generate.py reads both from here)


def klog(level: str, src: str, msg: str) -> str:
    return level + "{klog_ts} {kpid} " + src + "] " + msg


def spring(level: str, thread: str, logger: str, msg: str) -> str:
    return "{spring_ts} " + f"{level:>5}" + " {jpid} --- [" + thread + "] " + f"{logger:<40}" + " : " + msg


def syslog(prog: str, msg: str) -> str:
    return "{syslog_ts} {host} " + prog + ": " + msg


def pg(level: str, msg: str, session: bool = True) -> str:
    who = "{dbuser}@{db} " if session else ""
    return "{pg_ts} [{pid}] " + who + level + ":  " + msg


def logfmt(level: str, msg: str, rest: str) -> str:
    return "ts={iso} level=" + level + " svc=identity msg=\"" + msg + "\" " + rest


ACCESS = '{client_ip} - {remote_user} [{clf}] "'
ACCESS_END = ' HTTP/1.1" {status} {bytes} "{referer}" "{ua}" {rt}'
NGINX_ERR = "{nginx_ts} [error] {n}#{@n}: *{big} "

SYSTEMS = {
    "web": [
        (120, ACCESS + "GET /api/v1/products?category={word}&page={page}" + ACCESS_END, "access GET"),
        (90, ACCESS + "GET /products/{slug}" + ACCESS_END, "access GET"),
        (60, ACCESS + "GET /api/v1/users/{n}" + ACCESS_END, "access GET"),
        (40, ACCESS + "GET /api/v1/users/{n}/orders?page={page}&limit={limit}" + ACCESS_END, "access GET"),
        (35, ACCESS + "POST /api/v1/orders" + ACCESS_END, "access POST"),
        (30, ACCESS + "GET /api/v1/orders/{uuid}" + ACCESS_END, "access GET"),
        (25, ACCESS + "POST /api/v1/cart/items" + ACCESS_END, "access POST"),
        (20, ACCESS + "PUT /api/v1/cart/items/{n}" + ACCESS_END, "access PUT"),
        (15, ACCESS + "DELETE /api/v1/cart/items/{n}" + ACCESS_END, "access DELETE"),
        (60, ACCESS + "GET /static/js/app.{hex8}.js" + ACCESS_END, "access GET"),
        (30, ACCESS + "GET /static/css/main.{hex8}.css" + ACCESS_END, "access GET"),
        (50, ACCESS + "GET {img}" + ACCESS_END, "access GET"),
        (80, ACCESS + "GET /healthz" + ACCESS_END, "access GET"),
        (40, ACCESS + "GET /metrics" + ACCESS_END, "access GET"),
        (20, ACCESS + "GET /search?q={word}" + ACCESS_END, "access GET"),
        (20, ACCESS + "POST /api/v1/login" + ACCESS_END, "access POST"),
        (10, ACCESS + "POST /api/v1/logout" + ACCESS_END, "access POST"),
        (10, ACCESS + "DELETE /api/v1/sessions/{hex32}" + ACCESS_END, "access DELETE"),
        (12, ACCESS + "POST /graphql" + ACCESS_END, "access POST"),
        (10, ACCESS + "GET /" + ACCESS_END, "access GET"),
        (5, ACCESS + "HEAD /" + ACCESS_END, "access HEAD"),
        (6, ACCESS + "GET /favicon.ico" + ACCESS_END, "access GET"),
        (3, ACCESS + "GET /robots.txt" + ACCESS_END, "access GET"),
        (3, ACCESS + "GET /wp-login.php" + ACCESS_END, "access GET"),
        (2, ACCESS + "GET /.env" + ACCESS_END, "access GET"),
        (8, ACCESS + "GET /api/v1/users/{n}/avatar" + ACCESS_END, "access GET"),
        (4, NGINX_ERR + 'connect() failed (111: Connection refused) while connecting to upstream, client: {ip}, server: shop.example.com, request: "GET {api_path} HTTP/1.1", upstream: "http://{ip}:8080{@api_path}", host: "shop.example.com"'),
        (3, NGINX_ERR + 'upstream timed out (110: Connection timed out) while reading response header from upstream, client: {ip}, server: shop.example.com, request: "POST /api/v1/orders HTTP/1.1", upstream: "http://{ip}:8080/api/v1/orders", host: "shop.example.com"'),
        (2, NGINX_ERR + 'open() "/usr/share/nginx/html{img}" failed (2: No such file or directory), client: {ip}, server: shop.example.com, request: "GET {@img} HTTP/1.1", host: "shop.example.com"'),
        (2, NGINX_ERR + 'client intended to send too large body: {big} bytes, client: {ip}, server: shop.example.com, request: "POST /api/v1/uploads HTTP/1.1", host: "shop.example.com"'),
        (1, "{nginx_ts} [warn] {n}#{@n}: *{big} an upstream response is buffered to a temporary file /var/cache/nginx/proxy_temp/{n}/{n}/{big} while reading upstream, client: {ip}, server: shop.example.com"),
        (1, "{nginx_ts} [notice] 1#1: signal process started"),
    ],
    "jvm": [
        (1, spring("INFO", "main", "o.s.b.w.embedded.tomcat.TomcatWebServer", "Tomcat started on port 8080 (http) with context path '/'")),
        (1, spring("INFO", "main", "c.e.shop.ShopApplication", "Started ShopApplication in {secs} seconds (process running for {secs})")),
        (60, spring("INFO", "{exec_thread}", "c.e.shop.order.OrderService", "Order {order_id} placed by user {user} with {small} items, total {amount} {currency}")),
        (8, spring("WARN", "{exec_thread}", "c.e.shop.order.OrderService", "Order {order_id} cancelled: {cancel_reason}")),
        (20, spring("INFO", "{kafka_thread}", "c.e.shop.order.ShippingListener", "Order {order_id} shipped via {carrier} tracking {tracking}")),
        (40, spring("INFO", "{exec_thread}", "c.e.shop.payment.PaymentClient", "Payment {uuid} authorized in {ms}ms")),
        (8, spring("WARN", "{exec_thread}", "c.e.shop.payment.PaymentClient", "Payment {uuid} declined by issuer: code={code}")),
        (6, spring("WARN", "{exec_thread}", "c.e.shop.payment.PaymentClient", "Retrying payment {uuid} (attempt {small}/5) after {ms}ms")),
        (3, spring("WARN", "{exec_thread}", "o.h.engine.jdbc.spi.SqlExceptionHelper", "SQL Error: 0, SQLState: 40001")),
        (3, spring("ERROR", "{exec_thread}", "o.h.engine.jdbc.spi.SqlExceptionHelper", "ERROR: could not serialize access due to concurrent update")),
        (2, spring("WARN", "HikariPool-1 housekeeper", "com.zaxxer.hikari.pool.HikariPool", "HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta={dur}).")),
        (2, spring("WARN", "{exec_thread}", "com.zaxxer.hikari.pool.PoolBase", "HikariPool-1 - Failed to validate connection {java_obj} (This connection has been closed.). Possibly consider using a shorter maxLifetime value.")),
        (50, spring("DEBUG", "{exec_thread}", "c.e.shop.cache.ProductCache", "Cache miss for product {n} in region {region}")),
        (5, spring("INFO", "{sched_thread}", "c.e.shop.cache.ProductCache", "Evicted {n} entries from cache {cache} in {ms} ms")),
        (100, spring("INFO", "{exec_thread}", "c.e.shop.web.RequestLoggingFilter", "Completed GET {api_path} with status {status} in {ms} ms")),
        (12, spring("WARN", "{kafka_thread}", "c.e.shop.inventory.StockService", "Stock for SKU {sku} low: {small} left (threshold 10)")),
        (30, spring("INFO", "{kafka_thread}", "c.e.shop.inventory.StockService", "Reserved {small} units of SKU {sku} for order {order_id}")),
        (4, spring("INFO", "{kafka_thread}", "o.a.k.c.c.internals.ConsumerCoordinator", "[Consumer clientId=consumer-orders-{small}, groupId=orders] Setting offset for partition orders-{small} to the committed offset FetchPosition{{offset={big}, offsetEpoch=Optional.empty, currentLeader=LeaderAndEpoch{{leader=Optional[kafka-{small}:9092 (id: {small} rack: null)], epoch={n}}}}}")),
        (2, spring("INFO", "kafka-producer-network-thread | producer-1", "org.apache.kafka.clients.NetworkClient", "[Producer clientId=producer-1] Node {small} disconnected.")),
        (15, spring("INFO", "{kafka_thread}", "c.e.shop.email.MailSender", "Sent order-confirmation email to {email} (message id <{hex16}@mail.example.com>)")),
        (4, spring("INFO", "{kafka_thread}", "c.e.shop.email.MailSender", "Sent password-reset email to {email} (message id <{hex16}@mail.example.com>)")),
        (10, spring("WARN", "{exec_thread}", "c.e.shop.auth.JwtFilter", "Rejected token for {api_path}: expired at {iso}")),
        (1, spring("INFO", "{sched_thread}", "c.e.shop.report.ReportJob", "Nightly report {date} generated: {big} rows, {bytes_h} written to {s3path}")),
        (3, spring("ERROR", "{exec_thread}", "c.e.shop.web.GlobalExceptionHandler", "Unhandled exception on POST {api_path}: java.lang.NullPointerException: Cannot invoke \"com.example.shop.order.Address.getCountry()\" because \"shipping\" is null")),
        (6, spring("WARN", "{exec_thread}", "o.s.web.servlet.PageNotFound", "No mapping for GET {path}")),
        (5, spring("INFO", "{sched_thread}", "c.e.shop.feature.FeatureFlags", "Feature flag '{flag}' is {on_off} for tenant {tenant}")),
        (25, spring("INFO", "{exec_thread}", "c.e.shop.search.SearchService", "Query \"{search}\" returned {n} hits in {ms} ms")),
        (1, spring("INFO", "{sched_thread}", "c.e.shop.config.ConfigWatcher", "Reloaded configuration from {cfgpath} (version {ver})")),
        (6, spring("INFO", "{exec_thread}", "c.e.shop.user.UserService", "User {user} updated profile fields [{fields}]")),
        (3, spring("ERROR", "{sched_thread}", "c.e.shop.health.HealthIndicator", "Health check {component} is DOWN: {ms}ms timeout exceeded")),
        (2, spring("INFO", "{sched_thread}", "c.e.shop.health.HealthIndicator", "Health check {component} is UP again after {dur}")),
    ],
    "syslog": [
        (3, syslog("kernel", "[{uptime}] EXT4-fs ({dev}): mounted filesystem with ordered data mode. Opts: (null)")),
        (2, syslog("kernel", "[{uptime}] {iface}: Link is Up - 1000Mbps/Full - flow control off")),
        (1, syslog("kernel", "[{uptime}] Out of memory: Killed process {pid} ({proc}) total-vm:{kb}kB, anon-rss:{kb}kB, file-rss:{kb}kB, shmem-rss:0kB, UID:{uid} pgtables:{kb}kB oom_score_adj:0")),
        (2, syslog("kernel", "[{uptime}] TCP: request_sock_TCP: Possible SYN flooding on port {port}. Sending cookies.  Check SNMP counters.")),
        (5, syslog("kernel", "[{uptime}] audit: type=1400 audit({epoch}:{n}): apparmor=\"DENIED\" operation=\"open\" profile=\"snap.{word}.{word}\" name=\"{path}\" pid={pid} comm=\"{proc}\" requested_mask=\"r\" denied_mask=\"r\" fsuid={uid} ouid=0")),
        (20, syslog("systemd[1]", "Started {unit}.")),
        (12, syslog("systemd[1]", "Finished {unit}.")),
        (30, syslog("systemd-logind[{pid}]", "New session {n} of user {user}.")),
        (28, syslog("systemd-logind[{pid}]", "Removed session {n}.")),
        (20, syslog("systemd-logind[{pid}]", "Session {n} logged out. Waiting for processes to exit.")),
        (40, syslog("CRON[{pid}]", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)")),
        (30, syslog("CRON[{pid}]", "({user}) CMD ({cron_cmd})")),
        (45, syslog("CRON[{pid}]", "pam_unix(cron:session): session opened for user {user}(uid={uid}) by (uid=0)")),
        (45, syslog("CRON[{pid}]", "pam_unix(cron:session): session closed for user {user}")),
        (10, syslog("dhclient[{pid}]", "DHCPREQUEST for {ip} on {iface} to {ip} port 67")),
        (10, syslog("dhclient[{pid}]", "DHCPACK of {ip} from {ip}")),
        (10, syslog("dhclient[{pid}]", "bound to {ip} -- renewal in {n} seconds.")),
        (25, syslog("postfix/smtpd[{pid}]", "connect from {fqdn}[{ip}]")),
        (25, syslog("postfix/smtpd[{pid}]", "disconnect from {fqdn}[{ip}] ehlo=1 mail=1 rcpt=1 data=1 quit=1 commands=5")),
        (8, syslog("postfix/smtpd[{pid}]", "lost connection after AUTH from unknown[{ip}]")),
        (20, syslog("postfix/qmgr[{pid}]", "{queue_id}: from=<{email}>, size={bytes}, nrcpt=1 (queue active)")),
        (20, syslog("postfix/smtp[{pid}]", "{queue_id}: to=<{email}>, relay={fqdn}[{ip}]:25, delay={f}, delays={f}/{f}/{f}/{f}, dsn=2.0.0, status=sent (250 2.0.0 OK  {big} {hex16} - gsmtp)")),
        (5, syslog("postfix/smtp[{pid}]", "{queue_id}: to=<{email}>, relay=none, delay={f}, delays={f}/{f}/{f}/0, dsn=4.4.1, status=deferred (connect to {fqdn}[{ip}]:25: Connection timed out)")),
        (20, syslog("postfix/qmgr[{pid}]", "{queue_id}: removed")),
        (4, syslog("chronyd[{pid}]", "Selected source {ip} (ntp{small}.example.org)")),
        (3, syslog("chronyd[{pid}]", "System clock wrong by {f} seconds, adjustment started")),
        (1, syslog("rsyslogd", "[origin software=\"rsyslogd\" swVersion=\"8.2302.0\" x-pid=\"{pid}\" x-info=\"https://www.rsyslog.com\"] rsyslogd was HUPed")),
        (12, syslog("dockerd[{pid}]", "time=\"{iso}\" level=info msg=\"ignoring event\" container={hex64} module=libcontainerd namespace=moby topic=/tasks/delete type=\"*events.TaskDelete\"")),
        (3, syslog("smartd[{pid}]", "Device: /dev/{disk} [SAT], SMART Usage Attribute: 194 Temperature_Celsius changed from {small} to {small}")),
    ],
    "k8s": [
        (60, klog("I", "kubelet.go:2453", "\"SyncLoop (PLEG): event for pod\" pod=\"{ns}/{pod}\" event={{ID:\"{uuid}\" Type:\"ContainerStarted\" Data:\"{hex64}\"}}")),
        (40, klog("I", "kubelet.go:2446", "\"SyncLoop ADD\" source=\"api\" pods=[\"{ns}/{pod}\"]")),
        (35, klog("I", "kubelet.go:2462", "\"SyncLoop DELETE\" source=\"api\" pods=[\"{ns}/{pod}\"]")),
        (20, klog("E", "pod_workers.go:1298", "\"Error syncing pod, skipping\" err=\"failed to \\\"StartContainer\\\" for \\\"{container}\\\" with CrashLoopBackOff: \\\"back-off {godur} restarting failed container={@container} pod={pod}_{ns}({uuid})\\\"\" pod=\"{@ns}/{@pod}\" podUID=\"{@uuid}\"")),
        (30, klog("I", "scope.go:117", "\"RemoveContainer\" containerID=\"{hex64}\"")),
        (25, klog("I", "prober.go:107", "\"Probe failed\" probeType=\"{probe}\" pod=\"{ns}/{pod}\" podUID=\"{uuid}\" containerName=\"{container}\" probeResult=\"failure\" output=\"Get \\\"http://{ip}:{port}/healthz\\\": dial tcp {@ip}:{@port}: connect: connection refused\"")),
        (15, klog("I", "reconciler_common.go:245", "\"operationExecutor.VerifyControllerAttachedVolume started for volume \\\"{vol}\\\" (UniqueName: \\\"kubernetes.io/projected/{uuid}-{@vol}\\\") pod \\\"{pod}\\\" (UID: \\\"{@uuid}\\\") \" pod=\"{ns}/{@pod}\"")),
        (3, klog("I", "eviction_manager.go:366", "\"Eviction manager: attempting to reclaim\" resourceName=\"memory\"")),
        (40, klog("I", "replica_set.go:676", "\"Finished syncing\" kind=\"ReplicaSet\" key=\"{ns}/{rs}\" duration=\"{godur}\"")),
        (15, klog("I", "deployment_controller.go:597", "\"Started syncing deployment\" deployment=\"{ns}/{deploy}\" startTime=\"{date} {iso}\"")),
        (25, klog("I", "event.go:389", "\"Event occurred\" object=\"{ns}/{pod}\" fieldPath=\"\" kind=\"Pod\" apiVersion=\"v1\" type=\"Normal\" reason=\"Scheduled\" message=\"Successfully assigned {@ns}/{@pod} to {node}\"")),
        (20, klog("I", "event.go:389", "\"Event occurred\" object=\"{ns}/{pod}\" fieldPath=\"spec.containers{{{container}}}\" kind=\"Pod\" apiVersion=\"v1\" type=\"Normal\" reason=\"Pulling\" message=\"Pulling image \\\"{image}\\\"\"")),
        (18, klog("I", "event.go:389", "\"Event occurred\" object=\"{ns}/{pod}\" fieldPath=\"spec.containers{{{container}}}\" kind=\"Pod\" apiVersion=\"v1\" type=\"Normal\" reason=\"Pulled\" message=\"Successfully pulled image \\\"{image}\\\" in {godur} ({godur} including waiting)\"")),
        (15, klog("I", "event.go:389", "\"Event occurred\" object=\"{ns}/{pod}\" fieldPath=\"spec.containers{{{container}}}\" kind=\"Pod\" apiVersion=\"v1\" type=\"Normal\" reason=\"Killing\" message=\"Stopping container {@container}\"")),
        (6, klog("I", "schedule_one.go:1055", "\"Unable to schedule pod; no fit; waiting\" pod=\"{ns}/{pod}\" err=\"0/{nodes} nodes are available: {small} Insufficient cpu. preemption: 0/{nodes} nodes are available: {nodes} No preemption victims found for incoming pod.\"")),
        (1, klog("I", "leaderelection.go:268", "successfully acquired lease kube-system/kube-controller-manager")),
        (3, klog("W", "reflector.go:470", "k8s.io/client-go/informers/factory.go:160: watch of *v1.Pod ended with: an error on the server (\"unable to decode an event from the watch stream: http2: client connection lost\") has prevented the request from succeeding")),
        (5, klog("E", "remote_runtime.go:432", "\"ContainerStatus from runtime service failed\" err=\"rpc error: code = NotFound desc = an error occurred when try to find container \\\"{hex64}\\\": not found\" containerID=\"{hex64}\"")),
        (8, klog("I", "log.go:245", "http: TLS handshake error from {ip}:{port}: EOF")),
        (80, '{{"level":"info","ts":{zap_ts},"caller":"server/handler.go:88","msg":"request finished","method":"GET","path":"{api_path}","status":{status},"latency":{rt},"request_id":"{uuid}"}}'),
        (20, '{{"level":"warn","ts":{zap_ts},"caller":"cache/redis.go:141","msg":"cache get failed, falling back to database","key":"product:{n}","error":"dial tcp {ip}:6379: i/o timeout"}}'),
        (10, '{{"level":"error","ts":{zap_ts},"caller":"worker/consumer.go:203","msg":"message processing failed","topic":"orders","partition":{small},"offset":{big},"error":"context deadline exceeded","stacktrace":"main.(*Consumer).handle\\n\\t/app/worker/consumer.go:203"}}'),
        (5, '{{"level":"info","ts":{zap_ts},"caller":"app/main.go:57","msg":"server started","addr":":8080","version":"{ver}","commit":"{hex7}"}}'),
    ],
    "postgres": [
        (60, pg("LOG", "connection received: host={ip} port={port}", session=False)),
        (55, pg("LOG", "connection authorized: user={dbuser} database={db} application_name={app}")),
        (55, pg("LOG", "disconnection: session time: {session_time} user={dbuser} database={db} host={ip} port={port}")),
        (10, pg("LOG", "checkpoint starting: time", session=False)),
        (10, pg("LOG", "checkpoint complete: wrote {n} buffers ({pct}%); 0 WAL file(s) added, {small} removed, {small} recycled; write={f} s, sync={f} s, total={f} s; sync files={n}, longest={f} s, average={f} s; distance={kb} kB, estimate={kb} kB; lsn={lsn}, redo lsn={lsn}", session=False)),
        (15, pg("LOG", "automatic vacuum of table \"{db}.public.{table}\": index scans: {small}", session=False)),
        (12, pg("LOG", "automatic analyze of table \"{db}.public.{table}\"", session=False)),
        (30, pg("LOG", "duration: {ms3} ms  statement: {sql}")),
        (8, pg("ERROR", "duplicate key value violates unique constraint \"{table}_pkey\"")),
        (8, pg("DETAIL", "Key (id)=({big}) already exists.")),
        (2, pg("ERROR", "deadlock detected")),
        (2, pg("DETAIL", "Process {pid} waits for ShareLock on transaction {big}; blocked by process {pid}.")),
        (3, pg("ERROR", "relation \"{table}\" does not exist at character {n}")),
        (6, pg("FATAL", "password authentication failed for user \"{dbuser}\"")),
        (2, pg("FATAL", "role \"{user}\" does not exist")),
        (1, pg("FATAL", "remaining connection slots are reserved for non-replication superuser connections")),
        (8, pg("LOG", "could not receive data from client: Connection reset by peer")),
        (5, pg("WARNING", "there is no transaction in progress")),
        (4, pg("ERROR", "canceling statement due to statement timeout")),
        (6, pg("STATEMENT", "{sql}")),
        (4, pg("LOG", "process {pid} still waiting for ShareLock on transaction {big} after {ms3} ms")),
        (5, pg("LOG", "temporary file: path \"base/pgsql_tmp/pgsql_tmp{pid}.{small}\", size {big}")),
        (1, pg("LOG", "database system is ready to accept connections", session=False)),
        (1, pg("LOG", "received fast shutdown request", session=False)),
        (1, pg("LOG", "background worker \"logical replication launcher\" (PID {pid}) exited with exit code 1", session=False)),
    ],
    "auth": [
        (60, logfmt("info", "login succeeded", "user={user} ip={ip} method={login_method} mfa={bool} session={uuid} latency_ms={ms}")),
        (25, logfmt("warn", "login failed", "user={user} ip={ip} reason={fail_reason} attempt={small}")),
        (4, logfmt("warn", "account locked", "user={user} until={iso_future}")),
        (30, logfmt("info", "token issued", "client_id={client_id} grant=client_credentials scope=\"{scopes}\" expires_in=3600")),
        (40, logfmt("info", "token refreshed", "user={user} session={uuid}")),
        (5, logfmt("info", "token revoked", "jti={uuid} by={user}")),
        (6, logfmt("info", "password reset requested", "email={email} ip={ip}")),
        (4, logfmt("info", "password changed", "user={user}")),
        (12, logfmt("info", "mfa challenge sent", "user={user} channel={channel} to=\"{masked}\"")),
        (5, logfmt("warn", "rate limit exceeded", "ip={ip} route=/v1/login limit=20/min")),
        (20, logfmt("info", "session expired", "session={uuid} idle={dur}")),
        (3, logfmt("error", "saml assertion rejected", "idp=https://idp.{tenant}.example.com/saml error=\"{saml_err}\"")),
        (3, logfmt("info", "user created", "user={user} by={user} roles=[{roles}]")),
        (6, logfmt("warn", "permission denied", "user={user} action={action} resource=/tenants/{tenant}/{word}/{n}")),
        (20, syslog("sshd[{pid}]", "Accepted publickey for {user} from {ip} port {port} ssh2: {keytype} SHA256:{sha256}")),
        (4, syslog("sshd[{pid}]", "Accepted password for {user} from {ip} port {port} ssh2")),
        (25, syslog("sshd[{pid}]", "Failed password for invalid user {user} from {ip} port {port} ssh2")),
        (10, syslog("sshd[{pid}]", "Failed password for {user} from {ip} port {port} ssh2")),
        (25, syslog("sshd[{pid}]", "Invalid user {user} from {ip} port {port}")),
        (20, syslog("sshd[{pid}]", "Connection closed by authenticating user {user} {ip} port {port} [preauth]")),
        (15, syslog("sshd[{pid}]", "Received disconnect from {ip} port {port}:11: Bye Bye [preauth]")),
        (18, syslog("sshd[{pid}]", "pam_unix(sshd:session): session opened for user {user}(uid={uid}) by (uid=0)")),
        (16, syslog("sshd[{pid}]", "pam_unix(sshd:session): session closed for user {user}")),
        (3, syslog("sshd[{pid}]", "error: maximum authentication attempts exceeded for {user} from {ip} port {port} ssh2 [preauth]")),
        (10, syslog("sudo", "   {user} : TTY={pts} ; PWD=/home/{@user} ; USER=root ; COMMAND={sudo_cmd}")),
        (10, syslog("sudo", "pam_unix(sudo:session): session opened for user root(uid=0) by {user}(uid={uid})")),
        (10, syslog("sudo", "pam_unix(sudo:session): session closed for user root")),
    ],
}
