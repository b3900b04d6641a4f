//! Templates kept in a folder: every `*.json` file is one template version.
//!
//! A file holds `id`, `version`, `name`, `template` and optionally `description`, `inputSchema`,
//! `inputs`, `outputs`, `draftOutputs`. The script may instead live in a `.js` file of the same
//! name next to it (`filter.json` + `filter.js`), which is easier to edit. Several files may hold
//! versions of one id.

use std::future::Future;
use std::path::{Path, PathBuf};

use jobgraph_model::{FetchError, Template, TemplateSet, TemplateSource};

/// Why a template folder could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The folder or a file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A file is not a valid template.
    #[error("invalid template file {path}: {reason}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Two files hold the same id and version.
    #[error("template {label} is defined twice: in {first} and in {second}")]
    Duplicate {
        /// `id@version`.
        label: String,
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
}

/// Every template version of one folder, read eagerly.
///
/// ```no_run
/// use jobgraph_sdk::DirectorySource;
/// let source = DirectorySource::open("examples/templates")?;
/// println!("{} template versions", source.templates().len());
/// # Ok::<(), jobgraph_sdk::LoadError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct DirectorySource {
    templates: TemplateSet,
}

impl DirectorySource {
    /// Reads every `*.json` file of `dir` (not recursively) as a template version.
    pub fn open(dir: impl AsRef<Path>) -> Result<Self, LoadError> {
        let dir = dir.as_ref();
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| LoadError::Io { path, source }
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io(dir))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        let mut templates = TemplateSet::new();
        let mut origins: std::collections::HashMap<String, PathBuf> = Default::default();
        for file in files {
            let template = load_template_file(&file)?;
            if template.id.is_empty() || template.version == 0 {
                return Err(LoadError::Invalid {
                    path: file,
                    reason: "`id` (a string) and `version` (an integer from 1) are required".into(),
                });
            }
            let label = template.label();
            if let Some(first) = origins.insert(label.clone(), file.clone()) {
                return Err(LoadError::Duplicate {
                    label,
                    first,
                    second: file,
                });
            }
            templates.insert(template);
        }
        Ok(DirectorySource { templates })
    }

    /// The templates read.
    pub fn templates(&self) -> &TemplateSet {
        &self.templates
    }
}

/// Reads one template file, taking the script from a `.js` file of the same name when the JSON
/// has no `template` field.
pub fn load_template_file(file: &Path) -> Result<Template, LoadError> {
    let json = std::fs::read_to_string(file).map_err(|source| LoadError::Io {
        path: file.to_path_buf(),
        source,
    })?;
    let script_path = file.with_extension("js");
    let script = match std::fs::read_to_string(&script_path) {
        Ok(script) => Some(script),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(LoadError::Io {
                path: script_path,
                source,
            });
        }
    };
    Template::from_json_with_script(&json, script).map_err(|reason| LoadError::Invalid {
        path: file.to_path_buf(),
        reason: reason.to_string(),
    })
}

impl TemplateSource for DirectorySource {
    fn fetch(
        &self,
        id: &str,
        version: Option<u64>,
    ) -> impl Future<Output = Result<Template, FetchError>> {
        self.templates.fetch(id, version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn reads_versions_and_side_scripts() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "a1.json",
            r#"{"id":"a","version":1,"name":"A","template":"1"}"#,
        );
        write(
            dir.path(),
            "a2.json",
            r#"{"id":"a","version":2,"name":"A"}"#,
        );
        write(dir.path(), "a2.js", "({vertices: [], edges: []})");
        write(dir.path(), "notes.txt", "ignored");
        let source = DirectorySource::open(dir.path()).unwrap();
        assert_eq!(source.templates().len(), 2);
        let latest = source.templates().get("a", None).unwrap();
        assert_eq!(latest.template, "({vertices: [], edges: []})");
    }

    #[test]
    fn errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "a.json",
            r#"{"id":"a","version":1,"name":"A","template":"1"}"#,
        );
        write(
            dir.path(),
            "b.json",
            r#"{"id":"a","version":1,"name":"A again","template":"2"}"#,
        );
        let err = DirectorySource::open(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("a@1 is defined twice") && err.contains("b.json"),
            "{err}"
        );

        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "c.json",
            r#"{"id":"c","name":"C","template":"1"}"#,
        );
        let err = DirectorySource::open(dir.path()).unwrap_err().to_string();
        assert!(err.contains("c.json") && err.contains("`version`"), "{err}");

        let err = DirectorySource::open(dir.path().join("missing"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("cannot read"), "{err}");
    }
}
