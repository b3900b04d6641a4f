//! Where templates come from.
//!
//! [`TemplateSource`] is asynchronous so that a browser or HTTP source can fetch lazily: the
//! resolver asks for every template one level needs at once, awaits them together, and only then
//! runs the scripts of that level, so no script ever runs twice because a template was missing.

use std::collections::BTreeMap;
use std::future::Future;

use crate::template::Template;

/// Why a template could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// No such id, no such version, or no access.
    #[error("no such template or version")]
    NotFound,
    /// The source failed (network, storage, parse …); the text says how.
    #[error("{0}")]
    Failed(String),
}

/// A source of templates by id and optional version (`None` = the latest).
pub trait TemplateSource {
    /// Fetches one template version.
    fn fetch(
        &self,
        id: &str,
        version: Option<u64>,
    ) -> impl Future<Output = Result<Template, FetchError>>;
}

impl<S: TemplateSource + ?Sized> TemplateSource for &S {
    fn fetch(
        &self,
        id: &str,
        version: Option<u64>,
    ) -> impl Future<Output = Result<Template, FetchError>> {
        (**self).fetch(id, version)
    }
}

/// An in-memory set of template versions; also a [`TemplateSource`].
///
/// ```
/// use jobgraph_model::{Template, TemplateSet};
/// let mut set = TemplateSet::new();
/// set.insert(Template { id: "t".into(), version: 1, ..Default::default() });
/// set.insert(Template { id: "t".into(), version: 2, ..Default::default() });
/// assert_eq!(set.get("t", None).unwrap().version, 2);
/// assert_eq!(set.get("t", Some(1)).unwrap().version, 1);
/// assert!(set.get("t", Some(3)).is_none());
/// ```
#[derive(Debug, Clone, Default)]
pub struct TemplateSet {
    templates: BTreeMap<String, BTreeMap<u64, Template>>,
}

impl TemplateSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a version, replacing one with the same id and version; returns the replaced one.
    pub fn insert(&mut self, template: Template) -> Option<Template> {
        self.templates
            .entry(template.id.clone())
            .or_default()
            .insert(template.version, template)
    }

    /// The given version, or the latest when `version` is `None`.
    pub fn get(&self, id: &str, version: Option<u64>) -> Option<&Template> {
        let versions = self.templates.get(id)?;
        match version {
            Some(v) => versions.get(&v),
            None => versions.values().next_back(),
        }
    }

    /// Every template version, by id then version.
    pub fn iter(&self) -> impl Iterator<Item = &Template> {
        self.templates.values().flat_map(BTreeMap::values)
    }

    /// How many versions the set holds.
    pub fn len(&self) -> usize {
        self.templates.values().map(BTreeMap::len).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.templates.is_empty()
    }
}

impl FromIterator<Template> for TemplateSet {
    fn from_iter<I: IntoIterator<Item = Template>>(iter: I) -> Self {
        let mut set = TemplateSet::new();
        for t in iter {
            set.insert(t);
        }
        set
    }
}

impl TemplateSource for TemplateSet {
    fn fetch(
        &self,
        id: &str,
        version: Option<u64>,
    ) -> impl Future<Output = Result<Template, FetchError>> {
        std::future::ready(self.get(id, version).cloned().ok_or(FetchError::NotFound))
    }
}
