//! Log intake and delivery wire formats (`docs/intake.md`): what agents send and vendors
//! receive, decoded into jobgraph events (JSON objects of the event shape of `docs/pipeline.md`)
//! and encoded from them. Pure functions: no server, no I/O.
