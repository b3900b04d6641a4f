//! Prepared realms: one boa context per thread, reused by script after script for as long as
//! no script changed anything another script could see.
//!
//! Creating a context (a realm with every intrinsic) costs 150–220 µs, more than running a
//! typical template. So each thread keeps one [`PreparedRealm`]:
//!
//! 1. **Prepared once**: the context is built ([`super::engine::new_context`]) and a
//!    [`Baseline`] is taken: for every object reachable from the global object and from the
//!    intrinsics that no global names (iterator prototypes, `%ThrowTypeError%`, …), its
//!    shape, prototype, extensibility and property values; the global object's own properties
//!    with their attributes; and the number of global lexical bindings.
//! 2. **Each script** is compiled once per thread, wrapped in a block (`{\n` + source + `\n}`)
//!    so that its top-level `let`, `const`, `class` and `function` declarations live in a
//!    fresh scope on every run instead of the realm's global scope (see [`wrap`] for the
//!    scripts that cannot be wrapped faithfully and run in a fresh context instead).
//! 3. **After each run** the globals the run added (inputs, `var`s, implicit globals) are
//!    deleted and the realm is compared with its baseline ([`PreparedRealm::restore`]). Any
//!    difference (a built-in replaced, a prototype changed, an object frozen, a global made
//!    non-configurable, a lexical binding leaked) and the realm is dropped: the next script
//!    gets a new one. A script that tampers with built-ins therefore behaves exactly as in a
//!    fresh realm, and nothing it did is visible to the next script.
//!
//! The comparison reads property values through two accessors that boa 0.22 lacks and the
//! vendored copy adds (`vendor/README.md`): 2.8 µs per check instead of 72 µs.

use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::rc::Rc;

use boa_engine::object::shape::Shape;
use boa_engine::property::{PropertyDescriptor, PropertyKey};
use boa_engine::{Context, JsObject, JsResult, JsValue, Script, Source};

use super::engine::{EngineState, new_context};

/// Executions after which a prepared realm is replaced anyway: the parser's interner and the
/// realm's template registry grow with every new script compiled in it.
const MAX_RUNS: u32 = 5_000;
/// Compiled scripts kept per thread; past it the cache starts over.
const MAX_COMPILED: usize = 64;
/// Bytes allocated on this thread since the realm was prepared past which garbage of earlier
/// scripts is collected after a run.
const COLLECT_AFTER_BYTES: isize = 32 * 1024 * 1024;

thread_local! {
    /// Never dropped: at thread exit boa's collector (also thread-local) may already have
    /// freed the objects the context points to, and dropping it then corrupts the heap. What
    /// is left behind is the context's own bookkeeping; its objects are freed by boa.
    static PREPARED: RefCell<ManuallyDrop<Option<PreparedRealm>>> =
        const { RefCell::new(ManuallyDrop::new(None)) };
}

