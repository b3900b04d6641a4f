use super::*;

fn line(i: usize) -> Vec<u8> {
    format!("{{\"message\":\"m{i}\"}}\n").into_bytes()
}

#[tokio::test]
async fn appends_are_numbered_per_stream_read_in_order_and_kept_across_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("intake.redb");
    {
        let log = IntakeLog::open(&path).unwrap();
        // Concurrent appends share commits and still get distinct, gapless numbers.
        let mut tasks = Vec::new();
        for i in 0..50 {
            let log = log.clone();
            tasks.push(tokio::spawn(async move {
                log.append("a", line(i), 1).await.unwrap()
            }));
        }
        let mut seqs: Vec<u64> = Vec::new();
        for t in tasks {
            seqs.push(t.await.unwrap());
        }
        seqs.sort_unstable();
        assert_eq!(seqs, (1..=50).collect::<Vec<_>>());
        assert_eq!(log.append("b", line(0), 1).await.unwrap(), 1);
        let read = log.read("a", 10, 5).unwrap();
        assert_eq!(
            read.iter().map(|e| e.seq).collect::<Vec<_>>(),
            [11, 12, 13, 14, 15]
        );
        assert_eq!(log.info("a").head, 50);
    }
    let log = IntakeLog::open(&path).unwrap();
    let info = log.info("a");
    assert_eq!((info.first, info.head, info.events), (1, 50, 50));
    assert_eq!(log.append("a", line(99), 1).await.unwrap(), 51);
    assert_eq!(log.read("b", 0, 10).unwrap()[0].ndjson, line(0));
}

#[tokio::test]
async fn trim_deletes_what_every_reader_passed_and_the_budget_counts_what_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let log = IntakeLog::open(&dir.path().join("intake.redb")).unwrap();
    for i in 0..10 {
        log.append("a", line(i), 1).await.unwrap();
    }
    let before = log.buffered_bytes();
    assert_eq!(log.trim("a", 4).await.unwrap(), 4);
    let info = log.info("a");
    assert_eq!((info.first, info.head, info.events), (5, 10, 6));
    assert!(log.buffered_bytes() < before);
    assert_eq!(log.read("a", 0, 100).unwrap()[0].seq, 5);
    // Past the head, or again: nothing more than there is.
    assert_eq!(log.trim("a", 100).await.unwrap(), 6);
    assert_eq!(log.trim("a", 100).await.unwrap(), 0);
    assert_eq!(log.buffered_bytes(), 0);
    // Numbers go on after a trim, even across a reopen of an empty stream.
    assert_eq!(log.append("a", line(1), 1).await.unwrap(), 11);
    assert_eq!(log.trim("nobody", 3).await.unwrap(), 0);
}

#[tokio::test]
async fn a_read_stays_within_its_event_budget_but_takes_at_least_one_entry() {
    let dir = tempfile::tempdir().unwrap();
    let log = IntakeLog::open(&dir.path().join("intake.redb")).unwrap();
    log.append("a", line(0).repeat(3), 3).await.unwrap();
    log.append("a", line(1), 1).await.unwrap();
    assert_eq!(log.read("a", 0, 1).unwrap().len(), 1);
    assert_eq!(log.read("a", 0, 3).unwrap().len(), 1);
    assert_eq!(log.read("a", 0, 4).unwrap().len(), 2);
    assert!(log.read("a", 2, 10).unwrap().is_empty());
    assert!(log.read("a", u64::MAX, 10).unwrap().is_empty());
    assert!(log.read("unknown", 0, 10).unwrap().is_empty());
}

#[tokio::test]
async fn entries_know_when_they_were_taken() {
    let dir = tempfile::tempdir().unwrap();
    let log = IntakeLog::open(&dir.path().join("intake.redb")).unwrap();
    assert_eq!(log.last_taken_before("a", i64::MAX).unwrap(), None);
    log.append("a", line(0), 1).await.unwrap();
    log.append("a", line(1), 1).await.unwrap();
    let entry = &log.read("a", 0, 1).unwrap()[0];
    assert!((entry.received_ms - crate::ids::now_ms()).abs() < 60_000);
    assert_eq!(log.last_taken_before("a", entry.received_ms).unwrap(), None);
    assert_eq!(log.last_taken_before("a", i64::MAX).unwrap(), Some(2));
}

#[tokio::test]
async fn a_large_trim_goes_in_several_commits_and_deletes_everything_asked() {
    let dir = tempfile::tempdir().unwrap();
    let log = IntakeLog::open(&dir.path().join("intake.redb")).unwrap();
    for i in 0..(TRIM_ENTRIES as usize * 2 + 10) {
        log.append("a", line(i), 1).await.unwrap();
    }
    let head = log.info("a").head;
    assert_eq!(log.trim("a", head - 1).await.unwrap(), head - 1);
    let info = log.info("a");
    assert_eq!((info.first, info.events), (head, 1));
}
