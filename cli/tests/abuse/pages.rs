//! Row 5: field limits and pagination. The probe stored a 9.9 MB template `name`; 50 versions
//! of a 9.9 MB template made `GET /v1/templates/{id}` answer 495 MB (server RSS +1.2 GB); with
//! 20,000 templates every list answered all of them (3.1 MB), `limit` and `page` ignored.
//! Fixed: every free-form field has a size limit (a 400 naming it), and every listing answers
//! one bounded page with an opaque `nextCursor`.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde_json::{Value, json};

use super::common::{Server, filter_template, job_using};
use super::rss_bytes;

/// The page size this module's server is configured with.
const PAGE: usize = 20;
/// Its largest `limit`.
const MAX_PAGE: usize = 100;
/// Its byte budget of a page (the default, 4 MiB).
const PAGE_BYTES: usize = 4 * 1024 * 1024;

/// This module's clients, one organization per test so that no test sees another's items.
const CLIENTS: [&str; 4] = ["sizes", "lister", "jobber", "versions"];

fn shared() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let specs: Vec<String> = CLIENTS
            .iter()
            .map(|c| format!("{c}:{c}-secret:org-{c}"))
            .collect();
        let mut args = Vec::new();
        for spec in &specs {
            args.extend(["--client", spec.as_str()]);
        }
        Server::start_with_config(
            &json!({"fieldLimits": {"defaultPageSize": PAGE, "maxPageSize": MAX_PAGE}}),
            &args,
        )
    })
}

/// The server and a token of `client` (one of [`CLIENTS`]).
fn server(client: &str) -> (&'static Server, String) {
    let server = shared();
    (server, server.token(client, &format!("{client}-secret")))
}

/// Follows `nextCursor` from `first` (bounded: at most `max_pages` pages); every page's items
/// and the byte size of the largest answer.
fn all_pages(
    token: &str,
    first: &str,
    max_pages: usize,
    page_size: usize,
) -> (Vec<Value>, usize, usize) {
    let server = shared();
    let mut items = Vec::new();
    let mut largest = 0;
    let mut path = first.to_owned();
    for pages in 1..=max_pages {
        let r = server.call("GET", &path, Some(token), None);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        largest = largest.max(r.body.len());
        let body = r.json();
        let page = body["items"].as_array().expect("items").clone();
        assert!(
            !page.is_empty() && page.len() <= page_size,
            "a page of {} items (page size {page_size})",
            page.len()
        );
        items.extend(page);
        let Some(cursor) = body["nextCursor"].as_str() else {
            assert!(r.header("link").is_none(), "a Link header on the last page");
            return (items, pages, largest);
        };
        let link = r.header("link").expect("a Link header when more follow");
        assert!(link.ends_with("rel=\"next\""), "{link}");
        let separator = if first.contains('?') { '&' } else { '?' };
        path = format!("{first}{separator}cursor={cursor}");
    }
    panic!("more than {max_pages} pages from {first}");
}

/// Runs `jobgraph ARGS` as client `client` of this module's server (a fresh HOME with a saved
/// configuration); its stdout lines, asserting it succeeded.
fn cli(client: &str, args: &[&str]) -> Vec<String> {
    let home = tempfile::tempdir().expect("temp HOME");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jobgraph"))
            .args(args)
            .env_clear()
            .env("HOME", home.path())
            .env("JOBGRAPH_CLIENT_SECRET", format!("{client}-secret"))
            .output()
            .expect("the binary runs");
        assert!(
            out.status.success(),
            "jobgraph {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let api = format!("{}/api", shared().url());
    run(&[
        "config:save",
        "pages",
        "--api-base-url",
        &api,
        "--client-id",
        client,
        "--default",
    ]);
    run(args)
}

fn ids(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|t| t["id"].as_str().expect("id").to_owned())
        .collect()
}

