//! Scripts run on this machine: the resolver that `resolve` and `template:test` build from
//! their options (`--sandbox`, the limits).

use jobgraph_core::{ExecutionCache, InProcess, Limits, ResolveOptions, Resolver};
use jobgraph_sdk::{ProcessConfig, ProcessSandbox};

use crate::args::{Common, SandboxMode};
use crate::failure::Failure;

impl Common {
    /// The user scripts see: `--user`, else `fallback` (the client id against the service),
    /// else `$USER`, else `anonymous`.
    pub fn user(&self, fallback: Option<&str>) -> String {
        self.user
            .clone()
            .or_else(|| fallback.filter(|f| !f.is_empty()).map(str::to_owned))
            .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
            .unwrap_or_else(|| "anonymous".to_owned())
    }

    pub fn limits(&self) -> Limits {
        Limits {
            timeout_ms: self.timeout_ms,
            max_memory_bytes: self.max_memory_mb.saturating_mul(1024 * 1024),
            loop_iterations: self.loop_iterations,
            recursion_depth: self.recursion_depth,
            max_output_vertices: self.max_output_vertices,
            max_output_bytes: self.max_output_bytes,
            max_nesting: self.max_nesting,
            resolution_timeout_ms: self.resolution_timeout_ms,
        }
    }

    pub fn options(&self, draft: bool, user: String) -> ResolveOptions {
        ResolveOptions {
            user,
            draft,
            limits: self.limits(),
            max_operations: self.max_operations,
            max_resolved_vertices: self.max_resolved_vertices,
            max_resolved_bytes: self.max_resolved_bytes,
        }
    }

    /// A resolver over `source` with the chosen sandbox and options (one run of the CLI
    /// resolves once: no execution cache).
    pub fn resolver<S>(
        &self,
        source: S,
        draft: bool,
        user: String,
    ) -> Result<Resolver<S>, Failure> {
        let builder = Resolver::builder(source)
            .options(self.options(draft, user))
            .cache(ExecutionCache::disabled());
        Ok(match self.sandbox {
            SandboxMode::InProcess => builder.sandbox(InProcess),
            SandboxMode::Isolated => {
                let config = ProcessConfig::current_exe().map_err(|e| {
                    Failure::usage(format!("cannot start the isolated sandbox's workers: {e}"))
                })?;
                builder.sandbox(ProcessSandbox::start(config))
            }
        }
        .build())
    }
}
