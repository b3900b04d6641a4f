//! Parquet's `AsyncFileReader` over object_store, counting every byte against a budget.

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use bytes::Bytes;
use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::arrow::arrow_reader::ArrowReaderOptions;
use parquet::arrow::async_reader::AsyncFileReader;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};

use crate::LakeError;

/// Bytes fetched by a scan and its budget (shared by the readers of its files).
#[derive(Debug, Default)]
pub(crate) struct Budget {
    scanned: AtomicU64,
    max: u64,
    exceeded: AtomicBool,
}

impl Budget {
    pub(crate) fn new(max: u64) -> Budget {
        Budget {
            max,
            ..Budget::default()
        }
    }

    /// Bytes fetched so far.
    pub(crate) fn scanned(&self) -> u64 {
        self.scanned.load(Ordering::Relaxed)
    }

    /// The budget.
    pub(crate) fn max(&self) -> u64 {
        self.max
    }

    /// Whether a fetch was refused.
    pub(crate) fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::Relaxed)
    }

    /// Counts a fetch of `bytes` before it is made; refuses one that would pass the budget.
    fn charge(&self, bytes: u64) -> Result<()> {
        let scanned = self.scanned();
        if scanned.saturating_add(bytes) > self.max {
            self.exceeded.store(true, Ordering::Relaxed);
            return Err(ParquetError::General(format!(
                "scan budget: {scanned} bytes read, {bytes} more would pass {}",
                self.max
            )));
        }
        self.scanned.fetch_add(bytes, Ordering::Relaxed);
        Ok(())
    }
}

/// One file of a scan.
pub(crate) struct CountingReader {
    pub(crate) store: Arc<dyn ObjectStore>,
    pub(crate) path: Path,
    pub(crate) file_size: u64,
    pub(crate) budget: Arc<Budget>,
}

fn external(e: object_store::Error) -> ParquetError {
    ParquetError::External(Box::new(e))
}

impl AsyncFileReader for CountingReader {
    fn get_bytes(&mut self, range: Range<u64>) -> BoxFuture<'_, Result<Bytes>> {
        async move {
            self.budget.charge(range.end.saturating_sub(range.start))?;
            self.store
                .get_range(&self.path, range)
                .await
                .map_err(external)
        }
        .boxed()
    }

    fn get_byte_ranges(&mut self, ranges: Vec<Range<u64>>) -> BoxFuture<'_, Result<Vec<Bytes>>> {
        async move {
            let total = ranges.iter().map(|r| r.end.saturating_sub(r.start)).sum();
            self.budget.charge(total)?;
            self.store
                .get_ranges(&self.path, &ranges)
                .await
                .map_err(external)
        }
        .boxed()
    }

    fn get_metadata<'a>(
        &'a mut self,
        options: Option<&'a ArrowReaderOptions>,
    ) -> BoxFuture<'a, Result<Arc<ParquetMetaData>>> {
        async move {
            let file_size = self.file_size;
            let metadata = ParquetMetaDataReader::new()
                .with_metadata_options(options.map(|o| o.metadata_options().clone()))
                .load_and_finish(self, file_size)
                .await?;
            Ok(Arc::new(metadata))
        }
        .boxed()
    }
}

/// A read error: the budget's when a fetch was refused, else Parquet's.
pub(crate) fn failure(budget: &Budget, path: String, source: ParquetError) -> LakeError {
    if budget.exceeded() {
        LakeError::ScanBudget {
            scanned: budget.scanned(),
            budget: budget.max(),
        }
    } else {
        LakeError::Parquet { path, source }
    }
}
