//! The embedded log's writer thread: appends and trims queued together are committed in one
//! redb transaction (group commit), and each is answered once it is on disk.

use std::sync::mpsc;

use super::{ENTRIES, GROUP_BYTES, Inner, Job, StreamInfo, TRIM_ENTRIES, io, split_entry};

/// The writer thread: takes what is queued, commits it in one transaction, answers each.
pub(super) fn write_loop(inner: &Inner, queue: &mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut group = vec![first];
        let mut bytes = 0usize;
        while bytes < GROUP_BYTES {
            match queue.try_recv() {
                Ok(job) => {
                    if let Job::Append { payload, .. } = &job {
                        bytes += payload.len();
                    }
                    group.push(job);
                }
                Err(_) => break,
            }
        }
        commit(inner, group);
    }
}

fn commit(inner: &Inner, group: Vec<Job>) {
    let mut streams = inner.streams.lock().map(|s| s.clone()).unwrap_or_default();
    let result = (|| -> Result<Vec<Result<u64, String>>, String> {
        let mut tx = inner.db.begin_write().map_err(|e| e.to_string())?;
        // A commit of trims only need not wait for the disk: lost in a crash, the entries
        // are trimmed again (every reader is past them), and the next append's commit makes
        // it durable.
        if !group.iter().any(|j| matches!(j, Job::Append { .. })) {
            tx.set_durability(redb::Durability::None)
                .map_err(|e| e.to_string())?;
        }
        let mut answers = Vec::with_capacity(group.len());
        {
            let mut table = tx.open_table(ENTRIES).map_err(|e| e.to_string())?;
            for job in &group {
                match job {
                    Job::Append {
                        stream, payload, ..
                    } => {
                        let info = streams.entry(stream.clone()).or_insert(StreamInfo {
                            first: 1,
                            ..StreamInfo::default()
                        });
                        let seq = info.head + 1;
                        table
                            .insert((stream.as_str(), seq), payload.as_slice())
                            .map_err(|e| e.to_string())?;
                        info.head = seq;
                        info.bytes += payload.len() as u64;
                        info.events += u64::from(split_entry(payload).0);
                        answers.push(Ok(seq));
                    }
                    Job::Trim { stream, upto, .. } => {
                        let Some(info) = streams.get_mut(stream) else {
                            answers.push(Ok(0));
                            continue;
                        };
                        // At most TRIM_ENTRIES a commit: appends waiting behind a large
                        // trim would wait for all of it.
                        let upto = (*upto)
                            .min(info.head)
                            .min(info.first.saturating_add(TRIM_ENTRIES - 1));
                        let mut deleted = 0;
                        if upto >= info.first {
                            let mut gone = table
                                .extract_from_if(
                                    (stream.as_str(), info.first)..=(stream.as_str(), upto),
                                    |_, _| true,
                                )
                                .map_err(|e| e.to_string())?;
                            for item in gone.by_ref() {
                                let (_, value) = item.map_err(|e| e.to_string())?;
                                let bytes = value.value();
                                info.bytes = info.bytes.saturating_sub(bytes.len() as u64);
                                info.events =
                                    info.events.saturating_sub(u64::from(split_entry(bytes).0));
                                deleted += 1;
                            }
                            info.first = upto + 1;
                        }
                        answers.push(Ok(deleted));
                    }
                }
            }
        }
        tx.commit().map_err(|e| e.to_string())?;
        Ok(answers)
    })();
    let appended = group.iter().any(|j| matches!(j, Job::Append { .. }));
    match result {
        Ok(answers) => {
            if let Ok(mut kept) = inner.streams.lock() {
                *kept = streams;
            }
            for (job, answer) in group.into_iter().zip(answers) {
                let answer = answer.map_err(io(&inner.path));
                match job {
                    Job::Append { done, .. } | Job::Trim { done, .. } => {
                        let _ = done.send(answer);
                    }
                }
            }
            if appended {
                inner.appended.notify_waiters();
            }
        }
        Err(message) => {
            tracing::warn!(path = %inner.path.display(), "intake log: a commit failed: {message}");
            for job in group {
                match job {
                    Job::Append { done, .. } | Job::Trim { done, .. } => {
                        let _ = done.send(Err(io(&inner.path)(message.clone())));
                    }
                }
            }
        }
    }
}
