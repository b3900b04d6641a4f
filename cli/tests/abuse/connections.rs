//! See main.rs: this module's finding.