#[cfg(test)]
thread_local! {
    /// Realms prepared on this thread (tests check that benign scripts reuse one).
    pub(super) static PREPARATIONS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A context kept for reuse with the snapshot it must match between scripts.
pub(super) struct PreparedRealm {
    /// The context scripts run in.
    pub context: Context,
    /// Its hooks' state.
    pub state: Rc<EngineState>,
    baseline: Baseline,
    /// Wrapped, compiled scripts by source; `None` for sources that must run in a fresh context.
    compiled: FxHashMap<Box<str>, Compiled>,
    runs: u32,
    live_when_prepared: isize,
}

impl PreparedRealm {
    /// The thread's prepared realm, taken out of its slot (a new one when there is none).
    pub fn take() -> JsResult<PreparedRealm> {
        let kept = PREPARED.with(|slot| slot.borrow_mut().take());
        match kept {
            Some(realm) => Ok(realm),
            None => PreparedRealm::prepare(),
        }
    }

    /// Returns a realm to the thread's slot for the next script.
    pub fn put_back(self) {
        PREPARED.with(|slot| {
            let previous = slot.borrow_mut().replace(self);
            if let Some(previous) = previous {
                discard(previous.context);
            }
        });
    }

    fn prepare() -> JsResult<PreparedRealm> {
        #[cfg(test)]
        PREPARATIONS.with(|n| n.set(n.get() + 1));
        let (mut context, state) = new_context()?;
        let baseline = Baseline::take(&mut context)?;
        Ok(PreparedRealm {
            context,
            state,
            baseline,
            compiled: FxHashMap::default(),
            runs: 0,
            live_when_prepared: super::memory::live_bytes(),
        })
    }

    /// The compiled, wrapped form of `source`; `Ok(None)` when it must run in a fresh context
    /// instead. The source's bracket nesting is checked first (once per limit); a syntax error
    /// of the source itself is reported with the parser's position in the source as written.
    pub fn compiled(
        &mut self,
        source: &str,
        max_nesting: usize,
    ) -> Result<Option<Script>, CompileError> {
        if let Some(known) = self.compiled.get(source)
            && known.nesting_checked <= max_nesting
        {
            return Ok(known.script.clone());
        }
        super::nesting::check(source, max_nesting).map_err(CompileError::Nesting)?;
        let script = self.compile(source).map_err(CompileError::Syntax)?;
        if self.compiled.len() >= MAX_COMPILED {
            self.compiled.clear();
        }
        self.compiled.insert(
            source.into(),
            Compiled {
                script: script.clone(),
                nesting_checked: max_nesting,
            },
        );
        Ok(script)
    }

    fn compile(&mut self, source: &str) -> JsResult<Option<Script>> {
        // The source must be a script on its own: the parse reports syntax errors where the
        // author wrote them, and a source that only parses wrapped (`} … {`) is refused.
        let units = super::utf16(source);
        let mut parser = boa_engine::parser::Parser::new(Source::from_utf16(&units));
        parser.parse_script(
            &boa_engine::ast::scope::Scope::new_global(),
            self.context.interner_mut(),
        )?;
        let Some(wrapped) = wrap(source) else {
            return Ok(None);
        };
        // A script that is valid but not as a block (two top-level functions of one name, a
        // function and a `var` of one name) runs in a fresh context, as written.
        let units = super::utf16(&wrapped);
        let Ok(script) = Script::parse(Source::from_utf16(&units), None, &mut self.context) else {
            return Ok(None);
        };
        if script.codeblock(&mut self.context).is_err() {
            return Ok(None);
        }
        Ok(Some(script))
    }

    /// Deletes what the last run added to the global object and checks that the realm matches
    /// its baseline again. `false`: something a later script could see was changed; the realm
    /// must be dropped.
    pub fn restore(&mut self) -> bool {
        self.runs += 1;
        self.context.clear_kept_objects();
        let pristine = self.runs < MAX_RUNS && self.baseline.restore(&mut self.context);
        if pristine
            && super::memory::live_bytes().saturating_sub(self.live_when_prepared)
                > COLLECT_AFTER_BYTES
        {
            boa_engine::gc::force_collect();
            self.live_when_prepared = super::memory::live_bytes();
        }
        pristine
    }
}

/// A source compiled in a prepared realm.
struct Compiled {
    /// `None`: the source runs in a fresh context.
    script: Option<Script>,
    /// The nesting limit the source was checked against (a lower one checks again).
    nesting_checked: usize,
}

/// Why a source cannot run.
pub(super) enum CompileError {
    /// Its bracket nesting is deeper than the limit.
    Nesting(super::nesting::TooDeep),
    /// It is not a valid script.
    Syntax(boa_engine::JsError),
}

/// Drops a context and collects what it held (boa's collector would otherwise keep the realm
/// until its next threshold, and the next script would start with its predecessor's garbage).
pub(super) fn discard(context: Context) {
    drop(context);
    boa_engine::gc::force_collect();
}

/// `{\n` + source + `\n}`: the script as one block statement, one line further down, or `None`
/// when wrapping could change its meaning:
/// - a directive prologue (`"use strict"` must stay first) or a hashbang line;
/// - the words `eval` or `Function`: code compiled at run time sees the script's top-level
///   declarations only when they are global, so such scripts keep the global scope.
pub(super) fn wrap(source: &str) -> Option<String> {
    let start = skip_comments(source);
    if start.starts_with('"')
        || start.starts_with('\'')
        || source.starts_with("#!")
        || contains_word(source, "eval")
        || contains_word(source, "Function")
    {
        return None;
    }
    let mut wrapped = String::with_capacity(source.len() + 4);
    wrapped.push_str("{\n");
    wrapped.push_str(source);
    wrapped.push_str("\n}");
    Some(wrapped)
}

/// `text` after leading white space and comments (an unterminated comment leaves the rest).
fn skip_comments(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        if let Some(rest) = text.strip_prefix("//") {
            text = rest.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(rest) = text.strip_prefix("/*") {
            match rest.split_once("*/") {
                Some((_, after)) => text = after,
                None => return text,
            }
        } else {
            return text;
        }
    }
}

/// Lines a wrapped script's positions are shifted by.
pub(super) const WRAPPED_LINE_OFFSET: u32 = 1;

/// Whether `word` occurs in `text` as a whole identifier (not inside a longer one).
fn contains_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// What a pristine realm looks like.
struct Baseline {
    objects: Vec<ObjectSnapshot>,
    global: JsObject,
    /// The global object's property values and attributes, in slot order.
    global_storage: Box<[JsValue]>,
    global_attributes: Box<[u8]>,
    global_keys: FxHashSet<PropertyKey>,
    global_prototype: Option<JsObject>,
    lexical_bindings: u32,
}

/// One object other than the global object, as it was when the realm was prepared.
struct ObjectSnapshot {
    object: JsObject,
    /// Kept alive, so that its address identifies it (a shape is replaced when a key is
    /// removed, an attribute or the prototype changes).
    shape: Shape,
    /// A unique shape's property attributes, which change in place.
    attributes: Option<Box<[u8]>>,
    storage: Box<[JsValue]>,
    prototype: Option<JsObject>,
    extensible: bool,
}

impl Baseline {
    fn take(context: &mut Context) -> JsResult<Baseline> {
        let global = context.global_object();
        let mut seen: FxHashSet<JsObject> = FxHashSet::default();
        let mut objects = Vec::new();
        let mut pending = intrinsic_seeds(context);
        pending.push(global.clone());
        while let Some(object) = pending.pop() {
            if !seen.insert(object.clone()) {
                continue;
            }
            for key in object.own_property_keys(context)? {
                let descriptor = object.borrow().properties().get(&key);
                for value in descriptor
                    .iter()
                    .flat_map(|d| [d.value(), d.get(), d.set()])
                    .flatten()
                {
                    if let Some(inner) = value.as_object() {
                        pending.push(inner.clone());
                    }
                }
            }
            if let Some(prototype) = object.prototype() {
                pending.push(prototype);
            }
            if JsObject::equals(&object, &global) {
                continue;
            }
            let snapshot = {
                let borrowed = object.borrow();
                ObjectSnapshot {
                    extensible: borrowed.extensible_slot(),
                    object: object.clone(),
                    shape: borrowed.shape().clone(),
                    attributes: borrowed.shape().unique_attribute_bits().map(Into::into),
                    storage: borrowed.properties().storage().into(),
                    prototype: borrowed.prototype(),
                }
            };
            objects.push(snapshot);
        }
        let global_keys = global.own_property_keys(context)?.into_iter().collect();
        let (global_storage, global_attributes) = {
            let borrowed = global.borrow();
            (
                borrowed.properties().storage().into(),
                borrowed
                    .shape()
                    .unique_attribute_bits()
                    .unwrap_or_default()
                    .into(),
            )
        };
        Ok(Baseline {
            global_keys,
            global_storage,
            global_attributes,
            global_prototype: global.prototype(),
            global,
            objects,
            lexical_bindings: context.realm().scope().num_bindings(),
        })
    }

    /// Deletes globals that are not in the baseline, then compares. See
    /// [`PreparedRealm::restore`].
    fn restore(&self, context: &mut Context) -> bool {
        let Ok(keys) = self.global.own_property_keys(context) else {
            return false;
        };
        for key in keys {
            if self.global_keys.contains(&key) {
                continue;
            }
            // A script's top-level `var`s and functions are non-configurable global properties
            // (as are properties defined so): made configurable first, so that every key the
            // run added goes, whatever its attributes.
            let descriptor = self.global.borrow().properties().get(&key);
            if let Some(descriptor) = descriptor.filter(|d| d.configurable() != Some(true)) {
                let mut configurable = PropertyDescriptor::builder()
                    .configurable(true)
                    .enumerable(descriptor.enumerable().unwrap_or(false));
                configurable = match (descriptor.value(), descriptor.get(), descriptor.set()) {
                    (Some(value), _, _) => configurable.value(value.clone()).writable(true),
                    (None, get, set) => {
                        configurable.maybe_get(get.cloned()).maybe_set(set.cloned())
                    }
                };
                self.global
                    .insert_property(key.clone(), configurable.build());
            }
            if !self
                .global
                .delete_property_or_throw(key, context)
                .is_ok_and(|deleted| deleted)
            {
                return false;
            }
        }
        self.global_unchanged()
            && self.objects_unchanged()
            && context.realm().scope().num_bindings() == self.lexical_bindings
    }

    /// After the added keys are gone, the global object has the baseline's keys exactly when
    /// it has as many slots with the same values and attributes in the same order (every key
    /// left is a baseline key, and keys are distinct).
    fn global_unchanged(&self) -> bool {
        let global = self.global.borrow();
        global.extensible_slot()
            && same_object(global.prototype().as_ref(), self.global_prototype.as_ref())
            && global.properties().index_property_keys().next().is_none()
            && global
                .shape()
                .unique_attributes_equal(&self.global_attributes)
            && identical(global.properties().storage(), &self.global_storage)
    }

    fn objects_unchanged(&self) -> bool {
        self.objects.iter().all(|snapshot| {
            let object = snapshot.object.borrow();
            object.shape().to_addr_usize() == snapshot.shape.to_addr_usize()
                && object.extensible_slot() == snapshot.extensible
                && snapshot
                    .attributes
                    .as_deref()
                    .is_none_or(|bits| object.shape().unique_attributes_equal(bits))
                && same_object(object.prototype().as_ref(), snapshot.prototype.as_ref())
                && object.properties().index_property_keys().next().is_none()
                && identical(object.properties().storage(), &snapshot.storage)
        })
    }
}

fn identical(now: &[JsValue], then: &[JsValue]) -> bool {
    now.len() == then.len() && now.iter().zip(then).all(|(a, b)| a.is_identical(b))
}

/// Intrinsics no global property leads to: they are reached only through objects a script
/// creates (`[].values()`, generator functions, …).
fn intrinsic_seeds(context: &Context) -> Vec<JsObject> {
    let intrinsics = context.intrinsics();
    let objects = intrinsics.objects();
    let iterators = objects.iterator_prototypes();
    let mut seeds = vec![
        iterators.array(),
        iterators.async_iterator(),
        iterators.async_from_sync_iterator(),
        iterators.set(),
        iterators.string(),
        iterators.regexp_string(),
        iterators.map(),
        iterators.iterator_helper(),
        iterators.wrap_for_valid_iterator(),
        objects.throw_type_error().into(),
        objects.generator(),
        objects.async_generator(),
    ];
    let constructors = intrinsics.constructors();
    for standard in [
        constructors.async_generator_function(),
        constructors.generator_function(),
        constructors.async_function(),
        constructors.typed_array(),
        constructors.iterator(),
    ] {
        seeds.push(standard.constructor());
        seeds.push(standard.prototype());
    }
    seeds
}

fn same_object(a: Option<&JsObject>, b: Option<&JsObject>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => JsObject::equals(a, b),
        (None, None) => true,
        _ => false,
    }
}
