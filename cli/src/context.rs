//! What every command receives besides its own arguments: the global flags and the settings,
//! resolved once before the command runs (ripgrep's `HiArgs`). The configuration file is read
//! once; flags, environment, the saved configuration and the defaults are merged once; a
//! command that talks to the service opens its [`Session`](crate::session::Session) from them.
//!
//! A bad configuration file fails only the commands that need the settings: an offline
//! `resolve` works whatever `~/.jobgraph/cli-config.json` holds.

use crate::args::Global;
use crate::failure::Failure;
use crate::settings::{ConfigFile, Settings, settings};

/// The run's global flags and settings.
pub struct Context {
    /// The global flags.
    pub global: Global,
    /// The parsed command line, for where each setting came from.
    matches: clap::ArgMatches,
    /// The configuration file, read once.
    file: Result<ConfigFile, Failure>,
    /// The settings, resolved once.
    settings: Result<Settings, Failure>,
}

impl Context {
    /// Reads the configuration file and resolves the settings of this run.
    pub fn resolve(global: Global, matches: &clap::ArgMatches) -> Context {
        let file = ConfigFile::load();
        let settings = match &file {
            Ok(file) => settings(&global, matches, file, None),
            Err(failure) => Err(failure.clone()),
        };
        Context {
            global,
            matches: matches.clone(),
            file,
            settings,
        }
    }

    /// The settings: flags, environment, the saved configuration, defaults.
    pub fn settings(&self) -> Result<&Settings, Failure> {
        self.settings.as_ref().map_err(Failure::clone)
    }

    /// The configuration file as it was when the run started.
    pub fn config_file(&self) -> Result<&ConfigFile, Failure> {
        self.file.as_ref().map_err(Failure::clone)
    }

    /// The settings with saved configuration `name` under the flags and environment instead of
    /// the one in use (`config:save NAME`).
    pub fn settings_over(&self, file: &ConfigFile, name: &str) -> Result<Settings, Failure> {
        settings(&self.global, &self.matches, file, Some(name))
    }
}