#[test]
fn oversized_fields_are_refused_naming_the_field() {
    let _one = crate::one_at_a_time();
    let (server, token) = server("sizes");
    let token = token.as_str();
    let mut body = filter_template("x");
    body["name"] = json!("n".repeat(9_900_000));
    let r = server.call("POST", "/v1/templates", Some(token), Some(&body));
    eprintln!("9.9 MB name: {} {}", r.status, r.error());
    assert_eq!(r.status, 400);
    assert!(r.error().contains("`/name`"), "{}", r.error());
    assert!(r.error().contains("9900000 characters"), "{}", r.error());
    assert!(r.error().contains("256 characters"), "{}", r.error());
    let mut body = filter_template("x");
    body["template"] = json!(format!("// {}\n1", "x".repeat(9_900_000)));
    let r = server.call("POST", "/v1/templates", Some(token), Some(&body));
    assert_eq!(r.status, 400);
    assert!(r.error().contains("`/template`"), "{}", r.error());
    let mut body = filter_template("x");
    body["description"] = json!("d".repeat(5000));
    let r = server.call("POST", "/v1/templates", Some(token), Some(&body));
    assert_eq!(r.status, 400);
    assert!(r.error().contains("`/description`"), "{}", r.error());
    // A job's name too, on creation.
    let created = server.call(
        "POST",
        "/v1/templates",
        Some(token),
        Some(&filter_template("ok")),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let mut job = job_using("j", created.json()["id"].as_str().unwrap(), "error");
    job["name"] = json!("j".repeat(300));
    let r = server.call("POST", "/v1/jobs", Some(token), Some(&job));
    assert_eq!(r.status, 400);
    assert!(r.error().contains("`/name`"), "{}", r.error());
}

#[test]
fn template_lists_come_in_pages_and_cursors_yield_every_item_once() {
    let _one = crate::one_at_a_time();
    let (server, token) = server("lister");
    let token = token.as_str();
    let mut created = HashSet::new();
    for i in 0..250 {
        let r = server.call(
            "POST",
            "/v1/templates",
            Some(token),
            Some(&filter_template(&format!("paged-{i}"))),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        created.insert(r.json()["id"].as_str().unwrap().to_owned());
    }
    let (items, pages, largest) = all_pages(token, "/v1/templates", 100, PAGE);
    let listed = ids(&items);
    let unique: HashSet<String> = listed.iter().cloned().collect();
    eprintln!(
        "{} templates listed in {pages} pages of at most {PAGE} (largest answer {largest} bytes)",
        listed.len()
    );
    assert_eq!(unique.len(), listed.len(), "an item listed twice");
    assert_eq!(unique, created, "every created template, and only them");
    let (small, small_pages, _) = all_pages(token, "/v1/templates?limit=7", 200, 7);
    assert_eq!(ids(&small), listed, "limit=7 lists the same items in order");
    assert!(small_pages >= listed.len() / 7);
    // The CLI follows the cursors by default, and stops after --limit N.
    let every = cli("lister", &["template:list", "-f", "raw"]);
    assert_eq!(every.len(), listed.len(), "template:list lists every page");
    let some = cli("lister", &["template:list", "--limit", "7", "-f", "raw"]);
    assert_eq!(some.len(), 7, "{some:?}");
    let more = cli("lister", &["template:list", "--limit", "130", "-f", "raw"]);
    assert_eq!(more.len(), 130, "--limit over one page follows cursors");
    eprintln!(
        "template:list: {} lines; --limit 7: {}; --limit 130: {}",
        every.len(),
        some.len(),
        more.len()
    );
    let r = server.call("GET", "/v1/templates?limit=101", Some(token), None);
    assert_eq!(r.status, 400);
    assert!(r.error().contains("`limit`"), "{}", r.error());
    // A tampered cursor, one of another listing, and junk: 400.
    let first = server.call("GET", "/v1/templates?limit=5", Some(token), None);
    let cursor = first.json()["nextCursor"].as_str().unwrap().to_owned();
    let mut tampered = cursor.clone().into_bytes();
    let middle = tampered.len() / 2;
    tampered[middle] = if tampered[middle] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    for bad in [tampered.as_str(), "garbage!", "AAAAAAAA"] {
        let r = server.call(
            "GET",
            &format!("/v1/templates?cursor={bad}"),
            Some(token),
            None,
        );
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert!(r.error().contains("`cursor`"), "{}", r.error());
    }
    let r = server.call(
        "GET",
        &format!("/v1/jobs?cursor={cursor}"),
        Some(token),
        None,
    );
    assert_eq!(r.status, 400, "a templates cursor on /v1/jobs: {}", r.body);
}

#[test]
fn job_lists_come_in_pages_with_their_filters() {
    let _one = crate::one_at_a_time();
    let (server, token) = server("jobber");
    let token = token.as_str();
    let template = server.call(
        "POST",
        "/v1/templates",
        Some(token),
        Some(&filter_template("for-jobs")),
    );
    let template = template.json()["id"].as_str().unwrap().to_owned();
    let mut wanted = Vec::new();
    for i in 0..24 {
        let name = if i % 2 == 0 {
            "pages-even"
        } else {
            "pages-odd"
        };
        let r = server.call(
            "POST",
            "/v1/jobs",
            Some(token),
            Some(&job_using(name, &template, "error")),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        if i % 2 == 0 {
            wanted.push(r.json()["id"].as_str().unwrap().to_owned());
        }
    }
    let (items, pages, _) = all_pages(token, "/v1/jobs?name=pages-even&limit=5", 10, 5);
    eprintln!("{} even jobs in {pages} pages of 5", items.len());
    assert_eq!(ids(&items), wanted);
    assert!(items.iter().all(|j| j["name"] == "pages-even"));
    let listed = cli(
        "jobber",
        &[
            "job:list",
            "--name",
            "pages-even",
            "--limit",
            "9",
            "-f",
            "raw",
        ],
    );
    assert_eq!(listed.len(), 9, "{listed:?}");
    let listed = cli("jobber", &["job:list", "--name", "pages-odd", "-f", "raw"]);
    assert_eq!(listed.len(), 12, "job:list follows every page");
    // A cursor of one filter is refused by another.
    let first = server.call("GET", "/v1/jobs?name=pages-even&limit=5", Some(token), None);
    let cursor = first.json()["nextCursor"].as_str().unwrap().to_owned();
    let r = server.call(
        "GET",
        &format!("/v1/jobs?name=pages-odd&limit=5&cursor={cursor}"),
        Some(token),
        None,
    );
    assert_eq!(r.status, 400, "{}", r.body);
}

#[test]
fn a_template_with_many_big_versions_answers_a_bounded_page() {
    let _one = crate::one_at_a_time();
    let (server, token) = server("versions");
    let token = token.as_str();
    let pid = server.child.id();
    let mut body = filter_template("big");
    let script = body["template"].as_str().unwrap().to_owned();
    // Just under the 256 KiB script limit: the largest version the server stores.
    let padding = 256 * 1024 - script.len() - 8;
    body["template"] = json!(format!("// {}\n{script}", "x".repeat(padding)));
    let r = server.call("POST", "/v1/templates", Some(token), Some(&body));
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_owned();
    for _ in 1..50 {
        let r = server.call(
            "PUT",
            &format!("/v1/templates/{id}"),
            Some(token),
            Some(&body),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let before = rss_bytes(pid);
    let (versions, pages, largest) = all_pages(token, &format!("/v1/templates/{id}"), 50, PAGE);
    let after = rss_bytes(pid);
    eprintln!(
        "50 versions of a {} KiB script: {pages} pages, largest answer {largest} bytes \
         (was 495 MB); server RSS {} MiB -> {} MiB",
        256,
        before / (1024 * 1024),
        after / (1024 * 1024)
    );
    let numbers: Vec<u64> = versions
        .iter()
        .map(|v| v["version"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=50).collect::<Vec<u64>>());
    // One page holds at most the byte budget plus the version that crossed it.
    assert!(
        largest < PAGE_BYTES + 512 * 1024,
        "an answer of {largest} bytes"
    );
    assert!(pages > 1, "50 versions of 256 KiB fit no 4 MiB page");
    // The latest-version form still answers the one version.
    let r = server.call(
        "GET",
        &format!("/v1/templates/{id}?latest=true"),
        Some(token),
        None,
    );
    assert_eq!(r.json()["items"][0]["version"], 50);
}
