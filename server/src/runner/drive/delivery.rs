//! Delivery to vendors, at least once (`docs/intake.md`, "Delivery"): each request is sent
//! until the vendor takes it, with exponential backoff (250 ms doubling to 30 s, or the
//! vendor's `Retry-After`), the lease renewed meanwhile; the source's position moves on only
//! at the next checkpoint, after every request was taken. A request the vendor refuses for
//! good (a 4xx other than 408 and 429) goes to the organization's `dead-letters` dataset,
//! committed with that checkpoint: counted, visible, replayable. Asked to stop, retire or end
//! while the vendor is down, the run does so from its last checkpoint (what was not taken
//! is read again by whoever runs next).

use std::time::{Duration, Instant};

use jobgraph_core::pipeline::LogEvent;

use super::{Driver, Live, Next, Stop};
use crate::runner::vendor_sink::Attempt;

/// The dataset dead letters go to, one per organization (made when a vendor sink first runs).
pub(crate) const DEAD_LETTERS: &str = "dead-letters";

/// The lake sink of a vendor sink's dead letters.
pub(crate) fn dead_letter_vertex(sink: &str) -> String {
    format!("{sink}#dead-letters")
}

const FIRST_BACKOFF: Duration = Duration::from_millis(250);
/// Requests of one batch in flight at once.
const CONCURRENT_REQUESTS: usize = 4;
const MAX_BACKOFF: Duration = Duration::from_secs(30);

impl Driver<'_> {
    /// Delivers `events`, which reached vendor sink `sink`.
    pub(super) async fn deliver(
        &mut self,
        live: &mut Live,
        sink: &str,
        events: &[LogEvent],
    ) -> Result<(), Stop> {
        let Some(index) = live.vendors.iter().position(|v| v.vertex == sink) else {
            return Ok(());
        };
        let requests = live.vendors[index].requests(events);
        // First attempts go out together (a few at a time, answers in order); what fails is
        // then retried request by request.
        let firsts: Vec<Attempt> = {
            let vendor = &live.vendors[index];
            let mut firsts = Vec::with_capacity(requests.len());
            for chunk in requests.chunks(CONCURRENT_REQUESTS) {
                let sends: Vec<_> = chunk.iter().map(|r| Box::pin(vendor.send(r))).collect();
                firsts.extend(futures_util::future::join_all(sends).await);
            }
            firsts
        };
        for (request, first) in requests.into_iter().zip(firsts) {
            let mut backoff = FIRST_BACKOFF;
            let mut next_renewal = Instant::now() + Duration::from_millis(self.config().renew_ms);
            let mut attempt = Some(first);
            loop {
                let attempt = match attempt.take() {
                    Some(first) => first,
                    None => live.vendors[index].send(&request).await,
                };
                let n = request.events.len() as u64;
                match attempt {
                    Attempt::Delivered => {
                        self.set_status(|s| {
                            let d = s.delivery.entry(sink.to_owned()).or_default();
                            d.delivered += n;
                            d.requests += 1;
                            d.failing_since_ms = None;
                        });
                        break;
                    }
                    Attempt::Refused { status, why } => {
                        tracing::warn!(job = %self.job_id, sink, status, "runner: the vendor refused a request for good; its {n} events go to the dead letters: {why}");
                        let tagged: Vec<LogEvent> = request
                            .events
                            .iter()
                            .cloned()
                            .map(|mut e| {
                                e.tags
                                    .insert("dead-letter.sink".into(), vec![sink.to_owned()]);
                                e.tags
                                    .insert("dead-letter.job".into(), vec![self.job_id.clone()]);
                                e.tags
                                    .insert("dead-letter.status".into(), vec![status.to_string()]);
                                e
                            })
                            .collect();
                        live.sinks
                            .write(&dead_letter_vertex(sink), live.interval + 1, &tagged)
                            .await
                            .map_err(Stop::Failed)?;
                        self.set_status(|s| {
                            let d = s.delivery.entry(sink.to_owned()).or_default();
                            d.dead_letters += n;
                            d.last_error = Some(why);
                        });
                        break;
                    }
                    Attempt::Retry { after, why } => {
                        let now = crate::ids::now_ms();
                        self.set_status(|s| {
                            let d = s.delivery.entry(sink.to_owned()).or_default();
                            d.retries += 1;
                            d.failing_since_ms.get_or_insert(now);
                            d.last_error = Some(why.clone());
                        });
                        tracing::debug!(job = %self.job_id, sink, "runner: delivery failed, retrying: {why}");
                        let wait = after.unwrap_or(backoff);
                        backoff = (backoff * 2).min(MAX_BACKOFF);
                        let until = Instant::now() + wait;
                        // Sleep, renewing the lease on time; a stop, an update or a delete
                        // interrupts the wait.
                        loop {
                            let now = Instant::now();
                            if now >= until {
                                break;
                            }
                            if now >= next_renewal {
                                match self.renew(true).await? {
                                    Next::Go => {}
                                    other => return Err(Stop::Interrupted(other)),
                                }
                                next_renewal =
                                    Instant::now() + Duration::from_millis(self.config().renew_ms);
                                continue;
                            }
                            let nap = until.min(next_renewal) - now;
                            tokio::select! {
                                _ = tokio::time::sleep(nap) => {}
                                _ = self.poked.notified() => next_renewal = Instant::now(),
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
