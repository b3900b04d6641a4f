//! The terminal: colours (only on a terminal, never with `--no-color` or `NO_COLOR`), the
//! spinner (on stderr, only on a terminal, for anything that takes over a second), status
//! markers and notes on stderr. Below `output`, which asks it whether stdout takes colours.

use std::io::IsTerminal;

use crate::args::Global;

/// Whether `NO_COLOR` is set to something (<https://no-color.org>).
fn no_color_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Whether colours may be written to stdout.
pub fn stdout_color(global: &Global) -> bool {
    !global.no_color
        && !no_color_env()
        && global.output.is_none()
        && std::io::stdout().is_terminal()
}

/// Whether colours may be written to stderr.
pub fn stderr_color(global: &Global) -> bool {
    !global.no_color && !no_color_env() && std::io::stderr().is_terminal()
}

/// Notes, markers and the spinner on stderr.
pub struct Ui {
    quiet: bool,
    markers: bool,
    color: bool,
    spinner: bool,
}

impl Ui {
    /// The stderr side of `global` (`markers`: whether job state markers are wanted).
    pub fn new(global: &Global, markers: bool) -> Ui {
        Ui {
            quiet: global.quiet,
            markers: markers && !global.quiet,
            color: stderr_color(global),
            spinner: !global.quiet && std::io::stderr().is_terminal(),
        }
    }

    /// A note (`saved configuration …`), unless `-q`.
    pub fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }

    /// A progress line that rewrites itself (on a terminal, without `-q`); `None` clears it.
    pub fn progress(&self, text: Option<&str>) {
        if !self.spinner {
            return;
        }
        match text {
            Some(text) => eprint!("\r{text}\x1b[K"),
            None => eprint!("\r\x1b[K"),
        }
    }

    /// A job state marker: `[CONNECTING]`, `[RUNNING]`, …
    pub fn marker(&self, state: &str) {
        if !self.markers {
            return;
        }
        if self.color {
            let code = match state {
                "FINISHED" | "CONNECTED" => "32",
                "FAILED" | "CANCELLED" | "TIMED_OUT" | "SCANNED_MAX" => "31",
                "RUNNING" | "PENDING" => "36",
                _ => "2",
            };
            eprintln!("\x1b[{code}m[{state}]\x1b[0m");
        } else {
            eprintln!("[{state}]");
        }
    }

    /// Awaits `future`, showing a spinner with `label` once it has taken a second (on a
    /// terminal, without `-q`).
    pub async fn spin<F: std::future::Future>(&self, label: &str, future: F) -> F::Output {
        if !self.spinner {
            return future.await;
        }
        const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        let started = tokio::time::Instant::now();
        let mut future = std::pin::pin!(future);
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(100));
        let mut frame = 0;
        let mut shown = false;
        loop {
            tokio::select! {
                out = &mut future => {
                    if shown {
                        eprint!("\r\x1b[2K");
                    }
                    return out;
                }
                _ = tick.tick() => {
                    if started.elapsed() >= std::time::Duration::from_secs(1) {
                        shown = true;
                        frame = (frame + 1) % FRAMES.len();
                        eprint!("\r{} {label} ({} s)", FRAMES[frame], started.elapsed().as_secs());
                    }
                }
            }
        }
    }
}
